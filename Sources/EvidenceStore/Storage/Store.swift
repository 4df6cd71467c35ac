#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// An evidence store: one SQLite file, recognised by its application id, kept in
/// WAL mode with full syncs, its schema brought up to date by the migrator.
/// Everything else reads it through `reader` and writes it through `write`.
public final class Store {
    let database: Database
    /// Opened immutable: a store in a folder this user may not write.
    let isImmutable: Bool
    /// The store's absolute path.
    public let path: String
    /// Where "now" comes from for everything this store records.
    public let clock: Clock

    /// What `evidence init` did.
    public enum InitOutcome: Equatable, Sendable {
        case created(version: Int)
        case upgraded(from: Int, to: Int, applied: [String])
        case upToDate(version: Int)

        /// What was done to the store at `path`, in a sentence.
        public func sentence(path: String) -> String {
            switch self {
            case .created(let version):
                "Created store \(path) (schema version \(version))."
            case .upgraded(let from, let to, let applied):
                "Upgraded store \(path) from schema version \(from) to \(to) (applied \(applied.joined(separator: ", ")))."
            case .upToDate(let version):
                "Store \(path) is up to date (schema version \(version)); nothing changed."
            }
        }
    }

    public enum Access: Sendable {
        /// Reads and writes; pending migrations are applied on open.
        case readWrite
        /// Reads only, through a read-only connection; the schema must be current.
        case readOnly
        /// Reads only, whatever the schema version (for `migrate --list`, `check`).
        case inspect
        /// For commands that only read: a read-only connection, after pending
        /// migrations are applied when this user may write the store.
        case reading
    }

    private init(database: Database, path: String, clock: Clock, isImmutable: Bool = false) {
        self.database = database
        self.isImmutable = isImmutable
        self.path = path
        self.clock = clock
    }

    /// The folder that really holds the store (links resolved, so a store
    /// opened through a link finds its own attachments); attachments are kept
    /// relative to it.
    public var folder: URL {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The store's file name where no path is given.
    public static let defaultFileName = "evidence.sqlite"

    /// The nearest store file in `folder` or a folder above it, as git finds
    /// a repository: the path relative to `folder` (`../evidence.sqlite`), or
    /// nil when there is none up to the root.
    public static func nearest(from folder: String = FileManager.default.currentDirectoryPath) -> String? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        var up = ""
        while true {
            let candidate = current.appendingPathComponent(defaultFileName).path
            if let status = try? FileSystem.status(candidate), status.kind == .regular { return up + defaultFileName }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
            up += "../"
        }
    }

    /// Turns a path given by the user into an absolute one, relative to the current folder.
    public static func absolutePath(_ path: String) -> String {
        let expanded = PathText.expandingTilde(path, home: ThisProcess.homeFolder(environment: ProcessInfo.processInfo.environment))
        if expanded.hasPrefix("/") {
            return URL(fileURLWithPath: expanded).standardizedFileURL.path
        }
        let base = FileManager.default.currentDirectoryPath
        return URL(fileURLWithPath: base).appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// Refuses an output file that is the store at `store`, one of its
    /// companion files, or any SQLite database.
    public static func refuseAsOutput(_ output: String, store: String) throws {
        try StoreFile.refuseAsOutput(output, store: store)
    }

    // MARK: - Reading and writing

    /// Reads outside any transaction: each read sees the store as it is then.
    public var reader: StoreReader { StoreReader(database: database, clock: clock) }

    /// Runs `body` in one read transaction, so every read sees the same moment.
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try database.inTransaction(.deferred) { try body(reader) }
    }

    /// Runs `body` in one IMMEDIATE transaction: all of its writes or none.
    /// Several writers wait for each other (the busy timeout) instead of failing.
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        try database.inTransaction(.immediate) { try body(StoreWriter(database: database, clock: clock)) }
    }

    /// Before a large import: a larger page cache keeps the index pages of a
    /// big load in memory, and two sorter threads build the indexes a bulk load
    /// sets aside. These settings belong to this connection only.
    func prepareForLargeWrites() throws {
        try database.execute("PRAGMA cache_size = -65536")
        try database.execute("PRAGMA temp_store = MEMORY")
        _ = try database.scalar("PRAGMA threads = 2")
    }

    // MARK: - Opening

    /// Opens an existing store. A missing file, a file that is not an evidence
    /// store, or a store newer than this binary is refused and left untouched.
    public static func open(
        at path: String, access: Access = .readWrite, clock: Clock = .system, migrator: Migrator = Migrator()
    ) throws -> Store {
        let absolute = absolutePath(path)
        try refuseNetworkFilesystem(absolute)
        try StoreFile.probe(absolute)
        if access != .inspect { try StoreFile.refuseHardLinks(absolute) }
        let unwritable = StoreFile.unwritableReason(absolute)
        if access == .readWrite, let unwritable {
            throw EvidenceError.notWritable(
                path: absolute, reason: unwritable + "; commands that only read (report, status, query, backup) still work")
        }
        // A reader who may not write the folder cannot have SQLite create the
        // -wal and -shm files: with no WAL content the store is read as an
        // immutable file; with some, through the -shm file a writer left.
        let mode: Database.OpenMode =
            access == .readWrite ? .readWrite : unwritable != nil && !StoreFile.walHasContent(absolute) ? .immutable : .readOnly
        let database: Database
        do {
            database = try Database(path: absolute, mode: mode)
        } catch let error as DatabaseError {
            throw EvidenceError.notAStore(path: absolute, reason: "SQLite cannot open it (\(error.message))")
        }
        let store = Store(database: database, path: absolute, clock: clock, isImmutable: mode == .immutable)
        do {
            try store.verify(access: access, migrator: migrator)
        } catch EvidenceError.storeNeedsUpgrade where access == .reading && unwritable == nil {
            // Upgraded as any command would, then read through a read-only connection.
            store.close()
            try open(at: absolute, access: .readWrite, clock: clock, migrator: migrator).close()
            return try open(at: absolute, access: .reading, clock: clock, migrator: migrator)
        } catch let error where unwritable != nil && mode == .readOnly && !(error is EvidenceError) {
            // SQLite could not open the -shm file it needs, and cannot create one.
            store.close()
            throw EvidenceError.notWritable(
                path: absolute, reason: "its -wal file holds changes not yet in the store, and " + (unwritable ?? "")
                    + "; someone who may write the folder can fold them in with 'evidence init'")
        } catch {
            store.close()
            throw error
        }
        return store
    }

    /// Creates the store when there is no file, or upgrades an existing one; a
    /// second call changes nothing.
    public static func initialize(
        at path: String, clock: Clock = .system, migrator: Migrator = Migrator()
    ) throws -> (Store, InitOutcome) {
        let absolute = absolutePath(path)
        try refuseNetworkFilesystem(absolute)
        if FileManager.default.fileExists(atPath: absolute), !isEmptyFile(absolute) {
            try StoreFile.probe(absolute)
            try StoreFile.refuseHardLinks(absolute)
            if let unwritable = StoreFile.unwritableReason(absolute) {
                throw EvidenceError.notWritable(path: absolute, reason: unwritable)
            }
            let writable = try openForUpgrade(absolute, clock: clock, migrator: migrator)
            let before = try migrator.currentVersion(of: writable.database)
            let applied = try migrator.migrate(writable.database, path: absolute, clock: clock)
            if applied.isEmpty {
                return (writable, .upToDate(version: before))
            }
            return (writable, .upgraded(from: before, to: migrator.latestVersion, applied: applied.map(\.fileName)))
        }
        return try create(absolute, clock: clock, migrator: migrator)
    }

    private static func openForUpgrade(_ path: String, clock: Clock, migrator: Migrator) throws -> Store {
        let database: Database
        do {
            database = try Database(path: path, mode: .readWrite)
        } catch let error as DatabaseError {
            throw EvidenceError.notAStore(path: path, reason: "SQLite cannot open it (\(error.message))")
        }
        let store = Store(database: database, path: path, clock: clock)
        try store.verifyIdentity()
        let version = try migrator.currentVersion(of: database)
        if version > migrator.latestVersion {
            throw EvidenceError.storeTooNew(path: path, version: version, supported: migrator.latestVersion)
        }
        // init restores WAL if someone switched the journal mode away from it.
        if try store.journalMode() != "wal" {
            try store.setWAL()
        }
        try store.database.execute("PRAGMA synchronous = FULL")
        return store
    }

    /// Builds a new store under a temporary name and gives it the final name
    /// only when it is complete, so a crash leaves no half-made store and
    /// concurrent inits of one path all succeed: the first to finish names it,
    /// the others find it made.
    private static func create(_ path: String, clock: Clock, migrator: Migrator) throws -> (Store, InitOutcome) {
        let folder = PathText.folder(of: path)
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw EvidenceError.io(path: path, reason: "cannot create the store: the folder \(folder) does not exist")
        }
        let name = PathText.name(of: path)
        for leftover in Leftovers.abandoned(in: folder, prefix: name + ".init-") {
            for suffix in [""] + StoreFile.companionSuffixes { FileSystem.remove(folder + "/" + leftover + suffix) }
        }
        let temporary = path + ".init-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileSystem.open(temporary, [.write, .create, .exclusive]).close()
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot create the store (\(error))")
        }
        defer {
            for suffix in [""] + StoreFile.companionSuffixes { FileSystem.remove(temporary + suffix) }
        }
        let database = try Database(path: temporary, mode: .readWrite)
        do {
            let store = Store(database: database, path: temporary, clock: clock)
            // The page size is set before anything is written, as SQLite requires.
            // The application id goes in before WAL is on, so it is written to the
            // main file's header at once and the probe of later opens can read it.
            try database.execute("PRAGMA page_size = \(StoreFile.pageSize)")
            try database.execute("PRAGMA application_id = \(Int32(bitPattern: StoreFile.applicationID))")
            // The migrations run with a rollback journal, written into the file
            // as they go (a full disk fails them), which holds the few pages a
            // new file had before; a write-ahead log would hold every page
            // they write (about 5 MB) until a checkpoint. WAL is on once they
            // are in, with nothing in its log.
            try database.execute("PRAGMA synchronous = FULL")
            try migrator.migrate(database, path: path, clock: clock)
            try store.setWAL()
        } catch let error as DatabaseError where error.isDiskFull {
            database.close()
            throw EvidenceError.io(path: path, reason: "cannot create the store (\(error.message))")
        } catch {
            database.close()
            throw error
        }
        // Closed, its write-ahead log checkpointed into the file, before it is named.
        database.close()
        FaultPoint.reached("init.built")
        do {
            try FileSystem.renameWithoutReplacing(temporary, to: path)
        } catch {
            guard error == .exists else {
                throw EvidenceError.io(path: path, reason: "cannot create the store (\(error))")
            }
            // Another init finished first, or a crashed one of an older version left an empty file.
            if isEmptyFile(path), (try? FileSystem.rename(temporary, to: path)) != nil {
                return (try open(at: path, clock: clock, migrator: migrator), .created(version: migrator.latestVersion))
            }
            return try initialize(at: path, clock: clock, migrator: migrator)
        }
        return (try open(at: path, clock: clock, migrator: migrator), .created(version: migrator.latestVersion))
    }

    /// A regular file of 0 bytes with no write-ahead log: a store that was never made.
    private static func isEmptyFile(_ path: String) -> Bool {
        guard let status = try? FileSystem.linkStatus(path), status.kind == .regular, status.size == 0 else {
            return false
        }
        return !FileManager.default.fileExists(atPath: path + "-wal")
    }

    private static func refuseNetworkFilesystem(_ path: String) throws {
        if let name = StoreFile.networkFilesystem(containing: path) {
            throw EvidenceError.networkFilesystem(path: path, filesystem: name)
        }
    }

    // MARK: - Checks made on every open

    private func verify(access: Access, migrator: Migrator) throws {
        try verifyIdentity()
        let version = try migrator.currentVersion(of: database)
        if version > migrator.latestVersion {
            throw EvidenceError.storeTooNew(path: path, version: version, supported: migrator.latestVersion)
        }
        let mode = try journalMode()
        if mode != "wal" {
            throw EvidenceError.storeNotWAL(path: path, journalMode: mode)
        }
        switch access {
        case .readWrite:
            try database.execute("PRAGMA synchronous = FULL")
            if version < migrator.latestVersion {
                try migrator.migrate(database, path: path, clock: clock)
            }
        case .readOnly, .reading:
            if version < migrator.latestVersion {
                throw EvidenceError.storeNeedsUpgrade(path: path, version: version, latest: migrator.latestVersion)
            }
        case .inspect:
            break
        }
    }

    /// Reads the schema through SQLite, which catches damage the header probe cannot see.
    private func verifyIdentity() throws {
        do {
            _ = try database.scalar(cached: "SELECT count(*) FROM sqlite_schema")
            let application = try database.scalar(cached: "PRAGMA application_id").int64 ?? 0
            guard UInt32(truncatingIfNeeded: application) == StoreFile.applicationID else {
                throw EvidenceError.notAStore(
                    path: path, reason: "it is an SQLite database of another application")
            }
        } catch let error as DatabaseError where error.isCorrupt {
            throw EvidenceError.notAStore(path: path, reason: "SQLite reports it damaged (\(error.message))")
        } catch let error as DatabaseError where error.isDiskFull {
            // A store closed cleanly has no -shm yet: SQLite cannot make one on a full disk.
            let folder = PathText.folder(of: path)
            guard let free = FileSystem.freeBytes(at: folder.isEmpty ? "." : folder), free < 64 * 1024 else { throw error }
            throw EvidenceError.io(
                path: folder.isEmpty ? "." : folder,
                reason: "is on a full disk: SQLite cannot create the files it keeps beside the store (-shm, -wal); "
                    + "free some space, then run the command again. The store is as it was")
        }
    }

    /// SQLite's journal mode, lower case. An immutable connection always
    /// reports "delete"; for one, the file's header tells the truth.
    public func journalMode() throws -> String {
        if isImmutable { return StoreFile.headerSaysWAL(path) ? "wal" : "delete" }
        return try database.scalar(cached: "PRAGMA journal_mode").string?.lowercased() ?? ""
    }

    private func setWAL() throws {
        let mode = try database.scalar("PRAGMA journal_mode = WAL").string?.lowercased()
        guard mode == "wal" else {
            throw EvidenceError.io(path: path, reason: "cannot switch the store to WAL (journal mode stays '\(mode ?? "?")')")
        }
    }

    // MARK: - Facts about the store

    /// The store's schema version.
    public var schemaVersion: Int {
        get throws { try Migrator().currentVersion(of: database) }
    }

    /// Each migration this binary knows, and whether and when the store applied it.
    public func migrationStatus(migrator: Migrator = Migrator()) throws -> [MigrationStatus] {
        try migrator.status(of: database)
    }

    static func hardLinkReason(_ links: Int, path: String) -> String {
        StoreFile.hardLinkReason(links, path: path)
    }

    /// How many names (hard links) the store's file has.
    public var linkCount: Int { StoreFile.linkCount(path) }

    /// Closes the connection; the store is unusable afterwards.
    public func close() {
        database.close()
    }
}

// MARK: - Backup

extension Store {
    /// Writes a consistent copy of the store to a new file, in WAL mode like the original.
    public func backup(to path: String, replacing: Bool = false) throws {
        let destination = Store.absolutePath(path)
        let storeReal = URL(fileURLWithPath: self.path).resolvingSymlinksInPath().path
        for suffix in [""] + StoreFile.companionSuffixes
        where destination == self.path + suffix || URL(fileURLWithPath: destination).resolvingSymlinksInPath().path == storeReal + suffix {
            throw EvidenceError.refused(reason: "will not back up over \(path): it is the store\(suffix.isEmpty ? "" : "'s \(suffix) file")")
        }
        if let existing = try? FileSystem.linkStatus(destination) {
            guard replacing else {
                throw EvidenceError.io(path: destination, reason: "already exists; give a new file, or --force to replace it")
            }
            guard existing.kind == .regular else {
                throw EvidenceError.io(path: destination, reason: "is not a regular file; --force replaces only a file")
            }
            if let own = try? FileSystem.status(self.path), own.isSameFile(as: existing) {
                throw EvidenceError.refused(reason: "will not back up over \(path): it is the store, under another name")
            }
            // SQLite would read an old write-ahead log (or roll back an old
            // journal) into the new file; an empty one is harmless.
            for suffix in ["-wal", "-journal"] {
                guard let companion = try? FileSystem.status(destination + suffix), companion.size > 0 else { continue }
                throw EvidenceError.io(
                    path: destination, reason: "has a \(suffix) file: it is open, or was not closed cleanly; close it first")
            }
        }
        let folder = PathText.folder(of: destination)
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
            throw EvidenceError.io(path: destination, reason: "cannot be written: the folder \(folder) does not exist")
        }
        // A temporary file of this process's own, created exclusively: no other
        // backup or store shares its name, and only it is ever removed (with
        // those a crashed backup left).
        let name = PathText.name(of: destination)
        for leftover in Leftovers.abandoned(in: folder, prefix: name + ".backup-") {
            for suffix in [""] + StoreFile.companionSuffixes { FileSystem.remove(folder + "/" + leftover + suffix) }
        }
        let temporary = try Self.exclusiveFile(beside: destination)
        defer {
            for suffix in [""] + StoreFile.companionSuffixes { FileSystem.remove(temporary + suffix) }
        }
        let target = try Database(path: temporary, mode: .readWrite)
        do {
            try database.backup(into: target)
            _ = try target.scalar("PRAGMA journal_mode = WAL")
            let check = try target.query("PRAGMA quick_check").map { try $0.text("quick_check") }
            guard check == ["ok"] else {
                throw EvidenceError.io(path: destination, reason: "the copy fails quick_check: \(check.joined(separator: "; "))")
            }
        } catch {
            target.close()
            throw error
        }
        // The copy is complete and closed (its WAL checkpointed) before it takes
        // the final name, never replacing a file that appeared meanwhile unless
        // asked to.
        target.close()
        FaultPoint.reached("backup.copied")
        do {
            if replacing {
                try FileSystem.rename(temporary, to: destination)
            } else {
                try FileSystem.renameWithoutReplacing(temporary, to: destination)
            }
        } catch {
            let reason = error == .exists
                ? "already exists (another backup got there first); give a new file, or --force to replace it"
                : "cannot be written (\(error))"
            throw EvidenceError.io(path: destination, reason: reason)
        }
    }

    /// Creates a new, empty file beside `path` with a name no one else has.
    private static func exclusiveFile(beside path: String) throws -> String {
        var failure = SystemError.exists
        for _ in 0..<16 {
            let candidate = path + ".backup-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
            do {
                try FileSystem.open(candidate, [.write, .create, .exclusive]).close()
                return candidate
            } catch {
                failure = error
                guard error == .exists else { break }
            }
        }
        throw EvidenceError.io(path: path, reason: "cannot create a temporary file beside it (\(failure))")
    }
}
