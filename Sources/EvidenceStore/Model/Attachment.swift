import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file kept beside the store (a screenshot, a log, a zipped xcresult), by
/// its path relative to the store's folder, its SHA-256 and its size.
public struct AttachmentFile: Equatable, Sendable {
    public var path: String
    public var sha256: String
    public var size: Int64
    public var mediaType: String

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
        return AttachmentFile(
            path: relative, sha256: try SHA256.hex(ofFile: absolute), size: Int64(info.st_size),
            mediaType: mediaType(for: relative))
    }

    static func mediaType(for path: String) -> String {
        let types: [String: String] = [
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "heic": "image/heic", "gif": "image/gif",
            "mov": "video/quicktime", "mp4": "video/mp4", "txt": "text/plain", "log": "text/plain",
            "md": "text/markdown", "json": "application/json", "xml": "application/xml", "pdf": "application/pdf",
            "zip": "application/zip", "gz": "application/gzip", "csv": "text/csv",
        ]
        let suffix = (path as NSString).pathExtension.lowercased()
        return types[suffix] ?? "application/octet-stream"
    }
}

/// An attachment whose file no longer matches what the store recorded.
public struct AttachmentProblem: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case vanished
        case changed
        case replacedByLink = "replaced by a link"
    }

    public var path: String
    public var kind: Kind
    public var claimKey: String?
    public var runUUID: String
}

extension Store {
    /// Every attachment whose file is missing or differs from its recorded SHA-256 and size.
    public func verifyAttachments() throws -> (checked: Int, problems: [AttachmentProblem]) {
        let rows = try database.query(
            """
            SELECT a.path, a.sha256, a.size, c.key AS claim_key, u.uuid AS run_uuid
            FROM attachments AS a
            JOIN results AS r ON r.id = a.result_id
            LEFT JOIN claims AS c ON c.id = r.claim_id
            JOIN runs AS u ON u.id = r.run_id
            ORDER BY a.path, u.uuid
            """)
        var problems: [AttachmentProblem] = []
        for row in rows {
            let path = row.text("path")
            let absolute = folder.appendingPathComponent(path).path
            var info = stat()
            var kind: AttachmentProblem.Kind?
            if lstat(absolute, &info) != 0 {
                kind = .vanished
            } else if info.st_mode & S_IFMT == S_IFLNK {
                kind = .replacedByLink
            } else if Int64(info.st_size) != Int64(row.int("size")) {
                kind = .changed
            } else if (try? SHA256.hex(ofFile: absolute)) != row.text("sha256") {
                kind = .changed
            }
            if let kind {
                problems.append(AttachmentProblem(
                    path: path, kind: kind, claimKey: row.optionalText("claim_key"), runUUID: row.text("run_uuid")))
            }
        }
        return (rows.count, problems)
    }
}
