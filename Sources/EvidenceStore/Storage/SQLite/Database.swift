import CSQLite
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// One SQLite connection. Not `Sendable`: use it from one thread; other processes
/// and connections coordinate through SQLite's locks.
final class Database {
    enum OpenMode: Sendable {
        case readOnly
        /// Read-only, and telling SQLite that nobody changes the file while it
        /// is open: no locks, no -wal or -shm files. For a store in a folder
        /// this user may not write, whose WAL holds nothing.
        case immutable
        case readWrite
        /// Read-write, creating the file when it is missing.
        case readWriteCreate
    }

    /// How a connection is configured right after it opens.
    struct Configuration: Sendable {
        /// How long a statement waits for another connection's lock before SQLITE_BUSY.
        var busyTimeoutMilliseconds: Int32 = 10_000
        var foreignKeys = true
        /// SQLITE_DBCONFIG_DEFENSIVE: no writes to the schema table, no corrupting pragmas.
        var defensive = true
        /// SQLITE_DBCONFIG_TRUSTED_SCHEMA off: views and triggers may only call innocuous functions.
        var trustedSchema = false
    }

    private(set) var handle: OpaquePointer?
    let path: String
    let configuration: Configuration
    /// Statements the code asked to keep, by the address of their fixed SQL text.
    private var statementCache: [UnsafeRawPointer: Statement] = [:]
    /// Statements of repeated rows, by head: the count they repeat and the statement.
    private var repeatedCache: [UnsafeRawPointer: (Int, Statement)] = [:]

    /// Runs once per process, before the first connection opens.
    private static let processSetup: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    /// Opens the file at `path`. A path beginning with `file:` is a file name, never a URI.
    init(path: String, mode: OpenMode, configuration: Configuration = Configuration()) throws {
        Self.processSetup
        self.path = path
        self.configuration = configuration
        // NOMUTEX: a connection is used by one thread at a time, so SQLite's own
        // per-call mutexes are overhead only.
        var flags = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        // SQLITE_OPEN_URI is not passed, but a build with SQLITE_USE_URI=1 would still
        // read "file:..." as a URI; a "./" prefix makes it a plain relative path.
        let fileName = mode == .immutable ? Self.immutableURI(path) : path.hasPrefix("file:") ? "./" + path : path
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(fileName, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = connection.map { DatabaseError(connection: $0) } ?? DatabaseError(resultCode: code)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        do {
            try configure(configuration)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// `file:` and the absolute path with every byte but unreserved ones and
    /// "/" percent-encoded (so "?", "#" and "%" in a name stay the name), then
    /// `?immutable=1`.
    static func immutableURI(_ absolutePath: String) -> String {
        let unreserved = PercentEncoding.encode(absolutePath) { byte, _ in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                return true
            default: return false
            }
        }
        return "file:" + unreserved + "?immutable=1"
    }

    private func configure(_ configuration: Configuration) throws {
        guard let handle else { return }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds)
        try checkConfig(SQLITE_DBCONFIG_DEFENSIVE, configuration.defensive)
        try checkConfig(SQLITE_DBCONFIG_TRUSTED_SCHEMA, configuration.trustedSchema)
        // The foreign_keys setting is a no-op inside a transaction; this runs before any.
        try checkConfig(SQLITE_DBCONFIG_ENABLE_FKEY, configuration.foreignKeys)
    }

    private func checkConfig(_ option: Int32, _ enabled: Bool) throws {
        var result: Int32 = -1
        let code = csqlite_db_config_int(handle, option, enabled ? 1 : 0, &result)
        guard code == SQLITE_OK, result == (enabled ? 1 : 0) else {
            throw DatabaseError(
                extendedCode: code == SQLITE_OK ? SQLITE_ERROR : code,
                message: "could not set connection option \(option) to \(enabled)"
            )
        }
    }

    /// Turns foreign key enforcement on or off. SQLite ignores the change inside
    /// a transaction, so this throws there instead of silently doing nothing.
    func setForeignKeys(_ enabled: Bool) throws {
        guard isAutocommit else {
            throw DatabaseError(extendedCode: SQLITE_MISUSE, message: "foreign keys cannot change inside a transaction")
        }
        try checkConfig(SQLITE_DBCONFIG_ENABLE_FKEY, enabled)
    }

    /// Closes the connection; later calls throw SQLITE_MISUSE. Safe to call twice.
    func close() {
        statementCache.removeAll()
        repeatedCache.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
        }
        handle = nil
    }

    var connection: OpaquePointer {
        get throws {
            guard let handle else {
                throw DatabaseError(extendedCode: SQLITE_MISUSE, message: "the connection is closed")
            }
            return handle
        }
    }

    // MARK: - Statements

    /// Prepares a statement for the caller; it is finalized when released.
    func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: connection, sql: sql)
    }

    /// A statement kept for the life of the connection. Only fixed SQL written
    /// in the code can be cached, so the cache never grows with what is run.
    func cached(_ sql: StaticString) throws -> Statement {
        let key = UnsafeRawPointer(sql.utf8Start)
        if let statement = statementCache[key] {
            return statement
        }
        let text = sql.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        let statement = try Statement(connection: connection, sql: text, persistent: true)
        statementCache[key] = statement
        return statement
    }

    /// A statement that repeats one fixed row of values `times` times after a
    /// fixed head: `INSERT INTO t (a, b) VALUES (?, ?), (?, ?), …`, for writes of
    /// many rows at once. Cached by head and count, so the cache stays small.
    func cached(_ head: StaticString, repeating row: StaticString, times count: Int) throws -> Statement {
        let key = UnsafeRawPointer(head.utf8Start)
        if let statement = repeatedCache[key], statement.0 == count {
            return statement.1
        }
        let text = head.withUTF8Buffer { String(decoding: $0, as: UTF8.self) } + " "
            + Array(repeating: row.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }, count: count)
            .joined(separator: ", ")
        let statement = try Statement(connection: connection, sql: text, persistent: true)
        repeatedCache[key] = (count, statement)
        return statement
    }

    /// How many statements the cache holds (for tests).
    var cachedStatementCount: Int { statementCache.count + repeatedCache.count }

    // MARK: - Running SQL

    /// Runs one statement with its arguments, preparing it for this call only.
    func execute(_ sql: String, _ arguments: [SQLValue] = []) throws {
        try prepare(sql).run(arguments)
    }

    /// Runs one cached statement with its arguments.
    func execute(cached sql: StaticString, _ arguments: [SQLValue] = []) throws {
        try cached(sql).run(arguments)
    }

    /// Runs a script of several statements (a migration, say), one after another.
    func executeScript(_ script: String) throws {
        let connection = try connection
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(connection, current, -1, &statement, &tail)
                let length = tail.map { $0 - current } ?? Bytes.length(ofCString: current)
                let text = String(decoding: UnsafeRawBufferPointer(start: current, count: length), as: UTF8.self)
                guard code == SQLITE_OK else {
                    throw DatabaseError(connection: connection, sql: text)
                }
                if let statement {
                    defer { sqlite3_finalize(statement) }
                    var stepCode = sqlite3_step(statement)
                    while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statement) }
                    guard stepCode == SQLITE_DONE else {
                        throw DatabaseError(connection: connection, sql: text)
                    }
                }
                cursor = tail
            }
        }
    }

    /// The work a query takes (SQLite's virtual-machine steps), run to its
    /// end: how tests see that a query grows in proportion to the data.
    func steps(toRun sql: String) throws -> Int {
        let statement = try prepare(sql)
        try statement.run()
        return statement.steps
    }

    /// All rows of a one-off query, detached from the statement.
    func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        try prepare(sql).rows(arguments)
    }

    /// All rows of a cached query.
    func query(cached sql: StaticString, _ arguments: [SQLValue] = []) throws -> [Row] {
        try cached(sql).rows(arguments)
    }

    /// The first column of the first row of a one-off query, or NULL.
    func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue {
        try prepare(sql).scalar(arguments)
    }

    /// The first column of the first row of a cached query, or NULL.
    func scalar(cached sql: StaticString, _ arguments: [SQLValue] = []) throws -> SQLValue {
        try cached(sql).scalar(arguments)
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int {
        handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Rows changed since the connection opened.
    var totalChanges: Int {
        handle.map { Int(sqlite3_total_changes64($0)) } ?? 0
    }

    /// True outside any transaction (SQLite's autocommit mode).
    var isAutocommit: Bool {
        handle.map { sqlite3_get_autocommit($0) != 0 } ?? true
    }
}
