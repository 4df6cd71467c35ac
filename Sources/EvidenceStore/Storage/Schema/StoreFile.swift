#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Looks at a file before SQLite touches it, so that an empty file, a picture or
/// another application's database is refused with a clear reason and left
/// byte-identical (SQLite would happily turn an empty file into a database).
enum StoreFile {
    /// The header field SQLite reserves for the application, set by `evidence init`.
    static let applicationID: UInt32 = 0x4556_4944  // "EVID"

    static let sqliteMagic = Array("SQLite format 3\u{0}".utf8)

    /// The page size of a new store, in bytes. At 16 KB, committing the 100,000
    /// results of a large ingest writes a quarter as many pages to the
    /// write-ahead log and copies a quarter as many back into the file as at
    /// SQLite's 4 KB: 0.055 s where it took 0.09 s (the bench's `rows alone`
    /// commit). Logging one result stays under 20 ms. A store made with
    /// another page size keeps it: the size is SQLite's to read from the file.
    static let pageSize = 16384

    /// The network filesystem the store's folder lives on, or nil for a local one.
    /// SQLite's locks and WAL shared memory cannot be trusted on those.
    static func networkFilesystem(containing path: String) -> String? {
        let folder = PathText.folder(of: path)
        let resolved = URL(fileURLWithPath: folder.isEmpty ? "." : folder).resolvingSymlinksInPath().path
        guard let type = FileSystem.filesystemType(of: resolved) else { return nil }
        return networkFilesystem(type: type)
    }

    /// A readable name when `type` (as Linux's mount table or macOS's `statfs`
    /// names it) is a network or FUSE filesystem.
    static func networkFilesystem(type: String) -> String? {
        let names: [String: String] = [
            "nfs": "NFS", "nfs4": "NFS", "cifs": "SMB/CIFS", "smb3": "SMB/CIFS", "smbfs": "SMB/CIFS",
            "9p": "9P", "afs": "AFS", "ceph": "Ceph", "glusterfs": "GlusterFS", "lustre": "Lustre",
            "gpfs": "GPFS", "coda": "Coda", "fuse": "FUSE",
            // macOS's names.
            "afpfs": "AFP", "webdav": "WebDAV", "macfuse": "FUSE", "osxfuse": "FUSE",
        ]
        if let name = names[type] { return name }
        if type.hasPrefix("fuse.") { return "FUSE (\(type.dropFirst(5)))" }
        return nil
    }

    /// Why this user cannot write the store, or nil when they can: SQLite
    /// writes the file and creates its -wal and -shm files beside it, so both
    /// the file and its folder must be writable (a read-only filesystem says
    /// so too, even to root).
    static func unwritableReason(_ path: String) -> String? {
        let folder = PathText.folder(of: path)
        func denied(_ target: String) -> String? {
            FileSystem.writeDenied(target)?.description
        }
        if let why = denied(path) { return "this user may read the store but not write it (\(why))" }
        if let why = denied(folder.isEmpty ? "." : folder) {
            return "this user may not write its folder \(folder) (\(why)), where SQLite keeps the store's -wal and -shm files"
        }
        return nil
    }

    /// Whether the store's -wal file holds frames that are not in the store yet.
    static func walHasContent(_ path: String) -> Bool {
        ((try? FileSystem.status(path + "-wal"))?.size ?? 0) > 0
    }

    /// Whether the header says WAL (file format versions 2 and 2 at bytes 18
    /// and 19), for a connection that cannot ask SQLite (an immutable one).
    static func headerSaysWAL(_ path: String) -> Bool {
        guard let handle = try? InputFile.open(path) else { return false }
        let header = [UInt8]((try? RegularFile.read(from: handle, upTo: 20)) ?? Data())
        return header.count == 20 && header[18] == 2 && header[19] == 2
    }

    /// Throws `notAStore` when the file cannot be an evidence store; `storeMissing`
    /// when there is no file.
    static func probe(_ path: String) throws {
        var attributes: FileStatus
        do {
            attributes = try FileSystem.linkStatus(path)
        } catch {
            if error.isMissing { throw EvidenceError.storeMissing(path: path) }
            throw EvidenceError.io(path: path, reason: error.description)
        }
        if attributes.kind == .folder {
            throw EvidenceError.notAStore(path: path, reason: "it is a folder")
        }
        if attributes.kind == .symbolicLink {
            // Follow a symbolic link once, to judge what it points to.
            guard let followed = try? FileSystem.status(path) else {
                throw EvidenceError.storeMissing(path: path)
            }
            attributes = followed
        }
        guard attributes.kind == .regular else {
            throw EvidenceError.notAStore(path: path, reason: "it is not a regular file")
        }
        // Judge twice if the first look is inconsistent: a checkpoint by another
        // process writes page 1 before it extends the file.
        do {
            try judge(path)
        } catch EvidenceError.notAStore(_, let reason) where reason.contains("truncated") {
            try judge(path)
        }
    }

    private static func judge(_ path: String) throws {
        let handle: OpenFile
        do {
            handle = try FileSystem.open(path, .read)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be read (\(error))")
        }
        let header = [UInt8]((try? RegularFile.read(from: handle, upTo: 100)) ?? Data())
        let size = (try? handle.status()).map { Int($0.size) } ?? header.count
        if size == 0 {
            throw EvidenceError.notAStore(path: path, reason: "the file is empty (0 bytes)")
        }
        guard header.starts(with: sqliteMagic) else {
            throw EvidenceError.notAStore(path: path, reason: describe(header))
        }
        guard header.count == 100 else {
            throw EvidenceError.notAStore(path: path, reason: "the SQLite file is truncated (\(size) bytes)")
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw EvidenceError.notAStore(path: path, reason: "the SQLite header is damaged (page size \(rawPageSize))")
        }
        let walExists = FileManager.default.fileExists(atPath: path + "-wal")
        if !walExists {
            if size % pageSize != 0 {
                throw EvidenceError.notAStore(
                    path: path, reason: "the SQLite file is truncated (\(size) bytes is not a whole number of pages)")
            }
            let pageCount = Int(bigEndian32(header, at: 28))
            let changeCounter = bigEndian32(header, at: 24)
            let validFor = bigEndian32(header, at: 92)
            if pageCount > 0, changeCounter == validFor, pageCount * pageSize > size {
                throw EvidenceError.notAStore(
                    path: path,
                    reason: "the SQLite file is truncated (\(size) of \(pageCount * pageSize) bytes)")
            }
        }
        let application = bigEndian32(header, at: 68)
        guard application == applicationID else {
            let shown = application == 0 ? "none" : "0x" + String(application, radix: 16, uppercase: true).zeroPadded(to: 8)
            throw EvidenceError.notAStore(
                path: path,
                reason: "it is an SQLite database of another application (application_id \(shown), expected 0x45564944)")
        }
    }

    /// How many names (hard links) the file at `path` has; 1 when it cannot be read.
    static func linkCount(_ path: String) -> Int {
        (try? FileSystem.status(path))?.links ?? 1
    }

    /// Refuses a store file with more than one name: SQLite names its
    /// write-ahead log and lock file after the name it was opened by, so
    /// writers using two names do not see each other and lose writes.
    static func refuseHardLinks(_ path: String) throws {
        let links = linkCount(path)
        guard links > 1 else { return }
        throw EvidenceError.unsafeStore(path: path, reason: hardLinkReason(links, path: path))
    }

    static func hardLinkReason(_ links: Int, path: String) -> String {
        "the file has \(links) names (hard links), and SQLite keeps its write-ahead log by name, so writers using "
            + "different names lose each other's writes. Keep one name: remove the others (find / -samefile \(path)) "
            + "or use a copy"
    }

    /// The files SQLite keeps beside a database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Refuses to write an output over the store, one of its companion files,
    /// or any SQLite file: `--output` names a file to be replaced whole.
    static func refuseAsOutput(_ output: String, store: String) throws {
        let target = Store.absolutePath(output)
        let storePath = Store.absolutePath(store)
        func refuse(_ reason: String) -> EvidenceError {
            EvidenceError.refused(reason: "will not write to \(output): \(reason); give another file")
        }
        let resolvedTarget = resolved(target)
        for suffix in [""] + companionSuffixes {
            if target == storePath + suffix || resolvedTarget == resolved(storePath) + suffix {
                throw refuse(suffix.isEmpty ? "it is the store" : "it is the store's \(suffix) file")
            }
        }
        for suffix in companionSuffixes where target.hasSuffix(suffix) {
            let database = String(target.dropLast(suffix.count))
            if startsWithSQLiteMagic(database) { throw refuse("it is the \(suffix) file of the SQLite database \(database)") }
        }
        guard let attributes = try? FileSystem.status(target) else { return }
        if attributes.kind == .folder { throw refuse("it is a folder") }
        if let storeAttributes = try? FileSystem.status(storePath), storeAttributes.isSameFile(as: attributes) {
            throw refuse("it is the store, under another name")
        }
        if startsWithSQLiteMagic(target) { throw refuse("it is an SQLite database") }
    }

    /// Whether the regular file at `path` begins as an SQLite database does.
    static func startsWithSQLiteMagic(_ path: String) -> Bool {
        guard (try? FileSystem.status(path))?.kind == .regular, let handle = try? FileSystem.open(path, .read) else {
            return false
        }
        return (try? RegularFile.read(from: handle, upTo: sqliteMagic.count)).map { [UInt8]($0) == sqliteMagic } ?? false
    }

    /// The path with symbolic links resolved, in the folder and the name.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Names what a non-SQLite file looks like, for the error message.
    static func describe(_ header: [UInt8]) -> String {
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "it is a PNG image"),
            ([0xFF, 0xD8, 0xFF], "it is a JPEG image"),
            (Array("GIF8".utf8), "it is a GIF image"),
            (Array("%PDF".utf8), "it is a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "it is a ZIP archive"),
            ([0x1F, 0x8B], "it is a gzip archive"),
            (Array("bplist".utf8), "it is a binary property list"),
        ]
        for (magic, name) in signatures where header.starts(with: magic) {
            return name
        }
        if header.starts(with: Array("SQLite format".utf8)) {
            return "the SQLite header is damaged"
        }
        // The first 100 bytes may end inside a multi-byte character.
        for cut in 0...3 where header.count > cut {
            if let text = String(bytes: header.dropLast(cut), encoding: .utf8), !text.contains("\u{0}") {
                return "it is a text file"
            }
        }
        return "it is not an SQLite database"
    }
}
