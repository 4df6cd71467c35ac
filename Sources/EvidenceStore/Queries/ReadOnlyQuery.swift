/// Runs one SQL statement that only reads, for `evidence query`.
public enum ReadOnlyQuery {
    public static func run(_ sql: String, in store: Store) throws -> Tabular {
        let statement: Statement
        do {
            statement = try store.database.prepare(sql)
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
                table.rows.append((0..<row.columnCount).map(row.value))
            }
        } catch let error as DatabaseError where !error.isBusy && !error.isDiskFull && !error.isCorrupt {
            throw EvidenceError.badQuery(message: error.message)
        }
        return table
    }
}
