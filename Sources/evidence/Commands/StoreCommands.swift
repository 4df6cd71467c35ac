import EvidenceStore

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
            OptionDeclaration.text("max-rows", "count", help: "Print at most this many rows (default: all).")
                .number(atLeast: 1, field: "maximum rows", expected: "a whole number above 0"))
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
            let demo = try DemoStore(at: store, clock: runner.clock)
            defer { demo.close() }
            runner.output.message(demo.sentence)
            try Reports.markdown(.report, of: demo.store, into: runner.output.standardOutput)
            return ExitCode.ok
        }
    }
}

extension Runner {
    /// `init`, and `migrate` without --list: creates or upgrades the store at `path`.
    func initialize() throws -> Int32 {
        let (store, outcome) = try Store.initialize(at: self.store, clock: clock)
        defer { store.close() }
        output.message(outcome.sentence(path: store.path))
        return ExitCode.ok
    }
}
