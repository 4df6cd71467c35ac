import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

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
                help: "\(Choices.list(TestReport.Format.allCases.map(\.rawValue))) (default: detected from the content).")
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
                .map { text -> Int in
                    guard let text else { return IngestOptions.defaultMaxBytes }
                    guard let number = Int(text), number > 0 else {
                        throw EvidenceError.invalidValue(field: "maximum size", value: text, expected: "a number of bytes above 0")
                    }
                    return number
                })
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
            let detect = environment.detect
            let detection = detect ? BuildDetection(tools: runner.machine) : nil
            // The Xcode of this machine, where the options name none: said once, for every file.
            if let detection, options.xcodeVersionFile == nil, options.xcodeBuild == nil,
                let (version, build, note) = detection.xcodeValues(given: options.xcodeVersion ?? "")
            {
                options.xcodeVersion = version
                options.xcodeBuild = build
                runner.output.message(note + " on this machine; give --xcode or --no-detect for files made elsewhere.")
            }
            // A metrics file beside the tests file it goes with is taken as --metrics.
            var files = files
            var metricsFile = metrics
            if metricsFile == nil, files.count == 2,
                let index = files.firstIndex(where: {
                    !XCResultBundle.isBundle(Store.absolutePath($0)) && TestMetrics.looksLikeMetrics(Store.absolutePath($0))
                })
            {
                metricsFile = files.remove(at: index)
            }
            if let metricsFile { options.metrics = try TestMetrics.read(Store.absolutePath(metricsFile), maxBytes: options.maxBytes) }
            let opened = try runner.open()
            defer { opened.close() }
            for file in files {
                var fileOptions = options
                var bundle: XCResultBundle?
                if XCResultBundle.isBundle(Store.absolutePath(file)) {
                    let read = try XCResultBundle.read(file, tools: runner.machine, maxBytes: fileOptions.maxBytes)
                    bundle = read
                    fileOptions.source = read.path
                    fileOptions.deviceOSBuilds = read.osBuilds
                    fileOptions.attachments = read.attachments
                    fileOptions.metrics = read.metrics
                    fileOptions.format = .xcresult
                }
                defer { bundle?.remove() }
                let progress = ProgressLine(runner.output)
                var summary = try opened.ingest(file: bundle?.json ?? file, options: fileOptions, detection: detection) { done, total in
                    progress.show("\(file): \(done) results " + (total.map { "of \($0) written" } ?? "read"))
                }
                progress.clear()
                if let bundle, summary.alreadyIngestedAt == nil { summary.notes += bundle.notes }
                if let bundle { runner.output.message("Read \(file) with '\(bundle.command)'.") }
                write(summary, to: runner.output)
            }
            return ExitCode.ok
        }

        /// What a file's ingest did: on standard output, its warnings on standard error.
        private func write(_ summary: IngestSummary, to output: Output) {
            if let earlier = summary.alreadyIngestedAt {
                output.write("\(summary.file): already ingested on \(earlier) (same SHA-256); nothing changed.\n")
                return
            }
            let cases = summary.testCases == 1 ? "1 test case" : "\(summary.testCases) test cases"
            let results = summary.read == 1 ? "1 result" : "\(summary.read) results"
            let why = summary.read > summary.testCases ? ", one per device, repetition and retry" : ""
            var line = "\(summary.file): \(cases), \(results) (\(summary.shape)\(why)): \(summary.passed) passed, "
                + "\(summary.failed) failed, \(summary.skipped) skipped"
            if summary.other > 0 { line += ", \(summary.other) other" }
            line += "; \(summary.mapped) mapped to claims, \(summary.unmappedCount) not.\n"
            output.write(line)
            for (run, environment) in summary.runs {
                output.write("  \(run.described) on \(environment)\n")
            }
            for note in summary.notes {
                output.write("  note: \(note)\n")
            }
            for warning in summary.warnings {
                output.message("Warning: \(summary.file): \(warning)")
            }
            for (test, key) in summary.unknownClaims {
                output.message("Warning: \(summary.file): test \(test) names claim:\(key), which is not in the store")
            }
            if verbose {
                for test in summary.unmapped {
                    output.write("  unmapped: \(test)\n")
                }
                if summary.unmappedCount > summary.unmapped.count {
                    output.write("  and \(summary.unmappedCount - summary.unmapped.count) more unmapped, not listed\n")
                }
            }
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
