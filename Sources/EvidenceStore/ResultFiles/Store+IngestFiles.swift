extension Store {
    /// Ingests result files one after another, each in its own transaction
    /// (`ingest(file:options:detection:progress:)`): an .xcresult bundle is
    /// read with xcresulttool first, its images and metrics with it, and a
    /// metrics file given beside one tests file is taken as that file's
    /// metrics. `done` hears each file's summary as soon as it is written, so
    /// a later file that fails leaves the earlier ones said.
    public func ingest(
        files: [String], metrics: String?, options: IngestOptions, tools: MachineTools, detection: BuildDetection?,
        progress: @escaping (String, Int, Int?) -> Void, done: (IngestSummary) -> Void
    ) throws {
        var options = options
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
        for file in files {
            var fileOptions = options
            var bundle: XCResultBundle?
            if XCResultBundle.isBundle(Store.absolutePath(file)) {
                let read = try XCResultBundle.read(file, tools: tools, maxBytes: fileOptions.maxBytes)
                bundle = read
                fileOptions.source = read.path
                fileOptions.deviceOSBuilds = read.osBuilds
                fileOptions.attachments = read.attachments
                fileOptions.metrics = read.metrics
                fileOptions.format = .xcresult
            }
            defer { bundle?.remove() }
            var summary = try ingest(file: bundle?.json ?? file, options: fileOptions, detection: detection) {
                progress(file, $0, $1)
            }
            if let bundle {
                summary.readWith = bundle.command
                if summary.alreadyIngestedAt == nil { summary.notes += bundle.notes }
            }
            done(summary)
        }
    }
}

extension IngestSummary {
    /// What the ingest did, for standard output: a line of counts, then its
    /// runs and notes, and with `verbose` the tests that map to no claim.
    public func text(verbose: Bool) -> String {
        if let earlier = alreadyIngestedAt {
            return "\(file): already ingested on \(earlier) (same SHA-256); nothing changed.\n"
        }
        let why = read > testCases ? ", one per device, repetition and retry" : ""
        var text = "\(file): \(NumberText.counted(testCases, "test case")), \(NumberText.counted(read, "result")) (\(shape)\(why)): "
            + "\(passed) passed, \(failed) failed, \(skipped) skipped"
        if other > 0 { text += ", \(other) other" }
        text += "; \(mapped) mapped to claims, \(unmappedCount) not.\n"
        for (run, environment) in runs { text += "  \(run.described) on \(environment)\n" }
        for note in notes { text += "  note: \(note)\n" }
        if verbose {
            for test in unmapped { text += "  unmapped: \(test)\n" }
            if unmappedCount > unmapped.count { text += "  and \(unmappedCount - unmapped.count) more unmapped, not listed\n" }
        }
        return text
    }

    /// What a person should know beside it, for standard error: how a bundle
    /// was read, why results count for less, tests naming unknown claims.
    public var messages: [String] {
        (readWith.map { ["Read \(PathText.name(of: file)) with '\($0)'."] } ?? []) + warnings.map { "Warning: \(file): \($0)" }
            + unknownClaims.map { "Warning: \(file): test \($0.test) names claim:\($0.key), which is not in the store" }
    }
}
