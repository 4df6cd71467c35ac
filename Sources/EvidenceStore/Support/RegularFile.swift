import FoundationEssentials

#if canImport(Glibc)
    import Glibc
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
        var info = stat()
        guard stat(path, &info) == 0 else { throw openError(errno) }
        if let kind = kind(of: info.st_mode) { throw Failure.notRegular(kind) }
    }

    /// Opens a regular file to read. The open itself does not wait (O_NONBLOCK),
    /// the type is checked on the open descriptor (no race with a rename), and
    /// reads then block as usual.
    public static func open(_ path: String) throws -> OpenFile {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw openError(errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw openError(code)
        }
        if let kind = kind(of: info.st_mode) {
            close(descriptor)
            throw Failure.notRegular(kind)
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return OpenFile(descriptor: descriptor)
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
    /// One system call reads as much as the file gives (Foundation's
    /// `FileHandle.read(upToCount:)` read 4 KB at a time and appended each
    /// piece to the data it returned: 22,000 calls for two passes over 45 MB).
    public static func read(from handle: OpenFile, upTo size: Int) throws -> Data {
        var data = Data(count: size)
        let filled = try data.withUnsafeMutableBytes { try read(from: handle, into: $0) }
        data.count = filled
        return data
    }

    /// Fills `buffer` with the next bytes of an open file, fewer at its end:
    /// how many. A reader of many chunks reads each into the same buffer.
    public static func read(from handle: OpenFile, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let count = Glibc.read(handle.descriptor, base + filled, buffer.count - filled)
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw Failure.unreadable(String(cString: strerror(errno)))
            }
        }
        return filled
    }

    /// The kind of a non-regular file, as a phrase; nil for a regular file.
    static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    private static func openError(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: return .missing
        default: return .unreadable(String(cString: strerror(code)))
        }
    }
}
