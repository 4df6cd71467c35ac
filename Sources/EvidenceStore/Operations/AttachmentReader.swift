#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


extension AttachmentFile {
    /// Reads a file for attaching. It must exist, be a regular file (not a link)
    /// other than the store's own (`storePath` and its -wal, -shm, -journal),
    /// and lie inside the store's folder tree.
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
            throw EvidenceError.invalidValue(
                field: "attachment", value: given, expected: "a file inside the store's folder (\(root))")
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
