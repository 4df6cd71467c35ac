#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a text-format store into a store, all or nothing, in one IMMEDIATE
/// transaction. Version 2 folders go to `ExchangeImporter`; this class reads
/// version 1. A record the store already holds unchanged is skipped, so
/// importing the same folder twice changes nothing; a record that differs is a
/// conflict, reported with both values, unless `replace` is set. Records are
/// decoded by Import and written through the store's one writer.
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
    private var summary = Summary()
    /// Dates after this are refused in the runs and results this import writes.
    private let limit: FutureLimit

    /// Natural keys to row ids, for the length of one import.
    private var lookups: ImportLookups?
    /// New results, written many to a statement; flushed before results are read.
    private var batch: ResultBatch?
    /// The lacks the store held before this import, by their key.
    private var storedLacks: [String: TextFormat.Lack]?

    /// Runs by UUID: their id, environment and start, and how many results they held before this import.
    private var runs: [String: KnownRun] = [:]

    private struct KnownRun {
        var id: Int64
        var environmentID: Int64
        var startedAt: String?
        var existing: Int64
    }

    public init(store: Store, replace: Bool = false) {
        self.store = store
        self.replace = replace
        self.limit = store.clock.futureLimit()
    }

    /// Refuses a date too far in the future in a record about to be written.
    private func checkDate(_ date: String?, _ fields: RecordLocation, field: String) throws {
        if let date, !limit.allows(date) { throw fields.error(field, limit.reason(date)) }
    }

    @discardableResult
    public func run(_ files: RecordFiles) throws -> Summary {
        let version = try Self.manifestVersion(files)
        if version >= 2 {
            return try ExchangeImporter(store: store, replace: replace).run(files)
        }
        let unknown = try files.topLevelRecordFiles().filter { !TextFormat.files.contains($0) }
        if let first = unknown.first {
            throw EvidenceError.badFile(
                path: files.displayName(of: first), location: nil,
                reason: "not a file of the text format, version 1; expected " + TextFormat.files.joined(separator: ", "))
        }
        try store.prepareForLargeWrites()
        return try store.write { writer in
            lookups = ImportLookups(writer: writer, storeFolder: store.folder.path)
            // Into an empty store, a large import loads without the secondary
            // indexes of results and measurements and builds them once at the end.
            var bulk: StoreWriter.BulkLoad?
            if try files.byteCount(of: TextFormat.File.results.rawValue) >= 1 << 20, !(try writer.reader.hasResults()) {
                bulk = try writer.setIndexesAsideForBulkLoad()
            }
            for file in TextFormat.File.allCases {
                guard let reader = try files.reader(for: file.rawValue) else { continue }
                let before = summary.added
                try importFile(file, reader: reader, name: files.displayName(of: file.rawValue), writer: writer)
                summary.addedByFile[file.rawValue] = summary.added - before
            }
            if let bulk { try writer.restore(bulk) }
            return summary
        }
    }

    /// The version a folder's manifest gives; throws when it has none or one
    /// this evidence cannot read.
    static func manifestVersion(_ files: RecordFiles) throws -> Int {
        let name = files.displayName(of: TextFormat.manifest)
        guard let reader = try files.reader(for: TextFormat.manifest) else {
            throw EvidenceError.badFile(
                path: name, location: nil, reason: "missing: this is not a folder written by 'evidence export'")
        }
        var found: Int?
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
            found = Int(version)
        }
        guard let found else { throw EvidenceError.badFile(path: name, location: nil, reason: "empty") }
        return found
    }

    /// The lookups of the import under way.
    private var ids: ImportLookups {
        get throws {
            guard let lookups else {
                throw EvidenceError.badFile(path: "", location: nil, reason: "records read outside an import")
            }
            return lookups
        }
    }

    private func importFile(_ file: TextFormat.File, reader: LineReader, name: String, writer: StoreWriter) throws {
        func each<T: Sendable>(
            _ decode: @escaping @Sendable (inout FieldReader) throws -> T,
            _ apply: (T, RecordLocation, StoreWriter) throws -> Void
        ) throws {
            try RecordPipeline.run(reader, name: name, decode: decode) { try apply($0, $1, writer) }
        }
        switch file {
        case .sources: try each({ try $0.source() }, apply)
        case .capabilities: try each({ try $0.capability() }, apply)
        case .claims: try each({ try $0.claim() }, apply)
        case .environmentLacks: try each({ try $0.lack() }, apply)
        case .ingestedFiles: try each({ try $0.ingestedFile() }, apply)
        case .runs: try each({ try $0.run() }, apply)
        case .results:
            try each({ try $0.result() }, apply)
            try batch?.flush()
        case .retractions: try each({ try $0.retraction() }, apply)
        case .labelHistory:
            try each({ try $0.labelChange() }, apply)
            try finishHistory(writer)
        case .checklists: try each({ try $0.checklist() }, apply)
        case .checklistItems: try each({ try $0.checklistItem() }, apply)
        case .testMappings: try each({ try $0.testMapping() }, apply)
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
        let (field, old, new) = RecordDifference.first(existing, incoming)
        let advice = replaceable ? "; import with --replace to take the input's values" : "; it cannot be replaced"
        throw EvidenceError.badFile(
            path: fields.file, location: String(fields.line),
            reason: EvidenceError.conflict(kind: kind, key: key, field: field, existing: old, incoming: new).description
                + advice)
    }

    private func added() {
        summary.added += 1
    }

    // MARK: - Sources, capabilities, claims, lacks

    private func apply(_ record: TextFormat.Source, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        var existing: TextFormat.Source?
        try writer.reader.sourceRecords(url: record.url) { existing = $0 }
        guard try shouldWrite("source", key: record.url, existing: existing?.line, incoming: record.line, fields) else { return }
        try ids.remember(source: record.url, id: try writer.upsertSource(record))
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.Capability, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        var existing: TextFormat.Capability?
        try writer.reader.capabilityRecords(name: record.name) { existing = $0 }
        guard try shouldWrite("capability", key: record.name, existing: existing?.line, incoming: record.line, fields)
        else { return }
        try ids.remember(capability: record.name, id: try writer.upsertCapability(record))
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.Claim, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        // References are checked first, so an unknown one is reported even for a claim already stored.
        for source in record.sources { _ = try ids.sourceID(source.url, fields, field: "sources") }
        for need in record.needs { _ = try ids.capabilityID(need, fields, field: "needs") }
        var existing: TextFormat.Claim?
        // Version 1 does not say when a label changed; what the store says is not compared.
        try writer.reader.claimRecords(key: record.key) { existing = $0; existing?.labelledAt = nil }
        guard try shouldWrite("claim", key: record.key, existing: existing?.line, incoming: record.line, fields) else { return }
        try ids.writeClaim(record, existing: existing != nil, fields)
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.Lack, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        _ = try ids.capabilityID(record.capability, fields, field: "capability")
        _ = try record.source.map { try ids.sourceID($0, fields, field: "source") }
        let key = "\(record.model) \(record.kind) lacks \(record.capability)"
        if storedLacks == nil {
            var lacks: [String: TextFormat.Lack] = [:]
            try writer.reader.lackRecords { lacks[Self.lackKey($0)] = $0 }
            storedLacks = lacks
        }
        let existing = storedLacks?[Self.lackKey(record)]
        guard try shouldWrite("lack", key: key, existing: existing?.line, incoming: record.line, fields) else { return }
        try ids.writeLack(record, fields)
        if existing == nil { added() }
    }

    private static func lackKey(_ lack: TextFormat.Lack) -> String {
        [lack.kind, lack.model, lack.toolBuild, lack.capability].joined(separator: "\u{0}")
    }

    // MARK: - Files and runs

    private func apply(_ record: TextFormat.IngestedFile, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        try checkDate(record.ingestedAt, fields, field: "ingested_at")
        var existing: TextFormat.IngestedFile?
        try writer.reader.ingestedFileRecords(sha256: record.sha256) { existing = $0 }
        guard try shouldWrite("ingested file", key: record.sha256, existing: existing?.line, incoming: record.line, fields)
        else { return }
        try ids.remember(file: record.sha256, id: try writer.upsertIngestedFile(record))
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.Run, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        let file = try record.ingestedFile.map { try ids.fileID($0, fields, field: "ingested_file") }
        var existing: TextFormat.Run?
        try writer.reader.runRecords(uuid: record.uuid) { existing = $0 }
        guard try shouldWrite("run", key: record.uuid, existing: existing?.line, incoming: record.line, fields) else {
            if runs[record.uuid] == nil { _ = try knownRun(record.uuid, writer) }
            return
        }
        try checkDate(record.startedAt, fields, field: "started_at")
        let environment = try ids.environmentID(record.environment)
        let id = try writer.upsertRun(
            uuid: record.uuid, environmentID: environment, startedAt: record.startedAt, tester: record.tester,
            note: record.note, ingestedFileID: file)
        runs[record.uuid] = KnownRun(
            id: id, environmentID: environment, startedAt: record.startedAt,
            existing: existing != nil ? try writer.reader.resultCount(runID: id) : 0)
        if existing == nil { added() }
    }

    private func knownRun(_ uuid: String, _ writer: StoreWriter) throws -> KnownRun? {
        guard let id = try writer.reader.existingRunID(uuid: uuid) else { return nil }
        let run = try writer.reader.run(id: id)
        let entry = KnownRun(
            id: id, environmentID: run.environmentID, startedAt: run.startedAt,
            existing: try writer.reader.resultCount(runID: id))
        runs[uuid] = entry
        return entry
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

    private var resultNumbering = Numbering()
    private var storedResults: [TextFormat.Result] = []
    private var historyNumbering = Numbering()
    private var storedHistory: [TextFormat.LabelChange] = []

    private func apply(_ record: TextFormat.Result, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        let startsGroup = record.run != resultNumbering.group
        try resultNumbering.check(group: record.run, n: record.n, fields, what: "results")
        var known = runs[record.run]
        if known == nil { known = try knownRun(record.run, writer) }
        guard let run = known else {
            throw fields.error("run", "unknown run '\(record.run)' (not in the store, nor in runs.jsonl)")
        }
        let claim = try record.claim.map { try ids.claimID($0, fields, field: "claim") }
        if startsGroup {
            storedResults = run.existing > 0 ? try writer.reader.resultRecords(runID: run.id) : []
        }
        // A version 1 record names its result by run and place only: the UUID
        // and recording time every store gives it are worked out from those.
        var row = StoreWriter.ResultRow(
            uuid: ResultIdentity.legacyUUID(runUUID: record.run, n: record.n), runID: run.id,
            environmentID: run.environmentID, claimID: claim,
            claimStatementID: try claim.map { try ids.currentStatementID(ofClaim: $0) } ?? nil,
            result: record.result, posture: record.posture, note: record.note, checkedAt: record.checkedAt,
            recordedAt: ResultIdentity.legacyRecordedAt(runStartedAt: run.startedAt, n: record.n),
            testID: record.testID, duration: record.duration, message: record.message)
        if record.n <= run.existing {
            let existing = storedResults[Int(record.n - 1)]
            guard try shouldWrite(
                "result", key: "\(record.run) #\(record.n)", existing: existing.line, incoming: record.line, fields)
            else { return }
            try checkDate(record.checkedAt, fields, field: "checked_at")
            guard let id = try writer.reader.resultID(runID: run.id, offset: record.n - 1) else {
                throw fields.error("n", "run '\(record.run)' has no result #\(record.n) to replace")
            }
            row.id = id
            try batch?.flush()
            try writer.upsertResult(row)
            try writer.deleteDetails(ofResult: id)
            try ids.writeDetails(measurements: record.measurements, attachments: record.attachments, resultID: id)
            return
        }
        try checkDate(record.checkedAt, fields, field: "checked_at")
        if batch == nil { batch = try ResultBatch(writer: writer) }
        guard let batch else { return }
        let id = try batch.add(row, measurements: record.measurements)
        if !record.attachments.isEmpty {
            try batch.flush()
            try ids.writeDetails(measurements: [], attachments: record.attachments, resultID: id)
        }
        added()
    }

    /// A retraction names its run, and for one result its place in the run.
    /// Retractions are never replaced: one that differs from the stored one is
    /// a conflict, even with --replace.
    private func apply(_ record: TextFormat.Retraction, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        try checkDate(record.at, fields, field: "at")
        var known = runs[record.run]
        if known == nil { known = try knownRun(record.run, writer) }
        guard let run = known else {
            throw fields.error("run", "unknown run '\(record.run)' (not in the store, nor in runs.jsonl)")
        }
        var resultID: Int64?
        if let n = record.n {
            guard let id = try writer.reader.resultID(runID: run.id, offset: n - 1) else {
                throw fields.error("n", "run '\(record.run)' has no result #\(n)")
            }
            resultID = id
        }
        var existing: TextFormat.Retraction?
        try writer.reader.retractionRecords(runID: resultID == nil ? run.id : nil, resultID: resultID) { existing = $0 }
        let key = record.run + (record.n.map { " #\($0)" } ?? "")
        guard try shouldWrite(
            "retraction", key: key, existing: existing?.line, incoming: record.line, fields, replaceable: false)
        else { return }
        if try writer.reader.hasRetraction(uuid: record.uuid) {
            throw fields.error("uuid", "the store holds retraction \(record.uuid) of another run or result")
        }
        try writer.insertRetraction(
            uuid: record.uuid, resultID: resultID, runID: resultID == nil ? run.id : nil, by: record.by, at: record.at,
            reason: record.reason)
        added()
    }

    /// The last label change read, to check that the next one follows on from
    /// it and that each history ends at its claim's label.
    private var lastChange: (record: TextFormat.LabelChange, location: RecordLocation)?

    private func apply(_ record: TextFormat.LabelChange, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        try checkDate(record.changedAt, fields, field: "changed_at")
        let startsGroup = record.claim != historyNumbering.group
        try historyNumbering.check(group: record.claim, n: record.n, fields, what: "label changes")
        let claim = try ids.claimID(record.claim, fields, field: "claim")
        if startsGroup {
            try finishHistory(writer)
            storedHistory = []
            try writer.reader.labelChangeRecords(claimID: claim) { storedHistory.append($0) }
        } else if let previous = lastChange?.record, record.oldLabel != previous.newLabel {
            throw fields.error(
                "old_label",
                "'\(record.oldLabel ?? "null")' does not follow change #\(previous.n) of '\(record.claim)', "
                    + "which made it '\(previous.newLabel)'")
        }
        lastChange = (record, fields)
        if record.n <= storedHistory.count {
            let existing = storedHistory[Int(record.n - 1)]
            _ = try shouldWrite(
                "label change", key: "\(record.claim) #\(record.n)", existing: existing.line, incoming: record.line, fields,
                replaceable: false)
            return
        }
        // Named by claim and place, as version 1 names it; each follows the one before.
        let follows = try writer.reader.labelChangeID(
            uuid: ResultIdentity.legacyLabelChangeUUID(claimKey: record.claim, n: record.n - 1))
        try writer.insertLabelChange(
            uuid: ResultIdentity.legacyLabelChangeUUID(claimKey: record.claim, n: record.n), claimID: claim,
            follows: follows, from: record.oldLabel, to: record.newLabel, by: record.changedBy, at: record.changedAt,
            reason: record.reason)
        added()
    }

    /// Checks that the history just read ends at its claim's label.
    private func finishHistory(_ writer: StoreWriter) throws {
        guard let (record, location) = lastChange else { return }
        lastChange = nil
        let label = try writer.reader.claim(key: record.claim).label
        guard label.rawValue == record.newLabel else {
            throw location.error(
                "new_label",
                "the label history of '\(record.claim)' ends at '\(record.newLabel)', "
                    + "but the claim is labelled '\(label.rawValue)'")
        }
    }

    // MARK: - Checklists and test mappings

    private func apply(_ record: TextFormat.Checklist, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        var existing: TextFormat.Checklist?
        try writer.reader.checklistRecords(document: record.document) { existing = $0 }
        guard try shouldWrite("checklist", key: record.document, existing: existing?.line, incoming: record.line, fields)
        else { return }
        try ids.remember(checklist: record.document, id: try writer.upsertChecklist(record))
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.ChecklistItem, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        try checkDate(record.mark?.at, fields, field: "mark")
        _ = try ids.checklistID(record.checklist, fields, field: "checklist")
        for claim in record.claims { _ = try ids.claimID(claim, fields, field: "claims") }
        var existing: TextFormat.ChecklistItem?
        try writer.reader.checklistItemRecords(key: record.key) { existing = $0 }
        guard try shouldWrite("checklist item", key: record.key, existing: existing?.line, incoming: record.line, fields)
        else { return }
        try ids.writeChecklistItem(record, existing: existing != nil, fields)
        if existing == nil { added() }
    }

    private func apply(_ record: TextFormat.TestMapping, _ fields: RecordLocation, _ writer: StoreWriter) throws {
        let claim = try ids.claimID(record.claim, fields, field: "claim")
        if try writer.insertMapping(pattern: record.pattern, claimID: claim) {
            added()
        } else {
            summary.unchanged += 1
        }
    }
}
