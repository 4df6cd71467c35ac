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
        let recorded = try database.query("SELECT version FROM schema_migrations ORDER BY version").map { try $0.int("version") }
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
            try $0.text("name")
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
            #expect(try rows.map { try $0.int("version") } == Migration.bundled.map(\.version))
            #expect(try rows.allSatisfy { try $0.int("n") == 1 })
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

/// Migrations that have landed never change, the store remembers what it
/// applied, and a migration can rebuild a table.
@Suite struct MigrationHistoryTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The SHA-256 of every landed migration. A migration that has landed is
    /// never edited: a fix is a new file, and its digest is added here.
    static let frozen: [Int: String] = [
        1: "128f92b3c8b82225fcd4e6e2c1a548240a8fc174f01cde98ced6b055b5211718",
        2: "0d355791cc1389284af598130d86423befb2fc8f8265de3dfbc673812b0ef22f",
        3: "85d88fa6cb8ff59004c70580d929071aebdb5a088d22471a50a71c58769e5648",
        4: "68bb8188450ec946cfd8ecc4b1a2ded01b68718b1159e27d7ad2226899bd2d0a",
        5: "88efb5f5cc97a3776c6531ad90fdcf46b8364150da262e7bb89d6411251f72ca",
        6: "7c437d90590279cb065fc13ae0eae84041e77339cfe936587cff17d8e0abe3c9",
        7: "3d3267eaa36a12aa3d5dca8cfed271c3a0cec39d8ee983db87835f864c1a4a61",
        8: "951dd0d3cea92dce0e7d9978f77a7af808a2f7ae91aa2665dfb9d12df3b5520d",
        9: "18b5f82b2620bd5595f3f6331ccd1198bc5ff7e56878725725a051196386187f",
        10: "8c2658193136636f0c4ddcee5509c37c2d51830decc13e417de1a7c13c380d3f",
        11: "f34eb8845fec222c94190398b889f4f9c99b7084a6b31784f030e1df8cd517ca",
        12: "16889fe68291402faf4060b3d15b7d1fc1004ad2579fda46002ad0838ede42ec",
        13: "68085db8a5b9edc85e18410589b19990cf689f8e37a3408c0c315351a1bab171",
        14: "306b6a0a386ce16f1de5e62d6dd37b27f118ee788505b2c910a29961a1eb95a8",
        15: "095ae2336bf6192a0e9e7240d2e0d7ef34a032b35742237cb7b39a87d8f68e0c",
        16: "1242f5363bad9757e79e0560379be99097cb38f4e5ba2220096baad8a887c0de",
        17: "1a0b0a0f8a08a66cf602ac716077b79e9728043c309fdd5d11b3f1ffd3b4d939",
        18: "e257e59476bb72c7bd36dc3aae26eda4b8bf137c16344920b67bf4c8f0f8c59b",
        19: "f794936d86f2c53aaabd52113d93434d331236f7773e23c14ffa52c6dccd77bf",
        20: "6983c421b4254e11609a6024fdf93a1fd037672ad5c2ca8ea11066fe624ec6a9",
        21: "46b82c86ed859e10f5dc55726b485f2dd939d65d348c4599288c98274af9e961",
        22: "ff76abd9df202deb70dcde62faad01c2b5ea65d07139330ec30a1e77ebe33462",
        23: "4f8bb55dc0a3ffb28a0c1f314fc1c92ad8f10eab5a67806904a028890c70639f",
        24: "088555083d7ce71235328ca9033a7919672d717a3c8bbfc5167ec47e2c7ca809",
        25: "020907d7e48b48fde74b6682797c3569ec286c17529bc1f13f435a3fc8cd112d",
        26: "05bc146a83ff7f11697363ae0ca1683272166b88989e70e87b547b2974233bcc",
        27: "34304f1c6a25907265cc8bff8fe320670a7a48bdffc7fdf4f02417313c188278",
    ]

    @Test func landedMigrationsAreFrozen() {
        for migration in Migration.bundled {
            #expect(
                Self.frozen[migration.version] == migration.sha256,
                "\(migration.fileName) differs from the text that landed; add a new migration instead")
        }
        #expect(Set(Self.frozen.keys) == Set(Migration.bundled.map(\.version)))
    }

    @Test func theStoreKeepsTheDigestOfEachMigrationAndCheckReportsAChangedOne() throws {
        let (store, _) = try Store.initialize(at: folder.path("store.sqlite"))
        let recorded = try store.database.query("SELECT version, sha256 FROM schema_migrations ORDER BY version")
            .map { try $0.text("sha256") }
        #expect(recorded == Migration.bundled.map(\.sha256))
        #expect(try StoreCheck.run(store).ok)

        // As if 0002's file had been edited after this store applied it.
        try store.database.execute("UPDATE schema_migrations SET sha256 = ? WHERE version = 2", .text(String(repeating: "a", count: 64)))
        let check = try StoreCheck.run(store)
        #expect(!check.ok)
        let item = try #require(check.items.first { $0.name == "migrations" })
        #expect(!item.ok)
        #expect(item.detail.contains("0002_claim_state_by_probes changed after it was applied (applied aaaaaaaaaaaa, now 0d355791cc13)"))
        store.close()
        let result = try EvidenceBinary.run(["check", "--store", folder.path("store.sqlite")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL  migrations"))
    }

    @Test func aStoreFromBeforeDigestsGainsTheColumnAndPassesItsCheck() throws {
        let path = folder.path("old.sqlite")
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA application_id = 1163282756")
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        try Migrator(migrations: Array(Migration.bundled.prefix(3))).migrate(database, path: path)
        try database.execute("ALTER TABLE schema_migrations DROP COLUMN sha256")
        database.close()

        let (store, outcome) = try Store.initialize(at: path)
        #expect(outcome == .upgraded(from: 3, to: Migrator().latestVersion, applied: Migration.bundled.dropFirst(3).map(\.fileName)))
        let digests = try store.database.query("SELECT sha256 FROM schema_migrations ORDER BY version").map { try $0.optionalText("sha256") }
        #expect(digests == [nil, nil, nil] + Migration.bundled.dropFirst(3).map(\.sha256))
        let item = try #require(try StoreCheck.run(store).items.first { $0.name == "migrations" })
        #expect(item.ok)
        #expect(item.detail.contains("3 applied before digests were kept"))
    }

    /// Migration 7 made the checks of results and measurements cheaper and
    /// rebuilt both tables: the views' queries must be planned as before, on
    /// the same indexes, and the rows must all be there.
    @Test func cheaperChecksKeepEveryRowAndEveryQueryPlan() throws {
        let path = folder.path("plans.sqlite")
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA application_id = 1163282756")
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        let before = Migrator(migrations: Array(Migration.bundled.filter { $0.version <= 6 }))
        try before.migrate(database, path: path)
        // Rows as a writer of version 6 wrote them: today's writer writes columns it did not have.
        try Self.fillVersionSix(database)
        database.close()

        let queries = [
            "SELECT * FROM claim_state WHERE claim_id = 1",
            "SELECT * FROM claim_state",
            "SELECT * FROM untested_claims",
            "SELECT * FROM claim_mismatches",
            "SELECT * FROM latest_results WHERE claim_id = 1",
            "SELECT * FROM decisive_result_order WHERE claim_id = 1 AND environment_id = 1",
            "SELECT * FROM measurement_deltas WHERE claim_key = 'island.clock-offset.closed'",
            "SELECT * FROM live_results WHERE run_id = 1",
        ]
        func plans(_ database: Database) throws -> [String] {
            try queries.map { query in
                try database.query("EXPLAIN QUERY PLAN " + query).map { try $0.text("detail") }.joined(separator: "\n")
            }
        }
        let old = try Database(path: path, mode: .readWrite)
        let oldPlans = try plans(old)
        let counts = { (database: Database) in
            try ["results", "measurements", "latest_decisive_results"].map { try database.scalar("SELECT count(*) FROM \($0)").int ?? -1 }
        }
        let oldCounts = try counts(old)
        old.close()

        let seventh = Migrator(migrations: Array(Migration.bundled.filter { $0.version <= 7 }))
        let (upgraded, _) = try Store.initialize(at: path, migrator: seventh)
        #expect(try seventh.currentVersion(of: upgraded.database) == 7)
        #expect(try plans(upgraded.database) == oldPlans)
        #expect(try counts(upgraded.database) == oldCounts)
        upgraded.close()
        // Migration 8 widened the decisive index: the same plans, on the same
        // index, some of them now reading it alone. (Migration 10 rewrote the
        // views that derive the state, so their plans are compared up to 9.)
        let ninth = Migrator(migrations: Array(Migration.bundled.filter { $0.version <= 9 }))
        let (latest, _) = try Store.initialize(at: path, migrator: ninth)
        defer { latest.close() }
        let uncovered = { (plans: [String]) in plans.map { $0.replacingOccurrences(of: "COVERING INDEX", with: "INDEX") } }
        #expect(uncovered(try plans(latest.database)) == uncovered(oldPlans))
        #expect(try counts(latest.database) == oldCounts)
        #expect(oldCounts[0] > 0 && oldCounts[1] > 0)
        // The cheaper checks still keep out what a hand-written insert could get wrong.
        for bad in ["'maybe'", "'PASS'"] {
            #expect(throws: DatabaseError.self) {
                try latest.database.execute(
                    "INSERT INTO results (uuid, run_id, environment_id, test_id, result, recorded_at) SELECT '\(UUID().uuidString.lowercased())', id, environment_id, 't', \(bad), '2026-10-20T00:00:00.000000Z' FROM runs LIMIT 1")
            }
        }
        #expect(throws: DatabaseError.self) {
            try latest.database.execute(
                "INSERT INTO results (uuid, run_id, environment_id, test_id, result, checked_at, recorded_at) SELECT '\(UUID().uuidString.lowercased())', id, environment_id, 't', 'pass', 'yesterday', '2026-10-20T00:00:00.000000Z' FROM runs LIMIT 1")
        }
    }

    /// Migration 10 rebuilt the capability records and the exchanged base:
    /// every row of every table is still there, and every lack still says so.
    @Test func subjectsAndCapabilityRecordsKeepEveryRow() throws {
        let path = folder.path("ten.sqlite")
        let database = try Self.filledAtVersionSix(path, migratedTo: 9)
        try database.executeScript(
            """
            INSERT INTO capabilities (name, description) VALUES ('standby', 'StandBy');
            INSERT INTO environment_lacks (kind, model, tool_build, capability_id, reported_in, note)
            VALUES ('simulator', 'iPhone Duo', '27A9275', 1, 'duo-system-surfaces', 'StandBy is unavailable.'),
                   ('simulator', 'iPhone Duo', '', 1, 'duo-system-surfaces', '');
            INSERT INTO claim_capabilities (claim_id, capability_id) VALUES (1, 1);
            INSERT INTO exchanged_records (kind, key, line) VALUES ('claim', 'bars.overflow', '{"key":"bars.overflow"}');
            """)
        let tables = try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { try $0.text("name") }
        func counts(_ database: Database) throws -> [String: Int] {
            Dictionary(uniqueKeysWithValues: try tables.map { ($0, try database.scalar("SELECT count(*) FROM \($0)").int ?? -1) })
        }
        var before = try counts(database)
        database.close()
        let (store, _) = try Store.initialize(at: path)
        defer { store.close() }
        before["schema_migrations"] = (before["schema_migrations"] ?? 0) + Migration.bundled.filter { $0.version > 9 }.count
        #expect(try counts(store.database) == before)
        #expect(try store.database.scalar("SELECT group_concat(status || ' ' || tool_build, ', ') FROM environment_lacks ORDER BY id").string == "lacks 27A9275, lacks ")
        // The device passed on 27A9275 while the simulator lacks StandBy there.
        #expect(try store.database.scalar("SELECT state FROM claim_state WHERE claim_id = 1").string == "verified-on-device")
    }

    /// Migration 27 works each claim's last day out once: on results of every
    /// kind the view orders (dated, timed, undated, a fail and a pass of one
    /// moment, retracted ones) it gives the rows it gave, and a claim and
    /// environment asked for still reads only that pair's results.
    @Test func theLastDayWorkedOutOnceKeepsEveryRowAndReadsOnePair() throws {
        let path = folder.path("twenty-seven.sqlite")
        let database = try Self.filledAtVersionSix(path, migratedTo: 26)
        // 240 results over both claims, both environments and both runs: a day,
        // a time, or no date (its recording time counts), passes and fails.
        try database.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 240)
            INSERT INTO results (uuid, run_id, environment_id, claim_id, claim_statement_id, result, checked_at, recorded_at)
            SELECT printf('00000000-0000-4000-9000-%012d', i), u.id, u.environment_id, c.id,
                   (SELECT s.id FROM claim_statements AS s WHERE s.claim_id = c.id),
                   CASE WHEN i % 3 = 0 OR i % 7 = 0 THEN 'fail' ELSE 'pass' END,
                   CASE i % 4 WHEN 0 THEN NULL WHEN 1 THEN printf('2026-10-%02d', 20 + i % 5)
                        ELSE printf('2026-10-%02dT%02d:00:00Z', 20 + i % 5, i % 3) END,
                   printf('2026-10-%02dT12:00:00.%06dZ', 20 + i % 6, i)
            FROM n, runs AS u, claims AS c
            WHERE u.id = 1 + i % 2 AND c.id = 1 + (i / 2) % 2
            """)
        try database.execute(
            """
            INSERT INTO retractions (uuid, result_id, retracted_by, retracted_at, reason)
            SELECT printf('00000000-0000-4000-a000-%012d', id), id, 'qa', '2026-10-26T00:00:00Z', 'wrong device'
            FROM results WHERE id % 11 = 0
            """)
        let rows = "SELECT claim_id, environment_id, result_id FROM decisive_result_order ORDER BY claim_id, environment_id"
        func order(_ database: Database) throws -> [[Int?]] {
            try database.query(rows).map { [try $0.optionalInt("claim_id"), try $0.optionalInt("environment_id"), try $0.optionalInt("result_id")] }
        }
        let before = try order(database)
        #expect(before.count == 4)
        database.close()

        let (store, _) = try Store.initialize(at: path)
        defer { store.close() }
        #expect(try order(store.database) == before)
        let plan = try store.database.query(
            "EXPLAIN QUERY PLAN SELECT * FROM decisive_result_order WHERE claim_id = 1 AND environment_id = 2"
        ).map { try $0.text("detail") }
        let searches = plan.filter { $0.contains("results_decisive") }
        #expect(!searches.isEmpty)
        #expect(searches.allSatisfy { $0.contains("claim_id=? AND environment_id=?") }, "\(searches)")
    }

    /// A store made at version 6, given `fillVersionSix`'s rows as a writer of
    /// that version wrote them, then migrated to `version`.
    static func filledAtVersionSix(_ path: String, migratedTo version: Int) throws -> Database {
        let database = try Database(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA application_id = 1163282756")
        _ = try database.scalar("PRAGMA journal_mode = WAL")
        try Migrator(migrations: Array(Migration.bundled.filter { $0.version <= 6 })).migrate(database, path: path)
        try fillVersionSix(database)
        try Migrator(migrations: Array(Migration.bundled.filter { $0.version <= version })).migrate(database, path: path)
        return database
    }

    /// A claim, two environments, runs, results (a pass and a fail) and
    /// measurements, inserted as a store of version 6 holds them.
    static func fillVersionSix(_ database: Database) throws {
        let version = MarketingVersion.order("27.1")
        try database.execute(
            """
            INSERT INTO environments (kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build,
                                      os_version_order, tool_version_order)
            VALUES ('simulator', 'iPhone Duo', 'iOS', '27.1', '', 'Xcode', '27.1', '27A9275', ?1, ?1),
                   ('device', 'iPhone Duo', 'iOS', '27.1', '24B85', 'Xcode', '27.1', '27A9275', ?1, ?1)
            """, [.text(version)])
        try database.execute(
            """
            INSERT INTO claims (key, statement, document, area, label)
            VALUES ('island.clock-offset.closed', 'The clock moves down 84 pt closed.', 'duo-system-surfaces',
                    'Live Activities', 'measured'),
                   ('bars.overflow', 'App items collapse into the overflow menu.', 'duo-system-surfaces', 'Bars',
                    'unverified')
            """)
        try database.execute(
            """
            INSERT INTO runs (uuid, environment_id, started_at, tester)
            VALUES ('2cee86e8-9012-410a-9889-f129a39c0861', 1, '2026-10-20', 'qa'),
                   ('10d79ff3-e07c-4c95-9d00-ede774fe0777', 2, '2026-10-21', 'qa')
            """)
        try database.execute(
            """
            INSERT INTO results (uuid, run_id, environment_id, claim_id, claim_statement_id, result, checked_at, recorded_at)
            SELECT printf('00000000-0000-4000-8000-%012d', u.id * 10 + c.id), u.id, u.environment_id, c.id,
                   (SELECT s.id FROM claim_statements AS s WHERE s.claim_id = c.id),
                   CASE WHEN u.id = 2 AND c.id = 2 THEN 'fail' ELSE 'pass' END, u.started_at,
                   u.started_at || printf('T00:00:00.%06dZ', c.id)
            FROM runs AS u, claims AS c
            """)
        try database.execute(
            "INSERT INTO measurements (result_id, name, value, unit, baseline) SELECT id, 'status-bar clock y', 171, 'pt', 87 FROM results")
    }

    /// A migration that rebuilds `results` the way SQLite's documentation says
    /// (create new, copy, drop, rename), written from the live schema so it
    /// keeps every column, index and view.
    static func rebuildOfResults(_ database: Database) throws -> String {
        let table = try #require(try database.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'results'").string)
        // Indexes go with the table. Views and triggers (also those of other
        // tables that read results) must be dropped before the rename and made again.
        let indexes = try database.query(
            "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'results' AND sql IS NOT NULL ORDER BY rowid"
        ).map { try $0.text("sql") }
        let triggers = try database.query("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY rowid")
            .map { (try $0.text("name"), try $0.text("sql")) }
        let views = try database.query("SELECT name, sql FROM sqlite_schema WHERE type = 'view' ORDER BY rowid")
            .map { (try $0.text("name"), try $0.text("sql")) }
        // Generated columns are computed again, never copied.
        let columns = try database.query("SELECT name FROM pragma_table_xinfo('results') WHERE hidden = 0 ORDER BY cid")
            .map { try $0.text("name") }.joined(separator: ", ")
        var script = triggers.map { "DROP TRIGGER \($0.0);\n" }.joined()
        script += views.reversed().map { "DROP VIEW \($0.0);\n" }.joined()
        let created = table.replacingOccurrences(of: "CREATE TABLE \"results\"", with: "CREATE TABLE new_results")
            .replacingOccurrences(of: "CREATE TABLE results", with: "CREATE TABLE new_results")
        script += created + ";\n"
        script += "INSERT INTO new_results (\(columns)) SELECT \(columns) FROM results;\n"
        script += "DROP TABLE results;\n"
        script += "ALTER TABLE new_results RENAME TO results;\n"
        script += indexes.map { $0 + ";\n" }.joined()
        script += views.map { $0.1 + ";\n" }.joined()
        script += triggers.map { $0.1 + ";\n" }.joined()
        return script
    }

    @Test func aMigrationRebuildsResultsWithoutLosingTheRowsThatReferToThem() throws {
        let fixture = try StoreFixture()
        try StoreImporter(store: fixture.store).run(BundledSeed())
        try fixture.folder.write("shot.png", Data([1, 2, 3]))
        var seen = Observation(claimKey: "island.clock-offset.closed", outcome: .pass, posture: .closed)
        seen.measurements = [try MeasurementDraft(parsing: "status-bar clock y=171pt from 87pt")]
        seen.attachments = ["shot.png"]
        try fixture.store.log(
            seen, run: .matching(StoreFixture.duoSimulator, tester: "qa"), workingFolder: fixture.folder.url.path)
        let counts = { try ["results", "measurements", "attachments"].map { try fixture.count($0) } }
        let before = try counts()
        let states = try fixture.store.reader.claimList().map { "\($0.key)=\($0.state.rawValue)" }
        #expect(before[1] > 0 && before[2] > 0)

        let rebuild = Migration(
            version: Migrator().latestVersion + 1, name: "rebuild_results", sql: try Self.rebuildOfResults(fixture.store.database))
        try Migrator(migrations: Migration.bundled + [rebuild]).migrate(fixture.store.database, path: fixture.path)
        #expect(try Migrator().currentVersion(of: fixture.store.database) == rebuild.version)
        #expect(try counts() == before, "no measurement or attachment went with the old table")
        #expect(try fixture.store.database.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try fixture.store.reader.claimList().map { "\($0.key)=\($0.state.rawValue)" } == states)
        // Foreign keys are enforced again once the migration is done.
        #expect(throws: DatabaseError.self) {
            try fixture.store.database.execute("INSERT INTO measurements (result_id, name, value, unit) VALUES (999999, 'x', 1, 'pt')")
        }
    }
}
