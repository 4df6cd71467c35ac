import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// init, migrate, check, query, backup, demo: making, upgrading and inspecting the store.
enum StoreCommands {
    static let specs: [CommandSpec] = [
        Initialize.declaration, Migrate.declaration, Check.declaration, Query.declaration, Backup.declaration, Demo.declaration,
    ]
}

extension StoreCommands {
    /// `init`
    struct Initialize: DeclaredCommand {
        static let about = CommandSpec(
            name: "init",
            abstract: "Create the store, or upgrade it to this version's schema.",
            discussion: "Running it again changes nothing. It also restores WAL mode if someone switched it off.")


        /// It creates the store in the current folder, never one found above.
        var findsTheStoreAbove: Bool { false }

        func run(_ runner: Runner) throws -> Int32 { try runner.initialize() }
    }

    /// `migrate`
    struct Migrate: DeclaredCommand {
        static let about = CommandSpec(name: "migrate", abstract: "Apply pending migrations, or list them.")

        @Option(.flag("list", help: "List applied and pending migrations; change nothing.")) var list: Bool
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            guard list else { return try runner.initialize() }
            let opened = try runner.open(access: .inspect)
            defer { opened.close() }
            runner.output.write(Tabular(try opened.migrationStatus()), format)
            return ExitCode.ok
        }
    }

    /// `check`
    struct Check: DeclaredCommand {
        static let about = CommandSpec(
            name: "check",
            abstract: "Check the store: SQLite's integrity and foreign keys, the schema version, and attachments.",
            discussion: "Exits with 1 when anything is wrong.")

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .inspect)
            defer { opened.close() }
            let result = try StoreCheck.run(opened)
            runner.output.write(result.text)
            return result.ok ? ExitCode.ok : ExitCode.failure
        }
    }

    /// `query`
    struct Query: DeclaredCommand {
        static let about = CommandSpec(
            name: "query",
            abstract: "Run one read-only SQL statement against the store.",
            discussion: "The connection is read-only; a statement that would write is refused. Tables and views are described in the README. "
                + "Rows are printed as SQLite produces them, never held (the table format aligns its columns on the first "
                + "\(TabularStream.alignmentWindow) rows). A query that goes past --max-rows, --time-limit or builds a value "
                + "over \(QueryLimits.defaultMaxValueBytes >> 20) MB is stopped: what was printed is closed off as valid output, "
                + "the reason goes to standard error, and the exit code is 64.")

        @Argument(.required("sql", help: "The SQL statement, such as \"\(StoreReader.exampleQuery)\".")) var sql: String
        @Option(CommandTree.format) var format: OutputFormat
        @Option(
            OptionDeclaration.text("max-rows", "count", help: "Print at most this many rows (default: all).").map { text -> Int? in
                try text.map { text in
                    guard let count = Int(text), count > 0 else {
                        throw EvidenceError.invalidValue(field: "maximum rows", value: text, expected: "a whole number above 0")
                    }
                    return count
                }
            })
        var maxRows: Int?
        @Option(
            OptionDeclaration.text(
                "time-limit", "seconds",
                help: "Stop the query this many seconds after it starts; 0 for none "
                    + "(default: \(NumberText.format(QueryLimits.defaultSeconds)))."
            ).map { text -> Double? in
                guard let text else { return QueryLimits.defaultSeconds }
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                    throw EvidenceError.invalidValue(field: "time limit", value: text, expected: "a number of seconds, 0 for none")
                }
                return seconds == 0 ? nil : seconds
            })
        var seconds: Double?

        var limits: QueryLimits { QueryLimits(maxRows: maxRows, seconds: seconds) }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .inspect)
            defer { opened.close() }
            let stream = TabularStream(format: format, width: runner.output.tableWidth) { runner.output.write($0) }
            let outcome: QueryOutcome
            do {
                outcome = try opened.reader.streamQuery(sql, limits: limits, columns: stream.begin) { stream.row($0) }
            } catch {
                // Rows already printed stay valid output; the error follows on standard error.
                if stream.rowCount > 0 { stream.end() }
                throw error
            }
            stream.end()
            if case .stoppedAtRowLimit(let rows) = outcome {
                throw EvidenceError.queryLimit(
                    reason: "the query has more than \(NumberText.counted(rows, "row")); the first \(rows) were printed "
                        + "(--max-rows \(rows)); narrow it, or raise --max-rows")
            }
            return ExitCode.ok
        }
    }

    /// `backup`
    struct Backup: DeclaredCommand {
        static let about = CommandSpec(
            name: "backup",
            abstract: "Write a consistent copy of the store to a new file, while others keep writing.",
            discussion: "Uses SQLite's online backup API into a temporary file of its own beside the destination; "
                + "the copy is checked with quick_check before it takes its name, so the destination is never half a copy.")

        @Argument(.required("destination", help: "The new file; it must not exist unless --force.")) var destination: String
        @Option(.flag("force", help: "Replace an existing destination (never the store itself).")) var force: Bool

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            try opened.backup(to: destination, replacing: force)
            runner.output.message("Backed up \(opened.path) to \(destination).")
            return ExitCode.ok
        }
    }

    /// `demo`
    struct Demo: DeclaredCommand {
        static let about = CommandSpec(
            name: "demo",
            abstract: "Create a store with the bundled iPhone Duo data set and print its evidence report.",
            discussion: "Uses a temporary store, removed once the report is printed, unless --store names one to keep.")

        /// The store --store names; nil for a fresh temporary one.
        @Option(CommandTree.store) var store: String?

        func run(_ runner: Runner) throws -> Int32 {
            let target: String
            var scratch: URL?
            if let store {
                target = store
            } else {
                let folder = FileManager.default.temporaryDirectory
                    .appendingPathComponent("evidence-demo-\(UUID().uuidString.prefix(8).lowercased())")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                scratch = folder
                target = folder.appendingPathComponent("evidence.sqlite").path
            }
            defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
            let (opened, _) = try Store.initialize(at: target, clock: runner.clock)
            defer { opened.close() }
            let summary = try StoreImporter(store: opened).run(BundledSeed())
            runner.output.message(
                scratch == nil
                    ? "Demo store: \(opened.path) (the iPhone Duo data set: \(summary))."
                    : "Demo store: a temporary one, removed after the report (the iPhone Duo data set: \(summary)); "
                        + "give --store PATH to keep it.")
            try Reports.markdown(.report, of: opened, into: runner.output.standardOutput)
            return ExitCode.ok
        }
    }
}

extension Runner {
    /// `init`, and `migrate` without --list: creates or upgrades the store at `path`.
    func initialize() throws -> Int32 {
        let (store, outcome) = try Store.initialize(at: self.store, clock: clock)
        defer { store.close() }
        switch outcome {
        case .created(let version):
            output.message("Created store \(store.path) (schema version \(version)).")
        case .upgraded(let from, let to, let applied):
            output.message(
                "Upgraded store \(store.path) from schema version \(from) to \(to) (applied \(applied.joined(separator: ", "))).")
        case .upToDate(let version):
            output.message("Store \(store.path) is up to date (schema version \(version)); nothing changed.")
        }
        return ExitCode.ok
    }
}
