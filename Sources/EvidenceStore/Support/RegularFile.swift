#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Files the tool reads (result files, export folders, `xcodebuild -version`
/// output, attachments) are regular files, opened without blocking: a FIFO, a
/// terminal or `/dev/stdin` behind a link would wait for a writer forever,
/// and a device such as `/dev/zero` never ends. (`InputFile` gives the same
/// with the domain's errors.)
public enum RegularFile {
    /// Why a file was not opened.
    public enum Failure: Error, Equatable, Sendable {
        case missing
        /// What it is instead: "a folder", "a FIFO (named pipe)"…
        case notRegular(String)
        case unreadable(String)
        case tooLarge(Int)
    }

    /// Refuses what is at `path`, following links, unless it is a regular file:
    /// a missing file, a folder, a FIFO, a device, a socket.
    public static func check(_ path: String) throws {
        let status: FileStatus
        do { status = try FileSystem.status(path) } catch { throw openError(error) }
        if let kind = status.kindPhrase { throw Failure.notRegular(kind) }
    }

    /// Opens a regular file to read. The open itself does not wait (O_NONBLOCK),
    /// the type is checked on the open descriptor (no race with a rename), and
    /// reads then block as usual.
    public static func open(_ path: String) throws -> OpenFile {
        let file: OpenFile
        do { file = try FileSystem.open(path, [.read, .nonBlocking, .noControllingTerminal]) } catch { throw openError(error) }
        let status: FileStatus
        do { status = try file.status() } catch { throw openError(error) }
        if let kind = status.kindPhrase { throw Failure.notRegular(kind) }
        file.setBlocking()
        return file
    }

    /// Reads a regular file whole, refusing one longer than `maxBytes` (read
    /// one byte past the limit, in case it grew after a size was checked).
    public static func read(_ path: String, maxBytes: Int) throws -> Data {
        let handle = try open(path)
        defer { handle.close() }
        var data = Data()
        try forEachChunk(of: handle, size: 1 << 20) { chunk in
            data.append(contentsOf: chunk)
            if data.count > maxBytes { throw Failure.tooLarge(maxBytes) }
        }
        return data
    }

    /// Each chunk of `size` bytes of an open file to its end, the last
    /// shorter, all read into one buffer: valid only during `body`.
    public static func forEachChunk(
        of handle: OpenFile, size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while case let filled = try read(from: handle, into: buffer), filled > 0 {
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
        }
    }

    /// The next `size` bytes of an open file, fewer at its end, none past it.
    public static func read(from handle: OpenFile, upTo size: Int) throws -> Data {
        var data = Data(count: size)
        let filled = try data.withUnsafeMutableBytes { try read(from: handle, into: $0) }
        data.count = filled
        return data
    }

    /// Fills `buffer` with the next bytes of an open file, fewer at its end:
    /// how many. A reader of many chunks reads each into the same buffer.
    public static func read(from handle: OpenFile, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try handle.read(into: buffer)
        } catch {
            throw Failure.unreadable(error.description)
        }
    }

    private static func openError(_ error: SystemError) -> Failure {
        error.isMissing ? .missing : .unreadable(error.description)
    }
}

extension SHA256 {
    /// The hex digest of a file, read in chunks; nil when it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        guard let handle = try? RegularFile.open(path) else { return nil }
        defer { handle.close() }
        let hasher = SHA256()
        do {
            try RegularFile.forEachChunk(of: handle, size: 1 << 20) { hasher.update($0) }
        } catch {
            return nil
        }
        return hasher.finalizeHex()
    }
}
