import Foundation

/// Writes a whole store in the text format, version 2: the same store always
/// gives the same bytes, so the folder diffs and merges cleanly in git. Each
/// file is written whole and renamed into place; files of the format that the
/// store no longer gives (and version 1's) are removed, anything else in the
/// folder is left alone. The records people edit are kept in the store as
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
            for part in TextFormat.Part.allCases {
                switch part {
                case .sources:
                    try output.file(part.name) { emit in
                        try reader.sourceRecords { record in
                            emit(record.line)
                            exchanged.append((.source, record.key, record.line.object))
                        }
                    }
                case .capabilities:
                    try output.file(part.name) { emit in
                        try reader.capabilityRecords { record in
                            emit(record.line)
                            exchanged.append((.capability, record.key, record.line.object))
                        }
                    }
                case .claims:
                    var byDocument: [String: [TextFormat.Claim]] = [:]
                    try reader.claimRecords { byDocument[$0.document, default: []].append($0) }
                    for (document, claims) in byDocument.sorted(by: { $0.key < $1.key }) {
                        try output.file(part.name + "/" + TextFormat.fileName(ofDocument: document)) { emit in
                            for claim in claims {
                                emit(claim.line)
                                exchanged.append((.claim, claim.key, claim.line.object))
                            }
                        }
                    }
                case .statements:
                    // Written from what the runs proved, below.
                    continue
                case .environmentLacks:
                    try output.file(part.name) { emit in
                        try reader.lackRecords { record in
                            emit(record.line)
                            exchanged.append((.lack, record.key, record.line.object))
                        }
                    }
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
                    try output.file(part.name) { emit in
                        try reader.checklistRecords { record in
                            emit(record.line)
                            exchanged.append((.checklist, record.key, record.line.object))
                        }
                    }
                case .checklistItems:
                    try output.file(part.name) { emit in
                        try reader.checklistItemRecords { record in
                            emit(record.line)
                            exchanged.append((.checklistItem, record.key, record.line.object))
                        }
                    }
                case .testMappings:
                    try output.file(part.name) { emit in try reader.testMappingRecords { emit($0.line) } }
                }
                counts.append((part.name, output.takeCount()))
            }
            var manifest = JSONLine()
            manifest.add("format", TextFormat.name)
            manifest.add("version", Int64(TextFormat.version))
            try output.file(TextFormat.manifest) { emit in emit(manifest) }
            try output.removeStaleFiles()
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

/// The folder an export writes: each file whole, renamed into place.
final class ExportFolder {
    let folder: URL
    private var written: Set<String> = []
    private var count = 0

    init(_ folder: URL) throws {
        self.folder = folder
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw EvidenceError.io(path: folder.path, reason: "is a file, not a folder")
            }
        } else {
            try Self.createFolder(folder)
        }
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
        let temporary = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(getpid())")
        let sink = try TextSink(path: temporary.path)
        do {
            try body { line in
                sink.write(line.line)
                self.count += 1
            }
            try sink.close()
        } catch {
            try? sink.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw EvidenceError.io(path: target.path, reason: "cannot be written (\(reason))")
        }
        written.insert(relative)
    }

    /// How many records were written since the last call.
    func takeCount() -> Int {
        defer { count = 0 }
        return count
    }

    /// Removes the files of the format this export did not write: those of
    /// version 1, and per-document or per-run files the store no longer gives.
    func removeStaleFiles() throws {
        let manager = FileManager.default
        var stale = TextFormat.files.filter { !written.contains($0) && manager.fileExists(atPath: path($0)) }
        for part in TextFormat.Part.allCases where part.isFolder {
            let names = (try? manager.contentsOfDirectory(atPath: path(part.name))) ?? []
            stale += names.filter { $0.hasSuffix(".jsonl") && !written.contains(part.name + "/" + $0) }
                .map { part.name + "/" + $0 }
        }
        for relative in stale.sorted() {
            do {
                try manager.removeItem(atPath: path(relative))
            } catch {
                throw EvidenceError.io(path: path(relative), reason: "cannot be removed (\(error.localizedDescription))")
            }
        }
    }

    private func path(_ relative: String) -> String {
        folder.appendingPathComponent(relative).path
    }
}
