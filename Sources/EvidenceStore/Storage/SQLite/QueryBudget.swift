import CSQLite
import Dispatch
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// How much one user-given statement may take: a time from its start,
/// enforced inside SQLite by a progress handler that interrupts the statement
/// and between rows by the caller, and a largest value, so that no string or
/// blob the statement builds grows past it.
final class QueryBudget {
    let seconds: Double?
    let maxValueBytes: Int32
    private let deadline: UInt64?
    /// Whether the time ran out.
    private(set) var expired = false

    /// Thrown by the caller when the time runs out between rows.
    struct TimeUp: Error {}

    init(seconds: Double?, maxValueBytes: Int32) {
        self.seconds = seconds
        self.maxValueBytes = maxValueBytes
        deadline = seconds.map { DispatchTime.now().uptimeNanoseconds + UInt64(max(0, $0) * 1e9) }
    }

    /// Whether the time is up; checked by SQLite every few thousand
    /// virtual-machine instructions, and by the caller between rows.
    var isPastDeadline: Bool {
        if let deadline, DispatchTime.now().uptimeNanoseconds > deadline { expired = true }
        return expired
    }

    /// Installs the budget on `database` for the duration of `body`.
    func enforce<T>(on database: Database, _ body: () throws -> T) throws -> T {
        let handle = try database.connection
        let previousLength = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, maxValueBytes)
        let context = Unmanaged.passRetained(self)
        if seconds != nil {
            sqlite3_progress_handler(handle, 10_000, { context in
                guard let context else { return 0 }
                return Unmanaged<QueryBudget>.fromOpaque(context).takeUnretainedValue().isPastDeadline ? 1 : 0
            }, context.toOpaque())
        }
        defer {
            sqlite3_progress_handler(handle, 0, nil, nil)
            sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, previousLength)
            context.release()
        }
        return try body()
    }
}
