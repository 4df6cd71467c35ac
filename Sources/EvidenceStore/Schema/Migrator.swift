import Foundation

/// Applies migrations in order, each in one IMMEDIATE transaction together with
/// its `schema_migrations` row and `PRAGMA user_version`.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration] = Migration.bundled) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The newest schema version this binary knows.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The store's schema version, from `PRAGMA user_version`.
    public func currentVersion(of database: Database) throws -> Int {
        try database.scalar("PRAGMA user_version").int ?? 0
    }

    /// Applies every pending migration and returns those this call applied.
    /// The version is re-read after the write lock is taken, so two processes
    /// migrating at once apply each migration exactly once.
    @discardableResult
    public func migrate(_ database: Database, path: String) throws -> [Migration] {
        var applied: [Migration] = []
        while let migration = try applyNext(database, path: path) {
            applied.append(migration)
        }
        return applied
    }

    private func applyNext(_ database: Database, path: String) throws -> Migration? {
        try database.inTransaction(.immediate) {
            let current = try currentVersion(of: database)
            if current > latestVersion {
                throw EvidenceError.storeTooNew(path: path, version: current, supported: latestVersion)
            }
            guard let next = migrations.first(where: { $0.version > current }) else { return nil }
            do {
                try database.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version    INTEGER PRIMARY KEY,
                        name       TEXT NOT NULL,
                        applied_at TEXT NOT NULL
                    ) STRICT
                    """
                )
                try database.executeScript(next.sql)
                try database.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    .integer(Int64(next.version)), .text(next.name), .text(Timestamp.now())
                )
                // PRAGMA takes no bound parameters; the version is an integer we control.
                try database.execute("PRAGMA user_version = \(next.version)")
                let violations = try database.query("PRAGMA foreign_key_check")
                if let first = violations.first {
                    throw EvidenceError.migrationFailed(
                        version: next.version, name: next.name,
                        reason: "\(violations.count) foreign key violations, the first in table \(first.text("table"))"
                    )
                }
            } catch let error as DatabaseError {
                throw EvidenceError.migrationFailed(version: next.version, name: next.name, reason: error.description)
            }
            return next
        }
    }

    /// Each known migration with the time it was applied, or nil when pending.
    public func status(of database: Database) throws -> [(migration: Migration, appliedAt: String?)] {
        let hasTable = try database.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        ).int == 1
        var appliedAt: [Int: String] = [:]
        if hasTable {
            for row in try database.query("SELECT version, applied_at FROM schema_migrations") {
                appliedAt[row.int("version")] = row.text("applied_at")
            }
        }
        return migrations.map { ($0, appliedAt[$0.version]) }
    }
}
