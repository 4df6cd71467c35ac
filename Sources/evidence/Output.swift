import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command writes: data to standard output, messages to standard error.
/// Output is buffered and written with write(2), so a large report costs little
/// more than its bytes, and a failed write (a full disk, a closed pipe) is noticed.
final class Output {
    private var buffer: [UInt8] = []
    private let bufferLimit = 1 << 16
    private(set) var failedWrite: Int32 = 0

    init() {
        buffer.reserveCapacity(bufferLimit)
    }

    /// Writes text to standard output as it is.
    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= bufferLimit {
            flush()
        }
    }

    /// Writes a line to standard error, after what standard output holds so far.
    func message(_ text: String) {
        flush()
        let line = text.hasSuffix("\n") ? text : text + "\n"
        _ = Self.writeAll(Array(line.utf8), to: STDERR_FILENO)
    }

    /// Flushes standard output; the error number when anything could not be written.
    func finish() -> Int32 {
        flush()
        return failedWrite
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        if failedWrite == 0 {
            failedWrite = Self.writeAll(buffer, to: STDOUT_FILENO)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte, retrying partial writes and interrupted calls; 0 or errno.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
