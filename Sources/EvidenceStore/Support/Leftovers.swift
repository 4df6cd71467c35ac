#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Temporary files and folders this program names `PREFIX` + `PID-RANDOM`
/// beside what it writes (SQLite may add -wal, -shm, -journal to them): those
/// of a process that no longer runs were left by a crash. Only that exact
/// shape is taken for one, so a person's file that merely starts the same
/// way is never removed.
public enum Leftovers {
    /// The names in `folder` that are `prefix`, then the id of a process that
    /// has ended, `-` and digits (and perhaps one of SQLite's suffixes).
    public static func abandoned(in folder: String, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { name in
                guard name.hasPrefix(prefix) else { return false }
                var rest = Substring(name.dropFirst(prefix.count))
                for suffix in ["-wal", "-shm", "-journal"] where rest.hasSuffix(suffix) {
                    rest = rest.dropLast(suffix.count)
                }
                let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                    let pid = Int32(parts[0])
                else { return false }
                return ThisProcess.hasEnded(pid)
            }
            .sorted()
    }

    /// The name a write in progress gives the new version of `path`, beside
    /// it: hidden, and named for the file, this process and a random number
    /// (`.evidence.md.evidence-PID-RANDOM`).
    public static func temporaryName(beside path: String) -> String {
        let folder = PathText.folder(of: path)
        return (folder.isEmpty ? "" : folder + "/") + prefix(for: path) + "\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Removes what killed writes of `path` left beside it.
    public static func sweep(beside path: String) {
        let folder = PathText.folder(of: path)
        for leftover in abandoned(in: folder.isEmpty ? "." : folder, prefix: prefix(for: path)) {
            FileSystem.remove((folder.isEmpty ? "" : folder + "/") + leftover)
        }
    }

    private static func prefix(for path: String) -> String {
        "." + PathText.name(of: path) + ".evidence-"
    }
}
