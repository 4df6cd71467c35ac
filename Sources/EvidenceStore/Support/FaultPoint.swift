#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Named points in multi-step file operations where the crash tests stop the
/// process as `kill -9` would: with `EVIDENCE_FAULT_POINT=export.staged` set,
/// reaching `FaultPoint.reached("export.staged")` kills the process at once,
/// with no cleanup; with `EVIDENCE_FAULT_POINT=document.written:stop` the
/// process stops itself there (SIGSTOP) until the test, having done what a
/// person might do meanwhile, sends SIGCONT.
///
/// Only test builds have them (debug builds, and release builds made with
/// `-DEVIDENCE_TEST_HOOKS`): in the binary `scripts/release.sh` builds,
/// `reached` is empty and inlined, so neither the variable nor a point's
/// name is in it (`.ci/run` checks).
public enum FaultPoint {
    #if DEBUG || EVIDENCE_TEST_HOOKS
        private static let armed = ProcessInfo.processInfo.environment["EVIDENCE_FAULT_POINT"]

        public static func reached(_ name: StaticString) {
            guard let armed else { return }
            if armed == "\(name)" {
                ThisProcess.killNow()
            } else if armed == "\(name):stop" {
                ThisProcess.stop()
            }
        }
    #else
        @inlinable @inline(__always)
        public static func reached(_ name: StaticString) {}
    #endif
}
