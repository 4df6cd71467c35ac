import CSQLite
import Foundation

/// One SQLite connection. Not `Sendable`: use it from one thread; other processes
/// and connections coordinate through SQLite's locks.
public final class Database {
    public enum OpenMode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, creating the file when it is missing.
        case readWriteCreate
    }

    /// How a connection is configured right after it opens.
    public struct Configuration: Sendable {
        /// How long a statement waits for another connection's lock before SQLITE_BUSY.
        public var busyTimeoutMilliseconds: Int32 = 10_000
        public var foreignKeys = true
        /// SQLITE_DBCONFIG_DEFENSIVE: no writes to the schema table, no corrupting pragmas.
        public var defensive = true
        /// SQLITE_DBCONFIG_TRUSTED_SCHEMA off: views and triggers may only call innocuous functions.
        public var trustedSchema = false

        public init() {}
    }

    private(set) var handle: OpaquePointer?
    public let path: String
    private var statementCache: [String: Statement] = [:]
    private var savepointCounter = 0

    /// Runs once per process, before the first connection opens.
    private static let processSetup: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    /// Opens the file at `path`. A path beginning with `file:` is a file name, never a URI.
    public init(path: String, mode: OpenMode, configuration: Configuration = Configuration()) throws {
        Self.processSetup
        self.path = path
        // NOMUTEX: a connection is used by one thread at a time, so SQLite's own
        // per-call mutexes are overhead only.
        var flags = SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        // SQLITE_OPEN_URI is not passed, but a build with SQLITE_USE_URI=1 would still
        // read "file:..." as a URI; a "./" prefix makes it a plain relative path.
        let fileName = path.hasPrefix("file:") ? "./" + path : path
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

    private func configure(_ configuration: Configuration) throws {
        guard let handle else { return }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, configuration.busyTimeoutMilliseconds)
        try checkConfig(SQLITE_DBCONFIG_DEFENSIVE, configuration.defensive)
        try checkConfig(SQLITE_DBCONFIG_TRUSTED_SCHEMA, configuration.trustedSchema)
        // The foreign_keys pragma is a no-op inside a transaction; this runs before any.
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

    /// Closes the connection; later calls throw SQLITE_MISUSE. Safe to call twice.
    public func close() {
        statementCache.removeAll()
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

    /// Prepares a statement for repeated use by the caller.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: connection, sql: sql)
    }

    /// A statement kept for the life of the connection, for SQL run many times.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            return statement
        }
        let statement = try Statement(connection: connection, sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `body` with a one-off statement that is finalized afterwards.
    public func withStatement<T>(_ sql: String, _ body: (Statement) throws -> T) throws -> T {
        let statement = try prepare(sql)
        return try body(statement)
    }

    // MARK: - Running SQL

    /// Runs one statement with its arguments.
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws {
        try cachedStatement(sql).run(arguments)
    }

    public func execute(_ sql: String, _ arguments: SQLValue...) throws {
        try execute(sql, arguments)
    }

    /// Runs a script of several statements (a migration, say), one after another.
    public func executeScript(_ script: String) throws {
        let connection = try connection
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(connection, current, -1, &statement, &tail)
                let length = tail.map { $0 - current } ?? strlen(current)
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

    /// All rows of a query, detached from the statement.
    public func query(_ sql: String, _ arguments: [SQLValue] = []) throws -> [Row] {
        let statement = try cachedStatement(sql)
        var rows: [Row] = []
        try statement.forEachRow(arguments) { rows.append($0.row()) }
        return rows
    }

    public func query(_ sql: String, _ arguments: SQLValue...) throws -> [Row] {
        try query(sql, arguments)
    }

    /// The first row of a query, or nil.
    public func queryFirst(_ sql: String, _ arguments: [SQLValue] = []) throws -> Row? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? statement.row() : nil
    }

    public func queryFirst(_ sql: String, _ arguments: SQLValue...) throws -> Row? {
        try queryFirst(sql, arguments)
    }

    /// The first column of the first row, or NULL.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? statement.value(0) : .null
    }

    public func scalar(_ sql: String, _ arguments: SQLValue...) throws -> SQLValue {
        try scalar(sql, arguments)
    }

    /// The rowid of the last row this connection inserted.
    public var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    public var changes: Int {
        handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Rows changed since the connection opened.
    public var totalChanges: Int {
        handle.map { Int(sqlite3_total_changes64($0)) } ?? 0
    }

    /// True outside any transaction (SQLite's autocommit mode).
    public var isAutocommit: Bool {
        handle.map { sqlite3_get_autocommit($0) != 0 } ?? true
    }

    func nextSavepointName() -> String {
        savepointCounter += 1
        return "evidence_sp\(savepointCounter)"
    }
}
