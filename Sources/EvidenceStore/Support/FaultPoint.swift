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
