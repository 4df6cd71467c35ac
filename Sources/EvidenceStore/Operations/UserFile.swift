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
/// its target; refuses a read-only file; writes the new text whole beside
/// the file with its mode, owner, group and extended attributes (Finder
/// tags), synced, and renames it over the file once it is checked still what
/// was read ("changed while … ran" otherwise). So a kill at any moment
/// leaves the old text or the new, never part of either. Where that cannot
/// keep the file as it was, it refuses and says why: a file with several
/// names (hard links), which a rename would split, unless the caller breaks
/// them (`breakingHardLinks`); a file another person owns, which a new file
/// cannot keep.
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
        guard let text = String(validatingUTF8Bytes: data) else {
            throw EvidenceError.invalidValue(field: "document", value: path, expected: "a UTF-8 text file")
        }
        return text
    }

    /// Replaces the file's content with `text`, as the type's comment says;
    /// `command` names what ran, for the refusal when the file changed.
    public func replace(with text: String, by command: String, breakingHardLinks: Bool = false) throws {
        try replace(bytes: Array(text.utf8), by: command, breakingHardLinks: breakingHardLinks)
    }

    /// The same with bytes, for a file that need not be UTF-8 (a person's
    /// `.gitattributes` may hold any encoding).
    public func replace(bytes: [UInt8], by command: String, breakingHardLinks: Bool = false) throws {
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
        if status.links > 1 && !breakingHardLinks {
            throw EvidenceError.io(
                path: path,
                reason: "has \(status.links) names (hard links), and \(command) writes a file whole beside it and renames it over, "
                    + "so that a kill never leaves it half-written; the other names would keep the old text. "
                    + (command == "git-setup" ? "Make it a file of its own" : "Give --break-hard-links to write it under this name alone, or make it a file of its own"))
        }
        try writeBeside(bytes, status: status, command: command)
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
        Leftovers.sweep(beside: target)
        let temporary = Leftovers.temporaryName(beside: target)
        var renamed = false
        var pending: Int?
        defer {
            if !renamed { FileSystem.remove(temporary) }
            PendingFiles.remove(pending)
        }
        let file: OpenFile
        do {
            file = try FileSystem.open(temporary, [.write, .create, .exclusive], permissions: status.permissions)
            pending = PendingFiles.add(temporary)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot write beside it (\(error))")
        }
        defer { file.close() }
        try keep(status, on: file)
        do {
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

    /// Gives the new file what the old one had: its mode (whatever the umask
    /// took), its owner and group, its extended attributes. What cannot be
    /// kept stops the write, naming it.
    private func keep(_ status: FileStatus, on file: OpenFile) throws {
        try? file.setPermissions(status.permissions)
        if (try? file.status()).map({ $0.owner != status.owner || $0.group != status.group }) ?? true {
            // Only root gives a file away; a member of the group may give it the group.
            if (try? file.setOwner(status.owner, group: status.group)) == nil {
                try? file.setOwner(UInt32.max, group: status.group)
            }
        }
        guard let written = try? file.status() else {
            throw EvidenceError.io(path: path, reason: "cannot write beside it (the new file cannot be read back)")
        }
        if written.owner != status.owner || written.group != status.group {
            let was = FileSystem.ownerName(status.owner) + ":" + FileSystem.groupName(status.group)
            let would = FileSystem.ownerName(written.owner) + ":" + FileSystem.groupName(written.group)
            throw EvidenceError.io(
                path: path,
                reason: "belongs to \(was), and a rewritten file would belong to \(would): writing it would take it from its owner. "
                    + "Let \(FileSystem.ownerName(status.owner)) run the command, or make the file yours")
        }
        if written.permissions != status.permissions { try? file.setPermissions(status.permissions) }
        guard let original = try? FileSystem.open(target, .read) else { return }
        defer { original.close() }
        for attribute in FileSystem.extendedAttributes(of: original) {
            do {
                try FileSystem.setExtendedAttribute(attribute.name, attribute.value, on: file)
            } catch {
                throw EvidenceError.io(path: path, reason: "cannot keep its extended attribute \(attribute.name) (\(error)); nothing was written")
            }
        }
    }
}
