import CSQLite
/// What `evidence check` and `evidence attachments verify` read, and the one
/// place SQL from a user passes through: `evidence query`.
extension StoreReader {
    /// The lines of `PRAGMA quick_check`: ["ok"] for a sound file.
    public func quickCheck() throws -> [String] {
        try database.query("PRAGMA quick_check").map { try $0.text("quick_check") }
    }

    /// The lines of `PRAGMA integrity_check`: ["ok"] for a sound file.
    public func integrityCheck() throws -> [String] {
        try database.query("PRAGMA integrity_check").map { try $0.text("integrity_check") }
    }

    /// The tables holding rows whose foreign keys point nowhere, and how many rows.
    public func foreignKeyViolations() throws -> (count: Int, tables: [String]) {
        let rows = try database.query("PRAGMA foreign_key_check")
        return (rows.count, Set(try rows.map { try $0.text("table") }).sorted())
    }

    /// Text cells that hold a control character no writer lets in (line
    /// breaks and tabs aside), by table and column: how many, and the first.
    public func controlCharacterCells() throws -> [(table: String, column: String, count: Int, example: String)] {
        let columns = try database.query(
            """
            SELECT m.name AS table_name, p.name AS column_name
            FROM sqlite_schema AS m, pragma_table_info(m.name) AS p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND upper(p.type) = 'TEXT'
            ORDER BY m.name, p.cid
            """)
        var controls = String.UnicodeScalarView()
        for value in Array(1...31).filter({ $0 != 9 && $0 != 10 && $0 != 13 }) + [0x7F] + Array(0x80...0x9F)
            + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        {
            if let scalar = Unicode.Scalar(UInt32(value)) { controls.append(scalar) }
        }
        let pattern = "*[" + String(controls) + "]*"
        var found: [(String, String, Int, String)] = []
        for row in columns {
            let table = try row.text("table_name")
            let column = try row.text("column_name")
            let name = Self.quoted(table)
            let cell = Self.quoted(column)
            let condition = "\(cell) GLOB ?1 OR instr(CAST(\(cell) AS BLOB), x'00') > 0"
            let count = try database.query("SELECT count(*) AS n FROM \(name) WHERE \(condition)", [.text(pattern)])
                .first.map { try $0.int("n") } ?? 0
            guard count > 0 else { continue }
            let example = try database.query(
                "SELECT CAST(\(cell) AS BLOB) AS bytes FROM \(name) WHERE \(condition) LIMIT 1", [.text(pattern)]
            ).first.map { row -> String in
                guard case .blob(let bytes) = try row.value("bytes") else { return "" }
                return String(decoding: bytes.map { $0 == 0 ? 0x01 : $0 }, as: UTF8.self)
            } ?? ""
            found.append((table, column, count, example))
        }
        return found
    }

    /// Measured and expected numbers outside the range a measurement may hold, by table and column.
    public func outOfRangeNumbers() throws -> [(table: String, column: String, count: Int, example: Double)] {
        var found: [(String, String, Int, Double)] = []
        for (table, column) in [
            ("measurements", "value"), ("measurements", "baseline"), ("claim_expectations", "value"),
            ("claim_expectations", "tolerance"),
        ] {
            let outside = "\(column) IS NOT NULL AND NOT (abs(\(column)) <= ?1 AND (\(column) = 0 OR abs(\(column)) >= ?2))"
            let rows = try database.query(
                "SELECT count(*) AS n, max(abs(\(column))) AS largest FROM \(table) WHERE \(outside)",
                [.real(MeasurementDraft.largest), .real(MeasurementDraft.smallest)])
            guard let row = rows.first, try row.int("n") > 0 else { continue }
            found.append((table, column, try row.int("n"), try row.double("largest") ?? .infinity))
        }
        return found
    }

    /// A name as SQL writes an identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingEvery("\"", with: "\"\"") + "\""
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
        ).forEachRow { files.append(($0.text("path"), $0.text("sha256"), $0.int64("size"), $0.optionalText("claim_key"), $0.text("run_uuid"))) }
        return files
    }

    /// A query to show in help: every claim's key and state.
    public static let exampleQuery = "SELECT key, state FROM claim_state"

    /// Runs one SQL statement that only reads, for `evidence query`, and returns
    /// its rows with their column names (for a few rows; `streamQuery` for any number).
    public func readOnlyQuery(_ sql: String) throws -> Tabular {
        var table = Tabular(columns: [])
        _ = try streamQuery(sql, limits: QueryLimits(maxRows: nil, seconds: nil)) { table.columns = $0 } row: {
            table.rows.append($0)
        }
        return table
    }

    /// Runs one SQL statement that only reads, handing over its column names
    /// and then each row as SQLite produces it, so that no more than one row is
    /// held. Stops after `limits.maxRows` rows (and says so in the outcome);
    /// throws `queryLimit` when the statement runs past its time (counted from
    /// its start, the output's time included) or builds a value past its size.
    public func streamQuery(
        _ sql: String, limits: QueryLimits, columns: ([String]) throws -> Void, row: ([TableValue]) throws -> Void
    ) throws -> QueryOutcome {
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
        try columns(statement.columnNames)
        let budget = QueryBudget(seconds: limits.seconds, maxValueBytes: limits.maxValueBytes)
        var count = 0
        do {
            return try budget.enforce(on: database) {
                defer { statement.reset() }
                while try statement.step() {
                    if let maxRows = limits.maxRows, count == maxRows { return .stoppedAtRowLimit(rows: count) }
                    try row(statement.values().map(\.tableValue))
                    count += 1
                    // Rows that come fast, to an output that takes them slowly, run no
                    // SQLite instructions in between: the time is checked here too.
                    if budget.isPastDeadline { throw QueryBudget.TimeUp() }
                }
                return .complete(rows: count)
            }
        } catch let error where budget.expired && (error is QueryBudget.TimeUp || (error as? DatabaseError)?.code == SQLITE_INTERRUPT) {
            throw EvidenceError.queryLimit(
                reason: "the query ran longer than \(NumberText.format(limits.seconds ?? 0)) s after \(NumberText.counted(count, "row")) "
                    + "and was stopped; narrow it, or give more time with --time-limit")
        } catch let error as DatabaseError where error.code == SQLITE_TOOBIG {
            throw EvidenceError.queryLimit(
                reason: "the query built a value larger than \(limits.maxValueBytes >> 20) MB and was stopped; "
                    + "no value of the store is near that size")
        } catch let error as DatabaseError where !error.isBusy && !error.isDiskFull && !error.isCorrupt {
            throw EvidenceError.badQuery(message: error.message)
        }
    }
}
