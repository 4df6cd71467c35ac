#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sets a git repository up to merge an export folder record by record: the
/// folder's `.gitattributes` (committed, so every clone has it) sends its
/// files to the `evidence` merge driver, and the repository's own config
/// (kept per clone, never committed) says how to run it.
public enum GitSetup {
    /// The attributes lines, under a comment that says where they come from.
    public static let attributes = """
        # Written by 'evidence git-setup': git merges the text format record by record.
        *.jsonl merge=evidence
        format.json merge=evidence

        """

    public struct Outcome: Sendable {
        /// The repository's top folder.
        public var repository: String
        /// The attributes file, and whether it was written or already held the lines.
        public var attributesFile: String
        public var wroteAttributes: Bool
        /// The driver command now in the repository's config.
        public var driver: String
    }

    /// `executable` is the path git runs as the driver: this binary's.
    public static func run(folder: URL, executable: String) throws -> Outcome {
        var isFolder: Bool = false
        if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw EvidenceError.io(path: folder.path, reason: "cannot be created (\(SystemCall.words(for: error)))")
            }
        } else if !isFolder {
            throw EvidenceError.io(path: folder.path, reason: "is a file, not a folder")
        }
        let top = try git(["-C", folder.path, "rev-parse", "--show-toplevel"], at: folder.path)
            .trimmingWhitespaceAndNewlines()
        let file = folder.appendingPathComponent(".gitattributes")
        let existing = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let wanted = attributes.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        let have = Set(existing.split(separator: "\n").map { $0.trimmingWhitespace() })
        let missing = wanted.filter { !have.contains(String($0)) }
        if !missing.isEmpty {
            let text = existing.isEmpty ? attributes : existing + (existing.hasSuffix("\n") ? "" : "\n") + attributes
            do {
                try Data(text.utf8).write(to: file, options: .atomic)
            } catch {
                throw EvidenceError.io(path: file.path, reason: "cannot be written (\(SystemCall.words(for: error)))")
            }
        }
        let driver = shellQuoted(executable) + " merge-file %O %A %B %P"
        _ = try git(["-C", folder.path, "config", "merge.evidence.name", "evidence: text format records by key"], at: folder.path)
        _ = try git(["-C", folder.path, "config", "merge.evidence.driver", driver], at: folder.path)
        return Outcome(repository: top, attributesFile: file.path, wroteAttributes: !missing.isEmpty, driver: driver)
    }

    /// A path as a POSIX shell reads it back, in single quotes.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "'\\''") + "'"
    }

    /// Runs git and returns what it printed; throws with git's words when it fails.
    private static func git(_ arguments: [String], at path: String) throws -> String {
        let ran: ChildProcess.Ran
        do {
            ran = try MachineTools.run("/usr/bin/env", ["git"] + arguments, limit: 16 << 20, seconds: 60)
        } catch EvidenceError.io(_, let reason) {
            throw EvidenceError.io(path: path, reason: "git \(reason)")
        }
        guard ran.status == 0 else {
            let words = ran.error.trimmingWhitespaceAndNewlines()
            throw EvidenceError.io(path: path, reason: "not in a git repository, or git refused: \(words)")
        }
        let printed = ran.output
        return String(decoding: printed, as: UTF8.self)
    }
}
