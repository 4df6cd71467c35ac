import EvidenceStore

/// Runs a parsed command: calls into EvidenceStore and prints what it returns.
struct Runner {
    let output: Output

    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .help(let text):
            output.write(text)
            return ExitCode.ok
        case .version:
            output.write("evidence \(CommandTree.version)\n")
            return ExitCode.ok
        case .initialize(let store):
            return try initialize(store: store)
        case .migrate(let store, let list, let format):
            return try migrate(store: store, list: list, format: format)
        case .check(let store):
            return try check(store: store)
        case .query(let store, let sql, let format):
            return try query(store: store, sql: sql, format: format)
        case .demo(let store):
            return try demo(store: store)
        }
    }
}
