#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// `RegularFile` with the domain's errors: a missing file is `fileMissing`,
/// anything but a regular file (a folder, a FIFO, a device) a `badFile` that
/// says what it is, an unreadable one `io`.
public enum InputFile {
    public static func check(_ path: String) throws {
        try mapped(path) { try RegularFile.check(path) }
    }

    public static func open(_ path: String) throws -> OpenFile {
        try mapped(path) { try RegularFile.open(path) }
    }

    public static func read(_ path: String, maxBytes: Int) throws -> Data {
        try mapped(path) { try RegularFile.read(path, maxBytes: maxBytes) }
    }

    /// The next `size` bytes of the file at `path`, open as `handle`: fewer at
    /// its end, none past it.
    public static func read(from handle: OpenFile, upTo size: Int, path: String) throws -> Data {
        try mapped(path) { try RegularFile.read(from: handle, upTo: size) }
    }

    /// Fills `buffer` with the next bytes of the file at `path`, open as
    /// `handle`: how many, fewer at its end.
    public static func read(from handle: OpenFile, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        try mapped(path) { try RegularFile.read(from: handle, into: buffer) }
    }

    /// Each chunk of `size` bytes of the file at `path`, open as `handle`,
    /// read into one buffer: valid only during `body`.
    public static func forEachChunk(
        of handle: OpenFile, size: Int, path: String, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try mapped(path) { try RegularFile.forEachChunk(of: handle, size: size, body) }
    }

    /// The error for what is not a regular file: "is a FIFO (named pipe), not a regular file; …".
    static func notRegular(_ path: String, _ kind: String) -> EvidenceError {
        .badFile(path: path, location: nil, reason: "is \(kind), not a regular file; only regular files are read")
    }

    private static func mapped<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as RegularFile.Failure {
            switch failure {
            case .missing:
                throw EvidenceError.fileMissing(path: path)
            case .notRegular(let kind):
                throw notRegular(path, kind)
            case .unreadable(let reason):
                throw EvidenceError.io(path: path, reason: "cannot be read (\(reason))")
            case .tooLarge(let limit):
                throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(limit) bytes")
            }
        }
    }
}
