import EvidenceStore
import FoundationEssentials

/// ingest, and map add/list/remove.
enum IngestCommands {
    static let ingest = CommandSpec(
        name: "ingest",
        abstract: "Read test results from .xcresult bundles, xcresulttool JSON or JUnit XML into runs, results and claims.",
        discussion: "Each file is one transaction; a file whose content was ingested before changes nothing. An .xcresult bundle is read with Xcode's 'xcrun xcresulttool get test-results tests' (older bundles: 'get --legacy --format json'), its summary giving each device's OS build; EVIDENCE_XCRUN names another xcrun. The device, OS and build come from the file where it gives them, else from the options, else from Xcode on this machine (xcodebuild -version; a simulator's OS build from xcrun simctl list runtimes) unless --no-detect. A test maps to a claim through 'evidence map' rules, or when its identifier, a tag or a property carries claim:KEY.",
        arguments: [ArgumentSpec(name: "file", help: "A result file, or an .xcresult bundle.", isVariadic: true)],
        options: [
            OptionSpec(
                name: "format", valueName: "format",
                help: "\(Choices.list(TestReport.Format.allCases.map(\.rawValue))) (default: detected from the content).",
                choices: TestReport.Format.allCases.map(\.rawValue)),
        ] + SharedOptions.environment + [
            OptionSpec(
                name: "xcode-version-file", valueName: "file",
                help: "The output of 'xcodebuild -version', for the Xcode version and build."),
            SharedOptions.tester, SharedOptions.date,
            OptionSpec(
                name: "timezone", valueName: "zone",
                help: "The zone of the file's timestamps that name none, such as Europe/Berlin or UTC (default: this "
                    + "machine's, as xcodebuild writes them)."),
            OptionSpec(name: "verbose", help: "List the tests that map to no claim."),
            OptionSpec(
                name: "max-size", valueName: "bytes",
                help: "Refuse files larger than this (default: \(IngestOptions.defaultMaxBytes))."),
        ],
        build: { values in
            if values.value("device") != nil && values.value("simulator") != nil {
                throw UsageError(message: "Give either --device or --simulator, not both.", path: values.path)
            }
            var maxBytes = IngestOptions.defaultMaxBytes
            if let text = values.value("max-size") {
                guard let number = Int(text), number > 0 else {
                    throw EvidenceError.invalidValue(field: "maximum size", value: text, expected: "a number of bytes above 0")
                }
                maxBytes = number
            }
            // The parser has checked the value against the choices.
            let format = values.value("format").flatMap { TestReport.Format(rawValue: $0.lowercased()) }
            var options = IngestOptions(
                format: format, kind: values.value("device") != nil ? .device : values.value("simulator") != nil ? .simulator : nil,
                model: values.value("device") ?? values.value("simulator"), os: values.value("os"),
                osBuild: try values.value("os-build").map { try AppleBuild.validated($0, field: "OS build") },
                xcodeVersion: values.value("xcode"),
                xcodeBuild: try values.value("xcode-build").map { try AppleBuild.validated($0, field: "Xcode build") },
                xcodeVersionFile: values.value("xcode-version-file"), tester: SharedOptions.tester(values),
                date: try values.value("date").map { try Timestamp.parse($0, field: "date") }, maxBytes: maxBytes)
            options.newModel = values.flag("new-model")
            options.timeZone = try SharedOptions.timeZone(values)
            if let os = options.os { _ = try EnvironmentSpec.splitOS(os) }
            return .ingest(
                store: CommandTree.storePath(values), files: values.argumentValues("file"), options: options,
                verbose: values.flag("verbose"), detect: SharedOptions.detect(values))
        }
    )

    static let map = CommandSpec(
        name: "map",
        abstract: "Add, list and remove rules that map test identifiers to claims.",
        subcommands: [
            CommandSpec(
                name: "add",
                abstract: "Map tests whose identifier matches a pattern to a claim.",
                discussion: "A pattern is a test identifier such as LiveActivityTests/testCompactTrailingFitsCircle(), with * and ? as wildcards. It also matches the identifier without its module and with or without \"()\".",
                arguments: [
                    ArgumentSpec(name: "pattern", help: "The test identifier pattern."),
                    ArgumentSpec(name: "claim", help: "The claim's key."),
                ],
                build: { .mapAdd(store: CommandTree.storePath($0), pattern: try $0.required("pattern"), claim: $0.argumentValues("claim").first ?? "") }
            ),
            CommandSpec(
                name: "list",
                abstract: "List the mapping rules.",
                options: [CommandTree.formatOption],
                build: { .mapList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
            CommandSpec(
                name: "remove",
                abstract: "Remove a mapping rule (every rule of the pattern when no claim is given).",
                arguments: [
                    ArgumentSpec(name: "pattern", help: "The pattern of the rule."),
                    ArgumentSpec(name: "claim", help: "The claim's key.", isOptional: true),
                ],
                build: { .mapRemove(store: CommandTree.storePath($0), pattern: try $0.required("pattern"), claim: $0.argument("claim")) }
            ),
        ]
    )
}

extension Runner {
    func ingest(store path: String, files: [String], options: IngestOptions, verbose: Bool, detect: Bool) throws -> Int32 {
        var options = options
        let detection = detect ? BuildDetection(tools: machine) : nil
        // The Xcode of this machine, where the options name none: said once, for every file.
        if let detection, options.xcodeVersionFile == nil, options.xcodeBuild == nil,
            let (version, build, note) = detection.xcodeValues(given: options.xcodeVersion ?? "")
        {
            options.xcodeVersion = version
            options.xcodeBuild = build
            output.message(note + " on this machine; give --xcode or --no-detect for files made elsewhere.")
        }
        let store = try open(path)
        defer { store.close() }
        for file in files {
            var fileOptions = options
            var bundle: XCResultBundle?
            if XCResultBundle.isBundle(Store.absolutePath(file)) {
                let read = try XCResultBundle.read(file, tools: machine)
                bundle = read
                fileOptions.source = read.path
                fileOptions.deviceOSBuilds = read.osBuilds
                fileOptions.format = .xcresult
            }
            defer { bundle?.remove() }
            let started = Date()
            var shown = false
            let summary = try store.ingest(file: bundle?.json ?? file, options: fileOptions, detection: detection) { done, total in
                guard Output.standardErrorIsTerminal, Date().timeIntervalSince(started) > 1 else { return }
                shown = true
                output.progress("\(file): \(done)\(total.map { " of \($0)" } ?? "") tests written")
            }
            if shown { output.progress(nil) }
            if let bundle { output.message("Read \(file) with '\(bundle.command)'.") }
            write(summary, verbose: verbose)
        }
        return ExitCode.ok
    }

    private func write(_ summary: IngestSummary, verbose: Bool) {
        if let earlier = summary.alreadyIngestedAt {
            output.write("\(summary.file): already ingested on \(earlier) (same SHA-256); nothing changed.\n")
            return
        }
        var line = "\(summary.file): read \(summary.read) tests (\(summary.shape)): \(summary.passed) passed, "
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
