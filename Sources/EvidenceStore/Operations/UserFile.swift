import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A file a person owns (a Markdown document), read and then rewritten the
/// way careful tools do it (git's lockfile, an editor's save): one function
/// for every command that edits documents.
///
/// Reading resolves links to the file itself and remembers what it was (its
/// size, modification time and SHA-256). Replacing writes through a link to
/// its target; refuses a read-only file; keeps the mode, the owner and the
/// hard links; and checks, immediately before it replaces the file, that it
/// is still what was read, refusing with "changed while … ran" otherwise.
/// A file with one name is written beside itself and renamed over (never
/// half-written); one with several names (hard links) is written in place
/// under a lock, so every name keeps the new text.
public struct UserFile: Sendable {
    /// The path as given.
    public let path: String
    /// The file written: links resolved.
    public let target: String
    public let data: Data
    private let size: Int64
    private let modified: timespec
    private let digest: String

    /// Reads a regular file (through links), at most `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = 16 << 20) throws -> UserFile {
        guard let resolved = realpath(path, nil) else {
            if errno == ENOENT { throw EvidenceError.fileMissing(path: path) }
            throw EvidenceError.io(path: path, reason: String(cString: strerror(errno)))
        }
        let target = String(cString: resolved)
        free(resolved)
        let data = try InputFile.read(target, maxBytes: maxBytes)
        var status = stat()
        guard stat(target, &status) == 0 else {
            throw EvidenceError.io(path: path, reason: String(cString: strerror(errno)))
        }
        return UserFile(
            path: path, target: target, data: data, size: Int64(status.st_size), modified: status.st_mtim,
            digest: SHA256.hex(data))
    }

    /// The file's text, which must be UTF-8.
    public func text() throws -> String {
        // The standard library's decoding keeps a byte-order mark (Foundation's drops it).
        guard let text = String(validating: data, as: UTF8.self) else {
            throw EvidenceError.invalidValue(field: "document", value: path, expected: "a UTF-8 text file")
        }
        return text
    }

    /// Replaces the file's content with `text`, as the type's comment says;
    /// `command` names what ran, for the refusal when the file changed.
    public func replace(with text: String, by command: String) throws {
        var status = stat()
        guard stat(target, &status) == 0 else {
            throw EvidenceError.io(path: path, reason: "changed while \(command) ran (\(String(cString: strerror(errno)))); run it again")
        }
        guard access(target, W_OK) == 0, status.st_mode & S_IWUSR != 0 || getuid() == 0 && status.st_mode & 0o222 != 0
        else {
            throw EvidenceError.io(path: path, reason: "is read-only; \(command) changes nothing in it")
        }
        let bytes = Array(text.utf8)
        if status.st_nlink > 1 {
            try writeInPlace(bytes, command: command)
        } else {
            try writeBeside(bytes, status: status, command: command)
        }
    }

    /// Whether the file at `target` is still what was read; the descriptor,
    /// when given, reads it.
    private func unchanged(_ descriptor: Int32? = nil) -> Bool {
        var status = stat()
        let found = descriptor.map { fstat($0, &status) } ?? stat(target, &status)
        guard found == 0, Int64(status.st_size) == size, status.st_mtim.tv_sec == modified.tv_sec,
            status.st_mtim.tv_nsec == modified.tv_nsec
        else { return false }
        guard let now = try? InputFile.read(target, maxBytes: Int(size) + 1) else { return false }
        return SHA256.hex(now) == digest
    }

    private func changed(_ command: String) -> EvidenceError {
        EvidenceError.io(path: path, reason: "changed while \(command) ran; run it again")
    }

    /// A new file beside the target with its mode and owner, synced, renamed
    /// over it once it is checked unchanged.
    private func writeBeside(_ bytes: [UInt8], status: stat, command: String) throws {
        let folder = PathText.folder(of: target)
        let name = PathText.name(of: target)
        for leftover in Leftovers.abandoned(in: folder, prefix: "." + name + ".evidence-") {
            unlink(folder + "/" + leftover)
        }
        let temporary = folder + "/." + name + ".evidence-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, status.st_mode & 0o7777)
        guard descriptor >= 0 else {
            throw EvidenceError.io(path: path, reason: "cannot write beside it (\(String(cString: strerror(errno))))")
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            // The mode as it was, whatever the umask took; the owner where this user may give it.
            fchmod(descriptor, status.st_mode & 0o7777)
            _ = fchown(descriptor, status.st_uid, status.st_gid)
            try Self.writeAll(bytes, to: descriptor, path: path)
            guard fsync(descriptor) == 0 else {
                throw EvidenceError.io(path: path, reason: "cannot write beside it (\(String(cString: strerror(errno))))")
            }
        }
        FaultPoint.reached("document.written")
        guard unchanged() else { throw changed(command) }
        guard rename(temporary, target) == 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be replaced (\(String(cString: strerror(errno))))")
        }
        renamed = true
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// A file with several names: written in place, under an exclusive lock,
    /// after it is checked unchanged; every name then has the new text.
    private func writeInPlace(_ bytes: [UInt8], command: String) throws {
        let descriptor = open(target, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        FaultPoint.reached("document.written")
        guard flock(descriptor, LOCK_EX) == 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be locked (\(String(cString: strerror(errno))))")
        }
        defer { flock(descriptor, LOCK_UN) }
        guard unchanged(descriptor) else { throw changed(command) }
        guard ftruncate(descriptor, 0) == 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        try Self.writeAll(bytes, to: descriptor, path: path)
        guard fsync(descriptor) == 0 else {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw EvidenceError.io(path: path, reason: "cannot be written (\(String(cString: strerror(errno))))")
            }
            offset += written
        }
    }
}
