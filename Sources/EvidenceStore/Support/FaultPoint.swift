import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Named points in multi-step file operations where the crash tests stop the
/// process as `kill -9` would: with `EVIDENCE_FAULT_POINT=export.staged` set,
/// reaching `FaultPoint.reached("export.staged")` kills the process at once,
/// with no cleanup. Without the variable (always, outside the tests) nothing
/// happens.
public enum FaultPoint {
    private static let armed = ProcessInfo.processInfo.environment["EVIDENCE_FAULT_POINT"]

    public static func reached(_ name: String) {
        if let armed, armed == name {
            kill(getpid(), SIGKILL)
        }
    }
}

/// Temporary files and folders this program names `PREFIX-PID-RANDOM` beside
/// what it writes: those of a process that no longer runs were left by a crash.
public enum Leftovers {
    /// Whether the process that named `name` (`…-PID-RANDOM`) has ended.
    public static func isAbandoned(_ name: String) -> Bool {
        let fields = name.split(separator: "-")
        guard fields.count >= 3, let pid = Int32(fields[fields.count - 2]) else { return false }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The names in `folder` that start with `prefix` and were abandoned.
    public static func abandoned(in folder: String, prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(prefix) && isAbandoned($0) }
            .sorted()
    }
}
