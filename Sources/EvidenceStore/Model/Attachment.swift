#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A file kept beside the store (a screenshot, a log, a zipped xcresult), by
/// its path relative to the store's folder, its SHA-256 and its size.
public struct AttachmentFile: Equatable, Sendable {
    public var path: String
    public var sha256: String
    public var size: Int64
    public var mediaType: String
    /// For a file from outside the store's folder: where it was read, to be
    /// copied to `path` inside the folder.
    public var copiedFrom: String?

    public init(path: String, sha256: String, size: Int64, mediaType: String) {
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.mediaType = mediaType
    }

    /// The media type a file's extension names.
    public static func mediaType(for path: String) -> String {
        let types: [String: String] = [
            "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "heic": "image/heic", "gif": "image/gif",
            "mov": "video/quicktime", "mp4": "video/mp4", "txt": "text/plain", "log": "text/plain",
            "md": "text/markdown", "json": "application/json", "xml": "application/xml", "pdf": "application/pdf",
            "zip": "application/zip", "gz": "application/gzip", "csv": "text/csv",
        ]
        let suffix = PathText.fileExtension(of: path).lowercased()
        return types[suffix] ?? "application/octet-stream"
    }
}

/// An attachment whose file no longer matches what the store recorded.
public struct AttachmentProblem: TableRow, Equatable, Sendable {
    public enum Kind: String, Sendable {
        case vanished
        case changed
        case replacedByLink = "replaced by a link"
        case outsideFolder = "leads out of the store's folder through a link"
    }

    public var path: String
    public var kind: Kind
    public var claimKey: String?
    public var runUUID: String

    public init(path: String, kind: Kind, claimKey: String?, runUUID: String) {
        self.path = path
        self.kind = kind
        self.claimKey = claimKey
        self.runUUID = runUUID
    }

    public static let columns = ["path", "problem", "claim", "run"]
    public var cells: [TableValue] { [.text(path), .text(kind.rawValue), TableValue(claimKey), .text(String(runUUID.prefix(8)))] }
}
