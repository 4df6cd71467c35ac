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
    public var shape: String
    /// When the same content was ingested before, and nothing was written now.
    public var alreadyIngestedAt: String?
    public var read = 0
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    public var other = 0
    /// Tests that map to at least one claim.
    public var mapped = 0
    /// How many tests map to no claim, and the first `unmappedListed` of them.
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

    /// Counts a test by its outcome, and as mapped or not.
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
    /// Reads one result file into the store in one transaction. The same
    /// content (by SHA-256) ingested twice is written once. A file is never
    /// held whole. JUnit XML and the tests of xcresulttool are read in one
    /// pass, each test case written as it comes, where the file allows it.
    /// Where it turns out not to, or anything is wrong with the file, what
    /// was written is rolled back and the file read again in two passes: the
    /// first checks it all and learns what its test cases need, the second
    /// writes them. So a file with something wrong is refused for what the
    /// two passes find first, however it was read. `progress` is given how
    /// many results are written, and of how many when that is known.
    /// `detection` gives a simulator device with no OS build the build of its
    /// runtime on this machine (and says so in the summary's notes).
    public func ingest(
        file path: String, options: IngestOptions, detection: BuildDetection? = nil, progress: ((Int, Int?) -> Void)? = nil
    ) throws -> IngestSummary {
        try ingest(file: path, options: options, onePass: true, detection: detection, progress: progress)
    }

    /// The same, in two passes from the start when `onePass` is false.
    func ingest(
        file path: String, options: IngestOptions, onePass: Bool, detection: BuildDetection? = nil,
        progress: ((Int, Int?) -> Void)?
    ) throws -> IngestSummary {
        let twoPasses = { () throws -> IngestSummary in
            try self.ingest(
                try IngestSource.open(path, maxBytes: options.maxBytes, format: options.format, zone: options.timeZone),
                file: path, options: options, detection: detection, progress: progress)
        }
        guard onePass else { return try twoPasses() }
        do {
            return try ingest(
                try IngestSource.open(
                    path, maxBytes: options.maxBytes, format: options.format, onePass: true,
                    dateLimit: clock.futureLimit(), zone: options.timeZone),
                file: path, options: options, detection: detection, progress: progress)
        } catch is IngestSource.NeedsTwoPasses {
            return try twoPasses()
        } catch EvidenceError.badFile {
            return try twoPasses()
        }
    }

    private func ingest(
        _ source: IngestSource, file: String, options: IngestOptions, detection: BuildDetection?,
        progress: ((Int, Int?) -> Void)?
    ) throws -> IngestSummary {
        if source.isLarge { try prepareForLargeWrites() }
        // Errors name the file read; the summary and the run name what it was read from.
        let path = options.source ?? file
        let name = PathText.name(of: path)
        if let earlier = try reader.ingestedAt(sha256: source.digest) {
            return IngestSummary(file: path, shape: "", alreadyIngestedAt: earlier)
        }
        let report = source.report
        // Every device the file names needs an environment, whether or not a
        // test ran on it: those known now are checked now, those a one-pass
        // reading finds as they come and again at the end.
        let environments = DeviceEnvironments(
            devices: source.devices, options: options, file: file, digest: source.digest, detection: detection)
        try environments.checkAll()
        let matcher = TestClaimMatcher(rules: try reader.mappingRules(), claimKeys: try reader.claimKeys())
        let limit = clock.futureLimit()
        for (date, location) in report.dates where !limit.allows(date) {
            throw EvidenceError.badFile(path: file, location: location, reason: limit.reason(date))
        }
        let given = try options.date.map { try Timestamp.parse($0, field: "date") }
        try given.map { try limit.check($0, field: "date") }
        let startedAt = report.startedAt ?? given ?? clock.timestamp()

        var summary = IngestSummary(file: path, shape: report.shape, notes: report.notes)
        try write { writer in
            // Checked again under the write lock: another process may have just ingested it.
            if let earlier = try writer.reader.ingestedAt(sha256: source.digest) {
                summary = IngestSummary(file: path, shape: report.shape, alreadyIngestedAt: earlier)
                return
            }
            let fileID = try writer.upsertIngestedFile(TextFormat.IngestedFile(
                sha256: source.digest, fileName: name, format: report.format.rawValue,
                testCount: Int64(source.testCount ?? 0), ingestedAt: clock.timestamp()))
            // A run for each device a test ran on, made when its first test comes,
            // named by the file and the environment: the same file ingested on
            // two machines is one run once their exports merge.
            // What each result needs of its device's run, once the run is made:
            // looked up for every test case, so only its ids are kept here.
            var runIDs: [RunRecord.IDs?] = []
            func run(forDevice index: Int) throws -> RunRecord.IDs {
                if index < runIDs.count, let ids = runIDs[index] { return ids }
                let device = try environments.of(device: index)
                // A model the file names is taken as it is; one typed as an option is checked for typos.
                try Self.vet(
                    device.environment, newModel: options.newModel || source.devices[index].model != nil,
                    reader: writer.reader)
                let from = options.source.map { "\(report.shape) from \($0)" } ?? "\(report.shape) from \(name)"
                let note = ([from] + report.notes).joined(separator: "; ")
                let run = try Self.insertRun(
                    RunDraft(environment: device.environment, tester: options.tester, note: note), startedAt: startedAt,
                    uuid: device.runUUID, ingestedFileID: fileID, into: writer)
                if index >= runIDs.count { runIDs += repeatElement(nil, count: index - runIDs.count + 1) }
                runIDs[index] = run.ids
                summary.runs.append((run, device.environment.description))
                return run.ids
            }
            // Claim ids and the words each result proves, looked up once per claim.
            var claimIDs: [String: (id: Int64, statement: Int64?)] = [:]
            let batch = try ResultBatch(writer: writer)
            // Each claim's latest decisive result is worked out once, at the end.
            let triggers = try writer.setDecisiveTriggersAside()
            var touched: Set<StoreWriter.ClaimEnvironment> = []
            // The file's results are recorded in its order, a microsecond apart;
            // each test is checked, matched and its rows named (after the run
            // of its device, as run(forDevice:) inserts it) by the preparer,
            // on whichever thread the source has less to do.
            let preparer = TestPreparer(file: file, matcher: matcher, start: clock.now(), environments: environments)
            var number = 0
            try source.forEachTest(preparing: { preparer.make() }) { prepared in
                defer { number += 1 }
                let test = prepared.test
                summary.count(test, mapped: !prepared.claims.isEmpty)
                if !prepared.unknown.isEmpty { summary.unknownClaims += prepared.unknown.map { (test.identifier, $0) } }
                guard !prepared.rows.isEmpty else { return }
                let run = try run(forDevice: test.device)
                // A tool's text (a colour code in a failure message) is kept
                // visible, never raw: the store holds no control character a
                // person did not see, and its export imports anywhere.
                var row = StoreWriter.ResultRow(
                    uuid: "", runID: run.id, environmentID: run.environmentID, claimID: nil, claimStatementID: nil,
                    result: test.outcome.rawValue, posture: nil, note: ControlCharacters.escaped(test.note, keepingLineBreaks: true),
                    checkedAt: startedAt, recordedAt: "", testID: ControlCharacters.escaped(test.identifier, keepingLineBreaks: false),
                    duration: test.duration, message: test.message.map { ControlCharacters.escaped($0, keepingLineBreaks: true) })
                if prepared.claims.isEmpty {
                    (row.uuid, row.recordedAt) = prepared.rows[0]
                    try batch.add(row)
                }
                for (slot, key) in prepared.claims.enumerated() {
                    if claimIDs[key] == nil {
                        let id = try writer.reader.claimID(key: key)
                        claimIDs[key] = (id, try writer.reader.currentStatement(ofClaim: id)?.id)
                    }
                    row.claimID = claimIDs[key]?.id
                    row.claimStatementID = claimIDs[key]?.statement
                    if let claim = row.claimID {
                        touched.insert(StoreWriter.ClaimEnvironment(claimID: claim, environmentID: run.environmentID))
                    }
                    (row.uuid, row.recordedAt) = prepared.rows[slot]
                    try batch.add(row)
                }
                if number % 2000 == 0 { progress?(number, source.testCount) }
            }
            try batch.flush()
            try writer.restore(triggers, pairs: touched)
            try environments.checkAll()
            if summary.runs.isEmpty { _ = try run(forDevice: 0) }
            summary.notes += environments.notes
            for (run, _) in summary.runs { summary.warnings += try writer.reader.countingNotes(runID: run.id) }
            // Counted as they came: one result for each device a test case ran on.
            if source.testCount == nil { try writer.setTestCount(Int64(number), ofIngestedFile: fileID) }
            progress?(number, number)
        }
        return summary
    }

    /// One test case made ready on the reading thread: its claims, sorted,
    /// and the UUID and recording time of each row it gives (one per claim,
    /// or one with no claim; none when it ran on no device of the file).
    struct PreparedTest: Sendable {
        var test: TestReport.TestCase
        var claims: [String]
        var unknown: [String]
        var rows: [(uuid: String, recordedAt: String)]
    }

    /// The environment of each device of a file, filled in from the options
    /// where the file is silent, and the UUID of its run: worked out as each
    /// device is first needed, on the thread that prepares test cases or the
    /// one that writes them.
    final class DeviceEnvironments: @unchecked Sendable {
        let devices: DeviceList
        private let options: IngestOptions
        private let file: String
        private let digest: String
        private let detection: BuildDetection?
        private let lock = ThreadLock()
        private var known: [(environment: EnvironmentSpec, runUUID: String)] = []
        private var found: [String] = []

        init(devices: DeviceList, options: IngestOptions, file: String, digest: String, detection: BuildDetection? = nil) {
            self.devices = devices
            self.options = options
            self.file = file
            self.digest = digest
            self.detection = detection
        }

        /// What was read from the machine for the devices, one note each.
        var notes: [String] { lock.withLock { found } }

        /// The environment and run UUID of a device, by its number.
        func of(device index: Int) throws -> (environment: EnvironmentSpec, runUUID: String) {
            try lock.withLock {
                while known.count <= index {
                    var environment = try Store.environment(for: devices[known.count], options: options, file: file)
                    if environment.kind == .simulator, environment.osBuild.isEmpty, !environment.osVersion.isEmpty,
                        let detection
                    {
                        var notes: [String] = []
                        if let (build, note) = detection.osBuild(
                            osName: environment.osName, osVersion: environment.osVersion, notes: &notes)
                        {
                            environment.osBuild = build
                            notes.append(note)
                        }
                        found += notes
                    }
                    known.append((environment, ResultIdentity.ingestedRunUUID(fileSHA256: digest, environment: environment)))
                }
                return known[index]
            }
        }

        /// Works out the environment of every device known so far: refuses
        /// the file where one has none, whether or not a test ran on it.
        func checkAll() throws {
            let count = devices.count
            if count > 0 { _ = try of(device: count - 1) }
        }
    }

    /// What the reading thread needs to prepare a file's test cases.
    struct TestPreparer: Sendable {
        var file: String
        var matcher: TestClaimMatcher
        var start: Date
        /// The devices' environments and runs, which name the results.
        var environments: DeviceEnvironments

        /// A closure that prepares each test case in turn: tests are numbered,
        /// and rows recorded a microsecond apart, in the file's order.
        func make() -> (TestReport.TestCase) throws -> PreparedTest {
            let sequence = Sequence(preparer: self)
            return { try sequence.prepare($0) }
        }

        /// Where a file's numbering and recording times have got to. A class,
        /// not two variables captured by the closure: Swift 6.3.1's optimizer,
        /// inlining such a closure into the writing loop, moved the captured
        /// count to the stack and dropped its first value, so that a release
        /// build numbered results from whatever the stack held.
        final class Sequence {
            let preparer: TestPreparer
            private var moments: Timestamp.MicrosecondSequence
            private var number = 0
            /// What the result UUIDs of each device's run start with, as far as known.
            private var runParts: [[UInt8]] = []

            init(preparer: TestPreparer) {
                self.preparer = preparer
                moments = Timestamp.MicrosecondSequence(from: preparer.start)
            }

            func prepare(_ test: TestReport.TestCase) throws -> PreparedTest {
                defer { number += 1 }
                let file = preparer.file
                func check(_ value: String, _ field: String) throws {
                    if let problem = ControlCharacters.problem(in: value, allowingLineBreaks: false) {
                        throw EvidenceError.badFile(path: file, location: nil, reason: "the test \(field) \(problem)")
                    }
                }
                try check(test.identifier, "identifier")
                try check(test.name, "name")
                for tag in test.tags { try check(tag, "tag") }
                let (claims, unknown) = preparer.matcher.claims(for: test)
                var prepared = PreparedTest(test: test, claims: claims.sorted(), unknown: unknown, rows: [])
                guard let runPart = try runPart(ofDevice: test.device) else { return prepared }
                let slots = prepared.claims.isEmpty ? 0...0 : 1...prepared.claims.count
                for slot in slots {
                    prepared.rows.append(
                        (ResultIdentity.ingestedResultUUID(runPart: runPart, test: number, claimSlot: slot), moments.next()))
                }
                return prepared
            }

            /// The start of the result UUIDs of a device's run; nil for a
            /// number that is no device of the file.
            private func runPart(ofDevice index: Int) throws -> [UInt8]? {
                if index >= 0, index < runParts.count { return runParts[index] }
                guard index >= 0, index < preparer.environments.devices.count else { return nil }
                while runParts.count <= index {
                    runParts.append(
                        ResultIdentity.ingestedRunPart(try preparer.environments.of(device: runParts.count).runUUID))
                }
                return runParts[index]
            }
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
