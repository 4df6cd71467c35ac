import Foundation
import Testing

@testable import EvidenceStore

@Suite struct MigratorTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A file that `evidence init` would recognise but with no migration applied.
    func emptyStore(_ name: String = "store.sqlite") throws -> String {
        let path = folder.path(name)
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA application_id = 1163282756")
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        database.close()
        return path
    }

    @Test func bundledMigrationsAreNumberedFromOneWithoutGaps() {
        let versions = Migration.bundled.map(\.version)
        #expect(!versions.isEmpty)
        #expect(versions == Array(1...versions.count))
    }

    @Test func bundledMigrationsMatchTheFilesInTheSourceTree() throws {
        let folder = EvidenceBinary.packageRoot.appendingPathComponent("migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migration.bundled.map(\.fileName) == names)
        for migration in Migration.bundled {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.fileName), encoding: .utf8)
            #expect(text == migration.sql, "\(migration.fileName) is embedded as it is on disk")
        }
    }

    @Test func anEmptyStoreMigratesToTheLatestVersion() throws {
        let path = try emptyStore()
        let database = try Database(path: path, mode: .readWrite)
        let applied = try Migrator().migrate(database, path: path)
        #expect(applied.map(\.version) == Migration.bundled.map(\.version))
        #expect(try Migrator().currentVersion(of: database) == Migrator().latestVersion)
        let recorded = try database.query("SELECT version FROM schema_migrations ORDER BY version").map { $0.int("version") }
        #expect(recorded == Migration.bundled.map(\.version))
        #expect(try database.query("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func aSecondRunChangesNothing() throws {
        let path = try emptyStore()
        let database = try Database(path: path, mode: .readWrite)
        try Migrator().migrate(database, path: path)
        let changes = database.totalChanges
        let again = try Migrator().migrate(database, path: path)
        #expect(again.isEmpty)
        #expect(database.totalChanges == changes)
    }

    @Test func aFailingMigrationRollsBackAndLeavesTheVersion() throws {
        let path = try emptyStore()
        let migrations = [
            Migration(version: 1, name: "one", sql: "CREATE TABLE one (x INTEGER) STRICT;"),
            Migration(
                version: 2, name: "two",
                sql: "CREATE TABLE two (x INTEGER) STRICT; INSERT INTO two VALUES (1); INSERT INTO missing VALUES (1);"),
        ]
        let database = try Database(path: path, mode: .readWrite)
        #expect(throws: EvidenceError.self) {
            try Migrator(migrations: migrations).migrate(database, path: path)
        }
        #expect(try Migrator(migrations: migrations).currentVersion(of: database) == 1)
        let tables = try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map {
            $0.text("name")
        }
        #expect(tables == ["one", "schema_migrations"])
        #expect(try database.scalar("SELECT count(*) FROM schema_migrations") == .integer(1))
    }

    @Test func aMigrationThatBreaksForeignKeysIsRolledBack() throws {
        let path = try emptyStore()
        let migrations = [
            Migration(
                version: 1, name: "parents",
                sql: """
                    CREATE TABLE parents (id INTEGER PRIMARY KEY) STRICT;
                    CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents (id)) STRICT;
                    """),
            Migration(
                version: 2, name: "orphan",
                sql: "PRAGMA defer_foreign_keys = ON; INSERT INTO children (parent_id) VALUES (42);"),
        ]
        let database = try Database(path: path, mode: .readWrite)
        #expect(throws: (any Error).self) {
            try Migrator(migrations: migrations).migrate(database, path: path)
        }
        #expect(try Migrator(migrations: migrations).currentVersion(of: database) == 1)
        #expect(try database.scalar("SELECT count(*) FROM children") == .integer(0))
    }

    @Test func aNewerStoreIsRefusedAndLeftByteIdentical() throws {
        let (store, _) = try Store.initialize(at: folder.path("new.sqlite"))
        try store.database.execute("PRAGMA user_version = 99")
        store.close()
        let before = try fileDigest(folder.path("new.sqlite"))
        #expect(throws: EvidenceError.storeTooNew(path: folder.path("new.sqlite"), version: 99, supported: Migrator().latestVersion)) {
            _ = try Store.open(at: folder.path("new.sqlite"))
        }
        #expect(throws: EvidenceError.self) {
            _ = try Store.initialize(at: folder.path("new.sqlite"))
        }
        #expect(try fileDigest(folder.path("new.sqlite")) == before)
    }

    @Test func twoProcessesMigratingAtOnceApplyEachMigrationOnce() throws {
        for attempt in 0..<3 {
            let path = try emptyStore("race-\(attempt).sqlite")
            let results = ConcurrentResults()
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                results.append(Result { try EvidenceBinary.run(["init", "--store", path]) })
            }
            for result in results.values {
                let finished = try result.get()
                #expect(finished.status == 0, "\(finished.stderr)")
            }
            let database = try Database(path: path, mode: .readOnly)
            let rows = try database.query("SELECT version, count(*) AS n FROM schema_migrations GROUP BY version")
            #expect(rows.map { $0.int("version") } == Migration.bundled.map(\.version))
            #expect(rows.allSatisfy { $0.int("n") == 1 })
        }
    }

    @Test func migrateListShowsAppliedAndPending() throws {
        let path = try emptyStore()
        let database = try Database(path: path, mode: .readWrite)
        let migrations = Migration.bundled + [Migration(version: Migration.bundled.count + 1, name: "later", sql: "SELECT 1;")]
        try Migrator().migrate(database, path: path)
        let status = try Migrator(migrations: migrations).status(of: database)
        #expect(status.map { $0.appliedAt == nil } == Migration.bundled.map { _ in false } + [true])
    }
}

/// Collects values from concurrent work.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Result<ProcessResult, Error>] = []

    func append(_ value: Result<ProcessResult, Error>) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Result<ProcessResult, Error>] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
