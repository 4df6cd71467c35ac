#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// An `.xcresult` bundle, read through Xcode's `xcrun xcresulttool` as a
/// person would on their Mac: `get test-results tests` (Xcode 16 and later),
/// else `get --legacy --format json` and `get --format json` for older
/// bundles and tools; its output goes to a temporary file as it comes and is
/// then ingested as that JSON is. `get test-results summary` adds the OS
/// build of each device where the tests' JSON leaves it out.
public struct XCResultBundle: Sendable {
    /// The bundle, as an absolute path.
    public let path: String
    /// The JSON xcresulttool printed, in a temporary folder of its own.
    public let json: String
    /// Which command printed it.
    public let command: String
    /// OS builds by device (`IngestOptions.deviceKey`), from the summary.
    public let osBuilds: [String: String]
    /// What its tests attached (`export attachments`), in the temporary folder.
    public let attachments: [Attachment]
    /// Its tests' performance metrics (`get test-results metrics`).
    public let metrics: TestMetrics
    /// What could not be read of its attachments and metrics, and why.
    public let notes: [String]
    private let folder: String

    /// A file a test attached, as `xcresulttool export attachments` lists it
    /// in its `manifest.json`.
    public struct Attachment: Equatable, Sendable {
        /// The test's identifier, `Suite/test()`, as its result has it.
        public var test: String
        /// The exported file, an absolute path.
        public var file: String
        /// The name the test gave it (`suggestedHumanReadableName`).
        public var name: String
        public var isAssociatedWithFailure = false
        /// The device it was taken on, by identifier and name, where the manifest says.
        public var deviceID: String?
        public var deviceName: String?
        /// The repetition of the test (from 1), where the manifest says.
        public var repetition: Int?

        public init(test: String, file: String, name: String) {
            self.test = test
            self.file = file
            self.name = name
        }
    }

    /// How long xcresulttool may take to read a bundle.
    static let toolSeconds = 600.0

    /// Whether a path names a bundle: a folder (an `.xcresult` is one).
    public static func isBundle(_ path: String) -> Bool {
        var isFolder: Bool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder
    }

    /// Runs xcresulttool on the bundle; refused, saying how to do it by hand, where there is no xcrun.
    public static func read(_ bundle: String, tools: MachineTools, maxBytes: Int = IngestOptions.defaultMaxBytes) throws -> XCResultBundle {
        let path = Store.absolutePath(bundle)
        guard let xcrun = tools.xcrun else {
            throw EvidenceError.refused(
                reason: "\(bundle) is an .xcresult bundle, which is read with Xcode's 'xcrun xcresulttool', and there is no xcrun "
                    + "on this machine (EVIDENCE_XCRUN names one); on a Mac with Xcode run 'xcrun xcresulttool get test-results "
                    + "tests --path \(bundle) > tests.json' and ingest tests.json")
        }
        let temporary = FileManager.default.temporaryDirectory.path
        // What a run that was killed left behind goes first.
        for leftover in Leftovers.abandoned(in: temporary, prefix: "evidence-xcresult-") {
            try? FileManager.default.removeItem(atPath: temporary + "/" + leftover)
        }
        let folder = temporary + "/evidence-xcresult-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileSystem.makeFolder(folder, permissions: 0o700)
        } catch {
            throw EvidenceError.io(path: folder, reason: "cannot be created (\(error))")
        }
        do {
            let json = folder + "/" + PathText.name(of: path) + ".json"
            let attempts = [
                ["xcresulttool", "get", "test-results", "tests", "--path", path],
                ["xcresulttool", "get", "--legacy", "--format", "json", "--path", path],
                ["xcresulttool", "get", "--format", "json", "--path", path],
            ]
            var failures: [String] = []
            for arguments in attempts {
                let ran = try MachineTools.run(xcrun, arguments, to: json, limit: maxBytes, seconds: toolSeconds)
                if ran.status == 0 {
                    let (attachments, attachmentsNote) = try exportAttachments(path, xcrun: xcrun, into: folder + "/attachments")
                    let (metrics, metricsNote) = try readMetrics(path, xcrun: xcrun, into: folder + "/metrics.json", maxBytes: maxBytes)
                    return XCResultBundle(
                        path: path, json: json, command: "xcrun " + arguments.dropLast(2).joined(separator: " "),
                        osBuilds: summaryBuilds(path, xcrun: xcrun), attachments: attachments, metrics: metrics,
                        notes: [attachmentsNote, metricsNote].compactMap { $0 }, folder: folder)
                }
                failures.append("'xcrun \(arguments.dropLast(2).joined(separator: " "))': \(said(ran))")
            }
            throw EvidenceError.badFile(
                path: bundle, location: nil,
                reason: "xcresulttool could not read it: " + failures.joined(separator: "; "))
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// The OS build of each device the bundle's summary names; none when it cannot be read.
    private static func summaryBuilds(_ path: String, xcrun: String) -> [String: String] {
        guard let ran = try? MachineTools.run(
            xcrun, ["xcresulttool", "get", "test-results", "summary", "--path", path], limit: 16 << 20, seconds: toolSeconds),
            ran.status == 0, let value = try? JSONReader.parse(ran.output), case .array(let entries)? = value["devicesAndConfigurations"]
        else { return [:] }
        var builds: [String: String] = [:]
        for entry in entries {
            guard let device = entry["device"], let build = device["osBuildNumber"]?.stringValue, AppleBuild(build) != nil,
                let model = device["modelName"]?.stringValue ?? device["deviceName"]?.stringValue,
                let version = device["osVersion"]?.stringValue
            else { continue }
            builds[IngestOptions.deviceKey(model: model, osVersion: version)] = build
        }
        return builds
    }

    /// The files the bundle's tests attached, exported with `xcresulttool
    /// export attachments` (Xcode 16 and later) and listed by its manifest;
    /// none, with a note saying why, where the tool cannot export them. A
    /// manifest that names a file outside the export, or none, stops the ingest.
    static func exportAttachments(_ path: String, xcrun: String, into output: String) throws -> ([Attachment], String?) {
        try FileSystem.makeFolder(output, permissions: 0o700)
        let ran = try MachineTools.run(
            xcrun, ["xcresulttool", "export", "attachments", "--path", path, "--output-path", output], limit: 1 << 20,
            seconds: toolSeconds)
        guard ran.status == 0 else {
            return ([], "its attachments were not read: 'xcrun xcresulttool export attachments' said \(said(ran))")
        }
        let manifest = output + "/manifest.json"
        func bad(_ reason: String) -> EvidenceError {
            EvidenceError.badFile(path: path, location: nil, reason: "the manifest.json of its exported attachments \(reason)")
        }
        guard let data = FileManager.default.contents(atPath: manifest) else { throw bad("is missing") }
        guard case .array(let tests) = try JSONReader.parse(data) else { throw bad("is not a list of tests") }
        var attachments: [Attachment] = []
        for entry in tests {
            guard let test = entry["testIdentifier"]?.stringValue, case .array(let files)? = entry["attachments"] else {
                throw bad("has a test without 'testIdentifier' and 'attachments'")
            }
            for file in files {
                guard let exported = file["exportedFileName"]?.stringValue, !exported.contains("/"), exported != "..",
                    (try? FileSystem.linkStatus(output + "/" + exported))?.kind == .regular
                else {
                    throw bad("names a file that is not one it exported, for \(test): \(file["exportedFileName"]?.stringValue ?? "none")")
                }
                var attachment = Attachment(
                    test: test, file: output + "/" + exported, name: file["suggestedHumanReadableName"]?.stringValue ?? exported)
                attachment.isAssociatedWithFailure = file["isAssociatedWithFailure"]?.boolValue ?? false
                attachment.deviceID = file["deviceId"]?.stringValue
                attachment.deviceName = file["deviceName"]?.stringValue
                if case .integer(let number)? = file["repetitionNumber"] { attachment.repetition = Int(number) }
                attachments.append(attachment)
            }
        }
        return (attachments, nil)
    }

    /// The bundle's performance metrics, read with `xcresulttool get
    /// test-results metrics` (Xcode 16 and later); none, with a note saying
    /// why, where the tool cannot give them.
    static func readMetrics(_ path: String, xcrun: String, into file: String, maxBytes: Int) throws -> (TestMetrics, String?) {
        let ran = try MachineTools.run(
            xcrun, ["xcresulttool", "get", "test-results", "metrics", "--path", path], to: file, limit: maxBytes, seconds: toolSeconds)
        guard ran.status == 0 else {
            return (TestMetrics(), "its metrics were not read: 'xcrun xcresulttool get test-results metrics' said \(said(ran))")
        }
        return (try TestMetrics.read(file, maxBytes: maxBytes), nil)
    }

    /// What a tool that failed said: the first line it wrote to standard error, or its exit status.
    private static func said(_ ran: ChildProcess.Ran) -> String {
        ran.error.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(ran.status)"
    }

    /// Removes the temporary JSON.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// What a bundle's tests attached and measured, handed to each result as the
/// ingest writes it: images, the measurements of an `evidence-measurements`
/// attachment (one per line, in `--measure`'s syntax), and the tests'
/// metrics. Each goes by test, by device (its identifier, else its name,
/// where both sides give one) and by repetition (where it is known).
struct TestAttachments {
    /// One attachment or one run's metrics: whose they are and what they give.
    private struct Entry {
        var name: String
        var deviceID, deviceName: String?
        var repetition: Int?
        /// Taken by the first result that matches it only (a test's metrics on a device).
        var once = false
        var content: Content
    }

    private enum Content {
        case image(AttachmentFile, withFailure: Bool)
        case measurements([MeasurementDraft])
    }

    private var byTest: [String: [Entry]] = [:]
    /// Repetitions met so far of each test on each device.
    private var met: [String: Int] = [:]
    private var taken: Set<String> = []
    private(set) var leftOut = 0

    /// The name a test gives the attachment that carries measurements.
    static let measurementsName = "evidence-measurements"

    /// Reads each image (copied into the store's folder by `keepCopies`) and
    /// each measurements attachment; other files are left out and counted.
    /// A measurements line that does not parse stops the ingest, naming the
    /// test, the attachment and the line. A test's metrics on a device go to
    /// its first result there (a metric is measured once per test run).
    init(
        _ attachments: [XCResultBundle.Attachment], metrics: [TestMetrics.Run] = [], storeFolder: URL, storePath: String
    ) throws {
        for run in metrics {
            byTest[run.test, default: []].append(Entry(
                name: "metrics", deviceID: run.deviceID, deviceName: run.deviceName, once: true,
                content: .measurements(run.measurements)))
        }
        for attachment in attachments {
            let content: Content
            if attachment.name == Self.measurementsName || attachment.name.hasPrefix(Self.measurementsName + "_") {
                content = .measurements(try Self.measurements(attachment))
            } else {
                let file = try AttachmentFile.read(attachment.file, storeFolder: storeFolder, storePath: storePath)
                guard file.mediaType.hasPrefix("image/") else {
                    leftOut += 1
                    continue
                }
                content = .image(file, withFailure: attachment.isAssociatedWithFailure)
            }
            byTest[attachment.test, default: []].append(Entry(
                name: attachment.name, deviceID: attachment.deviceID, deviceName: attachment.deviceName,
                repetition: attachment.repetition, content: content))
        }
    }

    /// The most an `evidence-measurements` attachment holds: a line a measurement.
    static let measurementsLimit = 1 << 20

    /// The measurements of an `evidence-measurements` attachment.
    private static func measurements(_ attachment: XCResultBundle.Attachment) throws -> [MeasurementDraft] {
        func bad(_ reason: String) -> EvidenceError {
            EvidenceError.badFile(
                path: attachment.file, location: nil,
                reason: "the attachment '\(attachment.name)' of \(attachment.test) \(reason)")
        }
        let data: Data
        do {
            data = try InputFile.read(attachment.file, maxBytes: measurementsLimit)
        } catch EvidenceError.badFile(_, _, let reason) {
            throw bad(reason)
        }
        guard let text = String(validatingUTF8Bytes: data) else { throw bad("is not UTF-8 text") }
        var measurements: [MeasurementDraft] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = String(line).trimmingWhitespaceAndNewlines()
            guard !words.isEmpty else { continue }
            do {
                let measurement = try MeasurementDraft(parsing: words)
                try Validate.measurement(measurement)
                measurements.append(measurement)
            } catch let error as EvidenceError {
                throw bad("has a line that is not a measurement, line \(number + 1): '\(words)': \(error)")
            }
        }
        return measurements
    }

    var isEmpty: Bool { byTest.isEmpty }

    func keepCopies(in folder: URL) throws {
        for entries in byTest.values {
            for case .image(let file, _) in entries.map(\.content) { try file.keepCopy(in: folder) }
        }
    }

    /// The images and measurements of the next result of `test` on `device` (the file's `index`-th).
    mutating func next(for test: String, device: TestReport.Device, index: Int)
        -> (files: [(file: AttachmentFile, withFailure: Bool)], measurements: [MeasurementDraft])
    {
        guard let entries = byTest[test] else { return ([], []) }
        let key = test + "\n" + String(index)
        met[key, default: 0] += 1
        // Repetitions are counted from 1; a manifest that counts from 0 says so with a 0.
        let first = entries.contains { $0.repetition == 0 } ? 0 : 1
        let repetition = met[key, default: 1] - 1 + first
        var found: (files: [(file: AttachmentFile, withFailure: Bool)], measurements: [MeasurementDraft]) = ([], [])
        for (number, entry) in entries.enumerated() {
            let sameDevice =
                if let id = entry.deviceID, let other = device.identifier { id == other }
                else if let name = entry.deviceName, let other = device.name { name == other }
                else { true }
            let place = test + "\n" + String(number)
            guard sameDevice, entry.repetition.map({ $0 == repetition }) ?? true, !(entry.once && taken.contains(place)) else {
                continue
            }
            switch entry.content {
            case .image(let file, let withFailure): found.files.append((file, withFailure))
            case .measurements(let measurements): found.measurements += measurements
            }
            taken.insert(place)
        }
        return found
    }

    /// What no result took, as "NAME of TEST".
    var untaken: [String] {
        byTest.flatMap { test, entries in
            entries.indices.filter { !taken.contains(test + "\n" + String($0)) }.map { entries[$0].name + " of " + test }
        }.sorted()
    }
}
