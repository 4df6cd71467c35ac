#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Writes a whole store in the text format, version 3: the same store always
/// gives the same bytes, so the folder diffs and merges cleanly in git. The
/// export is staged inside the folder and put in place file by file (see
/// `ExportFolder`): files of the format that the store no longer gives (and
/// version 1's) are gone, anything else in the folder is kept. The records
/// people edit are kept in the store as exported, the base the next import
/// compares with.
public enum StoreExporter {
    public struct Summary: Equatable, Sendable {
        /// Records written per part of the format, in import order.
        public var counts: [(String, Int)]

        public var total: Int { counts.reduce(0) { $0 + $1.1 } }

        public static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.counts.map { "\($0.0)=\($0.1)" } == rhs.counts.map { "\($0.0)=\($0.1)" }
        }
    }

    /// `replace` writes over records in the folder the store has not seen
    /// (without it they stop the export, pointing to `sync`).
    public static func export(_ store: Store, to folder: URL, replace: Bool = false) throws -> Summary {
        let output = try ExportFolder(folder, replace: replace)
        // One transaction: every file shows the same moment of the store, and
        // the base is what the files say.
        return try store.write { writer in
            let reader = writer.reader
            var counts: [(String, Int)] = []
            var exchanged: [(TextFormat.EditableKind, String, String)] = []
            // An editable record is written and kept as the next import's base, from one line.
            func keep<T: ExchangedRecord>(_ record: T, _ kind: TextFormat.EditableKind, _ emit: (JSONLine) -> Void) {
                let line = record.line
                emit(line)
                exchanged.append((kind, record.key, line.object))
            }
            for part in TextFormat.Part.allCases {
                switch part {
                case .sources:
                    try output.file(part.name) { emit in try reader.sourceRecords { keep($0, .source, emit) } }
                case .capabilities:
                    try output.file(part.name) { emit in try reader.capabilityRecords { keep($0, .capability, emit) } }
                case .documents:
                    try output.file(part.name) { emit in try reader.documentRecords { keep($0, .document, emit) } }
                case .renames:
                    try output.file(part.name) { emit in try reader.renameRecords { emit($0.line) } }
                case .claims:
                    var byDocument: [String: [TextFormat.Claim]] = [:]
                    try reader.claimRecords { byDocument[$0.document, default: []].append($0) }
                    for (document, claims) in byDocument.sorted(by: { $0.key < $1.key }) {
                        try output.file(part.name + "/" + TextFormat.fileName(ofDocument: document)) { emit in
                            for claim in claims { keep(claim, .claim, emit) }
                        }
                    }
                case .retirements:
                    try output.file(part.name) { emit in try reader.retirementRecords { emit($0.line) } }
                case .statements:
                    // Written from what the runs proved, below.
                    continue
                case .environmentLacks:
                    try output.file(part.name) { emit in try reader.lackRecords { keep($0, .lack, emit) } }
                case .runs:
                    let digests = Digests()
                    for uuid in try reader.runUUIDs() {
                        guard let run = try reader.runFile(uuid: uuid, digest: digests.digest) else { continue }
                        try output.file(part.name + "/" + uuid + ".jsonl") { emit in
                            emit(run.header.line)
                            for result in run.results { emit(result.line) }
                            for retraction in run.retractions { emit(retraction.line) }
                            for link in run.links { emit(link.line) }
                            for unlink in run.unlinks { emit(unlink.line) }
                            for correction in run.corrections { emit(correction.line) }
                        }
                    }
                    counts.append((part.name, output.takeCount()))
                    let statements = try writeStatements(digests.used, reader: reader, to: output)
                    counts.append((TextFormat.Part.statements.name, statements))
                    continue
                case .labelHistory:
                    var byDocument: [String: [TextFormat.Change]] = [:]
                    try reader.changeRecords { byDocument[$0, default: []].append($1) }
                    for (document, changes) in byDocument.sorted(by: { $0.key < $1.key }) {
                        try output.file(part.name + "/" + TextFormat.fileName(ofDocument: document)) { emit in
                            for change in changes { emit(change.line) }
                        }
                    }
                case .checklists:
                    try output.file(part.name) { emit in try reader.checklistRecords { keep($0, .checklist, emit) } }
                case .checklistItems:
                    try output.file(part.name) { emit in try reader.checklistItemRecords { keep($0, .checklistItem, emit) } }
                case .testMappings:
                    try output.file(part.name) { emit in try reader.testMappingRecords { emit($0.line) } }
                }
                counts.append((part.name, output.takeCount()))
            }
            // The attached files, so that a teammate's store has them too.
            var attached: Set<String> = []
            for file in try reader.attachedFiles() where attached.insert(file.sha256).inserted {
                try output.attachment(sha256: file.sha256, path: file.path, in: store.folder.path)
            }
            var manifest = JSONLine()
            manifest.add("format", TextFormat.name)
            manifest.add("version", Int64(TextFormat.version))
            try output.file(TextFormat.manifest) { emit in emit(manifest) }
            let bases = try reader.exchangedLines()
            // Read only if the folder holds earlier words the export leaves out.
            var held: Set<String>?
            var oldKeys: Set<String>?
            try output.commit(
                seen: { bases.contains($0) },
                holdsStatement: { claim, sha256 in
                    if held == nil { held = try reader.heldStatements() }
                    return held?.contains(claim + "\n" + sha256) ?? false
                },
                renamed: { claim in
                    if oldKeys == nil { oldKeys = Set(try reader.claimRenames().keys) }
                    return oldKeys?.contains(claim) ?? false
                })
            for (kind, key, line) in exchanged {
                try writer.setExchangedLine(kind: kind.rawValue, key: key, line: line)
            }
            counts.sort { order($0.0) < order($1.0) }
            return Summary(counts: counts)
        }
    }

    private static func order(_ name: String) -> Int {
        TextFormat.Part.allCases.firstIndex { $0.name == name } ?? Int.max
    }

    /// The earlier words results proved, per document: by claim, then SHA-256.
    private static func writeStatements(_ ids: Set<Int64>, reader: StoreReader, to output: ExportFolder) throws -> Int {
        var byDocument: [String: [TextFormat.ProvedStatement]] = [:]
        for row in try reader.provedStatements(ids: ids) {
            byDocument[row.document, default: []].append(TextFormat.ProvedStatement(
                claim: row.claim, sha256: SHA256.hex(Data(row.statement.utf8)), statement: row.statement))
        }
        for (document, statements) in byDocument.sorted(by: { $0.key < $1.key }) {
            var seen: Set<String> = []
            let unique = statements.sorted { ($0.claim, $0.sha256) < ($1.claim, $1.sha256) }
                .filter { seen.insert($0.claim + "\n" + $0.sha256).inserted }
            try output.file(TextFormat.Part.statements.name + "/" + TextFormat.fileName(ofDocument: document)) { emit in
                for statement in unique { emit(statement.line) }
            }
        }
        return output.takeCount()
    }

    /// The SHA-256 of each statement row, made once, and the rows used.
    private final class Digests {
        private var byID: [Int64: String] = [:]
        private(set) var used: Set<Int64> = []

        func digest(_ id: Int64, _ text: String) -> String {
            if let known = byID[id] { return known }
            let made = SHA256.hex(Data(text.utf8))
            byID[id] = made
            used.insert(id)
            return made
        }
    }
}

/// The folder an export writes. The whole export is staged in a hidden
/// folder inside it and then put in place file by file (see
/// `InterruptedExport`): the folder's other entries (`.git`, a README,
/// `docs/`) are never moved, hidden or removed, whenever the process is
/// killed, and a killed export is finished by the next command that reads or
/// writes the folder. Before anything is put in place, the records the folder
/// holds that the store has not seen (a teammate's run, their edit of a
/// claim) stop the export unless `replace`: writing over them would lose them.
final class ExportFolder {
    /// Where files are written: the staging folder.
    let folder: URL
    /// The folder the export is for.
    let target: URL
    private let replace: Bool
    private let lock: InterruptedExport.FolderLock
    private var written: Set<String> = []
    private var count = 0
    private var committed = false

    init(_ requested: URL, replace: Bool) throws {
        target = requested.resolvingSymlinksInPath().standardizedFileURL
        self.replace = replace
        let manager = FileManager.default
        var isFolder: Bool = false
        if manager.fileExists(atPath: target.path, isDirectory: &isFolder), !isFolder {
            throw EvidenceError.io(path: requested.path, reason: "is a file, not a folder")
        }
        if !manager.fileExists(atPath: target.path) { try Self.createFolder(target) }
        try TeamFolder.checkParts(target)
        try InterruptedExport.recover(target)
        lock = try InterruptedExport.FolderLock(target)
        folder = target.appendingPathComponent(InterruptedExport.prefix + "\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileSystem.makeFolder(folder.path)
        } catch {
            throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(error))")
        }
        try InterruptedExport.markMadeFor(folder, in: target)
    }

    deinit {
        // A staging folder left after a failure before it was ready: the folder itself was not touched.
        if !committed { try? FileManager.default.removeItem(at: folder) }
        lock.release()
    }

    private static func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw EvidenceError.io(path: url.path, reason: "cannot be created (\(SystemCall.words(for: error)))")
        }
    }

    /// Writes one file from the lines `body` emits.
    func file(_ relative: String, _ body: (_ emit: (JSONLine) -> Void) throws -> Void) throws {
        let target = folder.appendingPathComponent(relative)
        let parent = target.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: parent.path) { try Self.createFolder(parent) }
        let sink = try TextSink(path: target.path)
        try body { line in
            sink.write(line.line)
            self.count += 1
        }
        try sink.close()
        written.insert(relative)
    }

    /// Writes an attached file as `attachments/SHA256`, unless the folder has
    /// it already (named by its content, it is written once and never
    /// rewritten). A file missing from the store's folder, or changed since it
    /// was attached, is left out: `attachments verify` names it.
    func attachment(sha256: String, path: String, in storeFolder: String) throws {
        let relative = TextFormat.attachmentPath(sha256: sha256)
        if (try? FileSystem.linkStatus(target.appendingPathComponent(relative).path))?.kind == .regular { return }
        guard case .inside(let source) = AttachmentFile.locate(path, in: storeFolder),
            (try? FileSystem.linkStatus(source))?.kind == .regular, SHA256.hex(ofFile: source) == sha256
        else { return }
        let staged = folder.appendingPathComponent(relative)
        let parent = staged.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: parent.path) { try Self.createFolder(parent) }
        try AttachmentFile.copy(source, to: staged.path)
        written.insert(relative)
    }

    /// How many records were written since the last call.
    func takeCount() -> Int {
        defer { count = 0 }
        return count
    }

    /// Puts the export in place, once the folder holds nothing the store has
    /// not seen (`seen` says whether a line of an editable record is the one
    /// the store last exported or imported; `holdsStatement` whether the
    /// store has a claim's words, by claim key and SHA-256): the list of
    /// moves and removals is written, then carried out.
    func commit(
        seen: (String) -> Bool, holdsStatement: (String, String) throws -> Bool, renamed: (String) throws -> Bool = { _ in false }
    ) throws {
        FaultPoint.reached("export.staged")
        let existing = formatEntries(in: target)
        if !replace {
            let unseen = try unseenRecords(existing, seen: seen, holdsStatement: holdsStatement, renamed: renamed)
            if !unseen.isEmpty {
                let shown = unseen.prefix(5).joined(separator: "; ") + (unseen.count > 5 ? "; and \(unseen.count - 5) more" : "")
                throw EvidenceError.refused(
                    reason: "\(target.path) holds what this store has not imported, and the export would remove it: \(shown). "
                        + "Run 'evidence sync \(target.path)' to import it first, or give --replace to write over it")
            }
        }
        let moves = written.sorted()
        let removals = existing.filter { !written.contains($0) }.sorted()
        try InterruptedExport.markReady(folder, moves: moves, removals: removals)
        committed = true
        FaultPoint.reached("export.ready")
        try InterruptedExport.finish(folder, into: target)
    }

    // MARK: - What the folder holds

    /// The format's files in a folder (relative paths).
    private func formatEntries(in root: URL) -> [String] {
        let manager = FileManager.default
        var entries: [String] = []
        for name in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] {
            if let part = TextFormat.Part.allCases.first(where: { $0.isFolder && $0.name == name }) {
                for inner in (try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(name).path)) ?? [] {
                    let relative = part.name + "/" + inner
                    if TextFormat.isFormatEntry(relative) { entries.append(relative) }
                }
            } else if TextFormat.isFormatEntry(name) {
                entries.append(name)
            }
        }
        return entries.sorted()
    }

    /// Files of the format holding records people edit; the others (runs,
    /// label changes, statements, test mappings) are only ever added to.
    private static func holdsEditableRecords(_ relative: String) -> Bool {
        let editable: [TextFormat.Part] = [.sources, .capabilities, .documents, .claims, .environmentLacks, .checklists, .checklistItems]
        return editable.contains { relative == $0.name || relative.hasPrefix($0.name + "/") }
    }

    /// What the folder's files hold that the new export leaves out or
    /// changes, and the store has not seen: a record only ever added that
    /// the store lacks, or an edited record whose line is neither the new one
    /// nor the one the store last shared.
    /// Earlier words the export leaves out because they are a claim's words
    /// again are held, not lost (issue 44, #12).
    private func unseenRecords(
        _ existing: [String], seen: (String) -> Bool, holdsStatement: (String, String) throws -> Bool,
        renamed: (String) throws -> Bool
    ) throws -> [String] {
        var unseen: [String] = []
        for relative in existing where relative != TextFormat.manifest {
            let old = target.appendingPathComponent(relative)
            let new = folder.appendingPathComponent(relative)
            let oldData = try InputFile.read(old.path, maxBytes: 1 << 30)
            let newData = written.contains(relative) ? try InputFile.read(new.path, maxBytes: 1 << 30) : Data()
            guard oldData != newData else { continue }
            guard let oldRecords = Self.records(oldData), let newRecords = Self.records(newData) else {
                unseen.append("\(relative), which is not records of this version of the format")
                continue
            }
            let editable = Self.holdsEditableRecords(relative)
            for (key, record) in oldRecords.sorted(by: { $0.key < $1.key }) {
                if let now = newRecords[key] {
                    if !editable || now.line == record.line || seen(record.line) { continue }
                    unseen.append("\(record.description) as changed in \(relative)")
                } else if !(editable && seen(record.line)), try !Self.isHeldStatement(record.line, in: relative, holdsStatement),
                    try !(!editable && Self.namesRenamedClaim(record.line, renamed))
                {
                    unseen.append("\(record.description) in \(relative)")
                }
            }
        }
        return unseen
    }

    /// Whether a record only ever added names a claim by a key it was
    /// renamed from: the export writes it under the new key.
    private static func namesRenamedClaim(_ line: String, _ renamed: (String) throws -> Bool) throws -> Bool {
        guard let claim = (try? JSONReader.parse(Data(line.utf8)))?["claim"]?.stringValue else { return false }
        return try renamed(claim)
    }

    /// Whether a line of a statements file names words the store holds.
    private static func isHeldStatement(_ line: String, in relative: String, _ holds: (String, String) throws -> Bool) throws -> Bool {
        guard relative.hasPrefix(TextFormat.Part.statements.name + "/"), let value = try? JSONReader.parse(Data(line.utf8)),
            let claim = value["claim"]?.stringValue, let sha256 = value["sha256"]?.stringValue
        else { return false }
        return try holds(claim, sha256)
    }

    /// The records of a file by key, or nil when a line is not one.
    private static func records(_ data: Data) -> [String: (line: String, description: String)]? {
        var found: [String: (String, String)] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let text = String(decoding: line, as: UTF8.self).trimmingWhitespace()
            guard !text.isEmpty else { continue }
            guard let value = try? JSONReader.parse(Data(text.utf8)), let identity = RecordIdentity(value) else { return nil }
            found[identity.key] = (text, identity.description)
        }
        return found
    }
}

extension Store {
    /// `sync`: the team's folder imported (when it holds an export), then the
    /// store exported back to it. Everything in the folder was just imported,
    /// so the export may write over it; a conflict stops it before the export.
    public func sync(folder: URL, progress: ((Int) -> Void)? = nil) throws
        -> (imported: StoreImporter.Summary?, exported: StoreExporter.Summary)
    {
        var imported: StoreImporter.Summary?
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(TextFormat.manifest).path) {
            imported = try StoreImporter(store: self).run(try FolderRecordFiles(folder: folder), progress: progress)
        }
        return (imported, try StoreExporter.export(self, to: folder, replace: imported != nil))
    }
}
