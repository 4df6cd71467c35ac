import Foundation

/// Reads a text-format store into a store, all or nothing, in one IMMEDIATE
/// transaction. A record the store already holds unchanged is skipped, so
/// importing the same folder twice changes nothing; a record that differs is a
/// conflict, reported with both values, unless `replace` is set.
public final class StoreImporter {
    public struct Summary: Equatable, Sendable, CustomStringConvertible {
        public var added = 0
        public var updated = 0
        public var unchanged = 0
        /// Records added per file, for the report.
        public var addedByFile: [String: Int] = [:]

        public var description: String {
            var parts = ["\(added) records added"]
            if updated > 0 { parts.append("\(updated) replaced") }
            parts.append("\(unchanged) already present")
            return parts.joined(separator: ", ")
        }
    }

    private let store: Store
    private let replace: Bool
    private var database: Database { store.database }
    private var summary = Summary()

    // Natural key to row id, filled as records are read or written.
    private var sourceIDs: [String: Int64] = [:]
    private var capabilityIDs: [String: Int64] = [:]
    private var claimIDs: [String: Int64] = [:]
    private var fileIDs: [String: Int64] = [:]
    private var environmentIDs: [EnvironmentSpec: Int64] = [:]
    private var checklistIDs: [String: Int64] = [:]

    /// Runs by UUID: their id and how many results they held before this import.
    private var runs: [String: (id: Int64, existing: Int64)] = [:]

    public init(store: Store, replace: Bool = false) throws {
        self.store = store
        self.replace = replace
        insertResultStatement = try store.database.prepare(
            """
            INSERT INTO results (run_id, claim_id, result, posture, note, checked_at, test_id, duration, message)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        insertMeasurementStatement = try store.database.prepare(
            "INSERT INTO measurements (result_id, name, value, unit, baseline, posture) VALUES (?, ?, ?, ?, ?, ?)")
    }

    @discardableResult
    public func run(_ files: RecordFiles) throws -> Summary {
        try checkManifest(files)
        // A larger page cache keeps index pages of a big import in memory, and two
        // sorter threads build the indexes that a bulk load sets aside.
        try database.execute("PRAGMA cache_size = -65536")
        try database.execute("PRAGMA temp_store = MEMORY")
        _ = try database.scalar("PRAGMA threads = 2")
        return try database.inTransaction(.immediate) {
            let rebuilt = try setIndexesAsideForBulkLoad(files)
            for file in TextFormat.files {
                guard let reader = try files.reader(for: file) else { continue }
                let before = summary.added
                try importFile(file, reader: reader, name: files.displayName(of: file))
                summary.addedByFile[file] = summary.added - before
            }
            for (_, sql) in rebuilt {
                try database.execute(sql)
            }
            return summary
        }
    }

    /// Into a store with no results yet, a large import loads faster without the
    /// secondary indexes of results and measurements, which are then built once,
    /// sorted, from their own saved definitions. All of it happens inside the
    /// import's transaction, so a failure leaves the indexes as they were.
    private func setIndexesAsideForBulkLoad(_ files: RecordFiles) throws -> [(String, String)] {
        guard try files.byteCount(of: "results.jsonl") >= 1 << 20,
            try database.scalar("SELECT EXISTS (SELECT 1 FROM results)").int == 0
        else { return [] }
        let indexes = try database.query(
            """
            SELECT name, sql FROM sqlite_schema
            WHERE type = 'index' AND tbl_name IN ('results', 'measurements') AND sql IS NOT NULL
            ORDER BY name
            """
        ).map { ($0.text("name"), $0.text("sql")) }
        for (name, _) in indexes {
            try database.execute("DROP INDEX \"\(name)\"")
        }
        return indexes
    }

    private func checkManifest(_ files: RecordFiles) throws {
        let name = files.displayName(of: TextFormat.manifest)
        guard let reader = try files.reader(for: TextFormat.manifest) else {
            throw EvidenceError.badFile(
                path: name, location: nil, reason: "missing: this is not a folder written by 'evidence export'")
        }
        var found = false
        try reader.forEachLine { number, bytes in
            guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return }
            var fields = try FieldReader(file: name, line: number, value: try RecordPipeline.parse(bytes, file: name, line: number))
            let format = try fields.string("format")
            let version = try fields.integer("version")
            try fields.finish()
            guard format == TextFormat.name else {
                throw fields.error("format", "expected '\(TextFormat.name)', found '\(format)'")
            }
            guard version >= 1, version <= TextFormat.version else {
                throw fields.error(
                    "version", "version \(version) is not one this evidence reads (1 to \(TextFormat.version))")
            }
            found = true
        }
        guard found else { throw EvidenceError.badFile(path: name, location: nil, reason: "empty") }
    }

    private func importFile(_ file: String, reader: LineReader, name: String) throws {
        func each<T: Sendable>(_ decode: @escaping @Sendable (inout FieldReader) throws -> T, _ apply: (T, RecordLocation) throws -> Void)
            throws
        {
            try RecordPipeline.run(reader, name: name, decode: decode, consume: apply)
        }
        switch file {
        case "sources.jsonl": try each({ try $0.source() }, apply)
        case "capabilities.jsonl": try each({ try $0.capability() }, apply)
        case "claims.jsonl": try each({ try $0.claim() }, apply)
        case "environment_lacks.jsonl": try each({ try $0.lack() }, apply)
        case "ingested_files.jsonl": try each({ try $0.ingestedFile() }, apply)
        case "runs.jsonl": try each({ try $0.run() }, apply)
        case "results.jsonl": try each({ try $0.result() }, apply)
        case "label_history.jsonl": try each({ try $0.labelChange() }, apply)
        case "checklists.jsonl": try each({ try $0.checklist() }, apply)
        case "checklist_items.jsonl": try each({ try $0.checklistItem() }, apply)
        case "test_mappings.jsonl": try each({ try $0.testMapping() }, apply)
        default: break
        }
    }

    // MARK: - Comparing

    /// Decides what to do with an incoming record given the stored one:
    /// true to write it, false to skip it; throws on a conflict.
    private func shouldWrite(
        _ kind: String, key: String, existing: JSONLine?, incoming: @autoclosure () -> JSONLine, _ fields: RecordLocation,
        replaceable: Bool = true
    ) throws -> Bool {
        guard let existing else { return true }
        let incoming = incoming()
        if existing.object == incoming.object {
            summary.unchanged += 1
            return false
        }
        if replace && replaceable {
            summary.updated += 1
            return true
        }
        let (field, old, new) = Self.firstDifference(existing, incoming)
        let advice = replaceable ? "; import with --replace to take the input's values" : "; it cannot be replaced"
        throw EvidenceError.badFile(
            path: fields.file, location: String(fields.line),
            reason: EvidenceError.conflict(kind: kind, key: key, field: field, existing: old, incoming: new).description
                + advice)
    }

    /// The first field in which two records differ, with both values as JSON.
    static func firstDifference(_ a: JSONLine, _ b: JSONLine) -> (String, String, String) {
        let left = (try? JSONReader.parse(Data(a.object.utf8))) ?? .null
        let right = (try? JSONReader.parse(Data(b.object.utf8))) ?? .null
        guard case .object(let leftFields) = left, case .object(let rightFields) = right else {
            return ("record", a.object, b.object)
        }
        var keys = leftFields.map(\.0)
        for key in rightFields.map(\.0) where !keys.contains(key) { keys.append(key) }
        for key in keys {
            let old = left[key].map(Self.show) ?? "(none)"
            let new = right[key].map(Self.show) ?? "(none)"
            if old != new { return (key, old, new) }
        }
        return ("record", a.object, b.object)
    }

    private static func show(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = string
        default: text = value.rendered().replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    private func added() {
        summary.added += 1
    }

    // MARK: - Lookups of things imported earlier or already stored

    private func id(
        _ cache: inout [String: Int64], _ key: String, sql: String, kind: String, _ fields: RecordLocation, field: String
    ) throws -> Int64 {
        if let id = cache[key] { return id }
        guard let id = try database.scalar(sql, .text(key)).int64 else {
            throw fields.error(field, "unknown \(kind) '\(key)' (not in the store, nor earlier in the input)")
        }
        cache[key] = id
        return id
    }

    private func sourceID(_ url: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&sourceIDs, url, sql: "SELECT id FROM sources WHERE url = ?", kind: "source", fields, field: field)
    }

    private func capabilityID(_ name: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&capabilityIDs, name, sql: "SELECT id FROM capabilities WHERE name = ?", kind: "capability", fields, field: field)
    }

    private func claimID(_ key: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&claimIDs, key, sql: "SELECT id FROM claims WHERE key = ?", kind: "claim", fields, field: field)
    }

    private func fileID(_ sha256: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&fileIDs, sha256, sql: "SELECT id FROM ingested_files WHERE sha256 = ?", kind: "ingested file", fields, field: field)
    }

    private func checklistID(_ document: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&checklistIDs, document, sql: "SELECT id FROM checklists WHERE document = ?", kind: "checklist", fields, field: field)
    }

    // MARK: - Sources, capabilities, claims, lacks

    private func apply(_ record: TextFormat.Source, _ fields: RecordLocation) throws {
        var existing: TextFormat.Source?
        try store.textSources(where: "s.url = ?", [.text(record.url)]) { existing = $0 }
        guard try shouldWrite("source", key: record.url, existing: existing?.line, incoming: record.line, fields) else { return }
        let values: [SQLValue] = [
            .text(record.title), .text(record.publisher), .text(record.kind), SQLValue(record.published),
            SQLValue(record.updated), SQLValue(record.retrieved), .text(record.url),
        ]
        if existing != nil {
            try database.execute(
                "UPDATE sources SET title = ?, publisher = ?, kind = ?, published = ?, updated = ?, retrieved = ? WHERE url = ?",
                values)
        } else {
            try database.execute(
                "INSERT INTO sources (title, publisher, kind, published, updated, retrieved, url) VALUES (?, ?, ?, ?, ?, ?, ?)",
                values)
            sourceIDs[record.url] = database.lastInsertRowID
            added()
        }
    }

    private func apply(_ record: TextFormat.Capability, _ fields: RecordLocation) throws {
        var existing: TextFormat.Capability?
        try store.textCapabilities(where: "k.name = ?", [.text(record.name)]) { existing = $0 }
        guard try shouldWrite("capability", key: record.name, existing: existing?.line, incoming: record.line, fields)
        else { return }
        if let id = try writeKeyed(
            "capabilities", key: ("name", record.name), value: ("description", record.description), exists: existing != nil)
        {
            capabilityIDs[record.name] = id
        }
    }

    /// Updates the one value of a record found by its key, or inserts the
    /// record and returns its new id. Table and column names are the code's own.
    private func writeKeyed(
        _ table: String, key: (column: String, value: String), value: (column: String, value: String), exists: Bool
    ) throws -> Int64? {
        if exists {
            try database.execute(
                "UPDATE \(table) SET \(value.column) = ? WHERE \(key.column) = ?", .text(value.value), .text(key.value))
            return nil
        }
        try database.execute(
            "INSERT INTO \(table) (\(key.column), \(value.column)) VALUES (?, ?)", .text(key.value), .text(value.value))
        added()
        return database.lastInsertRowID
    }

    private func apply(_ record: TextFormat.Claim, _ fields: RecordLocation) throws {
        // References are checked first, so an unknown one is reported even for a claim already stored.
        let sources = try record.sources.map { (try sourceID($0.url, fields, field: "sources"), $0.locator) }
        let needs = try record.needs.map { try capabilityID($0, fields, field: "needs") }
        var existing: TextFormat.Claim?
        try store.textClaims(where: "c.key = ?", [.text(record.key)]) { existing = $0 }
        guard try shouldWrite("claim", key: record.key, existing: existing?.line, incoming: record.line, fields) else { return }
        let id: Int64
        if existing != nil {
            id = try claimID(record.key, fields, field: "key")
            try database.execute(
                "UPDATE claims SET statement = ?, document = ?, area = ?, label = ?, as_of = ? WHERE id = ?",
                .text(record.statement), .text(record.document), .text(record.area), .text(record.label),
                SQLValue(record.asOf), .integer(id))
            try database.execute("DELETE FROM claim_sources WHERE claim_id = ?", .integer(id))
            try database.execute("DELETE FROM claim_capabilities WHERE claim_id = ?", .integer(id))
        } else {
            try database.execute(
                "INSERT INTO claims (key, statement, document, area, label, as_of) VALUES (?, ?, ?, ?, ?, ?)",
                .text(record.key), .text(record.statement), .text(record.document), .text(record.area),
                .text(record.label), SQLValue(record.asOf))
            id = database.lastInsertRowID
            claimIDs[record.key] = id
            added()
        }
        for (source, locator) in sources {
            try database.execute(
                "INSERT OR IGNORE INTO claim_sources (claim_id, source_id, locator) VALUES (?, ?, ?)",
                .integer(id), .integer(source), .text(locator))
        }
        for capability in needs {
            try database.execute(
                "INSERT OR IGNORE INTO claim_capabilities (claim_id, capability_id) VALUES (?, ?)",
                .integer(id), .integer(capability))
        }
    }

    private func apply(_ record: TextFormat.Lack, _ fields: RecordLocation) throws {
        let capability = try capabilityID(record.capability, fields, field: "capability")
        let source = try record.source.map { try sourceID($0, fields, field: "source") }
        var existing: TextFormat.Lack?
        try store.textLacks(
            where: "l.kind = ? AND l.model = ? AND l.tool_build = ? AND l.capability_id = ?",
            [.text(record.kind), .text(record.model), .text(record.toolBuild), .integer(capability)]
        ) { existing = $0 }
        let key = "\(record.model) \(record.kind) lacks \(record.capability)"
        guard try shouldWrite("lack", key: key, existing: existing?.line, incoming: record.line, fields) else { return }
        if existing != nil {
            try database.execute(
                """
                UPDATE environment_lacks SET source_id = ?, reported_in = ?, note = ?
                WHERE kind = ? AND model = ? AND tool_build = ? AND capability_id = ?
                """,
                SQLValue(source), SQLValue(record.reportedIn), .text(record.note), .text(record.kind), .text(record.model),
                .text(record.toolBuild), .integer(capability))
        } else {
            try database.execute(
                """
                INSERT INTO environment_lacks (kind, model, tool_build, capability_id, source_id, reported_in, note)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .text(record.kind), .text(record.model), .text(record.toolBuild), .integer(capability), SQLValue(source),
                SQLValue(record.reportedIn), .text(record.note))
            added()
        }
    }

    // MARK: - Files and runs

    private func apply(_ record: TextFormat.IngestedFile, _ fields: RecordLocation) throws {
        var existing: TextFormat.IngestedFile?
        try store.textIngestedFiles(where: "f.sha256 = ?", [.text(record.sha256)]) { existing = $0 }
        guard try shouldWrite("ingested file", key: record.sha256, existing: existing?.line, incoming: record.line, fields)
        else { return }
        let values: [SQLValue] = [
            .text(record.fileName), .text(record.format), .integer(record.testCount), .text(record.ingestedAt),
            .text(record.sha256),
        ]
        if existing != nil {
            try database.execute(
                "UPDATE ingested_files SET file_name = ?, format = ?, test_count = ?, ingested_at = ? WHERE sha256 = ?",
                values)
        } else {
            try database.execute(
                "INSERT INTO ingested_files (file_name, format, test_count, ingested_at, sha256) VALUES (?, ?, ?, ?, ?)",
                values)
            fileIDs[record.sha256] = database.lastInsertRowID
            added()
        }
    }

    private func apply(_ record: TextFormat.Run, _ fields: RecordLocation) throws {
        let file = try record.ingestedFile.map { try fileID($0, fields, field: "ingested_file") }
        var existing: TextFormat.Run?
        try store.textRuns(where: "u.uuid = ?", [.text(record.uuid)]) { existing = $0 }
        guard try shouldWrite("run", key: record.uuid, existing: existing?.line, incoming: record.line, fields) else {
            if runs[record.uuid] == nil, let id = try database.scalar("SELECT id FROM runs WHERE uuid = ?", .text(record.uuid)).int64 {
                runs[record.uuid] = (id, try resultCount(run: id))
            }
            return
        }
        let environment: Int64
        if let id = environmentIDs[record.environment] {
            environment = id
        } else {
            environment = try store.environmentID(record.environment)
            environmentIDs[record.environment] = environment
        }
        if existing != nil {
            try database.execute(
                "UPDATE runs SET environment_id = ?, started_at = ?, tester = ?, note = ?, ingested_file_id = ? WHERE uuid = ?",
                .integer(environment), SQLValue(record.startedAt), .text(record.tester), .text(record.note), SQLValue(file),
                .text(record.uuid))
            let id = try database.scalar("SELECT id FROM runs WHERE uuid = ?", .text(record.uuid)).int64 ?? 0
            runs[record.uuid] = (id, try resultCount(run: id))
        } else {
            try database.execute(
                "INSERT INTO runs (uuid, environment_id, started_at, tester, note, ingested_file_id) VALUES (?, ?, ?, ?, ?, ?)",
                .text(record.uuid), .integer(environment), SQLValue(record.startedAt), .text(record.tester),
                .text(record.note), SQLValue(file))
            runs[record.uuid] = (database.lastInsertRowID, 0)
            added()
        }
    }

    private func resultCount(run id: Int64) throws -> Int64 {
        try database.scalar("SELECT count(*) FROM results WHERE run_id = ?", .integer(id)).int64 ?? 0
    }

    // MARK: - Results and label history: numbered within their group

    /// Tracks records numbered 1, 2, 3… within a group (a run's results, a
    /// claim's label history): groups must be contiguous and numbers consecutive.
    private struct Numbering {
        var group: String?
        var next: Int64 = 1
        var finished: Set<String> = []

        mutating func check(group: String, n: Int64, _ fields: RecordLocation, what: String) throws {
            if group != self.group {
                if let previous = self.group { finished.insert(previous) }
                if finished.contains(group) {
                    throw fields.error("n", "the \(what) of '\(group)' must be listed together")
                }
                self.group = group
                next = 1
            }
            guard n == next else {
                throw fields.error("n", "expected \(next) (the \(what) of '\(group)' are numbered from 1 in order), found \(n)")
            }
            next += 1
        }
    }

    /// The two statements a large import runs most, prepared once.
    private let insertResultStatement: Statement
    private let insertMeasurementStatement: Statement

    private var resultNumbering = Numbering()
    private var storedResults: [TextFormat.Result] = []
    private var historyNumbering = Numbering()
    private var storedHistory: [TextFormat.LabelChange] = []

    private func apply(_ record: TextFormat.Result, _ fields: RecordLocation) throws {
        let startsGroup = record.run != resultNumbering.group
        try resultNumbering.check(group: record.run, n: record.n, fields, what: "results")
        var known = runs[record.run]
        if known == nil { known = try knownRun(record.run) }
        guard let run = known else {
            throw fields.error("run", "unknown run '\(record.run)' (not in the store, nor in runs.jsonl)")
        }
        let claim = try record.claim.map { try claimID($0, fields, field: "claim") }
        if startsGroup {
            storedResults = []
            if run.existing > 0 {
                try store.textResults(where: "u.id = ?", [.integer(run.id)]) { storedResults.append($0) }
            }
        }
        if record.n <= run.existing {
            let index = Int(record.n - 1)
            let existing = storedResults[index]
            guard try shouldWrite(
                "result", key: "\(record.run) #\(record.n)", existing: existing.line, incoming: record.line, fields)
            else { return }
            let id = try database.scalar(
                "SELECT id FROM results WHERE run_id = ? ORDER BY id LIMIT 1 OFFSET ?", .integer(run.id),
                .integer(record.n - 1)
            ).int64 ?? 0
            try database.execute(
                """
                UPDATE results SET claim_id = ?, result = ?, posture = ?, note = ?, checked_at = ?, test_id = ?,
                                   duration = ?, message = ?
                WHERE id = ?
                """,
                SQLValue(claim), .text(record.result), SQLValue(record.posture), .text(record.note), SQLValue(record.checkedAt),
                SQLValue(record.testID), SQLValue(record.duration), SQLValue(record.message), .integer(id))
            try database.execute("DELETE FROM measurements WHERE result_id = ?", .integer(id))
            try database.execute("DELETE FROM attachments WHERE result_id = ?", .integer(id))
            try insertDetails(record, resultID: id)
            return
        }
        // Bound one by one: a million of these is the cost of a large import.
        let insert = insertResultStatement
        try insert.bind(1, run.id)
        try insert.bind(2, claim)
        try insert.bind(3, record.result)
        try insert.bind(4, record.posture)
        try insert.bind(5, record.note)
        try insert.bind(6, record.checkedAt)
        try insert.bind(7, record.testID)
        try insert.bind(8, record.duration)
        try insert.bind(9, record.message)
        try insert.execute()
        try insertDetails(record, resultID: database.lastInsertRowID)
        added()
    }

    private func knownRun(_ uuid: String) throws -> (id: Int64, existing: Int64)? {
        guard let id = try database.scalar("SELECT id FROM runs WHERE uuid = ?", .text(uuid)).int64 else { return nil }
        let entry = (id, try resultCount(run: id))
        runs[uuid] = entry
        return entry
    }

    private func insertDetails(_ record: TextFormat.Result, resultID: Int64) throws {
        let insert = insertMeasurementStatement
        for measurement in record.measurements {
            try insert.bind(1, resultID)
            try insert.bind(2, measurement.name)
            try insert.bind(3, measurement.value)
            try insert.bind(4, measurement.unit)
            try insert.bind(5, measurement.baseline)
            try insert.bind(6, measurement.posture)
            try insert.execute()
        }
        for attachment in record.attachments {
            try database.execute(
                "INSERT INTO attachments (result_id, path, sha256, size, media_type) VALUES (?, ?, ?, ?, ?)",
                .integer(resultID), .text(attachment.path), .text(attachment.sha256), .integer(attachment.size),
                .text(attachment.mediaType))
        }
    }

    private func apply(_ record: TextFormat.LabelChange, _ fields: RecordLocation) throws {
        let startsGroup = record.claim != historyNumbering.group
        try historyNumbering.check(group: record.claim, n: record.n, fields, what: "label changes")
        let claim = try claimID(record.claim, fields, field: "claim")
        if startsGroup {
            storedHistory = []
            try store.textLabelChanges(where: "h.claim_id = ?", [.integer(claim)]) { storedHistory.append($0) }
        }
        if record.n <= storedHistory.count {
            let existing = storedHistory[Int(record.n - 1)]
            _ = try shouldWrite(
                "label change", key: "\(record.claim) #\(record.n)", existing: existing.line, incoming: record.line, fields,
                replaceable: false)
            return
        }
        try database.execute(
            """
            INSERT INTO label_history (claim_id, old_label, new_label, changed_by, changed_at, reason)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            .integer(claim), SQLValue(record.oldLabel), .text(record.newLabel), .text(record.changedBy),
            .text(record.changedAt), .text(record.reason))
        added()
    }

    // MARK: - Checklists and test mappings

    private func apply(_ record: TextFormat.Checklist, _ fields: RecordLocation) throws {
        var existing: TextFormat.Checklist?
        try store.textChecklists(where: "l.document = ?", [.text(record.document)]) { existing = $0 }
        guard try shouldWrite("checklist", key: record.document, existing: existing?.line, incoming: record.line, fields)
        else { return }
        if let id = try writeKeyed(
            "checklists", key: ("document", record.document), value: ("title", record.title), exists: existing != nil)
        {
            checklistIDs[record.document] = id
        }
    }

    private func apply(_ record: TextFormat.ChecklistItem, _ fields: RecordLocation) throws {
        let checklist = try checklistID(record.checklist, fields, field: "checklist")
        let claims = try record.claims.map { try claimID($0, fields, field: "claims") }
        var existing: TextFormat.ChecklistItem?
        try store.textChecklistItems(where: "i.key = ?", [.text(record.key)]) { existing = $0 }
        guard try shouldWrite("checklist item", key: record.key, existing: existing?.line, incoming: record.line, fields)
        else { return }
        if let taken = try database.scalar(
            "SELECT key FROM checklist_items WHERE checklist_id = ? AND position = ? AND key <> ?",
            .integer(checklist), .integer(record.position), .text(record.key)
        ).string {
            throw fields.error("position", "position \(record.position) of '\(record.checklist)' is already item '\(taken)'")
        }
        let mark = record.untested
        let id: Int64
        if existing != nil {
            id = try database.scalar("SELECT id FROM checklist_items WHERE key = ?", .text(record.key)).int64 ?? 0
            try database.execute(
                """
                UPDATE checklist_items SET checklist_id = ?, position = ?, text = ?, untested_reason = ?, marked_by = ?,
                                           marked_at = ?
                WHERE id = ?
                """,
                .integer(checklist), .integer(record.position), .text(record.text), SQLValue(mark?.reason),
                SQLValue(mark?.by), SQLValue(mark?.at), .integer(id))
            try database.execute("DELETE FROM checklist_item_claims WHERE checklist_item_id = ?", .integer(id))
        } else {
            try database.execute(
                """
                INSERT INTO checklist_items (checklist_id, key, position, text, untested_reason, marked_by, marked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .integer(checklist), .text(record.key), .integer(record.position), .text(record.text),
                SQLValue(mark?.reason), SQLValue(mark?.by), SQLValue(mark?.at))
            id = database.lastInsertRowID
            added()
        }
        for claim in claims {
            try database.execute(
                "INSERT OR IGNORE INTO checklist_item_claims (checklist_item_id, claim_id) VALUES (?, ?)",
                .integer(id), .integer(claim))
        }
    }

    private func apply(_ record: TextFormat.TestMapping, _ fields: RecordLocation) throws {
        let claim = try claimID(record.claim, fields, field: "claim")
        try database.execute(
            "INSERT OR IGNORE INTO test_mappings (pattern, claim_id) VALUES (?, ?)", .text(record.pattern), .integer(claim))
        if database.changes > 0 {
            added()
        } else {
            summary.unchanged += 1
        }
    }
}
