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
        static let file = Argument.variadic("file", help: "A result file, or an .xcresult bundle.")
        static let format = Option.text(
            "format", "format",
            help: "\(Choices.list(TestReport.Format.allCases.map(\.rawValue))) (default: detected from the content).")
            // The parser has checked the value against the choices.
            .accepting(TestReport.Format.allCases.map(\.rawValue)).map { $0.flatMap { TestReport.Format(rawValue: $0.lowercased()) } }
        static let xcodeVersionFile = Option.text(
            "xcode-version-file", "file", help: "The output of 'xcodebuild -version', for the Xcode version and build.")
        static let verbose = Option.flag("verbose", help: "List the tests that map to no claim.")
        static let metrics = Option.text(
            "metrics", "file",
            help: "The output of 'xcrun xcresulttool get test-results metrics' for the one tests file given (recognised "
                + "without this option when it is given beside it).")
        static let maxSize = Option.text(
            "max-size", "bytes", help: "Refuse files larger than this (default: \(IngestOptions.defaultMaxBytes)).")
            .map { text -> Int in
                guard let text else { return IngestOptions.defaultMaxBytes }
                guard let number = Int(text), number > 0 else {
                    throw EvidenceError.invalidValue(field: "maximum size", value: text, expected: "a number of bytes above 0")
                }
                return number
            }
        static let spec = CommandSpec(
            name: "ingest",
            abstract: "Read test results from .xcresult bundles, xcresulttool JSON or JUnit XML into runs, results and claims.",
            discussion: "Each file is one transaction; a file whose content was ingested before changes nothing. An .xcresult bundle is read with Xcode's 'xcrun xcresulttool get test-results tests' (older bundles: 'get --legacy --format json'), its summary giving each device's OS build; EVIDENCE_XCRUN names another xcrun. The device, OS and build come from the file where it gives them, else from the options, else from Xcode on this machine (xcodebuild -version; a simulator's OS build from xcrun simctl list runtimes) unless --no-detect. A test maps to a claim through 'evidence map' rules, or when its identifier, a tag or a property carries claim:KEY.",
            arguments: [file.argument],
            options: [format.option] + SharedOptions.environment + [
                xcodeVersionFile.option, metrics.option, SharedOptions.tester.option, SharedOptions.date.option,
                SharedOptions.timezone.option, verbose.option, maxSize.option,
            ])

        let files: [String]
        let metrics: String?
        let options: IngestOptions
        let verbose: Bool
        let detect: Bool

        init(_ values: ParsedValues) throws {
            let device = try values[SharedOptions.device]
            let simulator = try values[SharedOptions.simulator]
            if device != nil && simulator != nil {
                throw UsageError(message: "Give either --device or --simulator, not both.", path: values.path)
            }
            let maxBytes = try values[Self.maxSize]
            var options = IngestOptions(
                format: try values[Self.format], kind: device != nil ? .device : simulator != nil ? .simulator : nil,
                model: device ?? simulator, os: try values[SharedOptions.os],
                osBuild: try values[SharedOptions.osBuild].map { try AppleBuild.validated($0, field: "OS build") },
                xcodeVersion: try values[SharedOptions.xcode],
                xcodeBuild: try values[SharedOptions.xcodeBuild].map { try AppleBuild.validated($0, field: "Xcode build") },
                xcodeVersionFile: try values[Self.xcodeVersionFile], tester: try SharedOptions.tester(values),
                date: try values[SharedOptions.date].map { try Timestamp.parse($0, field: "date") }, maxBytes: maxBytes)
            options.newModel = try values[SharedOptions.newModel]
            options.timeZone = try SharedOptions.timeZone(values)
            if let os = options.os { _ = try EnvironmentSpec.splitOS(os) }
            files = try values[Self.file]
            metrics = try values[Self.metrics]
            if metrics != nil, files.count != 1 {
                throw UsageError(message: "--metrics goes with one tests file; give the files one ingest each.", path: values.path)
            }
            self.options = options
            verbose = try values[Self.verbose]
            detect = try SharedOptions.detect(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            var options = options
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
        static let pattern = Argument.required("pattern", help: "The test identifier pattern.")
        static let claim = Argument.required("claim", help: "The claim's key.")
        static let spec = CommandSpec(
            name: "add",
            abstract: "Map tests whose identifier matches a pattern to a claim.",
            discussion: "A pattern is a test identifier such as LiveActivityTests/testCompactTrailingFitsCircle(), with * and ? as wildcards. It also matches the identifier without its module and with or without \"()\".",
            arguments: [pattern.argument, claim.argument])

        let pattern: String
        let claim: String

        init(_ values: ParsedValues) throws {
            pattern = try values[Self.pattern]
            claim = try values[Self.claim]
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.addMapping(pattern: pattern, claimKey: claim) }
            runner.output.message("Mapped tests matching \(pattern) to \(claim).")
            return ExitCode.ok
        }
    }

    /// `map list`
    struct MapList: ListingCommand {
        static let spec = CommandSpec(name: "list", abstract: "List the mapping rules.", options: [CommandTree.format.option])

        let format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.mappingList()) }
    }

    /// `map remove`
    struct MapRemove: DeclaredCommand {
        static let pattern = Argument.required("pattern", help: "The pattern of the rule.")
        static let claim = Argument.optional("claim", help: "The claim's key.")
        static let spec = CommandSpec(
            name: "remove", abstract: "Remove a mapping rule (every rule of the pattern when no claim is given).",
            arguments: [pattern.argument, claim.argument])

        let pattern: String
        let claim: String?

        init(_ values: ParsedValues) throws {
            pattern = try values[Self.pattern]
            claim = try values[Self.claim]
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.removeMapping(pattern: pattern, claimKey: claim) }
            runner.output.message("Removed the mapping of \(pattern)\(claim.map { " to " + $0 } ?? "").")
            return ExitCode.ok
        }
    }
}
