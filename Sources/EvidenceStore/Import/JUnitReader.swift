#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Reads JUnit XML as fastlane trainer/scan, `xcbeautify --report junit`,
/// xcresultparser, xcpretty and `swift test --xunit-output` write it, with
/// libxml2's SAX2 parser fed in chunks, so a file of any size is read in
/// bounded memory.
///
/// One decoder (`Decoder`) turns libxml2's events into JUnit's (timestamps,
/// suites starting and ending with their properties, the root's properties,
/// each test case whole with the suites around it); it knows nothing of
/// passes. What a pass makes of them is its consumer's (`JUnitConsumer`):
///
/// A file is read twice. The first pass (`OutlineReader`) checks it all and
/// learns what its test cases need and may come after them (fastlane trainer
/// writes a suite's properties, such as its device, last): the devices, the
/// suites' and the root's properties, the timestamps. The second pass
/// (`CaseReader`) hands over each test case as it ends.
///
/// Where the file allows it, ingest reads it once instead (`forEachTestInOnePass`,
/// `OnePassReader`, after `LeadReader` read its start):
/// a file that ends with properties, as fastlane trainer's do, has each
/// top-level suite's test cases held until it ends, when its properties and
/// device are known; any other is handed over case by case.
///
/// The input is untrusted: a DOCTYPE (and so any entity) is refused before
/// its internal subset is read, as are processing instructions other than
/// the XML declaration, NUL bytes, invalid UTF-8, deep nesting, long values,
/// and files that end with an element still open; errors give the line and
/// column.
public enum JUnitReader {
    static let maxDepth = 32
    static let maxAttributeLength = 1 << 20
    static let maxMessageLength = 1 << 16
    static let chunkSize = 256 << 10
    /// The most bytes of test cases the one pass holds, waiting for their suites to end.
    static let maxHeld = 16 << 20

    /// What the first pass learns.
    struct Outline {
        var report = TestReport(format: .junit, shape: "JUnit XML")
        /// Each suite's properties and device (an index into report.devices), by the order suites start.
        var suiteProperties: [[(String, String)]] = []
        var suiteDevices: [Int?] = []
        /// The properties of <testsuites> itself, which hold for every test case.
        var rootProperties: [(String, String)] = []
        var rootDevice: Int?
        /// Where test cases with no device go; set when some test case has none.
        var unnamedDevice: Int?
        var testCount = 0
    }

    /// Reads a file held in memory, test cases and all; timestamps without a
    /// zone are read in `zone`.
    public static func read(_ data: Data, path: String, zone: Zone = .utc) throws -> TestReport {
        try read(ByteSource.data(data), path: path, zone: zone)
    }

    /// The same, from any source of bytes.
    static func read(_ source: ByteSource, path: String, zone: Zone = .utc) throws -> TestReport {
        let outline = try self.outline(source, path: path, zone: zone)
        var report = outline.report
        try forEachTest(source, path: path, outline: outline) { report.tests.append($0) }
        return report
    }

    /// The first pass: checks the whole file; the hasher, when given, sees every byte.
    static func outline(
        _ source: ByteSource, path: String, zone: Zone = .utc, hasher: (any ChunkDigest)? = nil
    ) throws -> Outline {
        let reader = OutlineReader(zone: zone)
        guard try parse(source, path: path, consumer: reader, hasher: hasher) else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "the file holds no XML element")
        }
        // Test cases outside any device-bearing suite run on one unnamed device.
        if reader.someTestHasNoDevice() || reader.builder.outline.report.devices.isEmpty {
            reader.builder.outline.unnamedDevice = reader.builder.deviceIndex(TestReport.Device())
        }
        return reader.builder.outline
    }

    /// The start of a file, up to its first test case, for the one pass: the
    /// dates before it, of which the earliest dates the run. Nil when the file
    /// is read in two passes: it has no test case, or something before the
    /// first is wrong, which the two passes say in their order.
    static func lead(_ source: ByteSource, path: String, zone: Zone = .utc) -> Outline? {
        let reader = LeadReader(zone: zone)
        do {
            try parse(source, path: path, consumer: reader, hasher: nil)
        } catch is LeadReader.Ends {
            return reader.builder.outline
        } catch {
            return nil
        }
        return nil
    }

    /// Whether properties come after the last test case of a file (in its
    /// last 64 KB): fastlane trainer writes each top-level suite's properties,
    /// its device among them, after its cases, so its files end with them.
    /// The one pass holds such a file's cases until their suites end; it
    /// hands any other's over as they come. Either way it reads the file as
    /// the two passes would; this only says which way is likelier to get
    /// through. Where the end cannot be read, the cases are held, which
    /// reads any file.
    static func endsWithProperties(_ source: ByteSource) -> Bool {
        guard let tail = try? source.tail(64 << 10) else { return true }
        let bytes = [UInt8](tail)
        let lastCase = bytes[...].lastRange(of: Array("<testcase".utf8))?.upperBound ?? 0
        return bytes[lastCase...].firstRange(of: Array("<properties".utf8)) != nil
    }

    /// The one pass: each test case as the two passes would hand it over,
    /// after `lead` read the start of the file. Where `holding`, the cases of
    /// a top-level suite are held until it ends (fastlane trainer writes a
    /// suite's properties, its device among them, after its cases), then
    /// handed over in the file's order; otherwise, and for a case outside
    /// every suite, each is handed over as it ends. The devices they ran on
    /// are added to `devices` before the first case on each (an unnamed one
    /// where the two passes would add it at the end).
    ///
    /// The file must give the root's properties before any case is handed
    /// over, and a suite's before any case in it is (which holding allows
    /// until its top-level suite ends), date nothing earlier than the lead's
    /// earliest date or later than `limit`, and hold no more than `maxHeld`
    /// bytes of cases in a top-level suite. Where it does not, or anything in
    /// it is wrong, the pass stops with `NeedsTwoPasses`, having handed on
    /// some cases: the two passes then read the file, or say what is wrong
    /// with it, as they always have. `body`'s own errors are passed on as they are.
    static func forEachTestInOnePass(
        _ source: ByteSource, path: String, lead: Outline, limit: FutureLimit, zone: Zone = .utc, devices: DeviceList,
        holding: Bool, hasher: (any ChunkDigest)? = nil, maxHeld: Int = maxHeld,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        /// An error of `body`'s, passed on as it is.
        struct Handed: Error {
            let error: any Error
        }
        let handedOn = try withoutActuallyEscaping(body) { body in
            let reader = OnePassReader(
                lead: lead, limit: limit, maxHeld: holding ? maxHeld : nil, zone: zone, devices: devices
            ) { test in
                do { try body(test) } catch { throw Handed(error: error) }
            }
            do {
                try parse(source, path: path, consumer: reader, hasher: hasher)
            } catch let handed as Handed {
                throw handed.error
            } catch let error as EvidenceError {
                throw IngestSource.NeedsTwoPasses(reason: "\(error)")
            }
            return reader.handedOn
        }
        guard handedOn > 0 else { throw IngestSource.NeedsTwoPasses(reason: "the file has no test case") }
    }

    /// The second pass: each test case, in the order the file gives them.
    static func forEachTest(
        _ source: ByteSource, path: String, outline: Outline, hasher: (any ChunkDigest)? = nil,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        try withoutActuallyEscaping(body) { body in
            _ = try parse(source, path: path, consumer: CaseReader(outline: outline, emit: body), hasher: hasher)
        }
    }

    /// Reads the file through a decoder that hands its events to `consumer`;
    /// whether it held a root element.
    @discardableResult
    private static func parse(
        _ source: ByteSource, path: String, consumer: any JUnitConsumer, hasher: (any ChunkDigest)?
    ) throws -> Bool {
        let decoder = Decoder(path: path, consumer: consumer)
        let parser = try XMLPushParser(path: path, handler: decoder)
        var text = UTF8Stream(path: path, what: "XML")
        var declarations = DeclarationScanner(path: path)
        // A text problem (a NUL byte, invalid UTF-8) anywhere in the file is
        // said before anything else wrong with it, as when the file is read
        // whole: after another error of the file's, only the rest's text is
        // read, so the error does not depend on where the file was cut.
        var failure: EvidenceError?
        try source.forEachChunk(size: chunkSize) { chunk in
            hasher?.update(chunk)
            let line = text.line
            try text.check(chunk)
            guard failure == nil else { return }
            do {
                try declarations.check(chunk, firstLine: line)
                try parser.feed(chunk)
            } catch let error as EvidenceError {
                failure = error
            }
        }
        try text.finish()
        if let failure { throw failure }
        do {
            try parser.finish()
        } catch EvidenceError.badFile(let file, let location, let reason) where parser.errorLies(at: text.end) && !decoder.stack.isEmpty {
            throw EvidenceError.badFile(
                path: file, location: location, reason: reason + "; <\(decoder.stack.last ?? "")> is never closed")
        }
        if !decoder.stack.isEmpty {
            throw EvidenceError.badFile(
                path: path, location: nil,
                reason: "not well-formed XML: the document ends before it is complete; <\(decoder.stack.last ?? "")> is never closed")
        }
        return decoder.sawRoot
    }

    // MARK: - The decoder

    /// Turns libxml2's events into JUnit's: the root's and the suites'
    /// timestamps, suites starting and ending with their properties, the
    /// root's properties, and each test case whole (its properties, outcome,
    /// message) with the suites around it. It knows nothing of passes; it
    /// checks what JUnit's shape requires and refuses the rest with its place.
    final class Decoder: XMLEventHandler {
        struct OpenSuite {
            var ordinal: Int
            var properties: [(String, String)] = []
        }

        let path: String
        /// An existential, not a generic parameter: libxml2 calls the decoder
        /// through `XMLEventHandler`, where a generic decoder's methods run
        /// unspecialised and look its nested types up at run time (about a
        /// third more time on 100,000 cases, measured).
        let consumer: any JUnitConsumer
        /// Whether cases are read whole: a consumer that only counts them is
        /// spared reading their attributes and messages.
        private let readsCases: Bool
        private(set) var stack: [String] = []
        private(set) var sawRoot = false
        private var suites: [OpenSuite] = []
        private var suiteCount = 0
        private var current: TestReport.TestCase?
        private var currentProperties: [(String, String)]?
        private var messageParts: [String] = []
        private var collecting = false
        private var collected: [UInt8] = []

        init(path: String, consumer: any JUnitConsumer) {
            self.path = path
            self.consumer = consumer
            readsCases = consumer.readsCases
        }

        private func fail(_ location: XMLLocation, _ reason: String) -> EvidenceError {
            EvidenceError.badFile(path: path, location: location.text, reason: reason)
        }

        func documentType(at location: XMLLocation) throws {
            throw fail(location, "the file has a <!DOCTYPE declaration; result files with DTDs or entities are refused")
        }

        func processingInstruction(at location: XMLLocation) throws {
            throw fail(
                location, "the file has a processing instruction (<?…?>) other than the XML declaration; it is refused")
        }

        func startElement(_ name: String, attributes: XMLAttributes, at location: XMLLocation) throws {
            if let (key, length) = attributes.first(longerThan: JUnitReader.maxAttributeLength) {
                throw fail(
                    location,
                    "the attribute '\(key)' of <\(name)> is \(length) bytes long, longer than the limit of \(JUnitReader.maxAttributeLength)")
            }
            func attribute(_ key: String) -> String? { attributes[key] }
            if stack.isEmpty {
                guard name == "testsuites" || name == "testsuite" else {
                    throw fail(location, "not a JUnit report: the root element is <\(name)>, not <testsuites> or <testsuite>")
                }
                sawRoot = true
                if let stamp = attribute("timestamp") { try consumer.timestamp(stamp, at: location) }
            }
            stack.append(name)
            guard stack.count <= JUnitReader.maxDepth else {
                throw fail(location, "elements nested deeper than \(JUnitReader.maxDepth) levels")
            }
            switch name {
            case "testsuite":
                try consumer.suiteStarted(suiteCount, in: suites.last?.ordinal)
                suites.append(OpenSuite(ordinal: suiteCount))
                suiteCount += 1
                if let stamp = attribute("timestamp") { try consumer.timestamp(stamp, at: location) }
            case "testcase":
                guard current == nil else { throw fail(location, "a <testcase> inside another <testcase>") }
                try consumer.caseStarted(at: location)
                guard readsCases else {
                    current = TestReport.TestCase(identifier: "", name: "", outcome: .pass, duration: nil, device: -1)
                    return
                }
                let name = attribute("name") ?? ""
                let classname = attribute("classname") ?? attribute("class") ?? ""
                guard !name.isEmpty || !classname.isEmpty else {
                    throw fail(location, "a <testcase> with neither a name nor a classname")
                }
                let identifier = classname.isEmpty ? name : name.isEmpty ? classname : "\(classname)/\(name)"
                var duration: Double?
                if let time = attribute("time") {
                    guard let seconds = Duration.seconds(time) else {
                        throw fail(location, "the time '\(time)' of test '\(identifier)' is not a number of seconds")
                    }
                    duration = seconds
                }
                current = TestReport.TestCase(
                    identifier: identifier, name: name.isEmpty ? classname : name, outcome: .pass, duration: duration,
                    device: -1)
                messageParts = []
            case "failure", "error":
                guard current != nil, readsCases else { return }
                current?.outcome = .fail
                if let message = attribute("message"), !message.isEmpty { messageParts.append(message) }
                startCollecting()
            case "skipped":
                guard current != nil, readsCases else { return }
                if current?.outcome != .fail { current?.outcome = .skipped }
                if let message = attribute("message"), !message.isEmpty { messageParts.append(message) }
                startCollecting()
            case "properties":
                currentProperties = []
            case "property":
                guard let key = attribute("name") else { return }
                currentProperties?.append((key, attribute("value") ?? ""))
            default:
                break
            }
        }

        private func startCollecting() {
            collecting = true
            collected.removeAll(keepingCapacity: true)
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard collecting, collected.count < JUnitReader.maxMessageLength else { return }
            collected.append(contentsOf: bytes)
        }

        func endElement(_ name: String, at location: XMLLocation) throws {
            guard stack.last == name else { throw fail(location, "</\(name)> does not close <\(stack.last ?? "")>") }
            stack.removeLast()
            switch name {
            case "failure", "error", "skipped":
                if collecting {
                    let body = String(decoding: collected, as: UTF8.self).trimmingWhitespaceAndNewlines()
                    if !body.isEmpty, !messageParts.contains(body) { messageParts.append(body) }
                    collecting = false
                }
            case "properties":
                guard let properties = currentProperties else { return }
                currentProperties = nil
                if current != nil {
                    current?.properties += properties
                } else if !suites.isEmpty {
                    suites[suites.count - 1].properties += properties
                    try consumer.suiteProperties(suites[suites.count - 1].properties, of: suites[suites.count - 1].ordinal)
                } else {
                    try consumer.rootProperties(properties)
                }
            case "testcase":
                guard var test = current else { return }
                current = nil
                if readsCases {
                    if !messageParts.isEmpty {
                        var message = messageParts.joined(separator: "\n")
                        if message.utf8.count > JUnitReader.maxMessageLength {
                            message = String(message.prefix(JUnitReader.maxMessageLength)) + "…"
                        }
                        test.message = message
                    }
                    test.tags = test.properties.filter { $0.0.hasPrefix("tag") }.map(\.1)
                    // fastlane trainer writes each repetition and retry of a test as a case
                    // of its own: each is kept, and a fail outweighs a pass in its run.
                    if let repetition = test.properties.first(where: { $0.0 == "repetition" })?.1, !repetition.isEmpty {
                        test.note = "repetition: " + repetition
                    }
                }
                try consumer.caseEnded(test, in: suites.map(\.ordinal))
            case "testsuite":
                guard let suite = suites.popLast() else { return }
                try consumer.suiteEnded(suite.ordinal, properties: suite.properties, outermost: suites.isEmpty)
            case "testsuites" where stack.isEmpty:
                try consumer.rootEnded()
            default:
                break
            }
        }
    }
}

/// What reads JUnit's events: an outline, the lead, the test cases, the one pass.
protocol JUnitConsumer: AnyObject {
    /// Whether it needs each test case whole, or only where cases start and end.
    var readsCases: Bool { get }
    /// A `timestamp` attribute of the root or of a suite.
    func timestamp(_ text: String, at location: XMLLocation) throws
    /// A suite starts: its ordinal (suites count from 0 in the file's order) and its parent's.
    func suiteStarted(_ ordinal: Int, in parent: Int?) throws
    /// A test case starts, before any of it is read.
    func caseStarted(at location: XMLLocation) throws
    /// A test case ends, in the suites open around it (outermost first); its
    /// device is not known here (-1), nor what its suites and the root give it.
    func caseEnded(_ test: TestReport.TestCase, in suites: [Int]) throws
    /// A suite's `<properties>` ended: all of them so far.
    func suiteProperties(_ properties: [(String, String)], of suite: Int) throws
    /// The root's `<properties>` ended: these.
    func rootProperties(_ properties: [(String, String)]) throws
    /// A suite ends, with all its properties; `outermost` when no suite is open around it.
    func suiteEnded(_ suite: Int, properties: [(String, String)], outermost: Bool) throws
    /// `</testsuites>`.
    func rootEnded() throws
}

extension JUnitReader {
    // MARK: - What the consumers share

    /// An outline as it is learnt: the suites' and the root's properties and
    /// devices, and the timestamps.
    final class OutlineBuilder {
        var outline = Outline()
        let zone: Zone
        var zoneNoted = false
        static let zoneNote = "timestamps without a zone read in "
        /// Where devices are added: the outline's list, or the one pass's.
        let devices: DeviceList?

        init(zone: Zone, devices: DeviceList? = nil) {
            self.zone = zone
            self.devices = devices
            outline.report.devices = []
        }

        /// Notes a timestamp: the run's earliest date, and that zone-less
        /// ones are read in `zone` (JUnit timestamps usually carry no zone:
        /// they are read in the zone given, the machine's, as xcodebuild writes them).
        func noteTimestamp(_ text: String, _ location: XMLLocation) {
            guard let (parsed, zoned) = Timestamp.parse(text, readingZoneless: zone) else { return }
            if !zoned && !zoneNoted {
                zoneNoted = true
                outline.report.notes.append(
                    Self.zoneNote + Timestamp.describe(zone, at: Timestamp.date(parsed) ?? Date(timeIntervalSince1970: 0)))
            }
            outline.report.dates.append((parsed, location.text))
            if outline.report.startedAt.map({ parsed < $0 }) ?? true {
                outline.report.startedAt = parsed
            }
        }

        /// Room for the next suite's properties and device: suites start in
        /// the order of their ordinals, so the next is at the end.
        func addSuite() {
            outline.suiteProperties.append([])
            outline.suiteDevices.append(nil)
        }

        /// What a suite's properties, all read (or in the one pass all read
        /// so far), give its cases: themselves, and the device they name first.
        func noteSuiteProperties(_ properties: [(String, String)], of ordinal: Int) {
            outline.suiteProperties[ordinal] = properties
            if let value = properties.first(where: { $0.0 == "device" })?.1 {
                outline.suiteDevices[ordinal] = deviceIndex(TestReport.Device(trainerProperty: value))
            }
        }

        /// The device the root's properties name, once they are all read.
        func noteRootDevice() {
            if let value = outline.rootProperties.first(where: { $0.0 == "device" })?.1 {
                outline.rootDevice = deviceIndex(TestReport.Device(trainerProperty: value))
            }
        }

        func deviceIndex(_ device: TestReport.Device) -> Int {
            if let devices { return devices.index(of: device) }
            if let index = outline.report.devices.firstIndex(of: device) { return index }
            outline.report.devices.append(device)
            return outline.report.devices.count - 1
        }

        /// The properties a case in one innermost suite inherits, worked out
        /// once per innermost suite.
        private var inherited: (ordinal: Int, properties: [(String, String)])?

        /// A case completed from the outline: with the properties of the root
        /// and of its suites (their ordinals, outermost first), and the device
        /// of the innermost suite that names one, else the root's, else the
        /// unnamed one.
        func complete(_ test: TestReport.TestCase, suites ordinals: [Int]) -> TestReport.TestCase {
            var test = test
            let properties = inheritedProperties(suites: ordinals)
            test.properties = test.properties.isEmpty ? properties : properties + test.properties
            var device: Int?
            for ordinal in ordinals.reversed() where device == nil {
                device = ordinal < outline.suiteDevices.count ? outline.suiteDevices[ordinal] : nil
            }
            test.device = device ?? outline.rootDevice ?? outline.unnamedDevice ?? 0
            return test
        }

        private func inheritedProperties(suites ordinals: [Int]) -> [(String, String)] {
            let ordinal = ordinals.last ?? -1
            if let inherited, inherited.ordinal == ordinal { return inherited.properties }
            var properties = outline.rootProperties
            for ordinal in ordinals where ordinal < outline.suiteProperties.count {
                properties += outline.suiteProperties[ordinal]
            }
            inherited = (ordinal, properties)
            return properties
        }
    }

    // MARK: - The consumers

    /// The first pass: the outline, and how many cases; each case only counted.
    final class OutlineReader: JUnitConsumer {
        let builder: OutlineBuilder
        /// Each suite's enclosing suite, the innermost suites of test cases,
        /// and whether some test case is in no suite.
        private var parentSuite: [Int?] = []
        private var suitesWithTests: Set<Int> = []
        private var testOutsideSuites = false
        var readsCases: Bool { false }

        init(zone: Zone) {
            builder = OutlineBuilder(zone: zone)
        }

        func timestamp(_ text: String, at location: XMLLocation) throws { builder.noteTimestamp(text, location) }

        func suiteStarted(_ ordinal: Int, in parent: Int?) throws {
            parentSuite.append(parent)
            builder.addSuite()
        }

        func caseStarted(at location: XMLLocation) throws {}

        func caseEnded(_ test: TestReport.TestCase, in suites: [Int]) throws {
            builder.outline.testCount += 1
            if let innermost = suites.last {
                suitesWithTests.insert(innermost)
            } else {
                testOutsideSuites = true
            }
        }

        func suiteProperties(_ properties: [(String, String)], of suite: Int) throws {}

        func rootProperties(_ properties: [(String, String)]) throws {
            builder.outline.rootProperties += properties
        }

        func suiteEnded(_ suite: Int, properties: [(String, String)], outermost: Bool) throws {
            // A suite's properties may come after its test cases (fastlane
            // trainer writes them last): they apply to the whole suite.
            builder.noteSuiteProperties(properties, of: suite)
        }

        func rootEnded() throws { builder.noteRootDevice() }

        /// Once the pass ends: whether some test case gets no device from its suites or the root.
        func someTestHasNoDevice() -> Bool {
            if builder.outline.rootDevice != nil { return false }
            if testOutsideSuites { return true }
            return suitesWithTests.contains { ordinal in
                var suite: Int? = ordinal
                while let current = suite {
                    if builder.outline.suiteDevices[current] != nil { return false }
                    suite = parentSuite[current]
                }
                return true
            }
        }
    }

    /// The start of a file, up to its first test case, where it stops with `Ends`.
    final class LeadReader: JUnitConsumer {
        /// How the lead ends: at the first test case.
        struct Ends: Error {}

        let builder: OutlineBuilder
        var readsCases: Bool { false }

        init(zone: Zone) {
            builder = OutlineBuilder(zone: zone)
        }

        func timestamp(_ text: String, at location: XMLLocation) throws { builder.noteTimestamp(text, location) }
        func suiteStarted(_ ordinal: Int, in parent: Int?) throws {}
        func caseStarted(at location: XMLLocation) throws { throw Ends() }
        func caseEnded(_ test: TestReport.TestCase, in suites: [Int]) throws {}
        func suiteProperties(_ properties: [(String, String)], of suite: Int) throws {}
        func rootProperties(_ properties: [(String, String)]) throws {}
        func suiteEnded(_ suite: Int, properties: [(String, String)], outermost: Bool) throws {}
        func rootEnded() throws {}
    }

    /// The second pass: each case completed from the first pass's outline
    /// and handed over as it ends.
    final class CaseReader: JUnitConsumer {
        let builder: OutlineBuilder
        let emit: (TestReport.TestCase) throws -> Void
        var readsCases: Bool { true }

        init(outline: Outline, emit: @escaping (TestReport.TestCase) throws -> Void) {
            builder = OutlineBuilder(zone: .utc)
            builder.outline = outline
            self.emit = emit
        }

        func timestamp(_ text: String, at location: XMLLocation) throws {}
        func suiteStarted(_ ordinal: Int, in parent: Int?) throws {}
        func caseStarted(at location: XMLLocation) throws {}

        func caseEnded(_ test: TestReport.TestCase, in suites: [Int]) throws {
            try emit(builder.complete(test, suites: suites))
        }

        func suiteProperties(_ properties: [(String, String)], of suite: Int) throws {}
        func rootProperties(_ properties: [(String, String)]) throws {}
        func suiteEnded(_ suite: Int, properties: [(String, String)], outermost: Bool) throws {}
        func rootEnded() throws {}
    }

    /// The one pass: learns the outline as it goes and hands each case over
    /// as the two passes would, or stops with `NeedsTwoPasses` where the
    /// file does not let it (see `forEachTestInOnePass`).
    final class OnePassReader: JUnitConsumer {
        /// A test case held until its top-level suite ends: the suites around it, outermost first.
        struct HeldTest {
            var test: TestReport.TestCase
            var suites: [Int]
        }

        let builder: OutlineBuilder
        /// The earliest date before the first case; no later date may be earlier.
        let startedAt: String?
        let limit: FutureLimit
        /// How many bytes of cases may wait for their top-level suite to end;
        /// nil where each case is handed over as it ends.
        let maxHeld: Int?
        let emit: (TestReport.TestCase) throws -> Void
        private var held: [HeldTest] = []
        private var heldBytes = 0
        private(set) var handedOn = 0
        /// The suites open now, and those of them in which a case was handed over.
        private var open: [Int] = []
        private var handedOnIn: Set<Int> = []
        var readsCases: Bool { true }

        init(
            lead: Outline, limit: FutureLimit, maxHeld: Int?, zone: Zone, devices: DeviceList,
            emit: @escaping (TestReport.TestCase) throws -> Void
        ) {
            builder = OutlineBuilder(zone: zone, devices: devices)
            builder.zoneNoted = lead.report.notes.contains { $0.hasPrefix(OutlineBuilder.zoneNote) }
            startedAt = lead.report.startedAt
            self.limit = limit
            self.maxHeld = maxHeld
            self.emit = emit
        }

        func timestamp(_ text: String, at location: XMLLocation) throws {
            guard let (parsed, zoned) = Timestamp.parse(text, readingZoneless: builder.zone) else { return }
            // The run's date, and every date's check, came before the first row.
            guard let startedAt, parsed >= startedAt else {
                throw IngestSource.NeedsTwoPasses(reason: "the date at \(location.text) is earlier than the dates before the first test case")
            }
            guard limit.allows(parsed) else {
                throw IngestSource.NeedsTwoPasses(reason: "the date at \(location.text) is in the future")
            }
            // So did the run's note, which names the zone where a date had none.
            guard zoned || builder.zoneNoted else {
                throw IngestSource.NeedsTwoPasses(reason: "the date at \(location.text) has no zone, which the run must name")
            }
        }

        func suiteStarted(_ ordinal: Int, in parent: Int?) throws {
            builder.addSuite()
            open.append(ordinal)
        }

        func caseStarted(at location: XMLLocation) throws {}

        func caseEnded(_ test: TestReport.TestCase, in suites: [Int]) throws {
            held.append(HeldTest(test: test, suites: suites))
            heldBytes += 160 + test.identifier.utf8.count + test.name.utf8.count + (test.message?.utf8.count ?? 0)
            if let maxHeld, heldBytes > maxHeld {
                throw IngestSource.NeedsTwoPasses(reason: "more than \(maxHeld) bytes of test cases wait for their suite to end")
            }
            if suites.isEmpty || maxHeld == nil { try handOverHeld() }
        }

        func suiteProperties(_ properties: [(String, String)], of suite: Int) throws {
            // Held cases are completed when their suites end; a case handed
            // over was completed with what its suites had then.
            guard !handedOnIn.contains(suite) else {
                throw IngestSource.NeedsTwoPasses(reason: "a suite's properties come after test cases in it")
            }
            if maxHeld == nil { builder.noteSuiteProperties(properties, of: suite) }
        }

        func rootProperties(_ properties: [(String, String)]) throws {
            // The root's properties hold for every case, and may name their device.
            guard handedOn == 0 else { throw IngestSource.NeedsTwoPasses(reason: "the root's properties come after test cases") }
            builder.outline.rootProperties += properties
        }

        func suiteEnded(_ suite: Int, properties: [(String, String)], outermost: Bool) throws {
            open.removeLast()
            builder.noteSuiteProperties(properties, of: suite)
            // Its cases' suites have all ended when a top-level suite does.
            if outermost { try handOverHeld() }
        }

        func rootEnded() throws {}

        /// Once every suite around them has ended (or at once, not holding):
        /// the cases held, completed as the two passes complete them, in the file's order.
        private func handOverHeld() throws {
            // Where the two passes would find the root's device: before any
            // case could run on it, as the root's properties come before them.
            if handedOn == 0 { builder.noteRootDevice() }
            for index in held.indices {
                if !held[index].suites.contains(where: { builder.outline.suiteDevices[$0] != nil }),
                    builder.outline.rootDevice == nil, builder.outline.unnamedDevice == nil
                {
                    // The two passes add the unnamed device after the others;
                    // its place in the list is all that differs.
                    builder.outline.unnamedDevice = builder.deviceIndex(TestReport.Device())
                }
                handedOn += 1
                try emit(builder.complete(held[index].test, suites: held[index].suites))
            }
            // Cases handed over from suites still open: what those suites'
            // properties say may no longer change.
            handedOnIn.formUnion(open)
            held.removeAll(keepingCapacity: true)
            heldBytes = 0
        }
    }
}

/// Refuses a document type or entity declaration in any case ("<!doctype"),
/// which XML itself spells only in capitals, by line, across chunk
/// boundaries, before libxml2 reads it. Text inside CDATA sections and
/// comments is text: a failure message that holds an HTML page's
/// `<!DOCTYPE html>` is not a declaration.
struct DeclarationScanner {
    let path: String
    private enum Place { case markup, cdata, comment }
    private var place = Place.markup
    /// The bytes at the end of the chunk before that may start a marker the next chunk finishes.
    private var carry: [UInt8] = []
    private static let declarations = ["<!doctype", "<!entity"].map { Array($0.utf8) }
    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let commentStart = Array("<!--".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let commentEnd = Array("-->".utf8)

    init(path: String) {
        self.path = path
    }

    mutating func check(_ chunk: UnsafeRawBufferPointer, firstLine: Int) throws {
        guard !carry.isEmpty else { return try scan(chunk, line: firstLine) }
        let joined = carry + Array(chunk)
        let line = firstLine - carry.withUnsafeBytes(Newlines.count)
        carry = []
        try joined.withUnsafeBytes { try scan($0, line: line) }
    }

    private enum Match { case yes, no, cut }

    /// Whether `needle` starts at `index` (letters in any case when `caseless`),
    /// or the bytes end before it can tell.
    private static func match(_ bytes: UnsafeRawBufferPointer, at index: Int, _ needle: [UInt8], caseless: Bool) -> Match {
        for (position, expected) in needle.enumerated() {
            guard index + position < bytes.count else { return .cut }
            var byte = bytes[index + position]
            if caseless && byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte != expected { return .no }
        }
        return .yes
    }

    /// Walks the markup from "<" to "<" (memchr: rare in a result file), and
    /// a CDATA section or comment to its end.
    private mutating func scan(_ bytes: UnsafeRawBufferPointer, line firstLine: Int) throws {
        var offset = 0
        while offset < bytes.count {
            let wanted: UInt8 = place == .markup ? 0x3C : place == .cdata ? 0x5D : 0x2D
            guard let index = Bytes.firstIndex(of: wanted, in: bytes, from: offset) else { return }
            offset = index + 1
            switch place {
            case .markup:
                var cut = false
                for needle in Self.declarations {
                    switch Self.match(bytes, at: index, needle, caseless: true) {
                    case .yes:
                        let line = firstLine + Newlines.count(in: UnsafeRawBufferPointer(rebasing: bytes[0..<index]))
                        throw EvidenceError.badFile(
                            path: path, location: String(line),
                            reason: "the file has a \(String(decoding: needle, as: UTF8.self).uppercased()) declaration; "
                                + "result files with DTDs or entities are refused")
                    case .cut: cut = true
                    case .no: break
                    }
                }
                for (needle, next) in [(Self.cdataStart, Place.cdata), (Self.commentStart, Place.comment)] {
                    switch Self.match(bytes, at: index, needle, caseless: false) {
                    case .yes:
                        place = next
                        offset = index + needle.count
                    case .cut: cut = true
                    case .no: break
                    }
                }
                if cut && place == .markup { return carry = Array(bytes[index...]) }
            case .cdata, .comment:
                let end = place == .cdata ? Self.cdataEnd : Self.commentEnd
                switch Self.match(bytes, at: index, end, caseless: false) {
                case .yes:
                    place = .markup
                    offset = index + end.count
                case .cut: return carry = Array(bytes[index...])
                case .no: break
                }
            }
        }
    }
}
