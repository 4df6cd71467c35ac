import EvidenceStore

/// The whole command tree of `evidence`.
enum CommandTree {
    static let version = "0.1.0"

    static let store = OptionDeclaration.text(
        "store", "path", help: "The store file (default: $EVIDENCE_STORE, else the nearest evidence.sqlite in this folder or one above).")
    /// Options every command takes, which no command's help lists as its own.
    static let globalOptionNames: Set<String> = [store.option.name]

    static let format = OptionDeclaration<OutputFormat?>.choice(
        "format", "format", help: "Output format: \(OutputFormat.names.listed()) (default: table).").defaulting(to: .table)

    static let detailFormat = OptionDeclaration<DetailFormat?>.choice(
        "format", "format",
        help: "Output format: \(DetailFormat.allCases.map { $0 == .table ? "table (readable text)" : $0.rawValue }.listed()) (default: table).").defaulting(to: .table)

    static let root = CommandSpec(
        group: "evidence",
        abstract: "Track the evidence behind technical documentation: claims, sources, test runs and measurements, in one SQLite store.",
        subcommands: StoreCommands.specs + [
            ClaimCommands.spec, SourceCommands.document, SourceCommands.source, SourceCommands.capability, SourceCommands.environment,
            RunCommands.run, RunCommands.Log.declaration, SessionCommands.Session.declaration, RunCommands.result, RunCommands.Measurements.declaration, RunCommands.attachments,
        ] + TransferCommands.specs + ReportCommands.specs + [
            CompareCommands.Compare.declaration, CompareCommands.History.declaration, CompareCommands.Flaky.declaration,
            IngestCommands.Ingest.declaration, IngestCommands.map, LintCommands.Lint.declaration,
            LintCommands.Annotate.declaration, Completions.Command.declaration,
        ]
    )

    static let parser = Parser(root: root, globalOptions: [store.option])

    /// The command a line names, and the store it works on: resolved here
    /// once, from --store, $EVIDENCE_STORE or the folders above.
    static func parse(_ words: [String], environment: [String: String]) throws -> (command: any Command, store: String) {
        let (command, values) = try parser.parse(words, environment: environment)
        return (command, try storePath(values, searchingUp: command.findsTheStoreAbove))
    }

    // MARK: - Shared option readers

    /// The clock commands record with: the system's, unless EVIDENCE_NOW holds a
    /// UTC timestamp (to the second, or to the microsecond as results record
    /// it). That variable is a test hook (docs/development.md): it makes
    /// the times the binary writes reproducible; nothing else reads it.
    static func clock(_ environment: [String: String]) throws -> Clock {
        guard let fixed = environment["EVIDENCE_NOW"], !fixed.isEmpty else { return .system }
        return try .fixed(parsing: fixed, field: "EVIDENCE_NOW")
    }

    /// The store path: --store, else $EVIDENCE_STORE, else the nearest
    /// evidence.sqlite in the current folder or a folder above it, as git
    /// finds a repository; with none, or for `init` (`searchingUp` false),
    /// ./evidence.sqlite.
    private static func storePath(_ values: ParsedValues, searchingUp: Bool) throws -> String {
        if let path = try store.read(try store.option.given(in: values), values), !path.isEmpty { return path }
        if let path = values.environment["EVIDENCE_STORE"], !path.isEmpty { return path }
        let nearest = searchingUp ? Store.nearest() : nil
        return nearest ?? Store.defaultFileName
    }
}
