#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Buffered text output to a file descriptor, with write errors surfaced (a
/// full disk is an error, never a silently short file). A sink made for a
/// path writes a temporary file beside it and renames it into place on
/// `close()`, so readers never see half a file.
public final class TextSink {
    private var buffer: [UInt8] = []
    private let limit = 1 << 16
    /// Where the bytes go; nil for a sink that keeps them in memory.
    private let file: OpenFile?
    private let ownsFile: Bool
    private let finalPath: String?
    private let temporaryPath: String?
    public let name: String
    /// Set for a sink that keeps its output in memory instead of writing it.
    private var kept: [UInt8]?
    /// The first write error, if any.
    public private(set) var failure: SystemError?
    private var closed = false
    /// The temporary file's slot in `PendingFiles`, while it is not yet in place.
    private var pending: Int?

    /// Writes to an open descriptor (standard output), which stays open.
    public init(descriptor: Int32, name: String) {
        file = OpenFile(descriptor: descriptor)
        ownsFile = false
        finalPath = nil
        temporaryPath = nil
        self.name = name
        buffer.reserveCapacity(limit)
    }

    /// Keeps the output in memory, for a document that is part of another
    /// (a generated block): `keptText` reads it after `flush()`.
    public init(keepingAs name: String) {
        file = nil
        ownsFile = false
        finalPath = nil
        temporaryPath = nil
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
        // What a killed run of the command left beside it goes first.
        Leftovers.sweep(beside: path)
        return try TextSink(path: path)
    }

    public convenience init(path: String) throws {
        do {
            // A device, pipe or socket (`--output /dev/null`, `--output >(gzip)`) is
            // written into as it is: renaming a file over it would replace it.
            if let status = try? FileSystem.status(path), status.kind != .regular, status.kind != .folder {
                self.init(owning: try FileSystem.open(path, .write), name: path, finalPath: nil, temporaryPath: nil)
                return
            }
            let temporary = Leftovers.temporaryName(beside: path)
            let file = try FileSystem.open(temporary, [.write, .create, .exclusive])
            self.init(owning: file, name: path, finalPath: path, temporaryPath: temporary)
            pending = PendingFiles.add(temporary)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(error))")
        }
    }

    /// A file this sink closes; with a temporary path, renamed to the final one on `close()`.
    private init(owning file: OpenFile, name: String, finalPath: String?, temporaryPath: String?) {
        self.file = file
        ownsFile = true
        self.finalPath = finalPath
        self.temporaryPath = temporaryPath
        self.name = name
        buffer.reserveCapacity(limit)
    }

    deinit {
        if ownsFile {
            file?.close()
            if !closed, let temporaryPath { FileSystem.remove(temporaryPath) }
        }
        PendingFiles.remove(pending)
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

    /// Writes what is buffered; throws when any write so far failed.
    public func flush() throws {
        flushBuffer()
        try check()
    }

    /// Flushes, syncs and renames a file into place; for a descriptor, flushes.
    public func close() throws {
        flushBuffer()
        try check()
        guard ownsFile, let file, let temporaryPath, let finalPath else { return }
        do {
            try file.sync()
            try FileSystem.rename(temporaryPath, to: finalPath)
        } catch {
            throw EvidenceError.io(path: finalPath, reason: "cannot be written (\(error))")
        }
        closed = true
        PendingFiles.remove(pending)
        pending = nil
    }

    private func check() throws {
        if let failure {
            throw EvidenceError.io(path: name, reason: "cannot be written (\(failure))")
        }
        if closed { throw EvidenceError.io(path: name, reason: "is closed; nothing more can be written") }
    }

    private func flushBuffer() {
        guard !buffer.isEmpty else { return }
        if kept != nil {
            kept?.append(contentsOf: buffer)
        } else if failure == nil, let file {
            do {
                try file.write(buffer)
            } catch {
                failure = error
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
