#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a text-format folder into a store, all or nothing, in one IMMEDIATE
/// transaction. Every version is read by one importer: a folder of version 1
/// is upgraded record by record into the current records as it is read.
///
/// Records people edit (sources, capabilities, claims, lacks, checklists and
/// their items) are merged with what the store holds, field by field, against
/// the base the store kept when it last exported or imported them: a field
/// changed only in the folder is taken, one changed only here is kept, one
/// changed both ways is a conflict, except a claim's label, where the later
/// change wins. Records that are only ever added (runs, results, retractions,
/// label changes, statements) are added when new; one that differs from the
/// stored record of its UUID is a conflict, except a run ingested from the same
/// file on two machines, where the earlier ingestion wins. Every conflict is
/// reported, up to a limit, and then nothing is written.
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

    public init(store: Store, replace: Bool = false) {
        self.store = store
        self.replace = replace
    }

    /// Imports the folder; `progress`, when given, hears how many records
    /// were read so far, every few thousand.
    @discardableResult
    public func run(_ files: RecordFiles, progress: ((Int) -> Void)? = nil) throws -> Summary {
        let version = try Self.manifestVersion(files)
        if version == 1 { try Version1Folder.checkFiles(files) } else { try Self.checkFiles(files) }
        try store.prepareForLargeWrites()
        let limit = store.clock.futureLimit()
        return try store.write { writer in
            // Each claim's latest decisive result is worked out once, at the
            // end, for the claims and environments the import gave results:
            // not again over all of a claim's results for every row.
            let triggers = try writer.setDecisiveTriggersAside()
            let session = ImportSession(writer: writer, files: files, replace: replace, limit: limit, storeFolder: store.folder.path)
            session.progress = progress
            if version == 1 { try session.importVersion1() } else { try session.importAll() }
            try writer.restore(triggers, pairs: session.touched)
            // Results logged without a verdict are judged by the expected values as they are now.
            for claim in session.ids.judging.sorted() { try Store.rejudge(claimID: claim, writer: writer) }
            return session.summary
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
        try reader.forEachRecord(name: name, decode: { fields in
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
            return Int(version)
        }) { version, _ in found = version }
        guard let found else { throw EvidenceError.badFile(path: name, location: nil, reason: "empty") }
        return found
    }

    /// Refuses files the format does not have, before anything is read.
    static func checkFiles(_ files: RecordFiles) throws {
        let known = TextFormat.Part.allCases.filter { !$0.isFolder }.map(\.name)
        for name in try files.topLevelRecordFiles() where !known.contains(name) {
            throw EvidenceError.badFile(
                path: files.displayName(of: name), location: nil,
                reason: "not a file of the text format, version \(TextFormat.version); expected " + known.joined(separator: ", ")
                    + " and the folders claims, statements, label_history and runs")
        }
        for name in try files.list(TextFormat.Part.runs.name) {
            let uuid = String(name.dropLast(".jsonl".count))
            guard uuid.count == 36, uuid.allSatisfy({ ($0.isHexDigit && !$0.isUppercase) || $0 == "-" }) else {
                throw EvidenceError.badFile(
                    path: files.displayName(of: TextFormat.Part.runs.name + "/" + name), location: nil,
                    reason: "a run's file is named by the run's UUID, such as 2cee86e8-9012-410a-9889-f129a39c0861.jsonl")
            }
        }
    }
}

/// One import: its writer, what it has read, and what it found.
final class ImportSession {
    let writer: StoreWriter
    let files: RecordFiles
    let replace: Bool
    let limit: FutureLimit
    let ids: ImportLookups
    var summary = StoreImporter.Summary()
    private var conflicts: [String] = []
    private static let conflictLimit = 20
    /// The store's lacks by key, read once: a store holds few.
    private var storedLacks: [String: TextFormat.Lack]?
    /// Claims whose label history this import added to: checked at the end.
    private var touchedHistories: [String: RecordLocation] = [:]
    /// Statement rows by claim id, then by SHA-256 of the words.
    private var statementRows: [Int64: [String: Int64]] = [:]
    /// The claims and environments given results, whose latest decisive result is worked out at the end.
    private(set) var touched: Set<StoreWriter.ClaimEnvironment> = []
    /// Hears how many results were read, every 2,000.
    var progress: ((Int) -> Void)?
    private var resultsRead = 0

    init(writer: StoreWriter, files: RecordFiles, replace: Bool, limit: FutureLimit, storeFolder: String) {
        self.writer = writer
        self.files = files
        self.replace = replace
        self.limit = limit
        self.ids = ImportLookups(writer: writer, storeFolder: storeFolder) { [files] in files.attachment(sha256: $0) }
    }

    var reader: StoreReader { writer.reader }

    /// New results, written many to a statement.
    private lazy var batch = Result { try ResultBatch(writer: writer) }

    private func newResults() throws -> ResultBatch {
        try batch.get()
    }

    func importAll() throws {
        for part in TextFormat.Part.allCases {
            let before = summary.added
            let names = part.isFolder ? try files.list(part.name).map { part.name + "/" + $0 } : [part.name]
            if part == .runs {
                try importRuns(names)
            } else {
                for name in names {
                    try importFile(part, name)
                }
            }
            if part == .claims { try applyPendingRenames() }
            summary.addedByFile[part.name] = summary.added - before
        }
        try finish()
    }

    /// Checks what can only be checked once everything was read, and reports
    /// every conflict found.
    func finish() throws {
        try checkHistories()
        try flushResults()
        guard conflicts.isEmpty else {
            throw EvidenceError.importConflicts(
                Array(conflicts.prefix(Self.conflictLimit)), more: max(0, conflicts.count - Self.conflictLimit))
        }
    }

    private func importFile(_ part: TextFormat.Part, _ name: String) throws {
        guard let lines = try files.reader(for: name) else { return }
        let display = files.displayName(of: name)
        func each<T>(_ decode: (inout FieldReader) throws -> T, _ apply: (T, RecordLocation) throws -> Void) throws {
            try lines.forEachRecord(name: display, decode: decode, apply)
        }
        switch part {
        case .sources: try each({ try $0.source() }, apply)
        case .capabilities: try each({ try $0.capability() }, apply)
        case .documents: try each({ try $0.document() }, apply)
        case .renames: try each({ try $0.rename() }, apply)
        case .claims:
            try each({ var record = try $0.claim(version: 2); record.key = try currentKey(record.key); return record }, apply)
        case .retirements:
            try each({ var record = try $0.retirement(); record.claim = try currentKey(record.claim); return record }, apply)
        case .statements:
            try each({ var record = try $0.statement(); record.claim = try currentKey(record.claim); return record }, apply)
        case .environmentLacks: try each({ try $0.lack() }, apply)
        case .runs:
            try importRuns([name])
        case .labelHistory:
            var changes: [(TextFormat.Change, RecordLocation)] = []
            try each({ var change = try $0.change(); change.claim = try currentKey(change.claim); return change }) {
                changes.append(($0, $1))
            }
            try applyChanges(changes)
        case .checklists: try each({ try $0.checklist() }, apply)
        case .checklistItems:
            try each({ var item = try $0.checklistItem(); item.claims = try item.claims.map(currentKey).sorted(); return item }, apply)
        case .testMappings:
            try each({ var mapping = try $0.testMapping(); mapping.claim = try currentKey(mapping.claim); return mapping }, apply)
        }
    }

    /// Every run's file, one after another.
    private func importRuns(_ names: [String]) throws {
        for name in names {
            guard let reader = try files.reader(for: name) else { continue }
            let display = files.displayName(of: name)
            let uuid = String(name.split(separator: "/").last?.dropLast(".jsonl".count) ?? "")
            var lines: [(FieldReader.RunFileLine, RecordLocation)] = []
            try reader.forEachRecord(name: display, decode: { try $0.runFileLine() }) { lines.append(($0, $1)) }
            try applyRun(lines, file: display, uuid: uuid)
        }
        try flushResults()
    }

    /// Writes the results waiting in the batch; a UUID used twice is named.
    func flushResults() throws {
        do {
            try newResults().flush()
        } catch let error as DatabaseError where error.message.contains("results.uuid") {
            throw EvidenceError.badFile(
                path: files.displayName(of: TextFormat.Part.runs.name), location: nil,
                reason: "a result's UUID is used twice: in two runs' files, or by a result the store already holds")
        }
    }

    // MARK: - Conflicts

    private func conflict(_ location: RecordLocation, _ text: String) {
        conflicts.append("\(location.file):\(location.line): \(text)")
    }

    private func checkDate(_ date: String?, _ fields: RecordLocation, field: String) throws {
        if let date, !limit.allows(date) { throw fields.error(field, limit.reason(date)) }
    }

    // MARK: - Records people edit

    private enum Resolution {
        /// New to the store: write the folder's.
        case add
        /// The store's stands (the same, or changed only here).
        case keep
        /// Write this: the folder's, or fields of both.
        case take(JSONValue)
        /// Changed both ways; reported, nothing written.
        case conflict
    }

    /// Decides between the store's version of a record and the folder's.
    /// The folder's counts as a change only where it is newer than what the
    /// store last exchanged (its base): a record the folder kept from before
    /// that is not a change, and taking it would go back. Without a base,
    /// the side changed later wins, and the same time both ways conflicts.
    private func resolve(
        _ kind: TextFormat.EditableKind, key: String, description: String, stored: JSONLine?, incoming: JSONLine,
        _ location: RecordLocation, laterWins: RecordMerge.LaterWins? = nil, earlierWords: Set<String> = []
    ) throws -> Resolution {
        guard let stored else { return .add }
        if stored.object == incoming.object { return .keep }
        let theirs = try JSONReader.parse(Data(incoming.object.utf8))
        if replace { return .take(theirs) }
        let ours = try JSONReader.parse(Data(stored.object.utf8))
        let base = try reader.exchangedLine(kind: kind.rawValue, key: key).map { try JSONReader.parse(Data($0.utf8)) }
        if let base, RecordMerge.stamp(of: theirs) < RecordMerge.stamp(of: base) { return .keep }
        let outcome: RecordMerge.Outcome
        if base == nil, RecordMerge.stamp(of: theirs) != RecordMerge.stamp(of: ours) {
            outcome = .merged(RecordMerge.stamp(of: theirs) > RecordMerge.stamp(of: ours) ? theirs : ours)
        } else {
            outcome = RecordMerge.merge(base: base, ours: ours, theirs: theirs, laterWins: laterWins)
        }
        switch outcome {
        case .merged(let merged):
            // Never back to words the claim had before over words changed here since the last exchange: that
            // is for a person to decide. Words the folder alone changed back are that person's decision.
            let changedHere = base.map { ours["statement"]?.stringValue != $0["statement"]?.stringValue } ?? true
            if changedHere, let words = merged["statement"]?.stringValue, words != ours["statement"]?.stringValue,
                earlierWords.contains(words)
            {
                conflict(
                    location,
                    "\(description): the folder's statement is words it had before, changed here since (by "
                        + "\(RecordMerge.stamp(of: ours).by.isEmpty ? "someone" : RecordMerge.stamp(of: ours).by)"
                        + "); edit the folder's record to the words wanted, or import with --replace to take them")
                return .conflict
            }
            return merged == ours ? .keep : .take(merged)
        case .conflict(let fields):
            let field = fields[0]
            let here = ours[field].map(RecordDifference.show) ?? "(none)"
            let there = theirs[field].map(RecordDifference.show) ?? "(none)"
            let advice = base == nil ? "; import with --replace to take the folder's" : ""
            conflict(
                location,
                "\(description) was changed here and in the folder: '\(field)' is '\(here)' here and '\(there)' in the folder"
                    + (fields.count > 1 ? " (and \(fields.count - 1) more fields)" : "") + advice)
            return .conflict
        }
    }

    /// Applies a resolution: writes the record (decoded again when merged),
    /// counts it, and keeps the folder's version as the next base.
    private func settle<T>(
        _ resolution: Resolution, _ kind: TextFormat.EditableKind, key: String, incoming: T, line: JSONLine,
        _ location: RecordLocation, decode: (inout FieldReader) throws -> T, write: (T, _ existing: Bool) throws -> Void
    ) throws {
        switch resolution {
        case .add:
            try write(incoming, false)
            summary.added += 1
        case .keep:
            summary.unchanged += 1
        case .take(let value):
            var fields = try FieldReader(file: location.file, line: location.line, value: value)
            try write(try decode(&fields), true)
            summary.updated += 1
        case .conflict:
            return
        }
        try writer.setExchangedLine(kind: kind.rawValue, key: key, line: line.object)
    }

    /// Resolves a record against the store's version and settles it.
    private func exchange<T: ExchangedRecord>(
        _ record: T, _ kind: TextFormat.EditableKind, _ description: String, stored: T?, _ location: RecordLocation,
        laterWins: RecordMerge.LaterWins? = nil, earlierWords: Set<String> = [], decode: (inout FieldReader) throws -> T,
        write: (T, _ existing: Bool) throws -> Void
    ) throws {
        let line = record.line
        let resolution = try resolve(
            kind, key: record.key, description: description, stored: stored?.line, incoming: line, location,
            laterWins: laterWins, earlierWords: earlierWords)
        try settle(resolution, kind, key: record.key, incoming: record, line: line, location, decode: decode, write: write)
    }

    func apply(_ record: TextFormat.Source, _ location: RecordLocation) throws {
        try checkDate(record.published, location, field: "published")
        try checkDate(record.updated, location, field: "updated")
        try checkDate(record.retrieved, location, field: "retrieved")
        var stored: TextFormat.Source?
        try reader.sourceRecords(url: record.url) { stored = $0 }
        try exchange(record, .source, "source '\(record.url)'", stored: stored, location, decode: { try $0.source() }) {
            record, _ in ids.remember(source: record.url, id: try writer.upsertSource(record))
        }
    }

    func apply(_ record: TextFormat.Capability, _ location: RecordLocation) throws {
        var stored: TextFormat.Capability?
        try reader.capabilityRecords(name: record.name) { stored = $0 }
        try exchange(record, .capability, "capability '\(record.name)'", stored: stored, location, decode: { try $0.capability() }) {
            record, _ in ids.remember(capability: record.name, id: try writer.upsertCapability(record))
        }
    }

    private func apply(_ record: TextFormat.Document, _ location: RecordLocation) throws {
        var stored: TextFormat.Document?
        try reader.documentRecords(document: record.document) { stored = $0 }
        try exchange(record, .document, "document '\(record.document)'", stored: stored, location, decode: { try $0.document() }) {
            record, _ in try writer.setDocumentSubjects(record)
        }
    }

    func apply(_ record: TextFormat.Claim, _ location: RecordLocation) throws {
        try checkDate(record.labelledAt, location, field: "labelled_at")
        try checkDate(record.asOf, location, field: "as_of")
        var stored: TextFormat.Claim?
        try reader.claimRecords(key: record.key) { stored = $0 }
        var earlier: Set<String> = []
        if let stored, record.statement != stored.statement {
            let id = try ids.claimID(record.key, location, field: "key")
            earlier = Set(try reader.statements(ofClaim: id).map(\.statement)).subtracting([stored.statement])
        }
        try exchange(
            record, .claim, "claim '\(record.key)'", stored: stored, location, laterWins: .claimLabel, earlierWords: earlier,
            decode: { try $0.claim(version: 2) }
        ) { record, existing in try ids.writeClaim(record, existing: existing, location) }
    }

    func apply(_ record: TextFormat.Lack, _ location: RecordLocation) throws {
        if storedLacks == nil {
            var lacks: [String: TextFormat.Lack] = [:]
            try reader.lackRecords { lacks[$0.key] = $0 }
            storedLacks = lacks
        }
        try exchange(
            record, .lack, "the lack of \(record.capability) on \(record.model) \(record.kind)",
            stored: storedLacks?[record.key], location, decode: { try $0.lack() }
        ) { record, _ in
            try ids.writeLack(record, location)
            storedLacks?[record.key] = record
        }
    }

    func apply(_ record: TextFormat.Checklist, _ location: RecordLocation) throws {
        var stored: TextFormat.Checklist?
        try reader.checklistRecords(document: record.document) { stored = $0 }
        try exchange(record, .checklist, "checklist '\(record.document)'", stored: stored, location, decode: { try $0.checklist() }) {
            record, _ in ids.remember(checklist: record.document, id: try writer.upsertChecklist(record))
        }
    }

    func apply(_ record: TextFormat.ChecklistItem, _ location: RecordLocation) throws {
        try checkDate(record.mark?.at, location, field: "mark")
        var stored: TextFormat.ChecklistItem?
        try reader.checklistItemRecords(key: record.key) { stored = $0 }
        try exchange(
            record, .checklistItem, "checklist item '\(record.key)'", stored: stored, location,
            decode: { try $0.checklistItem() }
        ) { record, existing in try ids.writeChecklistItem(record, existing: existing, location) }
    }

    func apply(_ record: TextFormat.TestMapping, _ location: RecordLocation) throws {
        let claim = try ids.claimID(record.claim, location, field: "claim")
        if try writer.insertMapping(pattern: record.pattern, claimID: claim) {
            summary.added += 1
        } else {
            summary.unchanged += 1
        }
    }

    // MARK: - Renames

    /// Keys claims were renamed from, to their keys now: read once the renames are in.
    private var renamedKeys: [String: String]?
    /// Renames of claims the store gets from the folder's claims, recorded after them.
    private var pendingRenames: [(TextFormat.Rename, RecordLocation)] = []

    /// The key a claim has now, for a key the folder names.
    private func currentKey(_ key: String) throws -> String {
        if renamedKeys == nil { renamedKeys = try reader.claimRenames() }
        return renamedKeys?[key] ?? key
    }

    /// Renames a claim as the folder's rename says, keeping the rename.
    func apply(_ record: TextFormat.Rename, _ location: RecordLocation) throws {
        try checkDate(record.at, location, field: "at")
        var stored: TextFormat.Rename?
        try reader.renameRecords(uuid: record.uuid) { stored = $0 }
        if isHeld(stored, record, "rename \(record.uuid)", line: \.line, location) { return }
        renamedKeys = nil
        switch (try reader.existingClaimID(key: record.from), try reader.existingClaimID(key: record.to)) {
        case (let old?, nil):
            try writer.changeClaimKey(claimID: old, from: record.from, to: record.to)
            try writer.insertRename(record, claimID: old)
        case (nil, let new?):
            try writer.insertRename(record, claimID: new)
        case (nil, nil):
            pendingRenames.append((record, location))
            return
        case (_?, _?):
            conflict(
                location,
                "the folder renames claim '\(record.from)' to '\(record.to)', and this store holds both; rename one here "
                    + "first")
            return
        }
        summary.added += 1
    }

    /// Records the renames of claims that came with the folder's claims.
    private func applyPendingRenames() throws {
        for (record, location) in pendingRenames {
            try writer.insertRename(record, claimID: try ids.claimID(record.to, location, field: "to"))
            summary.added += 1
        }
        pendingRenames = []
        renamedKeys = nil
    }

    /// Keeps a claim's retirement or bringing back; the latest of a claim's decides.
    func apply(_ record: TextFormat.Retirement, _ location: RecordLocation) throws {
        try checkDate(record.at, location, field: "at")
        var stored: TextFormat.Retirement?
        try reader.retirementRecords(uuid: record.uuid) { stored = $0 }
        if isHeld(stored, record, "retirement \(record.uuid)", line: \.line, location) { return }
        try writer.insertRetirement(record, claimID: try ids.claimID(record.claim, location, field: "claim"))
        summary.added += 1
    }

    // MARK: - Statements

    private func apply(_ record: TextFormat.ProvedStatement, _ location: RecordLocation) throws {
        let claim = try ids.claimID(record.claim, location, field: "claim")
        if try statementID(claim: claim, sha256: record.sha256) != nil {
            summary.unchanged += 1
            return
        }
        try writer.insertStatement(claimID: claim, statement: record.statement, recordedAt: nil)
        statementRows[claim] = nil
        lastStatement = nil
        summary.added += 1
    }

    /// The last words looked up: a run's results mostly prove one claim's after another's.
    private var lastStatement: (claim: Int64, sha256: String, id: Int64)?

    /// The row of a claim's words with this SHA-256, or nil.
    private func statementID(claim: Int64, sha256: String) throws -> Int64? {
        if let last = lastStatement, last.claim == claim, last.sha256 == sha256 { return last.id }
        if statementRows[claim] == nil {
            var rows: [String: Int64] = [:]
            for row in try reader.statements(ofClaim: claim) {
                let digest = SHA256.hex(Data(row.statement.utf8))
                if rows[digest] == nil { rows[digest] = row.id }
            }
            statementRows[claim] = rows
        }
        let id = statementRows[claim]?[sha256]
        if let id { lastStatement = (claim, sha256, id) }
        return id
    }

    // MARK: - Runs

    /// Which side stands where one run's two versions differ. `tied`: one
    /// file ingested on two machines in the same second (the run's records
    /// agree); the first result that differs decides, by `TextFormat.ResultLine.recordedFirst`,
    /// as the merge driver decides.
    private enum Standing {
        case neither, store, folder, tied
    }

    /// Applies one run's lines. Results upgraded from version 1 do not say
    /// which words they proved (`statementsFromStore`): one the store holds
    /// keeps the words it was given when first imported.
    func applyRun(
        _ lines: [(FieldReader.RunFileLine, RecordLocation)], file: String, uuid: String, statementsFromStore: Bool = false
    ) throws {
        guard case .header(let header)? = lines.first?.0, let first = lines.first?.1 else {
            throw EvidenceError.badFile(
                path: file, location: lines.first.map { String($0.1.line) },
                reason: "a run's file starts with the run's record ({\"run\": …})")
        }
        guard header.uuid == uuid else {
            throw first.error("run", "the file of run '\(uuid)' holds run '\(header.uuid)'")
        }
        let stored = try reader.runFile(uuid: uuid) { _, text in SHA256.hex(Data(text.utf8)) }
        var (runID, environmentID, standing) = try applyHeader(header, stored: stored?.header, first)
        let isNew = stored == nil
        var storedResults: [String: TextFormat.ResultLine] = [:]
        for result in stored?.results ?? [] { storedResults[result.uuid] = result }
        for (line, location) in lines.dropFirst() {
            switch line {
            case .header:
                throw location.error("run", "a run's file holds one run record, at its start")
            case .result(var result):
                result.claim = try result.claim.map(currentKey)
                if statementsFromStore, let stored = storedResults[result.uuid], stored.claim == result.claim {
                    result.statement = stored.statement
                }
                if standing == .tied, let stored = storedResults[result.uuid], stored != result {
                    standing = TextFormat.ResultLine.recordedFirst(stored, result) ? .store : .folder
                }
                try applyResult(
                    result, stored: storedResults[result.uuid], runID: runID, environmentID: environmentID,
                    standing: standing, runIsNew: isNew, location)
            case .retraction(let retraction):
                try flushResults()
                try applyRetraction(retraction, runID: runID, runUUID: uuid, location)
            case .link(let link):
                try flushResults()
                try applyLink(link, runID: runID, runUUID: uuid, location)
            case .unlink(let unlink):
                try flushResults()
                try applyUnlink(unlink, runID: runID, runUUID: uuid, location)
            case .correction(let correction):
                try flushResults()
                try applyCorrection(correction, runID: runID, recorded: header.environment.osBuild, location)
            }
        }
        // A header written again names the build as recorded: the run's corrections still decide.
        if standing == .folder || replace {
            try flushResults()
            try writer.settleCorrectedBuild(runID: runID)
        }
    }

    /// Records the folder's correction of a run's OS build; one that differs
    /// from the stored correction of its UUID is a conflict.
    private func applyCorrection(
        _ correction: TextFormat.CorrectionLine, runID: Int64, recorded: String, _ location: RecordLocation
    ) throws {
        if isHeld(try reader.correctionLine(uuid: correction.uuid), correction, "correction \(correction.uuid)", line: \.line, location) {
            return
        }
        try checkDate(correction.at, location, field: "at")
        try writer.correctRun(
            uuid: correction.uuid, runID: runID, recorded: recorded, osBuild: correction.osBuild, by: correction.by,
            at: correction.at, reason: correction.reason)
        summary.added += 1
    }

    private func applyHeader(_ header: TextFormat.RunHeader, stored: TextFormat.RunHeader?, _ location: RecordLocation)
        throws -> (Int64, Int64, Standing)
    {
        func write() throws -> (Int64, Int64) {
            try checkDate(header.startedAt, location, field: "started_at")
            try checkDate(header.ingestedFile?.ingestedAt, location, field: "ingested_file")
            var fileID: Int64?
            if let file = header.ingestedFile { fileID = try applyIngestedFile(file) }
            let environment = try ids.environmentID(header.environment)
            let id = try writer.upsertRun(
                uuid: header.uuid, environmentID: environment, startedAt: header.startedAt, tester: header.tester,
                note: header.note, ingestedFileID: fileID)
            return (id, environment)
        }
        guard let stored else {
            let (id, environment) = try write()
            summary.added += 1
            return (id, environment, .neither)
        }
        let storedRun = try reader.run(id: try reader.runID(reference: header.uuid))
        if stored.line.object == header.line.object {
            summary.unchanged += 1
            return (storedRun.id, storedRun.environmentID, header.ingestedFile == nil ? .neither : .tied)
        }
        // The same file ingested on two machines: the earlier ingestion stands.
        if let mine = stored.ingestedFile, let theirs = header.ingestedFile, mine.sha256 == theirs.sha256 {
            let folderFirst = (theirs.ingestedAt, header.line.object) < (mine.ingestedAt, stored.line.object)
            guard folderFirst else {
                summary.unchanged += 1
                return (storedRun.id, storedRun.environmentID, .store)
            }
            let (id, environment) = try write()
            summary.updated += 1
            return (id, environment, .folder)
        }
        if replace {
            let (id, environment) = try write()
            summary.updated += 1
            return (id, environment, .folder)
        }
        let (field, here, there) = RecordDifference.first(stored.line, header.line)
        conflict(location, "run \(header.uuid) differs: '\(field)' is '\(here)' here and '\(there)' in the folder")
        return (storedRun.id, storedRun.environmentID, .store)
    }

    /// The ingested file's row; where two machines ingested it, the earlier ingestion's.
    func applyIngestedFile(_ file: TextFormat.IngestedFile) throws -> Int64 {
        var stored: TextFormat.IngestedFile?
        try reader.ingestedFileRecords(sha256: file.sha256) { stored = $0 }
        if let stored, let id = try reader.ingestedFileID(sha256: file.sha256),
            stored == file || (stored.ingestedAt, stored.line.object) < (file.ingestedAt, file.line.object)
        {
            return id
        }
        return try writer.upsertIngestedFile(file)
    }

    private func applyResult(
        _ result: TextFormat.ResultLine, stored: TextFormat.ResultLine?, runID: Int64, environmentID: Int64,
        standing: Standing, runIsNew: Bool, _ location: RecordLocation
    ) throws {
        resultsRead += 1
        if resultsRead % 2000 == 0 { progress?(resultsRead) }
        var existingID: Int64?
        if let stored {
            if stored == result {
                summary.unchanged += 1
                return
            }
            // A verdict judged from the claim's expected values is derived, never
            // compared: another clone judged it against other expectations. The
            // store's stands, and is judged again at the end with the rest.
            if stored.judged && result.judged, Self.sameButVerdict(stored, result) {
                if let claim = try result.claim.map({ try ids.claimID($0, location, field: "claim") }) { ids.judging.insert(claim) }
                summary.unchanged += 1
                return
            }
            switch standing {
            case .store:
                summary.unchanged += 1
                return
            case .folder:
                break
            case .neither, .tied:
                guard replace else {
                    let (field, here, there) = RecordDifference.first(stored.line, result.line)
                    conflict(
                        location, "result \(result.uuid) differs: '\(field)' is '\(here)' here and '\(there)' in the folder")
                    return
                }
            }
            existingID = try reader.result(uuid: result.uuid)?.id
        } else if !runIsNew, let elsewhere = try reader.result(uuid: result.uuid) {
            // A new run's results are new; a UUID used twice stops the batch's insert.
            throw location.error("result", "result \(result.uuid) belongs to another run (#\(elsewhere.runID)) in the store")
        }
        try checkDate(result.checkedAt, location, field: "checked_at")
        try checkDate(result.recordedAt, location, field: "recorded_at")
        let claim = try result.claim.map { try ids.claimID($0, location, field: "claim") }
        var statement: Int64?
        if let claim, let digest = result.statement {
            guard let id = try statementID(claim: claim, sha256: digest) else {
                throw location.error(
                    "statement",
                    "the words \(digest.prefix(12))… are neither claim '\(result.claim ?? "")''s nor in its document's statements file")
            }
            statement = id
        }
        var row = StoreWriter.ResultRow(
            uuid: result.uuid, runID: runID, environmentID: environmentID, claimID: claim, claimStatementID: statement,
            result: result.result, posture: result.posture, note: result.note, checkedAt: result.checkedAt,
            recordedAt: result.recordedAt, testID: result.testID, duration: result.duration, message: result.message)
        row.judged = result.judged
        if result.judged, let claim { ids.judging.insert(claim) }
        if let claim { touched.insert(StoreWriter.ClaimEnvironment(claimID: claim, environmentID: environmentID)) }
        guard let existingID else {
            let id = try newResults().add(row, measurements: result.measurements)
            if !result.attachments.isEmpty {
                try flushResults()
                try ids.writeDetails(measurements: [], attachments: result.attachments, resultID: id)
            }
            summary.added += 1
            return
        }
        try flushResults()
        row.id = existingID
        let id = try writer.upsertResult(row)
        try writer.deleteDetails(ofResult: id)
        summary.updated += 1
        try ids.writeDetails(measurements: result.measurements, attachments: result.attachments, resultID: id)
    }

    /// Whether two versions of a judged result differ only in what judging
    /// writes: the verdict and its note ("Outside the expected values: …").
    static func sameButVerdict(_ a: TextFormat.ResultLine, _ b: TextFormat.ResultLine) -> Bool {
        var a = a
        a.result = b.result
        a.note = b.note
        return a == b
    }

    /// Whether the store holds a record of this UUID that is only ever added
    /// (a retraction, a link, an unlink): the same counts as unchanged,
    /// another is a conflict, as such records are never replaced.
    private func isHeld<Line: Equatable>(
        _ stored: Line?, _ incoming: Line, _ what: String, line: (Line) -> JSONLine, _ location: RecordLocation
    ) -> Bool {
        guard let stored else { return false }
        if stored == incoming {
            summary.unchanged += 1
        } else {
            let (field, here, there) = RecordDifference.first(line(stored), line(incoming))
            conflict(location, "\(what) differs: '\(field)' is '\(here)' here and '\(there)' in the folder; it is never replaced")
        }
        return true
    }

    private func applyRetraction(
        _ retraction: TextFormat.RetractionLine, runID: Int64, runUUID: String, _ location: RecordLocation
    ) throws {
        if isHeld(try reader.retractionLine(uuid: retraction.uuid), retraction, "retraction \(retraction.uuid)", line: \.line, location) {
            return
        }
        try checkDate(retraction.at, location, field: "at")
        var resultID: Int64?
        if let uuid = retraction.result {
            guard let target = try reader.result(uuid: uuid), target.runID == runID else {
                throw location.error("result", "run \(runUUID) has no result \(uuid)")
            }
            resultID = target.id
        }
        try writer.insertRetraction(
            uuid: retraction.uuid, resultID: resultID, runID: resultID == nil ? runID : nil, by: retraction.by,
            at: retraction.at, reason: retraction.reason)
        summary.added += 1
    }

    /// Removes a link as the folder's unlink says, keeping the removal; one
    /// that differs from the stored unlink of its UUID is a conflict.
    private func applyUnlink(_ unlink: TextFormat.UnlinkLine, runID: Int64, runUUID: String, _ location: RecordLocation) throws {
        if isHeld(try reader.unlinkLine(uuid: unlink.uuid), unlink, "unlink \(unlink.uuid)", line: \.line, location) { return }
        try checkDate(unlink.at, location, field: "at")
        if try writer.unlink(uuid: unlink.uuid, linkUUID: unlink.link, runID: runID, by: unlink.by, at: unlink.at, reason: unlink.reason) {
            summary.added += 1
        } else if try reader.isUnlinked(linkUUID: unlink.link) {
            // The same link removed on two clones is one removal: the first stands.
            summary.unchanged += 1
        } else {
            throw location.error("link", "run \(runUUID) has no link \(unlink.link)")
        }
    }

    /// Adds a link the store lacks; one that differs from the stored link of its UUID is a conflict.
    private func applyLink(_ link: TextFormat.LinkLine, runID: Int64, runUUID: String, _ location: RecordLocation) throws {
        if isHeld(try reader.linkLine(uuid: link.uuid), link, "link \(link.uuid)", line: \.line, location) { return }
        try checkDate(link.at, location, field: "at")
        guard let target = try reader.result(uuid: link.result), target.runID == runID else {
            throw location.error("result", "run \(runUUID) has no result \(link.result)")
        }
        // The same issue linked to the same result on two clones is one link: the first stands.
        if try writer.insertLink(uuid: link.uuid, resultID: target.id, url: link.url, by: link.by, at: link.at) {
            summary.added += 1
        } else {
            summary.unchanged += 1
        }
    }

    // MARK: - Label history

    /// Adds the changes the store lacks, each after the one it follows, and
    /// checks that each starts from the label the change it follows left.
    func applyChanges(_ changes: [(TextFormat.Change, RecordLocation)]) throws {
        var pending: [(TextFormat.Change, RecordLocation)] = []
        for (change, location) in changes {
            if let stored = try reader.change(uuid: change.uuid) {
                if stored == change {
                    summary.unchanged += 1
                } else {
                    let (field, here, there) = RecordDifference.first(stored.line, change.line)
                    conflict(
                        location,
                        "label change \(change.uuid) differs: '\(field)' is '\(here)' here and '\(there)' in the folder; "
                            + "label history is never rewritten")
                }
            } else {
                try checkDate(change.changedAt, location, field: "changed_at")
                pending.append((change, location))
            }
        }
        // A change may come before the one it follows when clocks disagree.
        while !pending.isEmpty {
            var next: [(TextFormat.Change, RecordLocation)] = []
            for (change, location) in pending {
                var follows: Int64?
                if let uuid = change.follows {
                    guard let id = try reader.labelChangeID(uuid: uuid) else {
                        next.append((change, location))
                        continue
                    }
                    follows = id
                    if let before = try reader.change(uuid: uuid) {
                        guard before.claim == change.claim else {
                            throw location.error("follows", "change \(uuid) is of claim '\(before.claim)', not '\(change.claim)'")
                        }
                        guard change.oldLabel == before.newLabel else {
                            throw location.error(
                                "old_label",
                                "'\(change.oldLabel ?? "null")' does not follow change \(uuid), which made it '\(before.newLabel)'")
                        }
                    }
                }
                let claim = try ids.claimID(change.claim, location, field: "claim")
                try writer.insertLabelChange(
                    uuid: change.uuid, claimID: claim, follows: follows, from: change.oldLabel, to: change.newLabel,
                    by: change.changedBy, at: change.changedAt, reason: change.reason)
                touchedHistories[change.claim] = location
                summary.added += 1
            }
            if next.count == pending.count, let (change, location) = next.first {
                throw location.error(
                    "follows", "change \(change.follows ?? "") is not in the store, nor in this claim's history")
            }
            pending = next
        }
    }

    /// Each claim whose history grew takes the label of its latest change:
    /// changes are ordered by time, then by UUID, so two relabels made apart
    /// (even in the same second) end the same way on every clone, and a
    /// history resolved by hand always imports.
    func checkHistories() throws {
        for (key, _) in touchedHistories.sorted(by: { $0.key < $1.key }) {
            let claim = try reader.claim(key: key)
            guard let latest = try reader.latestLabelChange(ofClaim: claim.id), latest.newLabel != claim.label.rawValue
            else { continue }
            var record: TextFormat.Claim?
            try reader.claimRecords(key: key) { record = $0 }
            guard let record else { continue }
            try writer.upsertClaim(
                key: key, statement: claim.statement, document: claim.document, area: claim.area,
                label: try Label(parsing: latest.newLabel), asOf: claim.asOf, statementRecordedAt: nil,
                changed: record.changed)
        }
    }
}

/// A record people edit: named by a key, written as one line, exchanged
/// through export and import.
protocol ExchangedRecord {
    var key: String { get }
    var line: JSONLine { get }
}

extension TextFormat.Source: ExchangedRecord {}
extension TextFormat.Capability: ExchangedRecord {}
extension TextFormat.Claim: ExchangedRecord {}
extension TextFormat.Lack: ExchangedRecord {}
extension TextFormat.Checklist: ExchangedRecord {}
extension TextFormat.Document: ExchangedRecord {}
extension TextFormat.ChecklistItem: ExchangedRecord {}
