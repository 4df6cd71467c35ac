import EvidenceStore

/// The whole command tree of `evidence`.
enum CommandTree {
    static let version = "0.1.0"

    static let storeOption = OptionSpec(
        name: "store", valueName: "path",
        help: "The store file (default: $EVIDENCE_STORE, else ./evidence.sqlite).")

    static let formatOption = OptionSpec(
        name: "format", valueName: "format",
        help: "Output format: \(Choices.list(OutputFormat.names)) (default: table).", choices: OutputFormat.names)

    static let detailFormatOption = OptionSpec(
        name: "format", valueName: "format",
        help: "Output format: \(Choices.list(DetailFormat.allCases.map { $0 == .table ? "table (readable text)" : $0.rawValue })) (default: table).",
        choices: DetailFormat.names)

    static let root = CommandSpec(
        name: "evidence",
        abstract: "Track the evidence behind technical documentation: claims, sources, test runs and measurements, in one SQLite store.",
        subcommands: StoreCommands.specs + [
            ClaimCommands.spec, SourceCommands.document, SourceCommands.source, SourceCommands.capability, SourceCommands.environment,
            RunCommands.run, RunCommands.log, SessionCommands.session, RunCommands.result, RunCommands.measurements, RunCommands.attachments,
        ] + TransferCommands.specs + ReportCommands.specs + [CompareCommands.compare, CompareCommands.history, CompareCommands.flaky, IngestCommands.ingest, IngestCommands.map, LintCommands.lint, LintCommands.annotate]
    )

    static let parser = Parser(root: root, globalOptions: [storeOption])

    static func parse(_ words: [String], environment: [String: String]) throws -> Command {
        try parser.parse(words, environment: environment)
    }

    // MARK: - Shared option readers

    /// The clock commands record with: the system's, unless EVIDENCE_NOW holds a
    /// UTC timestamp. That variable is a test hook (README, "Testing"): it makes
    /// the times the binary writes reproducible; nothing else reads it.
    static func clock(_ environment: [String: String]) throws -> Clock {
        guard let fixed = environment["EVIDENCE_NOW"], !fixed.isEmpty else { return .system }
        let text = try Timestamp.parse(fixed, field: "EVIDENCE_NOW")
        guard let date = Timestamp.date(text), text.count > 10 else {
            throw EvidenceError.invalidValue(
                field: "EVIDENCE_NOW", value: fixed, expected: "a UTC timestamp such as 2026-10-20T14:03:00Z")
        }
        return .fixed(date)
    }

    /// The store path: --store, else $EVIDENCE_STORE, else ./evidence.sqlite.
    static func storePath(_ values: ParsedValues) -> String {
        if let path = values.value("store"), !path.isEmpty { return path }
        if let path = values.environment["EVIDENCE_STORE"], !path.isEmpty { return path }
        return "evidence.sqlite"
    }

    static func format(_ values: ParsedValues) throws -> OutputFormat {
        try values.value("format").map(OutputFormat.init(parsing:)) ?? .table
    }

    static func detailFormat(_ values: ParsedValues) throws -> DetailFormat {
        try values.value("format").map(DetailFormat.init(parsing:)) ?? .table
    }
}
