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
        return try store.database.inTransaction(.deferred) {
            var counts: [(String, Int)] = []
            for file in TextFormat.files {
                let sink = try TextSink(path: folder.appendingPathComponent(file).path)
                var count = 0
                func emit(_ line: JSONLine) {
                    sink.write(line.line)
                    count += 1
                }
                switch file {
                case "sources.jsonl": try store.textSources { emit($0.line) }
                case "capabilities.jsonl": try store.textCapabilities { emit($0.line) }
                case "claims.jsonl": try store.textClaims { emit($0.line) }
                case "environment_lacks.jsonl": try store.textLacks { emit($0.line) }
                case "ingested_files.jsonl": try store.textIngestedFiles { emit($0.line) }
                case "runs.jsonl": try store.textRuns { emit($0.line) }
                case "results.jsonl": try store.textResults { emit($0.line) }
                case "label_history.jsonl": try store.textLabelChanges { emit($0.line) }
                case "checklists.jsonl": try store.textChecklists { emit($0.line) }
                case "checklist_items.jsonl": try store.textChecklistItems { emit($0.line) }
                case "test_mappings.jsonl": try store.textTestMappings { emit($0.line) }
                default: break
                }
                try sink.close()
                counts.append((file, count))
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
