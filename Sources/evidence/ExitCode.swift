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
            return code(for: error.category)
        case let error as DatabaseError:
            return code(for: error.category)
        default:
            return software
        }
    }

    static func code(for category: EvidenceError.Category) -> Int32 {
        switch category {
        case .usage: return usage
        case .badData: return dataError
        case .missingInput: return noInput
        case .io: return ioError
        case .busy: return tempFail
        case .internal: return software
        }
    }
}
