import CSQLite
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A failure reported by SQLite: the extended result code, SQLite's message and
/// the SQL being run. Bound values are never included, so no data leaks into logs.
public struct DatabaseError: Error, Equatable, Sendable {
    /// The extended result code, such as 2067 (SQLITE_CONSTRAINT_UNIQUE).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended one), such as 19 (SQLITE_CONSTRAINT).
    public var code: Int32 { extendedCode & 0xFF }

    /// Reads the last error of a connection.
    init(connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? SQLITE_ERROR
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(
            extendedCode: extended,
            message: text ?? String(cString: sqlite3_errstr(extended)),
            sql: sql
        )
    }

    /// An error for a result code when the connection holds no better message.
    init(resultCode: Int32, sql: String? = nil) {
        self.init(extendedCode: resultCode, message: String(cString: sqlite3_errstr(resultCode)), sql: sql)
    }

    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    public var isDiskFull: Bool { code == SQLITE_FULL || code == SQLITE_IOERR }
    public var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// What kind of failure it is, for the exit code: the command line needs no
    /// SQLite constants to tell a full disk from a damaged file.
    public var category: EvidenceError.Category {
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY: return .io
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_CONSTRAINT: return .badData
        default: return .internal
        }
    }
}

extension DatabaseError: CustomStringConvertible {
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql {
            text += " - while executing `\(sql.trimmingWhitespaceAndNewlines())`"
        }
        return text
    }
}
