/// What `evidence check` and `evidence attachments verify` read, and the one
/// place SQL from a user passes through: `evidence query`.
extension StoreReader {
    /// The lines of `PRAGMA quick_check`: ["ok"] for a sound file.
    public func quickCheck() throws -> [String] {
        try database.query("PRAGMA quick_check").map { $0[0].description }
    }

    /// The lines of `PRAGMA integrity_check`: ["ok"] for a sound file.
    public func integrityCheck() throws -> [String] {
        try database.query("PRAGMA integrity_check").map { $0[0].description }
    }

    /// The tables holding rows whose foreign keys point nowhere, and how many rows.
    public func foreignKeyViolations() throws -> (count: Int, tables: [String]) {
        let rows = try database.query("PRAGMA foreign_key_check")
        return (rows.count, Set(try rows.map { try $0.text("table") }).sorted())
    }

    /// Every attachment with the claim and run of its result.
    public func attachedFiles() throws -> [(path: String, sha256: String, size: Int64, claim: String?, run: String)] {
        var files: [(String, String, Int64, String?, String)] = []
        try database.cached(
            """
            SELECT a.path, a.sha256, a.size, c.key AS claim_key, u.uuid AS run_uuid
            FROM attachments AS a
            JOIN results AS r ON r.id = a.result_id
            LEFT JOIN claims AS c ON c.id = r.claim_id
            JOIN runs AS u ON u.id = r.run_id
            ORDER BY a.path, u.uuid
            """
        ).forEachRow { files.append(($0.text(0), $0.text(1), $0.int64(2), $0.optionalText(3), $0.text(4))) }
        return files
    }

    /// A query to show in help: every claim's key and state.
    public static let exampleQuery = "SELECT key, state FROM claim_state"

    /// Runs one SQL statement that only reads, for `evidence query`, and returns
    /// its rows with their column names.
    public func readOnlyQuery(_ sql: String) throws -> Tabular {
        let statement: Statement
        do {
            statement = try database.prepare(sql)
        } catch let error as DatabaseError {
            throw EvidenceError.badQuery(message: error.message)
        }
        // The connection is read-only already; this gives a clear refusal instead
        // of SQLite's "attempt to write a readonly database".
        guard statement.isReadOnly else {
            throw EvidenceError.readOnlyQuery(sql: sql)
        }
        var table = Tabular(columns: statement.columnNames)
        do {
            try statement.forEachRow { row in
                table.rows.append((0..<row.columnCount).map { row.value($0).tableValue })
            }
        } catch let error as DatabaseError where !error.isBusy && !error.isDiskFull && !error.isCorrupt {
            throw EvidenceError.badQuery(message: error.message)
        }
        return table
    }
}
