import EvidenceStore

/// A fully parsed command line, ready to run. Building one reads nothing but
/// the words and the environment it was given.
enum Command: Equatable {
    case help(String)
    case version
    case initialize(store: String)
    case migrate(store: String, list: Bool, format: OutputFormat)
    case check(store: String)
    case query(store: String, sql: String, format: OutputFormat)
    case demo(store: String?)
}
