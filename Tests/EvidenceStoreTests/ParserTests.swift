import EvidenceStore
import Testing

@testable import evidence

@Suite struct ParserTests {
    func parse(_ words: [String], environment: [String: String] = [:]) throws -> any Command {
        try CommandTree.parse(words, environment: environment).command
    }

    /// The command a line parses to, as the type expected; nil for another type.
    func parse<Expected: Command>(_ words: [String], environment: [String: String] = [:], as _: Expected.Type) throws
        -> Expected?
    {
        try parse(words, environment: environment) as? Expected
    }

    func help(_ words: [String]) throws -> String? {
        try parse(words, as: ShowHelp.self)?.text
    }

    /// What a `query` line was parsed to.
    struct QueryLine: Equatable {
        var sql: String
        var format: OutputFormat
        var limits: QueryLimits
    }

    func query(_ sql: String, _ format: OutputFormat = .table, _ limits: QueryLimits = defaultLimits) -> QueryLine {
        QueryLine(sql: sql, format: format, limits: limits)
    }

    func parseQuery(_ words: [String]) throws -> QueryLine? {
        try parse(words, as: StoreCommands.Query.self).map { QueryLine(sql: $0.sql, format: $0.format, limits: $0.limits) }
    }

    @Test func rootHelpMatchesTheGoldenFile() throws {
        let text = try #require(try help(["--help"]), "--help must give help")
        try Golden.check(text, against: "help-root.txt")
        #expect(try help([]) == text)
        #expect(try help(["help"]) == text)
        #expect(try help(["-h"]) == text)
    }

    @Test func subcommandHelpMatchesTheGoldenFile() throws {
        let text = try #require(try help(["query", "--help"]), "query --help must give help")
        try Golden.check(text, against: "help-query.txt")
        #expect(try help(["help", "query"]) == text)
        #expect(try help(["query", "-h"]) == text)
    }

    /// A command is made from its properties' declarations: each reads its
    /// own value, a value that cannot be read is refused, and values that do
    /// not go together are refused naming the command.
    @Test func aCommandIsMadeFromWhatItsPropertiesDeclare() throws {
        let edit = try #require(
            try parse(
                ["claim", "edit", "a.b", "--model", "iPhone Duo", "--model", "iPad", "--statement", "New words.", "--by", "ann"],
                as: ClaimCommands.Edit.self))
        #expect(edit.key == "a.b")
        #expect(edit.models == ["iPhone Duo", "iPad"])
        #expect(edit.statement == "New words.")
        #expect(edit.asOf == nil && !edit.clearAsOf)
        #expect(edit.by == "ann")
        let defaults = try #require(try parse(["claim", "edit", "a.b"], environment: ["USER": "bo"], as: ClaimCommands.Edit.self))
        #expect(defaults.by == "bo")
        #expect(throws: UsageError(message: "Give either --as-of or --clear-as-of, not both.", path: ["claim", "edit"])) {
            try parse(["claim", "edit", "a.b", "--as-of", "2026-01-02", "--clear-as-of"])
        }
        #expect(throws: EvidenceError.self) { try parse(["query", "--max-rows", "0", "SELECT 1"]) }
        let log = try #require(
            try parse(["log", "a.b", "--run", "1", "--measure", "clock y=171pt from 87pt"], as: RunCommands.Log.self))
        #expect(log.measurements.map(\.name) == ["clock y"])
        #expect(log.environment.device == nil && log.runID == "1")
    }

    /// No command declares an option or argument twice (the global --store
    /// included), and every command of the tree has a type that runs it.
    @Test func everyCommandDeclaresEachOfItsOptionsOnce() throws {
        func visit(_ spec: CommandSpec, _ path: [String]) {
            let names = spec.options.map(\.name) + [CommandTree.store.option.name]
            #expect(Set(names).count == names.count, "\(path): an option declared twice")
            let arguments = spec.arguments.map(\.name)
            #expect(Set(arguments).count == arguments.count, "\(path): an argument declared twice")
            #expect(spec.command != nil || !spec.subcommands.isEmpty, "\(path): neither a command nor a group")
            for subcommand in spec.subcommands { visit(subcommand, path + [subcommand.name]) }
        }
        visit(CommandTree.root, [])
    }

    /// Each command of the tree, given what it requires (a value it accepts,
    /// or "x"), either parses or refuses the values themselves: what it
    /// requires is what it declares, but for a choice of one among several
    /// options, which no one option can require.
    @Test func everyCommandIsMadeFromWhatItDeclaresItRequires() throws {
        func visit(_ spec: CommandSpec, _ path: [String]) {
            for subcommand in spec.subcommands { visit(subcommand, path + [subcommand.name]) }
            guard spec.command != nil else { return }
            var words = path
            for argument in spec.arguments where !argument.isOptional {
                words.append(argument.choices?.first ?? "x")
            }
            for option in spec.options where option.isRequired {
                words += ["--\(option.name)", option.choices?.first ?? "x"]
            }
            if spec.environment != .optional { words += ["--simulator", "iPhone Duo", "--os", "iOS 27.1"] }
            do {
                _ = try parse(words)
            } catch let error as UsageError {
                #expect(error.message.hasPrefix("Give exactly one of"), "\(words): \(error.message)")
            } catch {
                // A value refused as a value (a date, a number, a measurement): read from a declaration.
            }
        }
        visit(CommandTree.root, [])
    }

    @Test func versionIsPrinted() throws {
        #expect(try parse(["--version"], as: ShowVersion.self) == ShowVersion())
    }

    @Test func theStorePathComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        func store(_ words: [String], _ environment: [String: String] = [:]) throws -> String {
            try CommandTree.parse(words, environment: environment).store
        }
        #expect(try store(["init"]) == "evidence.sqlite")
        #expect(try store(["init"], ["EVIDENCE_STORE": "/x/e.sqlite"]) == "/x/e.sqlite")
        #expect(try store(["init", "--store", "a.sqlite"], ["EVIDENCE_STORE": "/x/e.sqlite"]) == "a.sqlite")
        #expect(try store(["--store=b.sqlite", "init"]) == "b.sqlite")
        #expect(try store(["init", "--store=file:c.sqlite"]) == "file:c.sqlite")
        #expect(try store(["status"], ["EVIDENCE_STORE": "/x/e.sqlite"]) == "/x/e.sqlite")
    }

    static let defaultLimits = QueryLimits(maxRows: nil, seconds: QueryLimits.defaultSeconds)

    @Test func optionsTakeSeparateOrInlineValues() throws {
        #expect(try parseQuery(["query", "--format", "json", "SELECT 1"]) == query("SELECT 1", .json))
        #expect(try parseQuery(["query", "SELECT 1", "--format=csv"]) == query("SELECT 1", .csv))
        #expect(
            try parseQuery(["query", "--max-rows", "10", "--time-limit=0", "SELECT 1"])
                == query("SELECT 1", .table, QueryLimits(maxRows: 10, seconds: nil)))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try parseQuery(["query", "--", "--format"]) == query("--format"))
    }

    @Test func unknownOptionsSuggestTheClosest() throws {
        #expect(throws: UsageError(message: "Unknown option '--fromat'. Did you mean '--format'?", path: ["query"])) {
            try parse(["query", "--fromat", "json", "SELECT 1"])
        }
    }

    @Test func unknownCommandsSuggestTheClosest() throws {
        #expect(throws: UsageError(message: "Unknown command 'qurey'. Did you mean 'query'?", path: [])) {
            try parse(["qurey"])
        }
        #expect(throws: UsageError(message: "Unknown command 'zzzzzz'.", path: [])) {
            try parse(["zzzzzz"])
        }
    }

    @Test func missingAndExtraArgumentsAreUsageErrors() throws {
        #expect(throws: UsageError(message: "Missing expected argument '<sql>'.", path: ["query"])) {
            try parse(["query"])
        }
        #expect(throws: UsageError(message: "Unexpected argument 'extra'.", path: ["query"])) {
            try parse(["query", "SELECT 1", "extra"])
        }
        #expect(throws: UsageError(message: "Missing value for '--format <format>'.", path: ["query"])) {
            try parse(["query", "SELECT 1", "--format"])
        }
        #expect(throws: UsageError(message: "Option '--list' takes no value.", path: ["migrate"])) {
            try parse(["migrate", "--list=yes"])
        }
    }

    @Test func aBadFormatListsTheAcceptedValues() throws {
        #expect(
            throws: UsageError(
                message: "The value 'xml' is invalid for '--format <format>'. Please provide one of 'table', 'json' or 'csv'.",
                path: ["query"])
        ) {
            try parse(["query", "--format", "xml", "SELECT 1"])
        }
        #expect(
            throws: UsageError(
                message: "The value 'maybe' is invalid for '<label>'. Please provide one of 'measured', 'unverified', 'not-published' or 'sourced'.",
                path: ["claim", "label"])
        ) {
            try parse(["claim", "label", "k", "maybe", "--reason", "r"])
        }
        // Values are taken in any case, as before.
        #expect(try parseQuery(["query", "--format", "JSON", "SELECT 1"]) == query("SELECT 1", .json))
    }

    @Test func helpListsTheAcceptedValuesFromTheEnums() throws {
        let text = try #require(try help(["claim", "list", "--help"]), "expected help")
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Only claims in this state: " + VerificationState.names.dropLast().joined(separator: ", ")))
        #expect(flat.contains("Output format: " + OutputFormat.names.dropLast().joined(separator: ", ")))
    }
}

@Suite struct CommandLineEndToEndTests {
    @Test func usageErrorsExit64WithTheUsageLine() throws {
        let result = try EvidenceBinary.run(["query", "--fromat", "json", "SELECT 1"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "Error: Unknown option '--fromat'. Did you mean '--format'?\nUSAGE: evidence query <sql> [--format <format>] [--max-rows <count>]\n       [--time-limit <seconds>] [--store <path>]\n"
        )
        #expect(result.stdout.isEmpty)
    }

    @Test func helpGoesToStandardOutput() throws {
        let result = try EvidenceBinary.run(["help", "query"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Run one read-only SQL statement"))
        #expect(result.stderr.isEmpty)
    }

    @Test func versionIsPrinted() throws {
        let result = try EvidenceBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "evidence \(CommandTree.version)\n")
    }
}
