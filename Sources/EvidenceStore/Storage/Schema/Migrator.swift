#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Applies migrations in order, each in one IMMEDIATE transaction together with
/// its `schema_migrations` row (with the SHA-256 of its text) and
/// `PRAGMA user_version`. As GRDB's migrator does, foreign keys are off while a
/// migration runs, so it can rebuild a table (create, copy, drop, rename)
/// without cascading deletes, and `PRAGMA foreign_key_check` must pass before
/// it commits.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration] = Migration.bundled) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The newest schema version this binary knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The store's schema version, from `PRAGMA user_version`.
    func currentVersion(of database: Database) throws -> Int {
        try database.scalar(cached: "PRAGMA user_version").int ?? 0
    }

    /// Applies every pending migration and returns those this call applied.
    /// The version is re-read after the write lock is taken, so two processes
    /// migrating at once apply each migration exactly once.
    @discardableResult
    func migrate(_ database: Database, path: String, clock: Clock = .system) throws -> [Migration] {
        var applied: [Migration] = []
        while let migration = try applyNext(database, path: path, clock: clock) {
            applied.append(migration)
        }
        return applied
    }

    private func applyNext(_ database: Database, path: String, clock: Clock) throws -> Migration? {
        // The setting only takes effect outside a transaction: it is switched
        // off before BEGIN and back on after COMMIT or ROLLBACK.
        let enforced = database.configuration.foreignKeys
        if enforced { try database.setForeignKeys(false) }
        defer { if enforced { try? database.setForeignKeys(true) } }
        try MigrationFunctions.register(on: database)
        return try database.inTransaction(.immediate) {
            let current = try currentVersion(of: database)
            if current > latestVersion {
                throw EvidenceError.storeTooNew(path: path, version: current, supported: latestVersion)
            }
            guard let next = migrations.first(where: { $0.version > current }) else { return nil }
            do {
                try prepareHistory(database)
                try database.executeScript(next.sql)
                try database.execute(
                    cached: "INSERT INTO schema_migrations (version, name, applied_at, sha256) VALUES (?, ?, ?, ?)",
                    [.integer(Int64(next.version)), .text(next.name), .text(Timestamp.format(clock.now())), .text(next.sha256)])
                // PRAGMA takes no bound parameters; the version is an integer we control.
                try database.execute("PRAGMA user_version = \(next.version)")
                let violations = try database.query("PRAGMA foreign_key_check")
                if let first = violations.first {
                    throw EvidenceError.migrationFailed(
                        version: next.version, name: next.name,
                        reason: "\(violations.count) foreign key violations, the first in table \(try first.text("table"))")
                }
            } catch let error as DatabaseError {
                throw EvidenceError.migrationFailed(version: next.version, name: next.name, reason: error.description)
            }
            return next
        }
    }

    /// Creates `schema_migrations`, or gives one from before digests were kept
    /// its `sha256` column (NULL for what was applied then: nobody recorded it).
    private func prepareHistory(_ database: Database) throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT NOT NULL,
                applied_at TEXT NOT NULL,
                sha256     TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'))
            ) STRICT
            """)
        if !(try hasDigestColumn(database)) {
            try database.execute(
                """
                ALTER TABLE schema_migrations ADD COLUMN sha256 TEXT
                CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'))
                """)
        }
    }

    private func hasDigestColumn(_ database: Database) throws -> Bool {
        try database.scalar(
            cached: "SELECT count(*) FROM pragma_table_info('schema_migrations') WHERE name = 'sha256'"
        ).int == 1
    }

    /// Each known migration with when it was applied (nil when pending) and the
    /// digest recorded then (nil when pending or applied before digests were kept).
    func status(of database: Database) throws -> [MigrationStatus] {
        let hasTable = try database.scalar(
            cached: "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        ).int == 1
        var applied: [Int: (String, String?)] = [:]
        if hasTable {
            let rows = try hasDigestColumn(database)
                ? database.query(cached: "SELECT version, applied_at, sha256 FROM schema_migrations")
                : database.query(cached: "SELECT version, applied_at, NULL AS sha256 FROM schema_migrations")
            for row in rows {
                applied[try row.int("version")] = (try row.text("applied_at"), try row.optionalText("sha256"))
            }
        }
        var result = migrations.map { migration in
            MigrationStatus(
                version: migration.version, name: migration.name, appliedAt: applied[migration.version]?.0,
                recordedSHA256: applied[migration.version]?.1 ?? nil, bundledSHA256: migration.sha256)
        }
        // Versions the store lists that this binary does not know.
        for (version, entry) in applied.sorted(by: { $0.key < $1.key }) where !migrations.contains(where: { $0.version == version }) {
            result.append(MigrationStatus(
                version: version, name: "(unknown to this evidence)", appliedAt: entry.0, recordedSHA256: entry.1,
                bundledSHA256: nil))
        }
        return result
    }
}
