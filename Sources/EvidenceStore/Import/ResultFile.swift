#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Result files from Xcode tooling: read within a size limit, then parsed in the
/// format given or the one their first character shows.
public enum ResultFile {
    /// Refuses a folder, a FIFO or device, a missing file and a file over
    /// `maxBytes`; the file's size otherwise.
    @discardableResult
    static func check(_ path: String, maxBytes: Int) throws -> Int {
        // What cannot be stat'ed gets InputFile's error (missing, unreadable).
        guard let info = try? FileSystem.status(path) else {
            try InputFile.check(path)
            return 0
        }
        if info.kind == .folder {
            throw EvidenceError.badFile(
                path: path, location: nil,
                reason: "is a folder; give the JSON of 'xcrun xcresulttool get test-results tests --path …' or a JUnit XML file")
        }
        if let kind = info.kindPhrase {
            throw InputFile.notRegular(path, kind)
        }
        if info.size > maxBytes {
            throw EvidenceError.badFile(
                path: path, location: nil, reason: "is \(info.size) bytes, over the limit of \(maxBytes) bytes (--max-size)")
        }
        return Int(info.size)
    }

    /// Reads a result file whole, refusing a folder and a file over `maxBytes`.
    public static func read(_ path: String, maxBytes: Int) throws -> Data {
        try check(path, maxBytes: maxBytes)
        return try InputFile.read(path, maxBytes: maxBytes)
    }

    /// A file read twice that did not read the same the second time.
    static func changed(_ path: String) -> EvidenceError {
        EvidenceError.badFile(path: path, location: nil, reason: "changed while it was being read")
    }

    /// Parses a result file in the given format, or the one its first character shows.
    public static func parse(_ data: Data, path: String, format: TestReport.Format?, zone: Zone = .utc) throws -> TestReport {
        switch try detect(data.prefix(4096), path: path, format: format) {
        case .junit: return try JUnitReader.read(data, path: path, zone: zone)
        case .xcresult: return try XCResultReader.read(data, path: path)
        }
    }

    /// The format given, or the one the file's first character shows.
    static func detect(_ head: Data, path: String, format: TestReport.Format?) throws -> TestReport.Format {
        let data = head
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
        return chosen
    }
}

/// A result file opened for ingest: what it says besides its test cases, its
/// SHA-256, how many test cases it has, and then each of them. JUnit XML and
/// the tests of xcresulttool are streamed from the file in one pass where the
/// file allows it (`JUnitReader.forEachTestInOnePass`, `XCResultOnePass`),
/// else in two; an xcresulttool summary or legacy record, which lists only
/// failures, is read whole.
public struct IngestSource {
    public let report: TestReport
    public let digest: String
    /// How many results the file gives; nil when it is read in one pass,
    /// which counts them as it hands them on.
    public let testCount: Int?
    /// The file's size in bytes.
    public let byteCount: Int
    /// The devices its test cases ran on: the report's, or, where the file is
    /// read in one pass, those the reading finds, each before the first case on it.
    public let devices: DeviceList
    /// Whether cases are made ready on the reading thread (where reading is
    /// cheap, as libxml2's is) or on the caller's (where reading costs as
    /// much as writing, as JSON's does): the busier thread does less.
    var preparesWhileReading: Bool { report.format == .junit }
    private let tests: @Sendable ((TestReport.TestCase) throws -> Void) throws -> Void
    /// The reading started when the file was opened, and the checksum of the file that it must read.
    private var readingAhead: (reading: ReadingAhead, checksum: UInt64)?

    init(
        report: TestReport, digest: String, testCount: Int?, byteCount: Int, devices: DeviceList? = nil,
        tests: @escaping @Sendable ((TestReport.TestCase) throws -> Void) throws -> Void
    ) {
        self.report = report
        self.digest = digest
        self.testCount = testCount
        self.byteCount = byteCount
        self.devices = devices ?? DeviceList(report.devices)
        self.tests = tests
    }

    /// Whether the file is large enough for the settings of a large write:
    /// 10,000 results, or 1 MB of a file whose results are not counted yet.
    public var isLarge: Bool { testCount.map { $0 >= 10_000 } ?? (byteCount >= 1 << 20) }

    /// Opens a result file. `onePass` reads it in one pass where the file
    /// allows it; `forEachTest` then throws `NeedsTwoPasses` where it turns
    /// out not to, having handed on some cases, and the file must be opened
    /// again without it (`Store.ingest` rolls back and does). JUnit is read
    /// in one pass only with `dateLimit`: a date later than it, refused in
    /// two passes, stops the one.
    public static func open(
        _ path: String, maxBytes: Int, format: TestReport.Format?, onePass: Bool = false, dateLimit: FutureLimit? = nil,
        zone: Zone = .utc
    ) throws -> IngestSource {
        let size = try ResultFile.check(path, maxBytes: maxBytes)
        let head = try {
            let handle = try InputFile.open(path)
            defer { handle.close() }
            return try InputFile.read(from: handle, upTo: 4096, path: path)
        }()
        // The first pass, all the reading before the first row is written,
        // hashes the file on a thread of its own while it parses it (45 MB of
        // JSON take libcrypto 0.03 s, a third of that pass). Both passes work
        // out the file's `FileChecksum` as they read, at a tenth of that cost:
        // the second, which runs beside the writing, must read the same.
        switch try ResultFile.detect(head, path: path, format: format) {
        case .junit:
            let source = ByteSource.file(path, limit: maxBytes)
            if onePass, let limit = dateLimit, let lead = JUnitReader.lead(source, path: path, zone: zone) {
                // Hashed first, by libcrypto in a fifth of the time libxml2
                // takes to read it; then read once, the rows named by the digest.
                let (digest, expected) = try wholeFileDigests(source)
                let devices = DeviceList()
                let holding = JUnitReader.endsWithProperties(source)
                return IngestSource(report: lead.report, digest: digest, testCount: nil, byteCount: size, devices: devices) {
                    body in
                    try readAgain(path, expecting: expected) {
                        try JUnitReader.forEachTestInOnePass(
                            source, path: path, lead: lead, limit: limit, zone: zone, devices: devices, holding: holding,
                            hasher: $0, body)
                    }
                }
            }
            let (hasher, checksum) = (SHA256(), FileChecksum())
            let outline = try JUnitReader.outline(source, path: path, zone: zone, hasher: ChunkDigests(hasher, checksum))
            let digest = hasher.finalizeHex()
            let expected = checksum.finalize()
            return IngestSource(report: outline.report, digest: digest, testCount: outline.testCount, byteCount: size) {
                body in
                try readAgain(path, expecting: expected) {
                    try JUnitReader.forEachTest(source, path: path, outline: outline, hasher: $0, body)
                }
            }
        case .xcresult:
            if onePass, let devices = try XCResultOnePass.devices(path: path, maxBytes: maxBytes) {
                // Before a row is written, only the digest, which names the
                // rows, is needed. The reading starts first and reads ahead
                // while libcrypto hashes the file alone (a fifth of the time
                // of reading it), so the writing starts with cases waiting.
                // What it read is proved to be what was hashed by a checksum
                // both work out, a tenth of the cost of hashing it again.
                let onePass: @Sendable (FileChecksum, (TestReport.TestCase) throws -> Void) throws -> Void = { checksum, body in
                    try XCResultOnePass.forEachTest(
                        JSONStream(path: path, limit: maxBytes, hasher: checksum, countingLines: false), devices: devices,
                        file: path, body)
                }
                let ahead = ReadingAhead(path: path) { body in
                    let checksum = FileChecksum()
                    try onePass(checksum, body)
                    return checksum.finalize()
                }
                let (digest, expected) = try wholeFileDigests(ByteSource.file(path, limit: maxBytes))
                var report = TestReport(format: .xcresult, shape: "xcresulttool test-results tests")
                report.devices = devices
                var source = IngestSource(report: report, digest: digest, testCount: nil, byteCount: size) { body in
                    try readAgain(path, expecting: expected) { try onePass($0, body) }
                }
                source.readingAhead = (ahead, expected)
                return source
            }
            let (hasher, checksum) = (SHA256(), FileChecksum())
            let stream = try JSONStream(path: path, limit: maxBytes, hasher: ChunkDigests(hasher, checksum))
            guard let outline = try XCResultTests.outline(stream, file: path) else {
                // A summary or a legacy record lists only failures: small, and read whole.
                let data = try ResultFile.read(path, maxBytes: maxBytes)
                let report = try XCResultReader.read(data, path: path)
                return IngestSource(report: report, digest: SHA256.hex(data), testCount: report.tests.count, byteCount: size) {
                    body in
                    for test in report.tests { try body(test) }
                }
            }
            let digest = hasher.finalizeHex()
            let expected = checksum.finalize()
            return IngestSource(report: outline.report, digest: digest, testCount: outline.testCount, byteCount: size) {
                body in
                try readAgain(path, expecting: expected) {
                    try XCResultTests.forEachTest(
                        JSONStream(path: path, limit: maxBytes, hasher: $0), outline: outline, file: path, body)
                }
            }
        }
    }

    /// A file read once for what the one pass needs before its first row:
    /// its SHA-256, which names the rows, and the checksum its reading must match.
    private static func wholeFileDigests(_ source: ByteSource) throws -> (digest: String, checksum: UInt64) {
        let (hasher, checksum) = (SHA256(), FileChecksum())
        let digests = ChunkDigests(hasher, checksum)
        try source.forEachChunk(size: 1 << 20) { digests.update($0) }
        return (hasher.finalizeHex(), checksum.finalize())
    }

    /// Reads the file again through `read`, which gives its reading the
    /// checksum it is handed; refused as changed when what it read is not
    /// what `expected` was worked out from.
    private static func readAgain(_ path: String, expecting expected: UInt64, _ read: (FileChecksum) throws -> Void) throws {
        let checksum = FileChecksum()
        try read(checksum)
        guard checksum.finalize() == expected else { throw ResultFile.changed(path) }
    }

    /// Calls `body` with each test case, in the file's order.
    /// The file is read on a thread of its own while `body` runs on the
    /// caller's, a few hundred cases behind; an error in the file is thrown
    /// after every case before it was handed over.
    public func forEachTest(_ body: (TestReport.TestCase) throws -> Void) throws {
        try forEachTest(preparing: { { $0 } }, body)
    }

    /// The same, each case first made into what `body` needs by what
    /// `preparer` returns, called for each case in the file's order (so it
    /// may keep state of its own), on the reading thread or the caller's.
    public func forEachTest<Prepared: Sendable>(
        preparing preparer: @escaping @Sendable () -> (TestReport.TestCase) throws -> Prepared,
        _ body: (Prepared) throws -> Void
    ) throws {
        let tests = self.tests
        if preparesWhileReading {
            try Handoff.run(batchSize: 512, produce: { emit in
                let prepare = preparer()
                try tests { try emit(try prepare($0)) }
            }, consume: body)
        } else if let ahead = readingAhead, let running = ahead.reading.take() {
            defer { running.stop() }
            let prepare = preparer()
            try running.consume { try body(try prepare($0)) }
            // What was read is what was hashed before it.
            guard ahead.reading.checksum == ahead.checksum else { throw ResultFile.changed(ahead.reading.path) }
        } else {
            let prepare = preparer()
            try Handoff.run(batchSize: 512, produce: tests, consume: { try body(try prepare($0)) })
        }
    }

    /// Why a file opened for one pass must be read again in two: it is not
    /// as xcresulttool writes it, or something in it is wrong, which the two
    /// passes say in their order.
    public struct NeedsTwoPasses: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "read again in two passes: \(reason)" }
    }

    /// A reading of the file started when it was opened, for the first
    /// `forEachTest` to take; any later one reads the file again.
    final class ReadingAhead: @unchecked Sendable {
        let path: String
        private var running: Handoff.Running<TestReport.TestCase>?
        private let lock = ThreadLock()
        private let read = ReadChecksum()

        /// The checksum of what the reading read, set by its thread when it ends.
        private final class ReadChecksum: @unchecked Sendable {
            private let lock = ThreadLock()
            private var sum: UInt64?
            var value: UInt64? {
                get { lock.withLock { sum } }
                set { lock.withLock { sum = newValue } }
            }
        }

        /// `tests` reads the file and returns the checksum of what it read.
        init(path: String, _ tests: @escaping @Sendable ((TestReport.TestCase) throws -> Void) throws -> UInt64) {
            self.path = path
            let read = self.read
            // 64 batches of 512 cases: what the reading can do while the file is hashed.
            running = Handoff.Running(batchSize: 512, batches: 64) { emit in read.value = try tests(emit) }
        }

        func take() -> Handoff.Running<TestReport.TestCase>? {
            lock.withLock {
                defer { running = nil }
                return running
            }
        }

        /// The checksum of what the reading read, once it has ended.
        var checksum: UInt64? { read.value }
    }
}

/// The devices a result file's test cases ran on, as their `device` numbers
/// them: known when the file is opened, or, where it is read in one pass,
/// added by the reading thread as it finds them, each before the first case
/// on it is handed over, and read by the threads that prepare and write them.
public final class DeviceList: @unchecked Sendable {
    private let lock = ThreadLock()
    private var devices: [TestReport.Device]

    init(_ devices: [TestReport.Device] = []) {
        self.devices = devices
    }

    public var count: Int { lock.withLock { devices.count } }
    public var all: [TestReport.Device] { lock.withLock { devices } }
    public subscript(index: Int) -> TestReport.Device { lock.withLock { devices[index] } }

    /// The number of a device, added at the end where it is new.
    func index(of device: TestReport.Device) -> Int {
        lock.withLock {
            if let index = devices.firstIndex(of: device) { return index }
            devices.append(device)
            return devices.count - 1
        }
    }
}
