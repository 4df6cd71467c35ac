import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered text output to a file descriptor, with write(2) errors surfaced
/// (a full disk is an error, never a silently short file). A sink made for a
/// path writes a temporary file beside it and renames it into place on
/// `close()`, so readers never see half a file.
public final class TextSink {
    private var buffer: [UInt8] = []
    private let limit = 1 << 16
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let finalPath: String?
    private let temporaryPath: String?
    public let name: String
    private var flushed = 0
    /// Set for a sink that keeps its output in memory instead of writing it.
    private var kept: [UInt8]?
    /// The first write error (errno), if any.
    public private(set) var failure: Int32 = 0

    /// Writes to an open descriptor (standard output), which stays open.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.ownsDescriptor = false
        self.finalPath = nil
        self.temporaryPath = nil
        self.name = name
        buffer.reserveCapacity(limit)
    }

    /// Keeps the output in memory, for a document that is part of another
    /// (a generated block): `keptText` reads it after `flush()`.
    public init(keepingAs name: String) {
        self.descriptor = -1
        self.ownsDescriptor = false
        self.finalPath = nil
        self.temporaryPath = nil
        self.name = name
        kept = []
    }

    /// What a sink that keeps its output holds so far.
    public var keptText: String { String(decoding: kept ?? [], as: UTF8.self) }

    /// Creates `path` (replacing it on close).
    /// A file a command writes as its --output: its missing parent folders
    /// are made first, as a person who names `references/evidence.md` expects.
    public static func output(_ path: String) throws -> TextSink {
        let parent = PathText.folder(of: path)
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw EvidenceError.io(path: parent, reason: "cannot be created (\(SystemCall.words(for: error)))")
            }
        }
        return try TextSink(path: path)
    }

    public convenience init(path: String) throws {
        func failed() -> EvidenceError {
            EvidenceError.io(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        // A device, pipe or socket (`--output /dev/null`, `--output >(gzip)`) is
        // written into as it is: renaming a file over it would replace it.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw failed() }
            self.init(owning: fd, name: path, finalPath: nil, temporaryPath: nil)
            return
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failed() }
        self.init(owning: fd, name: path, finalPath: path, temporaryPath: temporary)
    }

    /// A descriptor this sink closes; with a temporary path, renamed to the final one on `close()`.
    private init(owning descriptor: Int32, name: String, finalPath: String?, temporaryPath: String?) {
        self.descriptor = descriptor
        ownsDescriptor = true
        self.finalPath = finalPath
        self.temporaryPath = temporaryPath
        self.name = name
        buffer.reserveCapacity(limit)
    }

    deinit {
        if ownsDescriptor {
            Glibc.close(descriptor)
            if let temporaryPath { unlink(temporaryPath) }
        }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flushBuffer() }
    }

    /// Appends to the output through `body`, with no intermediate strings.
    public func append(_ body: (inout [UInt8]) throws -> Void) rethrows {
        try body(&buffer)
        if buffer.count >= limit { flushBuffer() }
    }

    public func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flushBuffer() }
    }

    /// Appends byte ranges of a file, in the order given.
    public func appendFile(_ path: String, ranges: [Range<Int>]) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EvidenceError.fileMissing(path: path) }
        defer { Glibc.close(fd) }
        for range in ranges {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let want = min(range.upperBound - offset, limit)
                let start = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: want))
                let got = buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress.map { pread(fd, $0 + start, want, off_t(offset)) } ?? 0
                }
                let reason = got < 0 ? errno : 0
                buffer.removeLast(want - max(got, 0))
                if got < 0 && reason == EINTR { continue }
                guard got > 0 else {
                    throw EvidenceError.io(
                        path: path, reason: got < 0 ? "cannot be read (\(String(cString: strerror(reason))))" : "ended early")
                }
                offset += got
                if buffer.count >= limit { flushBuffer() }
            }
        }
    }

    /// How many bytes went into the sink so far, written or buffered.
    public var position: Int { flushed + buffer.count }

    /// Writes what is buffered; throws when any write so far failed.
    public func flush() throws {
        flushBuffer()
        try check()
    }

    /// Flushes, syncs and renames a file into place; for a descriptor, flushes.
    public func close() throws {
        flushBuffer()
        try check()
        guard ownsDescriptor, let temporaryPath, let finalPath else { return }
        if fsync(descriptor) != 0 {
            throw EvidenceError.io(path: finalPath, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        if rename(temporaryPath, finalPath) != 0 {
            throw EvidenceError.io(path: finalPath, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        self.failure = -1  // closed: nothing more may be written
    }

    private func check() throws {
        if failure > 0 {
            throw EvidenceError.io(path: name, reason: "cannot be written (\(String(cString: strerror(failure))))")
        }
    }

    private func flushBuffer() {
        guard !buffer.isEmpty else { return }
        if kept != nil {
            kept?.append(contentsOf: buffer)
        } else if failure == 0 {
            failure = Self.writeAll(buffer, to: descriptor)
        }
        flushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte, retrying partial writes and interrupted calls; 0 or errno.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
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
}
