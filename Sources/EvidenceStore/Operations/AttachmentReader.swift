#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


extension AttachmentFile {
    /// Reads a file for attaching. It must exist and be a regular file (not a
    /// link) other than the store's own (`storePath` and its -wal, -shm,
    /// -journal). A file inside the store's folder tree is kept where it is; one
    /// outside it (a Simulator screenshot on the Desktop) is to be copied into
    /// the folder's `attachments/`, named by its SHA-256 (`copiedFrom`; see
    /// `keepCopy(in:)`).
    public static func read(
        _ given: String, storeFolder: URL, storePath: String, workingFolder: String? = nil
    ) throws -> AttachmentFile {
        let base = workingFolder ?? FileManager.default.currentDirectoryPath
        let absolute = given.hasPrefix("/") ? given : base + "/" + given
        guard let info = try? FileSystem.linkStatus(absolute) else {
            throw EvidenceError.fileMissing(path: given)
        }
        if info.kind == .symbolicLink {
            throw EvidenceError.invalidValue(
                field: "attachment", value: given, expected: "a regular file, not a symbolic link")
        }
        guard info.kind == .regular else {
            throw EvidenceError.invalidValue(
                field: "attachment", value: given, expected: "a regular file (zip a folder such as an .xcresult first)")
        }
        let fileURL = URL(fileURLWithPath: absolute)
        // Resolve links in the folders (not the file itself, checked above) before comparing.
        let folder = fileURL.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        let root = storeFolder.resolvingSymlinksInPath().standardizedFileURL.path
        let rootPrefix = root.hasSuffix("/") ? root : root + "/"
        guard folder == root || (folder + "/").hasPrefix(rootPrefix) else {
            guard let sha256 = SHA256.hex(ofFile: absolute) else {
                throw EvidenceError.io(path: given, reason: "cannot be read")
            }
            let suffix = PathText.fileExtension(of: fileURL.lastPathComponent).lowercased()
            let kept = TextFormat.attachmentsFolder + "/" + sha256 + (suffix.isEmpty ? "" : "." + suffix)
            var file = AttachmentFile(path: kept, sha256: sha256, size: info.size, mediaType: AttachmentFile.mediaType(for: kept))
            file.copiedFrom = absolute
            return file
        }
        let storeName = URL(fileURLWithPath: storePath).resolvingSymlinksInPath().lastPathComponent
        let isStore = (try? FileSystem.status(storePath))?.isSameFile(as: info) ?? false
        if isStore || (folder == root && ["", "-wal", "-shm", "-journal"].contains { fileURL.lastPathComponent == storeName + $0 }) {
            throw EvidenceError.invalidValue(
                field: "attachment", value: given, expected: "a file other than the store and its -wal, -shm, -journal files")
        }
        let relativeFolder = folder == root ? "" : String(folder.dropFirst(rootPrefix.count)) + "/"
        let relative = relativeFolder + fileURL.lastPathComponent
        guard let sha256 = SHA256.hex(ofFile: absolute) else {
            throw EvidenceError.io(path: given, reason: "cannot be read")
        }
        return AttachmentFile(
            path: relative, sha256: sha256, size: info.size,
            mediaType: AttachmentFile.mediaType(for: relative))
    }
}

extension AttachmentFile {
    /// Copies a file from outside the store's folder into it, at `path`, unless
    /// the same bytes are there already: named by its SHA-256, a kept copy is
    /// never rewritten.
    public func keepCopy(in storeFolder: URL) throws {
        guard let source = copiedFrom else { return }
        let destination = storeFolder.appendingPathComponent(path).path
        if SHA256.hex(ofFile: destination) == sha256 { return }
        let parent = URL(fileURLWithPath: destination).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw EvidenceError.io(path: parent, reason: "cannot be created (\(SystemCall.words(for: error)))")
        }
        try Self.copy(source, to: destination)
        guard SHA256.hex(ofFile: destination) == sha256 else {
            FileSystem.remove(destination)
            throw EvidenceError.io(path: source, reason: "changed while it was copied into the store's folder; attach it again")
        }
    }

    /// Copies a file beside its destination, synced, then renamed into place.
    static func copy(_ source: String, to destination: String) throws {
        let temporary = destination + ".evidence-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        defer { FileSystem.remove(temporary) }
        do {
            try FileManager.default.copyItem(atPath: source, toPath: temporary)
            let file = try FileSystem.open(temporary, .write)
            defer { file.close() }
            try file.sync()
            try FileSystem.rename(temporary, to: destination)
        } catch {
            throw EvidenceError.io(path: destination, reason: "cannot be written (\(error))")
        }
    }

    /// Where a kept attachment path leads from the store's real folder.
    public enum Location: Equatable, Sendable {
        /// Inside the folder, at this absolute path (which may not exist).
        case inside(String)
        /// Out of the folder, through a symbolic link in the path: where it leads.
        case outside(String)
    }

    /// Follows the folders of `relative` from `realFolder` (the store's folder
    /// with links resolved), links included, to say whether it stays inside.
    public static func locate(_ relative: String, in realFolder: String) -> Location {
        let candidate = URL(fileURLWithPath: realFolder).appendingPathComponent(relative)
        let folder = candidate.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        let root = URL(fileURLWithPath: realFolder).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard folder == root || (folder + "/").hasPrefix(prefix) else {
            return .outside(folder + "/" + candidate.lastPathComponent)
        }
        return .inside(folder + "/" + candidate.lastPathComponent)
    }
}
