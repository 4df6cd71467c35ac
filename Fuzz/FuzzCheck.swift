import Foundation


/// Invariant checks inside fuzz targets: a broken invariant stops the fuzzer
/// with the input that broke it, as a crash would.
enum FuzzCheck {
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        guard !condition else { return }
        FileHandle.standardError.write(Data(("invariant broken: " + message() + "\n").utf8))
        abort()
    }
}
