#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Temporary files and folders this program names `PREFIX` + `PID-RANDOM`
/// beside what it writes (SQLite may add -wal, -shm, -journal to them): those
/// of a process that no longer runs were left by a crash.
public enum Leftovers {
    /// The names in `folder` that start with `prefix` followed by the id of a
    /// process that has ended.
    public static func abandoned(in folder: String, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { name in
                guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }) else {
                    return false
                }
                return ThisProcess.hasEnded(pid)
            }
            .sorted()
    }
}
