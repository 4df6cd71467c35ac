import Foundation
import Testing

@testable import EvidenceStore

/// Files that are not evidence stores are refused with a reason, and never changed.
@Suite struct StoreOpeningTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func makeStore(_ name: String = "store.sqlite") throws -> String {
        let (store, _) = try Store.initialize(at: folder.path(name))
        store.close()
        return folder.path(name)
    }

    /// Opens the file through the library and through the binary; both must refuse it
    /// with exit code 65 and a one-line message, and leave it byte-identical.
    func expectRefused(_ path: String, saying fragment: String, byInit: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try fileDigest(path)
        do {
            _ = try Store.open(at: path)
            Issue.record("\(path) must be refused", sourceLocation: sourceLocation)
        } catch let error as EvidenceError {
            #expect(error.category == .badData, sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
        let commands = [["check", "--store", path], ["query", "--store", path, "SELECT 1"]]
            + (byInit ? [["init", "--store", path]] : [])
        for arguments in commands {
            let result = try EvidenceBinary.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(path), sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(try fileDigest(path) == before, "the file must be left byte-identical", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") || path.hasSuffix("foreign.sqlite"),
            sourceLocation: sourceLocation)
    }

    /// Every command but `init` refuses an empty file; `init` takes it for what an
    /// `init` killed in its first milliseconds left, and builds the store in its place.
    @Test func aZeroByteFileIsRefusedButInitBuildsOverIt() throws {
        let path = try folder.write("empty.sqlite", Data())
        try expectRefused(path, saying: "empty", byInit: false)
        let result = try EvidenceBinary.run(["init", "--store", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Store.open(at: path).schemaVersion > 0)
    }

    @Test func aTextFileIsRefused() throws {
        let path = try folder.write("notes.sqlite", "claims go here\nand here — ünïcode\n")
        try expectRefused(path, saying: "text file")
    }

    @Test func aPictureIsRefused() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8) + [UInt8](repeating: 7, count: 200)
        let path = try folder.write("picture.sqlite", Data(png))
        try expectRefused(path, saying: "PNG image")
    }

    @Test func aTruncatedStoreIsRefused() throws {
        let source = try makeStore()
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let path = try folder.write("truncated.sqlite", data.prefix(data.count / 2 + 100))
        try expectRefused(path, saying: "truncated")
        let tiny = try folder.write("tiny.sqlite", data.prefix(60))
        try expectRefused(tiny, saying: "truncated")
    }

    @Test func aCorruptedHeaderIsRefused() throws {
        let source = try makeStore()
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        data[16] = 0x03
        data[17] = 0x01
        let path = try folder.write("header.sqlite", data)
        try expectRefused(path, saying: "damaged")
        var magic = try Data(contentsOf: URL(fileURLWithPath: source))
        magic[3] = 0x00
        let second = try folder.write("magic.sqlite", magic)
        try expectRefused(second, saying: "not an SQLite database")
    }

    @Test func anotherApplicationsDatabaseIsRefused() throws {
        let path = folder.path("foreign.sqlite")
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("CREATE TABLE contacts (name TEXT)")
        try database.execute("INSERT INTO contacts VALUES ('Ada')")
        database.close()
        try expectRefused(path, saying: "another application")
    }

    @Test func aMissingStoreSaysToRunInit() throws {
        let path = folder.path("nothing-here.sqlite")
        #expect(throws: EvidenceError.storeMissing(path: path)) {
            _ = try Store.open(at: path)
        }
        let result = try EvidenceBinary.run(["check", "--store", path])
        #expect(result.status == 66)
        #expect(result.stderr == "Error: no store at \(path); run 'evidence init'\n")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFolderIsRefused() throws {
        let result = try EvidenceBinary.run(["check", "--store", folder.url.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("folder"))
    }

    @Test func aStoreIsWALWithFullSyncsAndItsApplicationID() throws {
        let path = try makeStore()
        let store = try Store.open(at: path)
        #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try store.database.scalar("PRAGMA synchronous") == .integer(2))
        #expect(try store.database.scalar("PRAGMA application_id") == .integer(0x4556_4944))
        #expect(try store.database.scalar("PRAGMA busy_timeout") == .integer(10_000))
    }

    @Test func aNewStoreHasSixteenKilobytePages() throws {
        let store = try Store.open(at: try makeStore())
        #expect(try store.database.scalar("PRAGMA page_size") == .integer(16384))
    }

    /// A store made before new stores had 16 KB pages keeps its 4 KB pages,
    /// opens, and takes an ingest as any other.
    @Test func aStoreWithFourKilobytePagesKeepsThemAndWorks() throws {
        let path = try makeStore()
        let raw = try Database(path: path, mode: .readWrite)
        for pragma in ["PRAGMA journal_mode = DELETE", "PRAGMA page_size = 4096", "VACUUM", "PRAGMA journal_mode = WAL"] {
            _ = try raw.scalar(pragma)
        }
        raw.close()
        let store = try Store.open(at: path)
        #expect(try store.database.scalar("PRAGMA page_size") == .integer(4096))
        let summary = try store.ingest(
            file: Fixtures.apple("junit-xcbeautify-1.xml").path,
            options: IngestOptions(kind: .simulator, model: "iPhone Duo", os: "iOS 27.1"))
        #expect(summary.read > 0)
        #expect(try store.database.scalar("SELECT count(*) FROM results") == .integer(Int64(summary.read)))
        #expect(try store.database.scalar("PRAGMA page_size") == .integer(4096))
        #expect(try store.reader.integrityCheck() == ["ok"])
    }

    @Test func aStoreSwitchedAwayFromWALIsRefusedUntilInitRestoresIt() throws {
        let path = try makeStore()
        let raw = try Database(path: path, mode: .readWrite)
        _ = try raw.scalar("PRAGMA journal_mode = DELETE")
        raw.close()
        #expect(throws: EvidenceError.storeNotWAL(path: path, journalMode: "delete")) {
            _ = try Store.open(at: path)
        }
        let (store, outcome) = try Store.initialize(at: path)
        #expect(outcome == .upToDate(version: Migrator().latestVersion))
        #expect(try store.journalMode() == "wal")
    }

    @Test func initTwiceChangesNothing() throws {
        let path = try makeStore()
        let before = try fileDigest(path)
        let (_, outcome) = try Store.initialize(at: path)
        #expect(outcome == .upToDate(version: Migrator().latestVersion))
        #expect(try fileDigest(path) == before)
    }

    @Test func anOlderStoreIsUpgradedOnOpen() throws {
        let path = folder.path("old.sqlite")
        let first = Migrator(migrations: Array(Migration.bundled.prefix(1)))
        _ = try Store.initialize(at: path, migrator: first)
        let longer = Migrator(migrations: Migration.bundled + [
            Migration(version: Migration.bundled.count + 1, name: "later", sql: "CREATE TABLE later (x INTEGER) STRICT;")
        ])
        #expect(throws: EvidenceError.self) {
            _ = try Store.open(at: path, access: .readOnly, migrator: longer)
        }
        let store = try Store.open(at: path, migrator: longer)
        #expect(try longer.currentVersion(of: store.database) == longer.latestVersion)
    }

    @Test func networkFilesystemsAreNamed() {
        #expect(StoreFile.networkFilesystem(type: "nfs4") == "NFS")
        #expect(StoreFile.networkFilesystem(type: "cifs") == "SMB/CIFS")
        #expect(StoreFile.networkFilesystem(type: "fuse.sshfs") == "FUSE (sshfs)")
        #expect(StoreFile.networkFilesystem(type: "ext4") == nil)
        #expect(StoreFile.networkFilesystem(type: "tmpfs") == nil)
    }

    @Test func theMountTableFindsTheDeepestMount() {
        let table = MountTable(
            """
            22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            40 22 0:50 / /mnt/team\\040share rw,relatime shared:20 - nfs4 server:/export rw,vers=4.2
            41 40 0:51 / /mnt/team\\040share/local rw - tmpfs tmpfs rw
            """)
        #expect(table.filesystemType(of: "/work/main") == "ext4")
        #expect(table.filesystemType(of: "/mnt/team share/evidence") == "nfs4")
        #expect(table.filesystemType(of: "/mnt/team share/local/x") == "tmpfs")
        #expect(table.filesystemType(of: "/mnt/team shared") == "ext4")
    }
}
