#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `evidence ingest` is told beyond the file itself: the environment
/// where the file lacks it, the Xcode build, who ran it and when.
public struct IngestOptions: Equatable, Sendable {
    public var format: TestReport.Format?
    public var kind: EnvironmentKind?
    public var model: String?
    /// "iOS 27.1"
    public var os: String?
    public var osBuild: String?
    public var xcodeVersion: String?
    public var xcodeBuild: String?
    /// The output of `xcodebuild -version`; wins over the two above.
    public var xcodeVersionFile: String?
    public var tester: String
    public var date: String?
    /// Takes a model given as an option that is close to a recorded one as new, not as a typo.
    public var newModel: Bool = false
    /// Files larger than this are refused before they are read.
    public var maxBytes: Int
    /// Where a file's timestamps without a zone are read (xcodebuild writes
    /// the machine's local time); the run's note names it.
    public var timeZone: Zone = .utc
    /// What the file was read from, named on the run and in the summary
    /// instead of the file: an `.xcresult` bundle and the command that read it.
    public var source: String?
    /// OS builds by device (`deviceKey`), where the file leaves them out:
    /// from an `.xcresult` bundle's summary.
    public var deviceOSBuilds: [String: String] = [:]
    /// The files the tests attached: an `.xcresult` bundle's, exported.
    public var attachments: [XCResultBundle.Attachment] = []
    /// The tests' performance metrics, by test and device.
    public var metrics = TestMetrics()

    public static let defaultMaxBytes = 256 << 20

    /// A device's key in `deviceOSBuilds`.
    public static func deviceKey(model: String, osVersion: String) -> String {
        model.lowercased() + "\n" + osVersion
    }

    public init(
        format: TestReport.Format? = nil, kind: EnvironmentKind? = nil, model: String? = nil, os: String? = nil,
        osBuild: String? = nil, xcodeVersion: String? = nil, xcodeBuild: String? = nil, xcodeVersionFile: String? = nil,
        tester: String = "", date: String? = nil, maxBytes: Int = IngestOptions.defaultMaxBytes
    ) {
        self.format = format
        self.kind = kind
        self.model = model
        self.os = os
        self.osBuild = osBuild
        self.xcodeVersion = xcodeVersion
        self.xcodeBuild = xcodeBuild
        self.xcodeVersionFile = xcodeVersionFile
        self.tester = tester
        self.date = date
        self.maxBytes = maxBytes
    }
}

/// What one file's ingest did.
public struct IngestSummary: Sendable {
    public var file: String
    /// The xcresulttool command an .xcresult bundle was read with.
    public var readWith: String?
    public var shape: String
    /// When the same content was ingested before, and nothing was written now.
    public var alreadyIngestedAt: String?
    /// How many test cases the file gives, and how many results they gave
    /// (one for each device a case ran on, each repetition and retry).
    public var testCases = 0
    public var read = 0
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    public var other = 0
    /// Results of tests that map to at least one claim.
    public var mapped = 0
    /// How many results' tests map to no claim, and the first `unmappedListed` of those tests.
    public var unmappedCount = 0
    public var unmapped: [String] = []
    public static let unmappedListed = 10_000
    /// Tests naming `claim:KEY` for a key the store does not have.
    public var unknownClaims: [(test: String, key: String)] = []
    public var runs: [(run: RunRecord, environment: String)] = []
    public var notes: [String] = []
    /// Why some of its results will count for less or for nothing, one
    /// sentence each (see `StoreReader.countingNotes(runID:)`).
    public var warnings: [String] = []

    /// Counts a result by its outcome, and as mapped or not.
    mutating func count(_ test: TestReport.TestCase, mapped isMapped: Bool) {
        read += 1
        switch test.outcome {
        case .pass: passed += 1
        case .fail: failed += 1
        case .skipped: skipped += 1
        case .blocked, .inconclusive: other += 1
        }
        if isMapped {
            mapped += 1
        } else {
            unmappedCount += 1
            if unmapped.count < Self.unmappedListed { unmapped.append(test.identifier) }
        }
    }
}

extension Store {
    /// Reads one result file into the store. The file is read once, start to
    /// end, its results kept aside (`IngestStaging`) until its end says what
    /// names and places them: its SHA-256, its devices and their
    /// environments, its dates. Then one transaction writes its runs and
    /// results, or, for a file with anything wrong, nothing. The same content
    /// (by SHA-256) ingested twice is written once. `progress` is given how
    /// many results are read, then written of how many. `detection` gives a
    /// simulator device with no OS build the build of its runtime on this
    /// machine (and says so in the summary's notes).
    public func ingest(
        file path: String, options: IngestOptions, detection: BuildDetection? = nil, progress: ((Int, Int?) -> Void)? = nil
    ) throws -> IngestSummary {
        try ResultFile.check(path, maxBytes: options.maxBytes)
        let bytes = try ResultFileBytes(path: path, limit: options.maxBytes)
        return try ingest(bytes, file: path, digest: { bytes.digest() }, options: options, detection: detection, progress: progress)
    }

    /// The same, from any reader of the file's bytes (the tests give theirs in pieces).
    func ingest(
        _ bytes: ChunkReader, file: String, digest: () -> String, options: IngestOptions, detection: BuildDetection? = nil,
        progress: ((Int, Int?) -> Void)? = nil
    ) throws -> IngestSummary {
        // Errors name the file read; the summary and the run name what it was read from.
        let path = options.source ?? file
        let name = PathText.name(of: path)
        try prepareForLargeWrites()
        let staging = try StagedResults()
        var facts = try ResultFile.read(bytes, path: file, format: options.format, zone: options.timeZone) { test in
            try staging.append(test)
            if staging.count % 2000 == 0 { progress?(staging.count, nil) }
        }
        try staging.finishAdding()
        let sha256 = digest()
        if let earlier = try reader.ingestedAt(sha256: sha256) {
            return IngestSummary(file: path, shape: "", alreadyIngestedAt: earlier)
        }
        let limit = clock.futureLimit()
        for (date, location) in facts.dates where !limit.allows(date) {
            throw EvidenceError.badFile(path: file, location: location, reason: limit.reason(date))
        }
        let given = try options.date.map { try Timestamp.parse($0, field: "date") }
        try given.map { try limit.check($0, field: "date") }
        let startedAt = facts.startedAt ?? given ?? clock.timestamp()
        let matcher = TestClaimMatcher(rules: try reader.mappingRules(), claimKeys: try reader.claimKeys())
        var environments = DeviceEnvironments(options: options, file: file, digest: sha256, detection: detection)
        // Every device the file names needs an environment, whether or not a test ran on it.
        try environments.check(facts.devices)

        var summary = IngestSummary(file: path, shape: facts.shape, testCases: facts.testCases, notes: facts.notes)
        // The images the tests attached are copied into the store's folder before the write lock is taken.
        var attachments = try TestAttachments(
            options.attachments, metrics: options.metrics.runs, storeFolder: folder, storePath: self.path)
        try attachments.keepCopies(in: folder)
        // Written once the results they belong to are.
        var attachedFiles: [(resultID: Int64, file: AttachmentFile, withFailure: Bool)] = []
        var measuredResults = 0
        var expectations: [Int64: [ExpectedValue]] = [:]
        try write { writer in
            // Checked again under the write lock: another process may have just ingested it.
            if let earlier = try writer.reader.ingestedAt(sha256: sha256) {
                summary = IngestSummary(file: path, shape: facts.shape, alreadyIngestedAt: earlier)
                return
            }
            let fileID = try writer.upsertIngestedFile(TextFormat.IngestedFile(
                sha256: sha256, fileName: name, format: facts.format.rawValue, testCount: Int64(staging.count),
                ingestedAt: clock.timestamp()))
            // A run for each device a result ran on, made when its first result comes,
            // named by the file and the environment: the same file ingested on
            // two machines is one run once their exports merge.
            var runs: [Int: (ids: RunRecord.IDs, part: [UInt8])] = [:]
            func run(forDevice index: Int) throws -> (ids: RunRecord.IDs, part: [UInt8]) {
                if let known = runs[index] { return known }
                let (environment, uuid) = try environments.of(facts.devices, index)
                // A model the file names is taken as it is; one typed as an option is checked for typos.
                try Self.vet(environment, newModel: options.newModel || facts.devices[index].model != nil, reader: writer.reader)
                let from = options.source.map { "\(facts.shape) from \($0)" } ?? "\(facts.shape) from \(name)"
                let run = try Self.insertRun(
                    RunDraft(environment: environment, tester: options.tester, note: ([from] + facts.notes).joined(separator: "; ")),
                    startedAt: startedAt, uuid: uuid, ingestedFileID: fileID, into: writer)
                summary.runs.append((run, environment.description))
                runs[index] = (run.ids, ResultIdentity.ingestedRunPart(uuid))
                return runs[index]!
            }
            // Claim ids and the words each result proves, looked up once per claim.
            var claimIDs: [String: (id: Int64, statement: Int64?)] = [:]
            let batch = try ResultBatch(writer: writer)
            // Each claim's latest decisive result is worked out once, at the end.
            let triggers = try writer.setDecisiveTriggersAside()
            var touched: Set<StoreWriter.ClaimEnvironment> = []
            // The file's results are recorded in its order, a microsecond apart.
            var moments = Timestamp.MicrosecondSequence(from: clock.now())
            var number = 0
            try staging.forEach { test in
                guard try facts.resolve(&test, file: file), case .device(let device) = test.place else { return }
                defer { number += 1 }
                try Self.check(test, file: file)
                let (claims, unknown) = matcher.claims(for: test)
                summary.count(test, mapped: !claims.isEmpty)
                for key in unknown { summary.unknownClaims.append((test.identifier, key)) }
                let run = try run(forDevice: device)
                // A tool's text (a colour code in a failure message) is kept
                // visible, never raw: the store holds no control character a
                // person did not see, and its export imports anywhere. (The
                // identifier has none: `check` refused the file otherwise.)
                var row = StoreWriter.ResultRow(
                    uuid: "", runID: run.ids.id, environmentID: run.ids.environmentID, claimID: nil, claimStatementID: nil,
                    result: test.outcome.rawValue, posture: nil, note: ControlCharacters.escaped(test.note, keepingLineBreaks: true),
                    checkedAt: startedAt, recordedAt: "", testID: test.identifier,
                    duration: test.duration, message: test.message.map { ControlCharacters.escaped($0, keepingLineBreaks: true) })
                let (files, measurements) =
                    attachments.isEmpty ? ([], []) : attachments.next(for: test.identifier, device: facts.devices[device], index: device)
                let keys: [String?] = claims.isEmpty ? [nil] : claims.sorted()
                let given = (row.result, row.note)
                let records = measurements.map(\.record)
                for (index, key) in keys.enumerated() {
                    let slot = claims.isEmpty ? 0 : index + 1
                    if let key {
                        if claimIDs[key] == nil {
                            let id = try writer.reader.claimID(key: key)
                            claimIDs[key] = (id, try writer.reader.currentStatement(ofClaim: id)?.id)
                        }
                        row.claimID = claimIDs[key]?.id
                        row.claimStatementID = claimIDs[key]?.statement
                        touched.insert(StoreWriter.ClaimEnvironment(claimID: row.claimID!, environmentID: run.ids.environmentID))
                    }
                    // A passing test's measurements are judged by the claim's expected values, as a
                    // value logged without a verdict is (no better than typed ones); where none covers
                    // them, the test's pass stands.
                    if let claim = row.claimID, !measurements.isEmpty, test.outcome == .pass {
                        if expectations[claim] == nil { expectations[claim] = try writer.reader.expectations(ofClaim: claim) }
                        let judgement = Judgement(
                            outcome: .pass, judged: true, note: row.note, measurements: measurements,
                            expectations: expectations[claim] ?? [], ofPassingTest: true)
                        (row.result, row.note, row.judged) = (judgement.outcome.rawValue, judgement.note, true)
                    } else {
                        (row.result, row.note, row.judged) = (given.0, given.1, false)
                    }
                    row.uuid = ResultIdentity.ingestedResultUUID(runPart: run.part, test: number, claimSlot: slot)
                    row.recordedAt = moments.next()
                    let id = try batch.add(row, measurements: records)
                    for (file, withFailure) in files { attachedFiles.append((id, file, withFailure)) }
                    if !measurements.isEmpty { measuredResults += 1 }
                }
                if number % 2000 == 0 { progress?(number, staging.count) }
            }
            try batch.flush()
            for (id, file, withFailure) in attachedFiles {
                try writer.insertAttachment(
                    resultID: id, path: file.path, sha256: file.sha256, size: file.size, mediaType: file.mediaType,
                    withFailure: withFailure)
            }
            if measuredResults > 0 {
                summary.notes.append(
                    "\(measuredResults) \(measuredResults == 1 ? "result has" : "results have") what "
                        + "\(measuredResults == 1 ? "its test" : "their tests") measured (XCTest metrics, and "
                        + "'\(TestAttachments.measurementsName)' attachments) as measurements")
            }
            if !attachedFiles.isEmpty {
                summary.notes.append(
                    "attached \(attachedFiles.count) \(attachedFiles.count == 1 ? "image" : "images") the tests took to their results")
            }
            let untaken = attachments.untaken
            if !untaken.isEmpty {
                summary.notes.append(
                    "\(untaken.count) of the tests' attachments and metrics \(untaken.count == 1 ? "names" : "name") no result of "
                        + "the file: " + untaken.prefix(3).joined(separator: "; ") + (untaken.count > 3 ? "; …" : ""))
            }
            if attachments.leftOut > 0 {
                summary.notes.append("\(attachments.leftOut) attached files that are not images were left out")
            }
            if let note = options.metrics.leftOutNote { summary.notes.append(note) }
            try writer.restore(triggers, pairs: touched)
            if facts.devices.isEmpty { facts.devices = [TestReport.Device()] }
            try environments.check(facts.devices)
            if summary.runs.isEmpty { _ = try run(forDevice: 0) }
            summary.notes += environments.notes
            for (run, _) in summary.runs {
                // A run is its environment's in this file: its results prove claims where a pair names the environment.
                let withClaims = touched.contains { $0.environmentID == run.environmentID }
                summary.warnings += try writer.reader.countingNotes(runID: run.id, withClaims: withClaims)
            }
            if number != staging.count { try writer.setTestCount(Int64(number), ofIngestedFile: fileID) }
            progress?(number, number)
        }
        return summary
    }

    /// A result's names as the file gives them: what the command line would
    /// accept, no control character.
    private static func check(_ test: TestReport.TestCase, file: String) throws {
        func check(_ value: String, _ field: String) throws {
            if let problem = ControlCharacters.problem(in: value, allowingLineBreaks: false) {
                throw EvidenceError.badFile(path: file, location: nil, reason: "the test \(field) \(problem)")
            }
        }
        try check(test.identifier, "identifier")
        try check(test.name, "name")
        for tag in test.tags { try check(tag, "tag") }
    }

    /// The environment of each device of a file, filled in from the options
    /// where the file is silent, and the UUID of its run: worked out once each.
    struct DeviceEnvironments {
        let options: IngestOptions
        let file: String
        let digest: String
        let detection: BuildDetection?
        private var known: [Int: (environment: EnvironmentSpec, runUUID: String)] = [:]
        private(set) var notes: [String] = []

        init(options: IngestOptions, file: String, digest: String, detection: BuildDetection?) {
            self.options = options
            self.file = file
            self.digest = digest
            self.detection = detection
        }

        /// The environment and run UUID of device `index` of `devices`.
        mutating func of(_ devices: [TestReport.Device], _ index: Int) throws -> (environment: EnvironmentSpec, runUUID: String) {
            if let found = known[index] { return found }
            var environment = try Store.environment(for: devices[index], options: options, file: file)
            if environment.kind == .simulator, environment.osBuild.isEmpty, !environment.osVersion.isEmpty, let detection {
                var found: [String] = []
                if let (build, note) = detection.osBuild(osName: environment.osName, osVersion: environment.osVersion, notes: &found) {
                    environment.osBuild = build
                    found.append(note)
                }
                notes += found
            }
            let made = (environment, ResultIdentity.ingestedRunUUID(fileSHA256: digest, environment: environment))
            known[index] = made
            return made
        }

        /// Works out the environment of every device: refuses the file where
        /// one has none, whether or not a test ran on it.
        mutating func check(_ devices: [TestReport.Device]) throws {
            for index in devices.indices { _ = try of(devices, index) }
        }
    }

    /// The file's device, filled in from the options where the file is silent.
    static func environment(for device: TestReport.Device, options: IngestOptions, file: String) throws -> EnvironmentSpec {
        guard let kind = device.kind ?? options.kind else {
            throw EvidenceError.badFile(
                path: file, location: nil,
                reason: "does not say whether the tests ran on a simulator or a device; pass --simulator MODEL or --device MODEL")
        }
        guard let model = device.model ?? options.model, !model.trimmingWhitespace().isEmpty else {
            throw EvidenceError.badFile(
                path: file, location: nil, reason: "does not name the device model; pass --simulator MODEL or --device MODEL")
        }
        let (givenName, givenVersion) = try options.os.map(EnvironmentSpec.splitOS) ?? ("", "")
        var osName = device.osName ?? (givenName.isEmpty ? nil : givenName)
        if osName == nil, device.osVersion != nil {
            osName = model.hasPrefix("iPad") ? "iPadOS" : model.hasPrefix("iPhone") ? "iOS" : nil
        }
        var toolVersion = try options.xcodeVersion.map(EnvironmentSpec.xcodeVersion) ?? ""
        var toolBuild = options.xcodeBuild ?? ""
        if let versionFile = options.xcodeVersionFile {
            let xcode = try XcodeVersion.read(path: versionFile)
            toolVersion = xcode.version
            toolBuild = xcode.build
        }
        let fromSummary = device.osVersion.flatMap { options.deviceOSBuilds[IngestOptions.deviceKey(model: model, osVersion: $0)] }
        let osBuild = device.osBuild ?? fromSummary ?? options.osBuild ?? ""
        // What the file says is held to what the command line accepts.
        func checked(_ value: String, _ field: String, _ validate: (String, String) throws -> String) throws -> String {
            do {
                return try validate(Validate.singleLine(value, field: field), field)
            } catch let error as EvidenceError {
                throw EvidenceError.badFile(path: file, location: nil, reason: "the device it names: \(error)")
            }
        }
        let osVersion = try checked(device.osVersion ?? givenVersion, "OS version", MarketingVersion.validated)
        guard osBuild.isEmpty || AppleBuild(osBuild) != nil else {
            throw EvidenceError.badFile(
                path: file, location: nil,
                reason: "the OS build '\(ControlCharacters.escaped(osBuild, keepingLineBreaks: false))' is not an Apple build number")
        }
        return EnvironmentSpec(
            kind: kind, model: try checked(model.trimmingWhitespace(), "model") { text, _ in text },
            osName: try checked(osName ?? "", "OS name") { text, _ in text },
            osVersion: osVersion, osBuild: osBuild,
            toolName: toolVersion.isEmpty && toolBuild.isEmpty ? "" : "Xcode", toolVersion: toolVersion,
            toolBuild: try AppleBuild.validated(toolBuild, field: "Xcode build"))
    }
}

