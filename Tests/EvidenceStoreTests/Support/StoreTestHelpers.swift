import Foundation

@testable import EvidenceStore

/// One-off SQL for tests that look at rows directly, as a `sqlite3` user would.
extension Database {
    func query(_ sql: String, _ arguments: SQLValue...) throws -> [Row] {
        try query(sql, arguments)
    }

    func scalar(_ sql: String, _ arguments: SQLValue...) throws -> SQLValue {
        try scalar(sql, arguments)
    }

    func execute(_ sql: String, _ arguments: SQLValue...) throws {
        try execute(sql, arguments)
    }

    func queryFirst(_ sql: String, _ arguments: SQLValue...) throws -> Row? {
        try query(sql, arguments).first
    }
}

extension Store {
    /// The id of an environment, created when new, in a transaction of its own.
    func environmentID(_ spec: EnvironmentSpec) throws -> Int64 {
        try write { try $0.environmentID(spec) }
    }
}
