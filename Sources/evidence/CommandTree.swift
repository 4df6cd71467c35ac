import EvidenceStore

/// The whole command tree of `evidence`.
enum CommandTree {
    static let version = "0.1.0"

    static let storeOption = OptionSpec(
        name: "store", valueName: "path",
        help: "The store file (default: $EVIDENCE_STORE, else ./evidence.sqlite).")

    static let formatOption = OptionSpec(
        name: "format", valueName: "format",
        help: "Output format: table, json or csv (default: table).")

    static let detailFormatOption = OptionSpec(
        name: "format", valueName: "format", help: "Output format: table (readable text) or json (default: table).")

    static let root = CommandSpec(
        name: "evidence",
        abstract: "Track the evidence behind technical documentation: claims, sources, test runs and measurements, in one SQLite store.",
        subcommands: StoreCommands.specs + [
            ClaimCommands.spec, SourceCommands.source, SourceCommands.capability, SourceCommands.environment,
            RunCommands.run, RunCommands.log, RunCommands.measurements, RunCommands.attachments,
        ] + TransferCommands.specs + ReportCommands.specs + [IngestCommands.ingest, IngestCommands.map]
    )

    static let parser = Parser(root: root, globalOptions: [storeOption])

    static func parse(_ words: [String], environment: [String: String]) throws -> Command {
        try parser.parse(words, environment: environment)
    }

    // MARK: - Shared option readers

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
        switch values.value("format")?.lowercased() {
        case nil, "table": return .text
        case "json": return .json
        case let other?:
            throw EvidenceError.invalidValue(field: "format", value: other, expected: "one of: table, json")
        }
    }
}
