import EvidenceStore
import Testing

@testable import evidence

@Suite struct ParserTests {
    func parse(_ words: [String], environment: [String: String] = [:]) throws -> Command {
        try CommandTree.parse(words, environment: environment)
    }

    @Test func rootHelpMatchesTheGoldenFile() throws {
        guard case .help(let text) = try parse(["--help"]) else {
            Issue.record("--help must give help")
            return
        }
        try Golden.check(text, against: "help-root.txt")
        #expect(try parse([]) == .help(text))
        #expect(try parse(["help"]) == .help(text))
        #expect(try parse(["-h"]) == .help(text))
    }

    @Test func subcommandHelpMatchesTheGoldenFile() throws {
        guard case .help(let text) = try parse(["query", "--help"]) else {
            Issue.record("query --help must give help")
            return
        }
        try Golden.check(text, against: "help-query.txt")
        #expect(try parse(["help", "query"]) == .help(text))
        #expect(try parse(["query", "-h"]) == .help(text))
    }

    /// A value the parser did not check (a name no spec declares) is an error
    /// that names it, never an empty string that reaches the store.
    @Test func aRequiredValueNoSpecDeclaresIsAnError() throws {
        let values = ParsedValues(path: ["claim", "show"], arguments: ["key": ["a.b"]])
        #expect(try values.required("key") == "a.b")
        #expect(throws: UsageError(message: "Missing <kye>.", path: ["claim", "show"])) { try values.required("kye") }
    }

    @Test func versionIsPrinted() throws {
        #expect(try parse(["--version"]) == .version)
    }

    @Test func theStorePathComesFromTheOptionThenTheEnvironmentThenTheDefault() throws {
        #expect(try parse(["init"]) == .initialize(store: "evidence.sqlite"))
        #expect(try parse(["init"], environment: ["EVIDENCE_STORE": "/x/e.sqlite"]) == .initialize(store: "/x/e.sqlite"))
        #expect(
            try parse(["init", "--store", "a.sqlite"], environment: ["EVIDENCE_STORE": "/x/e.sqlite"])
                == .initialize(store: "a.sqlite"))
        #expect(try parse(["--store=b.sqlite", "init"]) == .initialize(store: "b.sqlite"))
        #expect(try parse(["init", "--store=file:c.sqlite"]) == .initialize(store: "file:c.sqlite"))
    }

    static let defaultLimits = QueryLimits(maxRows: nil, seconds: QueryLimits.defaultSeconds)

    @Test func optionsTakeSeparateOrInlineValues() throws {
        #expect(
            try parse(["query", "--format", "json", "SELECT 1"])
                == .query(store: "evidence.sqlite", sql: "SELECT 1", format: .json, limits: Self.defaultLimits))
        #expect(
            try parse(["query", "SELECT 1", "--format=csv"])
                == .query(store: "evidence.sqlite", sql: "SELECT 1", format: .csv, limits: Self.defaultLimits))
        #expect(
            try parse(["query", "--max-rows", "10", "--time-limit=0", "SELECT 1"])
                == .query(store: "evidence.sqlite", sql: "SELECT 1", format: .table, limits: QueryLimits(maxRows: 10, seconds: nil)))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(
            try parse(["query", "--", "--format"])
                == .query(store: "evidence.sqlite", sql: "--format", format: .table, limits: Self.defaultLimits))
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
        #expect(try parse(["query", "--format", "JSON", "SELECT 1"]) == .query(store: "evidence.sqlite", sql: "SELECT 1", format: .json, limits: Self.defaultLimits))
    }

    @Test func helpListsTheAcceptedValuesFromTheEnums() throws {
        guard case .help(let text) = try parse(["claim", "list", "--help"]) else {
            Issue.record("expected help")
            return
        }
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

    /// A value the parser did not check (a name no spec declares) is an error
    /// that names it, never an empty string that reaches the store.
    @Test func aRequiredValueNoSpecDeclaresIsAnError() throws {
        let values = ParsedValues(path: ["claim", "show"], arguments: ["key": ["a.b"]])
        #expect(try values.required("key") == "a.b")
        #expect(throws: UsageError(message: "Missing <kye>.", path: ["claim", "show"])) { try values.required("kye") }
    }

    @Test func versionIsPrinted() throws {
        let result = try EvidenceBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "evidence \(CommandTree.version)\n")
    }
}
