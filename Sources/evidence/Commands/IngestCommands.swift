import EvidenceStore

/// ingest, and map add/list/remove.
enum IngestCommands {
    static let map = CommandSpec(
        group: "map", abstract: "Add, list and remove rules that map test identifiers to claims.",
        commands: [MapAdd.self, MapList.self, MapRemove.self])
}

extension IngestCommands {
    /// `ingest`
    struct Ingest: DeclaredCommand {
        static let about = CommandSpec(
            name: "ingest",
            abstract: "Read test results from .xcresult bundles, xcresulttool JSON or JUnit XML into runs, results and claims.",
            discussion: "Each file is one transaction; a file whose content was ingested before changes nothing. An .xcresult bundle is read with Xcode's 'xcrun xcresulttool get test-results tests' (older bundles: 'get --legacy --format json'), its summary giving each device's OS build; EVIDENCE_XCRUN names another xcrun. The device, OS and build come from the file where it gives them, else from the options, else from Xcode on this machine (xcodebuild -version; a simulator's OS build from xcrun simctl list runtimes) unless --no-detect. A test maps to a claim through 'evidence map' rules, or when its identifier, a tag or a property carries claim:KEY.")

        @Argument(.variadic("file", help: "A result file, or an .xcresult bundle.")) var files: [String]
        @Option(
            OptionDeclaration.text(
                "format", "format",
                help: "\(TestReport.Format.allCases.map(\.rawValue).listed()) (default: detected from the content).")
                // The parser has checked the value against the choices.
                .accepting(TestReport.Format.allCases.map(\.rawValue)).map { $0.flatMap { TestReport.Format(rawValue: $0.lowercased()) } })
        var format: TestReport.Format?
        let environment = EnvironmentOptions()
        @Option(.text("xcode-version-file", "file", help: "The output of 'xcodebuild -version', for the Xcode version and build."))
        var xcodeVersionFile: String?
        @Option(
            .text(
                "metrics", "file",
                help: "The output of 'xcrun xcresulttool get test-results metrics' for the one tests file given (recognised "
                    + "without this option when it is given beside it)."))
        var metrics: String?
        @Option(SharedOptions.tester) var tester: String
        @Option(SharedOptions.date) var date: String?
        @Option(SharedOptions.timezone) var timeZone: Zone
        @Option(.flag("verbose", help: "List the tests that map to no claim.")) var verbose: Bool
        @Option(
            OptionDeclaration.text(
                "max-size", "bytes", help: "Refuse files larger than this (default: \(IngestOptions.defaultMaxBytes)).")
                .number(atLeast: 1, field: "maximum size", expected: "a number of bytes above 0")
                .defaulting(to: IngestOptions.defaultMaxBytes))
        var maxBytes: Int

        /// What the options say of the files.
        func options() throws -> IngestOptions {
            let model = try environment.model()
            var options = IngestOptions(
                format: format, kind: model?.kind, model: model?.name, os: environment.os,
                osBuild: try environment.osBuild.map { try AppleBuild.validated($0, field: "OS build") },
                xcodeVersion: environment.xcode,
                xcodeBuild: try environment.xcodeBuild.map { try AppleBuild.validated($0, field: "Xcode build") },
                xcodeVersionFile: xcodeVersionFile, tester: tester, date: try date.map { try Timestamp.parse($0, field: "date") },
                maxBytes: maxBytes)
            options.newModel = environment.newModel
            options.timeZone = timeZone
            if let os = options.os { _ = try EnvironmentSpec.splitOS(os) }
            return options
        }

        func validate() throws {
            _ = try options()
            if metrics != nil, files.count != 1 {
                throw UsageError(message: "--metrics goes with one tests file; give the files one ingest each.")
            }
        }

        func run(_ runner: Runner) throws -> Int32 {
            var options = try options()
            let detection = environment.detect ? BuildDetection(tools: runner.machine) : nil
            if let note = detection?.takeInstalledXcode(into: &options) { runner.output.message(note) }
            let opened = try runner.open()
            defer { opened.close() }
            let progress = ProgressLine(runner.output)
            try opened.ingest(
                files: files, metrics: metrics, options: options, tools: runner.machine, detection: detection,
                progress: { file, done, total in
                    progress.show("\(file): \(done) results " + (total.map { "of \($0) written" } ?? "read"))
                },
                done: { summary in
                    progress.clear()
                    runner.output.write(summary.text(verbose: verbose))
                    summary.messages.forEach(runner.output.message)
                })
            return ExitCode.ok
        }
    }

    /// `map add`
    struct MapAdd: DeclaredCommand {
        static let about = CommandSpec(
            name: "add",
            abstract: "Map tests whose identifier matches a pattern to a claim.",
            discussion: "A pattern is a test identifier such as LiveActivityTests/testCompactTrailingFitsCircle(), with * and ? as wildcards. It also matches the identifier without its module and with or without \"()\".")

        @Argument(.required("pattern", help: "The test identifier pattern.")) var pattern: String
        @Argument(.required("claim", help: "The claim's key.")) var claim: String

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.addMapping(pattern: pattern, claimKey: claim) }
            runner.output.message("Mapped tests matching \(pattern) to \(claim).")
            return ExitCode.ok
        }
    }

    /// `map list`
    struct MapList: ListingCommand {
        static let about = CommandSpec(name: "list", abstract: "List the mapping rules.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.mappingList()) }
    }

    /// `map remove`
    struct MapRemove: DeclaredCommand {
        static let about = CommandSpec(
            name: "remove", abstract: "Remove a mapping rule (every rule of the pattern when no claim is given).")

        @Argument(.required("pattern", help: "The pattern of the rule.")) var pattern: String
        @Argument(.optional("claim", help: "The claim's key.")) var claim: String?

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.removeMapping(pattern: pattern, claimKey: claim) }
            runner.output.message("Removed the mapping of \(pattern)\(claim.map { " to " + $0 } ?? "").")
            return ExitCode.ok
        }
    }
}
