import EvidenceStore

/// compare: what changed between two runs or two builds.
enum CompareCommands {
    static let formats = OutputFormat.names + ["markdown"]

    /// How a comparison is written: as a listing, or as a Markdown document.
    enum Output: Equatable, Sendable {
        case listing(OutputFormat)
        case markdown

        init(parsing text: String?) throws {
            let name = (text ?? "table").lowercased()
            self = name == "markdown" ? .markdown : .listing(try OutputFormat(parsing: name))
        }
    }
}

extension CompareCommands {
    /// `compare`
    struct Compare: DeclaredCommand {
        static let about = CommandSpec(
            name: "compare",
            abstract: "What changed between two runs, or two builds of a model: regressions, fixes, coverage and moved measurements.",
            discussion: "Each side is a run (--from RUN --to RUN, by UUID, a prefix of 6 or more, or local number) or, with "
                + "--model, the model's environments at an OS version or build (--model \"iPhone Duo\" --from 27.1 --to 27.2), "
                + "devices and simulators each with their own lines unless --kind names one. Per claim and per automated test "
                + "(by its identifier, whether or not it maps to a claim), the latest pass or fail on each side, ordered as the "
                + "state orders results (by day, then by time where every result of the day has one, else tied with a fail "
                + "deciding; within a run a fail outweighs a pass at the same moment), gives: regressed (pass, then fail), fixed (fail, then pass), "
                + "still-failing, newly-covered (nothing decisive before) or no-longer-covered (nothing decisive after); a pass "
                + "on both sides is no line. Retracted results, a claim's results on models it does not speak about, and its "
                + "passes where the environment lacks a capability it needs count for nothing. A measurement whose latest value differs between the sides is moved, with both values and the delta.",
)

        @Option(.required("from", "side", help: "The earlier run, or with --model the earlier OS version or build."))
        var fromSide: String
        @Option(.required("to", "side", help: "The later run, or with --model the later OS version or build.")) var toSide: String
        @Option(.text("model", "model", help: "Compare this model's builds instead of two runs.")) var model: String?
        @Option(.choice("kind", "kind", help: "With --model, only \(EnvironmentKind.names.listed()) (default: both)."))
        var kind: EnvironmentKind?
        @Option(
            OptionDeclaration.text("format", "format", help: "Output format: \(formats.listed()) (default: table).")
                .accepting(formats).map { try Output(parsing: $0) })
        var output: Output
        @Option(
            OptionDeclaration.text(
                "fail-on", "changes",
                help: "Exit 1 when any line has one of these changes, comma-separated: \(ComparisonChange.names.listed()); "
                    + "such as regressed,moved (a gate for CI)."
            ).map { text in Set(try (text ?? "").split(separator: ",").map { try ComparisonChange(parsing: String($0)) }) })
        var failOn: Set<ComparisonChange>

        func validate() throws {
            if model == nil, kind != nil { throw UsageError(message: "--kind needs --model.") }
        }

        func side(_ value: String) -> ComparisonSide {
            guard let model else { return .run(value) }
            return .build(model: model, kind: kind, version: value)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let comparison = try runner.with(access: .reading) { try $0.compare(from: side(fromSide), to: side(toSide)) }
            switch output {
            case .markdown:
                try ComparisonDocument(comparison).write(to: MarkdownWriter(into: runner.output.standardOutput))
            case .listing(let format):
                runner.output.write(Tabular(comparison.rows), format)
            }
            let failing = ComparisonChange.allCases.filter { failOn.contains($0) && comparison.count($0) > 0 }
            guard failing.isEmpty else {
                runner.output.message(
                    "Failing (--fail-on): " + failing.map { "\(comparison.count($0)) \($0.rawValue)" }.joined(separator: ", ") + ".")
                return ExitCode.failure
            }
            return ExitCode.ok
        }
    }

    /// `history`
    struct History: DeclaredCommand {
        static let about = CommandSpec(
            name: "history",
            abstract: "A claim's results over time and builds, newest first, with measurements and retractions.",
            discussion: "Days come newest first; within a day, results are ordered by the clock when each has a time, and by "
                + "the order they were recorded in when any has only a date. Retracted results are listed and marked.")

        @Argument(.required("claim", help: "The claim's key.")) var claim: String
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.listing(format: format) { Tabular(try $0.reader.history(ofClaim: claim)) }
        }
    }

    /// `flaky`
    struct Flaky: DeclaredCommand {
        static let about = CommandSpec(
            name: "flaky",
            abstract: "Claims and automated tests that both passed and failed on one environment within their last results.",
            discussion: "One environment is one model, kind, OS build and Xcode build. Retracted results count for nothing. "
                + "Flaky never hides failing: a claim whose latest decisive result failed stays failing. "
                + "`claim show`, `untested` and the evidence report flag flaky claims too (over the last "
                + "\(FlakyListing.defaultWindow) results).")

        @Option(
            OptionDeclaration.text(
                "window", "count",
                help: "How many of the latest decisive results (pass or fail) on each environment to look at "
                    + "(default: \(FlakyListing.defaultWindow)).")
                .number(atLeast: 1, field: "window", expected: "a whole number of results, 1 or more")
                .defaulting(to: FlakyListing.defaultWindow))
        var window: Int
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.listing(format: format) { Tabular(try $0.reader.flakyList(window: window)) }
        }
    }
}
