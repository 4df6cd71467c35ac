#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads JUnit XML as fastlane trainer/scan, `xcbeautify --report junit`,
/// xcresultparser, xcpretty and `swift test --xunit-output` write it, in one
/// pass of libxml2's SAX2 parser fed in chunks, so a file of any size is read
/// in bounded memory. Each test case is handed on as it ends, with the suite
/// around it; what a suite's properties give its cases (their device above
/// all, which fastlane trainer writes after the cases) is worked out once the
/// file has ended (`Suites`).
///
/// The input is untrusted: a DOCTYPE (and so any entity) is refused before
/// its internal subset is read, as are processing instructions other than
/// the XML declaration, NUL bytes, invalid UTF-8, deep nesting, long values,
/// and files that end with an element still open; errors give the line and
/// column.
final class JUnitReader: XMLEventHandler {
    static let maxDepth = 32
    static let maxAttributeLength = 1 << 20
    static let maxMessageLength = 1 << 16

    /// What the file's suites and root say of the cases in them.
    struct Suites {
        /// Each suite's enclosing suite and properties, by the order suites start.
        var parents: [Int?] = []
        var properties: [[(String, String)]] = []
        var rootProperties: [(String, String)] = []
        /// The devices the properties name, in the order suites end, then the root's.
        var devices: [TestReport.Device] = []
        fileprivate var suiteDevices: [Int?] = []
        fileprivate var rootDevice: Int?
        /// Where cases with no device go: made when one is first needed.
        private var unnamedDevice: Int?
        /// The properties a case in one innermost suite inherits, worked out once per suite.
        private var inherited: (suite: Int, properties: [(String, String)])?

        /// The device of a case in `suite` (-1: in none): that of the innermost
        /// suite around it that names one, else the root's, else an unnamed one.
        mutating func device(ofCaseIn suite: Int) -> Int {
            var current: Int? = suite >= 0 ? suite : nil
            while let ordinal = current {
                if let device = suiteDevices[ordinal] { return device }
                current = parents[ordinal]
            }
            if let rootDevice { return rootDevice }
            if let unnamedDevice { return unnamedDevice }
            devices.append(TestReport.Device())
            unnamedDevice = devices.count - 1
            return devices.count - 1
        }

        /// What a case in `suite` inherits: the root's properties, then each
        /// suite's, outermost first.
        mutating func properties(ofCaseIn suite: Int) -> [(String, String)] {
            if let inherited, inherited.suite == suite { return inherited.properties }
            var chain: [Int] = []
            var current: Int? = suite >= 0 ? suite : nil
            while let ordinal = current {
                chain.append(ordinal)
                current = parents[ordinal]
            }
            var all = rootProperties
            for ordinal in chain.reversed() { all += properties[ordinal] }
            inherited = (suite, all)
            return all
        }

        fileprivate mutating func deviceIndex(_ device: TestReport.Device) -> Int {
            if let index = devices.firstIndex(of: device) { return index }
            devices.append(device)
            return devices.count - 1
        }

        fileprivate func deviceProperty(_ properties: [(String, String)]) -> TestReport.Device? {
            properties.first { $0.0 == "device" }.map { TestReport.Device(trainerProperty: $0.1) }
        }
    }

    private let path: String
    private let zone: Zone
    private let emit: (TestReport.TestCase) throws -> Void
    private(set) var suites = Suites()
    /// Every date the file gives, with its line and column.
    private(set) var dates: [(value: String, location: String)] = []
    private(set) var zoneNote: String?
    private(set) var caseCount = 0
    private(set) var stack: [String] = []
    private(set) var sawRoot = false
    /// The suites open now, outermost first.
    private var open: [Int] = []
    private var current: TestReport.TestCase?
    private var currentProperties: [(String, String)]?
    private var messageParts: [String] = []
    /// Maven Surefire's failed attempts of the case (`<rerunFailure>`,
    /// `<flakyFailure>`, …): each element's name and message parts.
    private var attempts: [(element: String, parts: [String])] = []
    private var collectingAttempt = false
    private var collecting = false
    private var collected: [UInt8] = []

    private init(path: String, zone: Zone, emit: @escaping (TestReport.TestCase) throws -> Void) {
        self.path = path
        self.zone = zone
        self.emit = emit
    }

    /// Reads the file whose bytes `chunks` gives, handing each test case on as
    /// it ends; timestamps without a zone are read in `zone`.
    static func read(
        _ chunks: TextChunks, path: String, zone: Zone, _ emit: (TestReport.TestCase) throws -> Void
    ) throws -> ResultFileFacts {
        try withoutActuallyEscaping(emit) { emit in
            let reader = JUnitReader(path: path, zone: zone, emit: emit)
            let parser = try XMLPushParser(path: path, handler: reader)
            var declarations = DeclarationScanner(path: path)
            try chunks.textProblemsFirst {
                while let chunk = try chunks.next() {
                    try declarations.check(chunk, firstLine: chunks.text.line - Newlines.count(in: chunk))
                    try parser.feed(chunk)
                }
                do {
                    try parser.finish()
                } catch EvidenceError.badFile(let file, let location, let reason)
                    where parser.errorLies(at: chunks.text.end) && !reader.stack.isEmpty
                {
                    throw EvidenceError.badFile(
                        path: file, location: location, reason: reason + "; <\(reader.stack.last ?? "")> is never closed")
                }
            }
            if !reader.stack.isEmpty {
                throw EvidenceError.badFile(
                    path: path, location: nil,
                    reason: "not well-formed XML: the document ends before it is complete; <\(reader.stack.last ?? "")> is never closed")
            }
            guard reader.sawRoot else {
                throw EvidenceError.badFile(path: path, location: nil, reason: "the file holds no XML element")
            }
            var facts = ResultFileFacts(format: .junit, shape: "JUnit XML")
            facts.junit = reader.suites
            facts.devices = reader.suites.devices
            facts.dates = reader.dates
            facts.notes = reader.zoneNote.map { [$0] } ?? []
            facts.testCases = reader.caseCount
            return facts
        }
    }

    private func fail(_ location: XMLLocation, _ reason: String) -> EvidenceError {
        EvidenceError.badFile(path: path, location: location.text, reason: reason)
    }

    /// A timestamp of the root or a suite: read, or the file is refused; one
    /// without a zone is read in the zone given, which the run's note names.
    private func timestamp(_ text: String, at location: XMLLocation) throws {
        guard let (value, zoned) = Timestamp.parse(text, readingZoneless: zone) else {
            throw fail(
                location,
                "the timestamp '\(ControlCharacters.escaped(text, keepingLineBreaks: false))' is not an ISO 8601 date or time "
                    + "(such as 2026-11-30T10:00:00+01:00)")
        }
        if !zoned && zoneNote == nil {
            zoneNote = "timestamps without a zone read in "
                + Timestamp.describe(zone, at: Timestamp.date(value) ?? Date(timeIntervalSince1970: 0))
        }
        dates.append((value, location.text))
    }

    // MARK: - libxml2's events

    func documentType(at location: XMLLocation) throws {
        throw fail(location, "the file has a <!DOCTYPE declaration; result files with DTDs or entities are refused")
    }

    func processingInstruction(at location: XMLLocation) throws {
        throw fail(location, "the file has a processing instruction (<?…?>) other than the XML declaration; it is refused")
    }

    func startElement(_ name: String, attributes: XMLAttributes, at location: XMLLocation) throws {
        if let (key, length) = attributes.first(longerThan: Self.maxAttributeLength) {
            throw fail(
                location,
                "the attribute '\(key)' of <\(name)> is \(length) bytes long, longer than the limit of \(Self.maxAttributeLength)")
        }
        if stack.isEmpty {
            guard name == "testsuites" || name == "testsuite" else {
                throw fail(location, "not a JUnit report: the root element is <\(name)>, not <testsuites> or <testsuite>")
            }
            sawRoot = true
            if let stamp = attributes["timestamp"] { try timestamp(stamp, at: location) }
        }
        stack.append(name)
        guard stack.count <= Self.maxDepth else { throw fail(location, "elements nested deeper than \(Self.maxDepth) levels") }
        switch name {
        case "testcase":
            guard current == nil else { throw fail(location, "a <testcase> inside another <testcase>") }
            let name = attributes["name"] ?? ""
            let classname = attributes["classname"] ?? attributes["class"] ?? ""
            guard !name.isEmpty || !classname.isEmpty else {
                throw fail(location, "a <testcase> with neither a name nor a classname")
            }
            let identifier = classname.isEmpty ? name : name.isEmpty ? classname : "\(classname)/\(name)"
            var duration: Double?
            if let time = attributes["time"] {
                guard let seconds = Duration.seconds(time) else {
                    throw fail(location, "the time '\(time)' of test '\(identifier)' is not a number of seconds")
                }
                duration = seconds
            }
            current = TestReport.TestCase(
                identifier: identifier, name: name.isEmpty ? classname : name, outcome: .pass, duration: duration,
                place: .suite(open.last ?? -1))
            messageParts = []
            attempts = []
        case "testsuite":
            suites.parents.append(open.last)
            suites.properties.append([])
            suites.suiteDevices.append(nil)
            open.append(suites.parents.count - 1)
            if let stamp = attributes["timestamp"], stack.count > 1 { try timestamp(stamp, at: location) }
        case "failure", "error":
            guard current != nil else { return }
            current?.outcome = .fail
            if let message = attributes["message"], !message.isEmpty { messageParts.append(message) }
            startCollecting()
        case "rerunFailure", "rerunError", "flakyFailure", "flakyError":
            // Maven Surefire's reruns (other tools write them too): an attempt
            // that failed before the one the case's outcome is. Each is a
            // result of its own, a failure, as xcresulttool's repetitions are:
            // a test that failed and then passed is flaky, and proves nothing
            // in that run.
            guard current != nil else { return }
            attempts.append((name, attributes["message"].map { $0.isEmpty ? [] : [$0] } ?? []))
            collectingAttempt = true
            startCollecting()
        case "skipped":
            guard current != nil else { return }
            if current?.outcome != .fail { current?.outcome = .skipped }
            if let message = attributes["message"], !message.isEmpty { messageParts.append(message) }
            startCollecting()
        case "properties":
            currentProperties = []
        case "property":
            guard let key = attributes["name"] else { return }
            currentProperties?.append((key, attributes["value"] ?? ""))
        default:
            break
        }
    }

    /// A case's message: its parts, one a line, at most `maxMessageLength` bytes.
    private static func message(_ parts: [String]) -> String? {
        guard !parts.isEmpty else { return nil }
        let message = parts.joined(separator: "\n")
        guard message.utf8.count > maxMessageLength else { return message }
        return String(message.prefix(maxMessageLength)) + "…"
    }

    private func startCollecting() {
        collecting = true
        collected.removeAll(keepingCapacity: true)
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard collecting, collected.count < Self.maxMessageLength else { return }
        collected.append(contentsOf: bytes)
    }

    func endElement(_ name: String, at location: XMLLocation) throws {
        guard stack.last == name else { throw fail(location, "</\(name)> does not close <\(stack.last ?? "")>") }
        stack.removeLast()
        switch name {
        case "testcase":
            guard var test = current.take() else { return }
            test.message = Self.message(messageParts)
            test.tags = test.properties.filter { $0.0.hasPrefix("tag") }.map(\.1)
            // fastlane trainer writes each repetition and retry of a test as a case
            // of its own: each is kept, and a fail outweighs a pass in its run.
            if let repetition = test.properties.first(where: { $0.0 == "repetition" })?.1, !repetition.isEmpty {
                test.note = "repetition: " + repetition
            }
            caseCount += 1
            for (number, attempt) in attempts.enumerated() {
                var failed = test
                failed.outcome = .fail
                failed.message = Self.message(attempt.parts)
                failed.note = "attempt \(number + 1) of \(attempts.count + 1) (<\(attempt.element)>)"
                try emit(failed)
            }
            if !attempts.isEmpty { test.note = "attempt \(attempts.count + 1) of \(attempts.count + 1)" }
            try emit(test)
        case "failure", "error", "skipped", "rerunFailure", "rerunError", "flakyFailure", "flakyError":
            if collecting {
                let body = String(decoding: collected, as: UTF8.self).trimmingWhitespaceAndNewlines()
                if collectingAttempt, !attempts.isEmpty {
                    if !body.isEmpty, !attempts[attempts.count - 1].parts.contains(body) {
                        attempts[attempts.count - 1].parts.append(body)
                    }
                } else if !body.isEmpty, !messageParts.contains(body) {
                    messageParts.append(body)
                }
                collecting = false
                collectingAttempt = false
            }
        case "properties":
            guard let properties = currentProperties else { return }
            currentProperties = nil
            if current != nil {
                current?.properties += properties
            } else if let suite = open.last {
                suites.properties[suite] += properties
            } else {
                suites.rootProperties += properties
            }
        case "testsuite":
            guard let suite = open.popLast() else { return }
            // A suite's properties may come after its test cases (fastlane
            // trainer writes them last): they hold for the whole suite.
            if let device = suites.deviceProperty(suites.properties[suite]) {
                suites.suiteDevices[suite] = suites.deviceIndex(device)
            }
        case "testsuites" where stack.isEmpty:
            break
        default:
            break
        }
        if stack.isEmpty, let device = suites.deviceProperty(suites.rootProperties) {
            suites.rootDevice = suites.deviceIndex(device)
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
