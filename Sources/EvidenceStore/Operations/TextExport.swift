import Foundation

/// Writes a whole store in the text format: the same store always gives the
/// same bytes, so the folder diffs cleanly in git.
public enum StoreExporter {
    public struct Summary: Equatable, Sendable {
        /// Records written per file, in `TextFormat.files` order.
        public var counts: [(String, Int)]

        public static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.counts.map { "\($0.0)=\($0.1)" } == rhs.counts.map { "\($0.0)=\($0.1)" }
        }
    }

    public static func export(_ store: Store, to folder: URL) throws -> Summary {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw EvidenceError.io(path: folder.path, reason: "is a file, not a folder")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(error.localizedDescription))")
            }
        }
        // One read transaction: every file shows the same moment of the store.
        return try store.read { reader in
            var counts: [(String, Int)] = []
            for file in TextFormat.File.allCases {
                let sink = try TextSink(path: folder.appendingPathComponent(file.rawValue).path)
                var count = 0
                func emit(_ line: JSONLine) {
                    sink.write(line.line)
                    count += 1
                }
                switch file {
                case .sources: try reader.sourceRecords { emit($0.line) }
                case .capabilities: try reader.capabilityRecords { emit($0.line) }
                case .claims: try reader.claimRecords { emit($0.line) }
                case .environmentLacks: try reader.lackRecords { emit($0.line) }
                case .ingestedFiles: try reader.ingestedFileRecords { emit($0.line) }
                case .runs: try reader.runRecords { emit($0.line) }
                case .results: try reader.resultRecords { emit($0.line) }
                case .retractions: try reader.retractionRecords { emit($0.line) }
                case .labelHistory: try reader.labelChangeRecords { emit($0.line) }
                case .checklists: try reader.checklistRecords { emit($0.line) }
                case .checklistItems: try reader.checklistItemRecords { emit($0.line) }
                case .testMappings: try reader.testMappingRecords { emit($0.line) }
                }
                try sink.close()
                counts.append((file.rawValue, count))
            }
            let manifest = try TextSink(path: folder.appendingPathComponent(TextFormat.manifest).path)
            var line = JSONLine()
            line.add("format", TextFormat.name)
            line.add("version", Int64(TextFormat.version))
            manifest.write(line.line)
            try manifest.close()
            return Summary(counts: counts)
        }
    }
}
