#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// A failure of the evidence domain: a missing or foreign store, an unknown
/// claim, a value outside its vocabulary. SQLite's own failures stay
/// `DatabaseError`; command-line misuse is the CLI's `UsageError`.
public enum EvidenceError: Error, Equatable, Sendable {
    /// What kind of failure it is, which the command line turns into an exit code.
    public enum Category: Sendable {
        /// A value given by the caller is malformed or outside its vocabulary (EX_USAGE).
        case usage
        /// Input data or a store's content is wrong (EX_DATAERR).
        case badData
        /// An input file or the store does not exist (EX_NOINPUT).
        case missingInput
        /// Reading or writing a file failed (EX_IOERR).
        case io
        /// Another process holds the store for too long (EX_TEMPFAIL).
        case busy
        /// Something this program did not expect (EX_SOFTWARE).
        case `internal`
    }

    case storeMissing(path: String)
    case notAStore(path: String, reason: String)
    case storeTooNew(path: String, version: Int, supported: Int)
    case storeNeedsUpgrade(path: String, version: Int, latest: Int)
    case storeNotWAL(path: String, journalMode: String)
    case networkFilesystem(path: String, filesystem: String)
    /// A store this program will not use as it is: the reason says why and what to do.
    case unsafeStore(path: String, reason: String)
    /// A store or its folder this user may not write.
    case notWritable(path: String, reason: String)
    case migrationFailed(version: Int, name: String, reason: String)
    /// A value outside its vocabulary or format; `expected` says what is accepted.
    case invalidValue(field: String, value: String, expected: String)
    case notFound(kind: String, value: String, suggestions: [String])
    case alreadyExists(kind: String, value: String)
    case conflict(kind: String, key: String, field: String, existing: String, incoming: String)
    case badFile(path: String, location: String?, reason: String)
    case fileMissing(path: String)
    case io(path: String, reason: String)
    case readOnlyQuery(sql: String)
    /// SQL given by the user that SQLite rejects.
    case badQuery(message: String)
    /// A query that went past one of its limits (rows, time, value size); the
    /// reason says which and what to do.
    case queryLimit(reason: String)
    /// A request the store's content makes wrong: checking by hand what claims
    /// decide, a name one typo away from a recorded one. The reason says what to do.
    case refused(reason: String)
    /// Records changed both here and in an imported folder, each with its
    /// place; `more` counts those left out of the list.
    case importConflicts([String], more: Int)

    public var category: Category {
        switch self {
        case .storeMissing, .fileMissing: return .missingInput
        case .notAStore, .storeTooNew, .storeNeedsUpgrade, .storeNotWAL, .networkFilesystem, .unsafeStore,
            .migrationFailed, .notFound, .alreadyExists, .conflict, .badFile, .importConflicts:
            return .badData
        case .invalidValue, .readOnlyQuery, .badQuery, .queryLimit, .refused: return .usage
        case .io, .notWritable: return .io
        }
    }
}

extension EvidenceError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .storeMissing(let path):
            return "no store at \(path); run 'evidence init'"
        case .notAStore(let path, let reason):
            return "\(path) is not an evidence store: \(reason)"
        case .storeTooNew(let path, let version, let supported):
            return "\(path) has schema version \(version), newer than this evidence supports (\(supported)); "
                + "use a newer evidence, the store was not changed"
        case .storeNeedsUpgrade(let path, let version, let latest):
            return "\(path) has schema version \(version), older than this evidence's \(latest); "
                + "run 'evidence init' to upgrade it"
        case .storeNotWAL(let path, let mode):
            return "\(path) uses journal mode '\(mode)', not WAL; run 'evidence init' to restore it"
        case .networkFilesystem(let path, let filesystem):
            return "\(path) is on a network filesystem (\(filesystem)); SQLite's locking and WAL are unreliable "
                + "there, so concurrent writers could corrupt it or lose results. Keep the store on a local disk"
        case .unsafeStore(let path, let reason):
            return "\(path) is refused: \(reason)"
        case .notWritable(let path, let reason):
            return "\(path) cannot be written: \(reason)"
        case .migrationFailed(let version, let name, let reason):
            return "migration \(String(version).zeroPadded(to: 4))_\(name) failed and was rolled back: \(reason)"
        case .invalidValue(let field, let value, let expected):
            return "invalid \(field) '\(value)'; expected \(expected)"
        case .notFound(let kind, let value, let suggestions):
            var text = "unknown \(kind) '\(value)'"
            if !suggestions.isEmpty {
                text += "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
            }
            return text
        case .alreadyExists(let kind, let value):
            return "\(kind) '\(value)' already exists"
        case .conflict(let kind, let key, let field, let existing, let incoming):
            return "\(kind) '\(key)' differs in \(field): the store has '\(existing)', the input has '\(incoming)'"
        case .badFile(let path, let location, let reason):
            return "\(path)\(location.map { ":" + $0 } ?? ""): \(reason)"
        case .fileMissing(let path):
            return "\(path): no such file"
        case .io(let path, let reason):
            return "\(path): \(reason)"
        case .readOnlyQuery:
            return "the statement would change the store; 'evidence query' only reads"
        case .badQuery(let message):
            return "SQLite rejects the query: \(message)"
        case .refused(let reason), .queryLimit(let reason):
            return reason
        case .importConflicts(let conflicts, let more):
            let count = conflicts.count + more
            return "the import found \(NumberText.counted(count, "conflict")) and wrote nothing:\n"
                + conflicts.map { "  " + $0 }.joined(separator: "\n")
                + (more > 0 ? "\n  and \(more) more" : "")
        }
    }
}
