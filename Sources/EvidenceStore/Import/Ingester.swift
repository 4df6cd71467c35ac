import Foundation

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
    /// Files larger than this are refused before they are read.
    public var maxBytes: Int

    public static let defaultMaxBytes = 256 << 20

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
    public var unmapped: [String] = []
    /// Tests naming `claim:KEY` for a key the store does not have.
    public var unknownClaims: [(test: String, key: String)] = []
    public var runs: [(run: RunRecord, environment: String)] = []
    public var notes: [String] = []
}

extension Store {
    /// Reads one result file into the store in one transaction. The same
    /// content (by SHA-256) ingested twice is written once.
    public func ingest(file path: String, options: IngestOptions, progress: ((Int, Int) -> Void)? = nil) throws
        -> IngestSummary
    {
        let data = try Self.readResultFile(path, maxBytes: options.maxBytes)
        let digest = SHA256.hex(data)
        let name = (path as NSString).lastPathComponent
        if let earlier = try database.scalar("SELECT ingested_at FROM ingested_files WHERE sha256 = ?", .text(digest)).string {
            return IngestSummary(file: path, shape: "", alreadyIngestedAt: earlier)
        }
        let report = try Self.parseResultFile(data, path: path, format: options.format)
        let environments = try report.devices.map { try Self.environment(for: $0, options: options, file: path) }
        let matcher = try TestClaimMatcher(store: self)
        let startedAt = try report.startedAt ?? options.date.map { try Timestamp.parse($0, field: "date") } ?? Timestamp.now()

        var summary = IngestSummary(file: path, shape: report.shape, notes: report.notes)
        var mappedClaims: [[String]] = []
        mappedClaims.reserveCapacity(report.tests.count)
        for test in report.tests {
            let (claims, unknown) = matcher.claims(for: test)
            mappedClaims.append(claims)
            summary.read += 1
            switch test.outcome {
            case .pass: summary.passed += 1
            case .fail: summary.failed += 1
            case .skipped: summary.skipped += 1
            case .blocked, .inconclusive: summary.other += 1
            }
            if claims.isEmpty { summary.unmapped.append(test.identifier) } else { summary.mapped += 1 }
            summary.unknownClaims += unknown.map { (test.identifier, $0) }
        }

        try database.inTransaction(.immediate) {
            // Checked again under the write lock: another process may have just ingested it.
            if let earlier = try database.scalar("SELECT ingested_at FROM ingested_files WHERE sha256 = ?", .text(digest)).string {
                summary = IngestSummary(file: path, shape: report.shape, alreadyIngestedAt: earlier)
                return
            }
            try database.execute(
                "INSERT INTO ingested_files (sha256, file_name, format, test_count, ingested_at) VALUES (?, ?, ?, ?, ?)",
                .text(digest), .text(name), .text(report.format.rawValue), .integer(Int64(report.tests.count)),
                .text(Timestamp.now()))
            let fileID = database.lastInsertRowID
            let usedDevices = Set(report.tests.map(\.device)).union(report.tests.isEmpty ? [0] : [])
            var runs: [Int: RunRecord] = [:]
            for index in report.devices.indices where usedDevices.contains(index) {
                let note = (["\(report.shape) from \(name)"] + report.notes).joined(separator: "; ")
                let run = try insertRun(
                    RunDraft(environment: environments[index], tester: options.tester, note: note), startedAt: startedAt,
                    ingestedFileID: fileID)
                runs[index] = run
                summary.runs.append((run, environments[index].description))
            }
            var claimIDs: [String: Int64] = [:]
            for (number, test) in report.tests.enumerated() {
                guard let run = runs[test.device] else { continue }
                let claims = mappedClaims[number]
                let note = test.note
                if claims.isEmpty {
                    _ = try insertResult(
                        runID: run.id, claimID: nil, outcome: test.outcome, posture: nil, note: note, checkedAt: startedAt,
                        testID: test.identifier, duration: test.duration, message: test.message)
                }
                for key in claims {
                    let claimID: Int64
                    if let known = claimIDs[key] {
                        claimID = known
                    } else {
                        claimID = try self.claimID(key: key)
                        claimIDs[key] = claimID
                    }
                    _ = try insertResult(
                        runID: run.id, claimID: claimID, outcome: test.outcome, posture: nil, note: note,
                        checkedAt: startedAt, testID: test.identifier, duration: test.duration, message: test.message)
                }
                if number % 2000 == 0 { progress?(number, report.tests.count) }
            }
            progress?(report.tests.count, report.tests.count)
        }
        return summary
    }

    static func readResultFile(_ path: String, maxBytes: Int) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw EvidenceError.fileMissing(path: path)
        }
        if (attributes[.type] as? FileAttributeType) == .typeDirectory {
            throw EvidenceError.badFile(
                path: path, location: nil,
                reason: "is a folder; give the JSON of 'xcrun xcresulttool get test-results tests --path …' or a JUnit XML file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > maxBytes {
            throw EvidenceError.badFile(
                path: path, location: nil, reason: "is \(size) bytes, over the limit of \(maxBytes) bytes (--max-size)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EvidenceError.fileMissing(path: path) }
        defer { try? handle.close() }
        do {
            // Read at most one byte past the limit, in case the file grew after the check.
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            if data.count > maxBytes {
                throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(maxBytes) bytes")
            }
            return data
        } catch let error as EvidenceError {
            throw error
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// Parses a result file in the given format, or the one its first character shows.
    public static func parseResultFile(_ data: Data, path: String, format: TestReport.Format?) throws -> TestReport {
        let first = data.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        let detected: TestReport.Format?
        switch first {
        case UInt8(ascii: "<"): detected = .junit
        case UInt8(ascii: "{"), UInt8(ascii: "["): detected = .xcresult
        default: detected = nil
        }
        guard let chosen = format ?? detected else {
            throw EvidenceError.badFile(
                path: path, location: "1",
                reason: data.isEmpty ? "the file is empty" : "neither JUnit XML nor xcresulttool JSON; give --format")
        }
        if let format, let detected, format != detected {
            throw EvidenceError.badFile(
                path: path, location: "1", reason: "--format \(format.rawValue) was given, but the file looks like \(detected.rawValue)")
        }
        switch chosen {
        case .junit: return try JUnitReader.read(data, path: path)
        case .xcresult: return try XCResultReader.read(data, path: path)
        }
    }

    /// The file's device, filled in from the options where the file is silent.
    static func environment(for device: TestReport.Device, options: IngestOptions, file: String) throws -> EnvironmentSpec {
        guard let kind = device.kind ?? options.kind else {
            throw EvidenceError.badFile(
                path: file, location: nil,
                reason: "does not say whether the tests ran on a simulator or a device; pass --simulator MODEL or --device MODEL")
        }
        guard let model = device.model ?? options.model, !model.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw EvidenceError.badFile(
                path: file, location: nil, reason: "does not name the device model; pass --simulator MODEL or --device MODEL")
        }
        let (givenName, givenVersion) = try options.os.map(EnvironmentSpec.splitOS) ?? ("", "")
        var osName = device.osName ?? (givenName.isEmpty ? nil : givenName)
        if osName == nil, device.osVersion != nil {
            osName = model.hasPrefix("iPad") ? "iPadOS" : model.hasPrefix("iPhone") ? "iOS" : nil
        }
        var toolVersion = options.xcodeVersion ?? ""
        var toolBuild = options.xcodeBuild ?? ""
        if let versionFile = options.xcodeVersionFile {
            let xcode = try XcodeVersion.read(path: versionFile)
            toolVersion = xcode.version
            toolBuild = xcode.build
        }
        let osBuild = device.osBuild ?? options.osBuild ?? ""
        guard osBuild.isEmpty || AppleBuild(osBuild) != nil else {
            throw EvidenceError.badFile(path: file, location: nil, reason: "the OS build '\(osBuild)' is not an Apple build number")
        }
        return EnvironmentSpec(
            kind: kind, model: model.trimmingCharacters(in: .whitespaces), osName: osName ?? "",
            osVersion: device.osVersion ?? givenVersion, osBuild: osBuild,
            toolName: toolVersion.isEmpty && toolBuild.isEmpty ? "" : "Xcode", toolVersion: toolVersion,
            toolBuild: try AppleBuild.validated(toolBuild, field: "Xcode build"))
    }
}
