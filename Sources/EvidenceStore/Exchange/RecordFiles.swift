#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the files of a text-format store come from: a folder on disk, or the
/// data set built into the binary.
public protocol RecordFiles {
    /// How errors name a file: the path on disk, or `seed/claims.jsonl`.
    func displayName(of file: String) -> String
    /// A reader for the file, or nil when the set has no such file.
    func reader(for file: String) throws -> LineReader?
    /// The attached file an export wrote for a SHA-256 (`attachments/SHA256`),
    /// as an absolute path; nil when the set has none.
    func attachment(sha256: String) -> String?
    /// The names of the `.jsonl` files in a folder of the set, sorted; none
    /// when there is no such folder.
    func list(_ folder: String) throws -> [String]
    /// The names at the top of the set that end in `.jsonl`, sorted.
    func topLevelRecordFiles() throws -> [String]
}

/// A folder written by `evidence export`.
public struct FolderRecordFiles: RecordFiles {
    public let folder: URL

    public init(folder: URL) throws {
        self.folder = folder
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw EvidenceError.fileMissing(path: folder.path)
        }
        guard isFolder else {
            throw EvidenceError.badFile(path: folder.path, location: nil, reason: "is a file; give the folder of an export")
        }
        // The folder's parts are checked before anything in it is moved or
        // read: a link or a FIFO would otherwise be followed, or hold the
        // store's write lock while it waits. An export killed while it put
        // its files in place is then finished.
        try TeamFolder.checkParts(folder)
        try InterruptedExport.recover(folder)
    }

    public func displayName(of file: String) -> String {
        folder.appendingPathComponent(file).path
    }

    public func reader(for file: String) throws -> LineReader? {
        let path = folder.appendingPathComponent(file).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return LineReader(path: path)
    }

    public func attachment(sha256: String) -> String? {
        let path = folder.appendingPathComponent(TextFormat.attachmentPath(sha256: sha256)).path
        guard let status = try? FileSystem.linkStatus(path), status.kind == .regular else { return nil }
        return path
    }

    public func list(_ subfolder: String) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subfolder).path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    public func topLevelRecordFiles() throws -> [String] {
        try list("")
    }
}

/// The iPhone Duo data set of `seed/`, embedded in the binary.
public struct BundledSeed: RecordFiles {
    public init() {}

    public func displayName(of file: String) -> String {
        "seed/" + file
    }

    public func reader(for file: String) throws -> LineReader? {
        guard let entry = EmbeddedResources.files.first(where: { $0.path == "seed/" + file }) else { return nil }
        return LineReader(name: displayName(of: file), text: entry.text)
    }

    public func attachment(sha256: String) -> String? { nil }

    public func list(_ folder: String) throws -> [String] {
        let prefix = folder.isEmpty ? "seed/" : "seed/" + folder + "/"
        return EmbeddedResources.files.map(\.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".jsonl") && !$0.dropFirst(prefix.count).contains("/") }
            .map { String($0.dropFirst(prefix.count)) }.sorted()
    }

    public func topLevelRecordFiles() throws -> [String] {
        try list("")
    }
}
