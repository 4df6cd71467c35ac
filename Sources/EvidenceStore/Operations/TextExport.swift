import Foundation

/// Writes a whole store in the text format, version 3: the same store always
/// gives the same bytes, so the folder diffs and merges cleanly in git. The
/// export is written beside the folder and swapped in whole (see
/// `ExportFolder`): files of the format that the store no longer gives (and
/// version 1's) are gone, anything else in the folder is kept. The records people edit are kept in the store as
/// exported, the base the next import compares with.
public enum StoreExporter {
    public struct Summary: Equatable, Sendable {
        /// Records written per part of the format, in import order.
        public var counts: [(String, Int)]

        public var total: Int { counts.reduce(0) { $0 + $1.1 } }

        public static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.counts.map { "\($0.0)=\($0.1)" } == rhs.counts.map { "\($0.0)=\($0.1)" }
        }
    }

    public static func export(_ store: Store, to folder: URL) throws -> Summary {
        let output = try ExportFolder(folder)
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
                case .claims:
                    var byDocument: [String: [TextFormat.Claim]] = [:]
                    try reader.claimRecords { byDocument[$0.document, default: []].append($0) }
                    for (document, claims) in byDocument.sorted(by: { $0.key < $1.key }) {
                        try output.file(part.name + "/" + TextFormat.fileName(ofDocument: document)) { emit in
                            for claim in claims { keep(claim, .claim, emit) }
                        }
                    }
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
            var manifest = JSONLine()
            manifest.add("format", TextFormat.name)
            manifest.add("version", Int64(TextFormat.version))
            try output.file(TextFormat.manifest) { emit in emit(manifest) }
            try output.commit()
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

/// The folder an export writes. The whole export is written into a staging
/// folder beside it, then swapped in at once (`renameat2` with
/// `RENAME_EXCHANGE`), so the folder always holds one whole export, the old or
/// the new, never files of two moments. What else the folder holds (`.git`, a
/// README, anything not of the format) is moved into the staging folder just
/// before the swap; a crash in between leaves it in a sibling named
/// `.NAME.export-…`, and the next export moves it back.
final class ExportFolder {
    /// Where files are written: the staging folder.
    let folder: URL
    /// The folder the export is for.
    let target: URL
    private var written: Set<String> = []
    private var count = 0

    init(_ requested: URL) throws {
        target = requested.resolvingSymlinksInPath().standardizedFileURL
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: target.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw EvidenceError.io(path: requested.path, reason: "is a file, not a folder")
        }
        let parent = target.deletingLastPathComponent()
        if !manager.fileExists(atPath: parent.path) { try Self.createFolder(parent) }
        try Self.recover(target)
        folder = parent.appendingPathComponent(
            ".\(target.lastPathComponent).export-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard mkdir(folder.path, 0o755) == 0 else {
            throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(String(cString: strerror(errno))))")
        }
    }

    deinit {
        // A staging folder left after a failure: the user's entries go back first.
        let manager = FileManager.default
        guard manager.fileExists(atPath: folder.path) else { return }
        if manager.fileExists(atPath: target.path) {
            try? Self.moveForeignEntries(from: folder, to: target, replacing: false)
        }
        try? manager.removeItem(at: folder)
    }

    private static func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw EvidenceError.io(path: url.path, reason: "cannot be created (\(error.localizedDescription))")
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

    /// How many records were written since the last call.
    func takeCount() -> Int {
        defer { count = 0 }
        return count
    }

    /// Puts the export in place: moves what is not of the format from the old
    /// folder into the staging one, then swaps the two and removes the old.
    func commit() throws {
        FaultPoint.reached("export.staged")
        let manager = FileManager.default
        guard manager.fileExists(atPath: target.path) else {
            try Self.rename(folder, to: target)
            return
        }
        try Self.moveForeignEntries(from: target, to: folder, replacing: false)
        FaultPoint.reached("export.moved")
        try Self.exchange(folder, target)
        FaultPoint.reached("export.exchanged")
        // `folder` now holds the old export.
        try? manager.removeItem(at: folder)
    }

    // MARK: - What belongs to the format

    /// Whether a path relative to an export folder is the format's to write
    /// and remove: its manifest, its files (of either version) and the
    /// `.jsonl` files in its folders. Everything else belongs to the user.
    static func isFormatEntry(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/").map(String.init)
        guard let first = parts.first else { return false }
        if parts.count == 1 {
            return first == TextFormat.manifest || TextFormat.files.contains(first)
                || TextFormat.Part.allCases.contains { !$0.isFolder && $0.name == first }
        }
        return parts.count == 2 && TextFormat.Part.allCases.contains { $0.isFolder && $0.name == first }
            && parts[1].hasSuffix(".jsonl")
    }

    /// Moves the user's entries (top-level ones, and those in the format's
    /// folders) from one folder to another, leaving alone any the destination
    /// has unless `replacing`.
    private static func moveForeignEntries(from source: URL, to destination: URL, replacing: Bool) throws {
        let manager = FileManager.default
        var entries: [String] = []
        for name in (try? manager.contentsOfDirectory(atPath: source.path)) ?? [] {
            if let part = TextFormat.Part.allCases.first(where: { $0.isFolder && $0.name == name }) {
                for inner in (try? manager.contentsOfDirectory(atPath: source.appendingPathComponent(name).path)) ?? [] {
                    let relative = part.name + "/" + inner
                    if !isFormatEntry(relative) { entries.append(relative) }
                }
            } else if !isFormatEntry(name) {
                entries.append(name)
            }
        }
        for relative in entries.sorted() {
            let to = destination.appendingPathComponent(relative)
            if manager.fileExists(atPath: to.path) {
                guard replacing else { continue }
                try? manager.removeItem(at: to)
            }
            let parent = to.deletingLastPathComponent()
            if !manager.fileExists(atPath: parent.path) { try createFolder(parent) }
            try rename(source.appendingPathComponent(relative), to: to)
        }
    }

    private static func rename(_ from: URL, to: URL) throws {
        guard Glibc.rename(from.path, to.path) == 0 else {
            throw EvidenceError.io(path: to.path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
    }

    /// Swaps two folders at once where the kernel and filesystem can; else
    /// renames the old one aside first (which `recover` undoes after a crash).
    private static func exchange(_ staged: URL, _ target: URL) throws {
        if AtomicRename.swap(staged.path, target.path) { return }
        let aside = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).old-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try rename(target, to: aside)
        FaultPoint.reached("export.aside")
        do {
            try rename(staged, to: target)
        } catch {
            try? rename(aside, to: target)
            throw error
        }
        try rename(aside, to: staged)
    }

    /// After a crash: puts back a folder renamed aside, gives the user's
    /// entries left in a staging or old folder back to the folder, and removes
    /// what is left.
    static func recover(_ target: URL) throws {
        let manager = FileManager.default
        let parent = target.deletingLastPathComponent()
        let prefix = "." + target.lastPathComponent + "."
        let leftovers = Leftovers.abandoned(in: parent.path, prefix: prefix + "export-")
            + Leftovers.abandoned(in: parent.path, prefix: prefix + "old-")
        guard !leftovers.isEmpty else { return }
        if !manager.fileExists(atPath: target.path),
            let aside = leftovers.first(where: { $0.hasPrefix(prefix + "old-") })
        {
            try rename(parent.appendingPathComponent(aside), to: target)
        }
        for name in leftovers {
            let leftover = parent.appendingPathComponent(name)
            guard manager.fileExists(atPath: leftover.path) else { continue }
            if manager.fileExists(atPath: target.path) {
                try moveForeignEntries(from: leftover, to: target, replacing: false)
            }
            try? manager.removeItem(at: leftover)
        }
    }
}
