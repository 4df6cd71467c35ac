#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
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
    private let modified: (seconds: Int64, nanoseconds: Int64)
    private let digest: String

    /// Reads a regular file (through links), at most `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = 16 << 20) throws -> UserFile {
        let target: String
        do {
            target = try FileSystem.realPath(path)
        } catch {
            if error == .noSuchFile { throw EvidenceError.fileMissing(path: path) }
            throw EvidenceError.io(path: path, reason: error.description)
        }
        let data = try InputFile.read(target, maxBytes: maxBytes)
        let status: FileStatus
        do {
            status = try FileSystem.status(target)
        } catch {
            throw EvidenceError.io(path: path, reason: error.description)
        }
        return UserFile(
            path: path, target: target, data: data, size: status.size,
            modified: (status.modifiedSeconds, status.modifiedNanoseconds), digest: SHA256.hex(data))
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
        try replace(bytes: Array(text.utf8), by: command)
    }

    /// The same with bytes, for a file that need not be UTF-8 (a person's
    /// `.gitattributes` may hold any encoding).
    public func replace(bytes: [UInt8], by command: String) throws {
        let status: FileStatus
        do {
            status = try FileSystem.status(target)
        } catch {
            throw EvidenceError.io(path: path, reason: "changed while \(command) ran (\(error)); run it again")
        }
        guard FileSystem.writeDenied(target) == nil,
            status.permissions & 0o200 != 0 || ThisProcess.isRoot && status.permissions & 0o222 != 0
        else {
            throw EvidenceError.io(path: path, reason: "is read-only; \(command) changes nothing in it")
        }
        if status.links > 1 {
            try writeInPlace(bytes, command: command)
        } else {
            try writeBeside(bytes, status: status, command: command)
        }
    }

    /// Whether the file at `target` is still what was read; the descriptor,
    /// when given, reads it.
    private func unchanged(_ file: OpenFile? = nil) -> Bool {
        guard let status = try? file?.status() ?? FileSystem.status(target), status.size == size,
            status.modifiedSeconds == modified.seconds, status.modifiedNanoseconds == modified.nanoseconds
        else { return false }
        guard let now = try? InputFile.read(target, maxBytes: Int(size) + 1) else { return false }
        return SHA256.hex(now) == digest
    }

    private func changed(_ command: String) -> EvidenceError {
        EvidenceError.io(path: path, reason: "changed while \(command) ran; run it again")
    }

    /// A new file beside the target with its mode and owner, synced, renamed
    /// over it once it is checked unchanged.
    private func writeBeside(_ bytes: [UInt8], status: FileStatus, command: String) throws {
        let folder = PathText.folder(of: target)
        let name = PathText.name(of: target)
        for leftover in Leftovers.abandoned(in: folder, prefix: "." + name + ".evidence-") {
            FileSystem.remove(folder + "/" + leftover)
        }
        let temporary = folder + "/." + name + ".evidence-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        var renamed = false
        defer {
            if !renamed { FileSystem.remove(temporary) }
        }
        do {
            let file = try FileSystem.open(temporary, [.write, .create, .exclusive], permissions: status.permissions)
            defer { file.close() }
            // The mode as it was, whatever the umask took; the owner where this user may give it.
            try? file.setPermissions(status.permissions)
            try? file.setOwner(status.owner, group: status.group)
            try file.write(bytes)
            try file.sync()
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot write beside it (\(error))")
        }
        FaultPoint.reached("document.written")
        guard unchanged() else { throw changed(command) }
        do {
            try FileSystem.rename(temporary, to: target)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be replaced (\(error))")
        }
        renamed = true
        FileSystem.syncFolder(folder)
    }

    /// A file with several names: written in place, under an exclusive lock,
    /// after it is checked unchanged; every name then has the new text.
    private func writeInPlace(_ bytes: [UInt8], command: String) throws {
        let file: OpenFile
        do {
            file = try FileSystem.open(target, .write)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(error))")
        }
        defer { file.close() }
        FaultPoint.reached("document.written")
        do {
            try file.lock()
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be locked (\(error))")
        }
        defer { file.unlock() }
        guard unchanged(file) else { throw changed(command) }
        do {
            try file.truncate(to: 0)
            try file.write(bytes)
            try file.sync()
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(error))")
        }
    }
}
