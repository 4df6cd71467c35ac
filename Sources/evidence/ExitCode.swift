import CSQLite
import EvidenceStore

/// Exit codes, after sysexits(3).
enum ExitCode {
    static let ok: Int32 = 0
    /// A check ran and found problems.
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let ioError: Int32 = 74
    static let tempFail: Int32 = 75

    static func code(for error: Error) -> Int32 {
        switch error {
        case is UsageError:
            return usage
        case let error as EvidenceError:
            switch error.category {
            case .usage: return usage
            case .badData: return dataError
            case .missingInput: return noInput
            case .io: return ioError
            case .busy: return tempFail
            case .checkFailed: return failure
            }
        case let error as DatabaseError:
            if error.isBusy { return tempFail }
            if error.code == SQLITE_FULL || error.code == SQLITE_IOERR || error.code == SQLITE_CANTOPEN { return ioError }
            if error.isCorrupt { return dataError }
            if error.isConstraint { return dataError }
            if error.code == SQLITE_READONLY { return ioError }
            return software
        default:
            return software
        }
    }
}
