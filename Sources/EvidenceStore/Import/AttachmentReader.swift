import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension AttachmentFile {
    /// Reads a file for attaching. It must exist, be a regular file (not a link)
    /// and lie inside the store's folder tree.
    public static func read(_ given: String, storeFolder: URL, workingFolder: String? = nil) throws -> AttachmentFile {
        let base = workingFolder ?? FileManager.default.currentDirectoryPath
        let absolute = given.hasPrefix("/") ? given : base + "/" + given
        var info = stat()
        guard lstat(absolute, &info) == 0 else {
            throw EvidenceError.fileMissing(path: given)
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw EvidenceError.invalidValue(
                field: "attachment", value: given, expected: "a regular file, not a symbolic link")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
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
        let relativeFolder = folder == root ? "" : String(folder.dropFirst(rootPrefix.count)) + "/"
        let relative = relativeFolder + fileURL.lastPathComponent
        guard let sha256 = SHA256.hex(ofFile: absolute) else {
            throw EvidenceError.io(path: given, reason: "cannot be read")
        }
        return AttachmentFile(
            path: relative, sha256: sha256, size: Int64(info.st_size),
            mediaType: AttachmentFile.mediaType(for: relative))
    }
}
