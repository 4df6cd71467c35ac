import CSQLite
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// A prepared statement. Not `Sendable`: it belongs to its connection's thread.
/// Finalized when released.
final class Statement {
    let handle: OpaquePointer
    let connection: OpaquePointer
    let sql: String

    /// Prepares exactly one statement; trailing SQL other than white space or
    /// comments is an error rather than being silently ignored.
    init(connection: OpaquePointer, sql: String, persistent: Bool = false) throws {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let code = sql.withCString { text in
            let rc = sqlite3_prepare_v3(connection, text, -1, flags, &statement, &tail)
            if rc == SQLITE_OK, let tail, Statement.hasMoreSQL(tail) {
                return SQLITE_MISUSE
            }
            return rc
        }
        guard code == SQLITE_OK, let statement else {
            if code == SQLITE_MISUSE {
                sqlite3_finalize(statement)
                throw DatabaseError(extendedCode: SQLITE_MISUSE, message: "more than one statement", sql: sql)
            }
            throw DatabaseError(connection: connection, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// True when the rest of the text holds another statement, not just blanks or comments.
    private static func hasMoreSQL(_ tail: UnsafePointer<CChar>) -> Bool {
        var rest = String(cString: tail)[...]
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                guard let end = rest.firstRange(of: "*/") else { return false }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix(";") {
                rest = rest.dropFirst()
            } else {
                return !rest.isEmpty
            }
        }
    }

    // MARK: - Binding

    /// The number of `?` parameters the statement takes.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Whether the statement leaves the database file unchanged (SQLite's own judgement).
    var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Resets the statement and binds all its parameters. A wrong count throws.
    func bind(_ values: [SQLValue]) throws {
        // Every parameter is bound below, so no clear_bindings is needed.
        sqlite3_reset(handle)
        guard values.count == parameterCount else {
            throw DatabaseError(
                extendedCode: SQLITE_RANGE,
                message: "statement takes \(parameterCount) arguments, got \(values.count)",
                sql: sql
            )
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // The explicit byte length keeps an embedded NUL from cutting the text short.
                try bind(index, text)
                code = SQLITE_OK
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob64(handle, index, raw.baseAddress, sqlite3_uint64(raw.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw DatabaseError(connection: connection, sql: sql) }
        }
    }

    // MARK: - Binding one parameter at a time, for hot loops

    /// Binds parameter `index` (from 1) to a text, or NULL.
    func bind(_ index: Int32, _ text: String?) throws {
        guard var text else { return try check(sqlite3_bind_null(handle, index)) }
        try check(text.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, csqlite_transient()) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(bytes.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        })
    }

    /// Binds parameter `index` to the `n`th text of `texts` (from 0), or NULL,
    /// where it is: SQLite reads it in place (SQLITE_STATIC) rather than
    /// copying it. The texts must stay where they are until the statement has
    /// run and its bindings are cleared (`executeAndClearBindings`).
    /// A text with no NUL of its own is bound as the C string it is in the
    /// arena (a length of -1), which SQLite then never copies to terminate.
    func bindInPlace(_ index: Int32, _ texts: TextArena.Texts, _ n: Int) throws {
        let span = texts.spans[n]
        guard span.count >= 0 else { return try check(sqlite3_bind_null(handle, index)) }
        // A text is never without its NUL in the arena, so there are bytes.
        guard let base = texts.bytes.baseAddress else {
            return try check(sqlite3_bind_text(handle, index, "", 0, csqlite_transient()))
        }
        try check(UnsafeRawPointer(base + span.start).withMemoryRebound(to: CChar.self, capacity: span.count + 1) {
            span.terminated
                ? sqlite3_bind_text(handle, index, $0, -1, nil)
                : sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(span.count), nil, UInt8(SQLITE_UTF8))
        })
    }

    func bind(_ index: Int32, _ number: Int64?) throws {
        try check(number.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    func bind(_ index: Int32, _ number: Double?) throws {
        try check(number.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    /// Runs a statement whose parameters were bound one by one, then resets it.
    func execute() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement, resets it and unbinds every parameter: what was
    /// bound in place may go away afterwards.
    func executeAndClearBindings() throws {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while try step() {}
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw DatabaseError(connection: connection, sql: sql) }
    }

    // MARK: - Stepping

    /// Advances to the next row; false when the statement is done.
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = DatabaseError(connection: connection, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    func run(_ values: [SQLValue] = []) throws {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Calls `body` for each row; the statement is positioned on that row.
    func forEachRow(_ values: [SQLValue] = [], _ body: (Statement) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {
            try body(self)
        }
    }

    /// The virtual-machine steps the statement has taken since it was
    /// prepared: its work counted, for tests of how a query grows.
    var steps: Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 0))
    }

    func reset() {
        sqlite3_reset(handle)
    }

    // MARK: - Columns of the current row, by name

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// Where each column name a caller read was found, by the address of the
    /// name's literal: looked up by its text the first time, then by address.
    private var found: [(name: UnsafeRawPointer, column: Int32)] = []

    /// The index of the column the query names `name` (`AS name`, or the
    /// column's own name). A name the query does not give exactly once is a
    /// slip in the query's code, never a silent NULL: it stops the program
    /// with the name and the query.
    private func column(_ name: StaticString) -> Int32 {
        guard name.hasPointerRepresentation else { return column(named: name.description) }
        let address = UnsafeRawPointer(name.utf8Start)
        for entry in found where entry.name == address { return entry.column }
        let column = column(named: name.description)
        found.append((address, column))
        return column
    }

    private func column(named name: String) -> Int32 {
        let matches = (0..<Int32(columnCount)).filter { String(cString: sqlite3_column_name(handle, $0)) == name }
        guard matches.count == 1 else {
            // Justified stop: the name is a literal in our code, never input; every query runs in the tests, so
            // a misspelt or ambiguous name fails there, as an index out of range would. Throwing instead would put
            // `try` on every column read of every reader for a case no user's data can cause.
            fatalError("the query has \(matches.count) columns named '\(name)' (columns: \(columnNames.joined(separator: ", "))): \(sql)")
        }
        return matches[0]
    }

    func isNull(_ name: StaticString) -> Bool {
        sqlite3_column_type(handle, column(name)) == SQLITE_NULL
    }

    func int64(_ name: StaticString) -> Int64 {
        sqlite3_column_int64(handle, column(name))
    }

    func int(_ name: StaticString) -> Int {
        Int(sqlite3_column_int64(handle, column(name)))
    }

    func double(_ name: StaticString) -> Double {
        sqlite3_column_double(handle, column(name))
    }

    /// The column as text; NULL reads as the empty string (use `optionalText` to tell them apart).
    func text(_ name: StaticString) -> String {
        text(at: column(name))
    }

    private func text(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ name: StaticString) -> String? {
        isNull(name) ? nil : text(name)
    }

    /// The column as a value of a closed vocabulary, matched on its bytes
    /// without making a string; nil for NULL or a word outside it.
    func vocabulary<V: Vocabulary>(_ name: StaticString, _ type: V.Type = V.self) -> V? {
        let column = column(name)
        guard sqlite3_column_type(handle, column) == SQLITE_TEXT else { return nil }
        return V.allCases.first { textEquals(at: column, $0.rawValue) }
    }

    /// The column as a value of a closed vocabulary: matched on its bytes,
    /// else parsed as a person would write it; a word outside it throws.
    func word<V: Vocabulary>(_ name: StaticString, _ type: V.Type = V.self) throws -> V {
        try vocabulary(name) ?? V(parsing: text(name))
    }

    /// Whether the column's text equals `text`, compared as bytes.
    func textEquals(_ name: StaticString, _ text: String) -> Bool {
        textEquals(at: column(name), text)
    }

    private func textEquals(at column: Int32, _ text: String) -> Bool {
        // column_text first, then column_bytes: the length is that of the UTF-8 text.
        guard let bytes = sqlite3_column_text(handle, column) else { return false }
        let count = Int(sqlite3_column_bytes(handle, column))
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count == count else { return false }
            guard count > 0, let base = utf8.baseAddress else { return true }
            return Bytes.equal(base, bytes, count: count)
        }
    }

    func optionalDouble(_ name: StaticString) -> Double? {
        isNull(name) ? nil : double(name)
    }

    func optionalInt(_ name: StaticString) -> Int? {
        isNull(name) ? nil : int(name)
    }

    /// The column at `index` as the value SQLite holds, with its storage class.
    private func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            return .text(text(at: index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let raw = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: raw, count: count)))
        default:
            return .null
        }
    }

    /// Every column of the current row in order, as a query a person typed is shown.
    func values() -> [SQLValue] {
        (0..<Int32(columnCount)).map(value(at:))
    }

    /// The current row as a `Row`.
    func row() -> Row {
        Row(columns: columnNames, values: values())
    }

    /// Every row, detached from the statement.
    func rows(_ values: [SQLValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(values) { rows.append($0.row()) }
        return rows
    }

    /// The first column of the first row, or NULL.
    func scalar(_ values: [SQLValue] = []) throws -> SQLValue {
        try bind(values)
        defer { reset() }
        return try step() ? value(at: 0) : .null
    }
}
