#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the JSON of `xcresulttool`: `get test-results tests` and
/// `get test-results summary` in their Xcode 16 and Xcode 26 shapes, and the
/// legacy `ActionsInvocationRecord` of `xcresulttool get --format json`.
/// Wrong types are errors that give the JSON path of the value.
public enum XCResultReader {
    public static func read(_ data: Data, path: String) throws -> TestReport {
        try UntrustedText.check(data, path: path, what: "JSON")
        if let outline = try XCResultTests.outline(JSONStream(checked: data, path: path), file: path) {
            var report = outline.report
            try XCResultTests.forEachTest(JSONStream(checked: data, path: path), outline: outline, file: path) {
                report.tests.append($0)
            }
            return report
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(data)
        } catch let failure as JSONReader.Failure {
            let line = data.prefix(failure.offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw EvidenceError.badFile(path: path, location: String(line), reason: "not valid JSON: \(failure.message)")
        }
        let root = JSONCursor(value: value, path: "", file: path)
        guard case .object = value else {
            throw root.error("expected an object at the top, found \(value.typeName)")
        }
        if value["devicesAndConfigurations"] != nil || value["totalTestCount"] != nil {
            return try summary(root)
        }
        if let type = value["_type"], case .string("ActionsInvocationRecord")? = type["_name"] {
            return try legacy(root)
        }
        throw root.error(
            "not xcresulttool output: expected 'testNodes' (tests), 'devicesAndConfigurations' (summary) or an ActionsInvocationRecord")
    }

    // MARK: - get test-results tests

    static func device(_ cursor: JSONCursor) throws -> TestReport.Device {
        var device = TestReport.Device()
        device.model = try cursor.optional("modelName")?.string() ?? cursor.optional("deviceName")?.string()
        device.osVersion = try cursor.optional("osVersion")?.string()
        device.osBuild = try cursor.optional("osBuildNumber")?.string()
        if let platform = try cursor.optional("platform")?.string() { device.read(platform: platform) }
        return device
    }

    /// The results of one "Test Case" node, within the suites named, as
    /// `results(of:base:devices:)` makes them. (`XCResultTests` finds the nodes.)
    static func testCases(
        _ node: JSONCursor, suite: [String], devices: [TestReport.Device]
    ) throws -> [TestReport.TestCase] {
        let name = try node.optional("name")?.string() ?? ""
        let identifier = try node.optional("nodeIdentifier")?.string() ?? (suite.last.map { "\($0)/\(name)" } ?? name)
        var base = TestReport.TestCase(identifier: identifier, name: name, outcome: .pass, duration: nil)
        // A test case gives its own result, whatever its devices and repetitions give.
        _ = try node.nodeResult()
        base.duration = try duration(node)
        base.tags = try node.optional("tags")?.array().map { try $0.string() } ?? []
        return try results(of: node, base: base, devices: devices)
    }

    /// The results of a test case node, whatever it is read from: one for
    /// each device it ran on ("Device" children; itself when it has none),
    /// and for each of those one for every repetition and retry
    /// ("Repetition" children, each with its own result, duration and
    /// failure messages; itself when it has none). A test that failed and
    /// passed on retry gives a fail and a pass in one run, and the fail
    /// outweighs the pass. `missing` names a node without a result.
    static func results<Node: XCResultNode>(
        of node: Node, base: TestReport.TestCase, devices: [TestReport.Device],
        missing: (String) -> any Error = { EvidenceError.refused(reason: "\($0) has no result") }
    ) throws -> [TestReport.TestCase] {
        var tests: [TestReport.TestCase] = []
        try forEachResult(of: node, base: base, devices: devices, missing: missing) { tests.append($0) }
        return tests
    }

    /// The same results, each handed to `body` as it is made: no array of
    /// them or of a node's repetitions is built on the way (the one pass
    /// hands on each of a file's test cases so).
    static func forEachResult<Node: XCResultNode>(
        of node: Node, base: TestReport.TestCase, devices: [TestReport.Device],
        missing: (String) -> any Error, _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        let children = try node.nodeChildren()
        var ran: [Int] = []
        for (index, child) in children.enumerated() where try child.nodeType() == "Device" {
            ran.append(index)
        }
        guard !ran.isEmpty else {
            var test = base
            test.duration = try node.nodeSeconds() ?? base.duration
            return try forEachRepetition(of: node, test: test, missing: missing, itself: "the test case", body)
        }
        // Every device's name is read before any of its results.
        let named = try ran.map { (children[$0], deviceIndex(named: try children[$0].nodeName() ?? "", in: devices)) }
        for (deviceNode, deviceIndex) in named {
            var test = base
            test.device = deviceIndex
            test.duration = try deviceNode.nodeSeconds() ?? base.duration
            try forEachRepetition(of: deviceNode, test: test, missing: missing, itself: "a device of the test case", body)
        }
    }

    /// The results of a node that ran (a test case, or one of its devices):
    /// one for each "Repetition" child, or the node's own where it has none,
    /// which `missing(itself)` refuses when it has no result.
    private static func forEachRepetition<Node: XCResultNode>(
        of node: Node, test: TestReport.TestCase, missing: (String) -> any Error, itself: String,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        let children = try node.nodeChildren()
        var count = 0
        for child in children where try child.nodeType() == "Repetition" { count += 1 }
        guard count > 0 else {
            guard let result = try node.nodeResult() else { throw missing(itself) }
            var test = test
            (test.outcome, test.note) = outcome(result)
            test.message = try failureMessages(
                under: node, children: { try $0.nodeChildren() }, type: { try $0.nodeType() }, name: { try $0.nodeName() })
            return try body(test)
        }
        var number = 0
        for repetition in children where try repetition.nodeType() == "Repetition" {
            number += 1
            var attempt = test
            guard let result = try repetition.nodeResult() else { throw missing("a repetition of the test case") }
            (attempt.outcome, attempt.note) = outcome(result)
            attempt.duration = try repetition.nodeSeconds() ?? test.duration
            attempt.message = try failureMessages(
                under: repetition, children: { try $0.nodeChildren() }, type: { try $0.nodeType() }, name: { try $0.nodeName() })
            // "repetition 2 of 3 (Retry 1)", after the outcome's own note.
            let said = "repetition \(number) of \(count)" + (try repetition.nodeName().map { " (\($0))" } ?? "")
            attempt.note = attempt.note.isEmpty ? said : attempt.note + "; " + said
            try body(attempt)
        }
    }

    /// Which of the file's devices a "Device" node of a test case names: its
    /// model, or the model with more after it ("iPhone Duo (27.1)"); the first when none.
    static func deviceIndex(named name: String, in devices: [TestReport.Device]) -> Int {
        devices.firstIndex { $0.model == name || name.hasPrefix($0.model ?? "\u{0}") } ?? 0
    }

    private static func outcome(_ cursor: JSONCursor) throws -> (Outcome, String) {
        outcome(try cursor.string())
    }

    /// The outcome of a node's "result", and a note where it needs one. An
    /// expected failure is a failure that was expected: it fails the claim
    /// (its issue text is the message), and never verifies it.
    static func outcome(_ result: String) -> (Outcome, String) {
        switch result {
        case "Passed": return (.pass, "")
        case "Failed": return (.fail, "")
        case "Skipped": return (.skipped, "")
        case "Expected Failure": return (.fail, "expected failure")
        case let other: return (.inconclusive, "xcresult result '\(other)'")
        }
    }

    static func duration(_ node: JSONCursor) throws -> Double? {
        if let seconds = node.optional("durationInSeconds") {
            return try seconds.number()
        }
        guard let text = node.optional("duration") else { return nil }
        if case .string(let string) = text.value {
            guard let seconds = Duration.seconds(string) else {
                throw text.error("expected a duration such as '0,014s', found '\(string)'")
            }
            return seconds
        }
        return try text.number()
    }

    /// The distinct failure messages under a node, in order.
    /// The distinct failure messages under a node, in order, one a line; not
    /// those under a "Device" or a "Repetition", which are that one's. Whatever a node is
    /// read from: a `JSONCursor`, or what `XCResultOnePass` keeps of it.
    static func failureMessages<Node>(
        under node: Node, children: (Node) throws -> [Node], type: (Node) throws -> String?,
        name: (Node) throws -> String?
    ) rethrows -> String? {
        var messages: [String] = []
        func collect(_ node: Node) throws {
            for child in try children(node) {
                let kind = try type(child)
                if kind == "Failure Message" {
                    let text = try name(child) ?? ""
                    if !text.isEmpty, !messages.contains(text) { messages.append(text) }
                } else if kind != "Device" && kind != "Repetition" {
                    try collect(child)
                }
            }
        }
        try collect(node)
        return messages.isEmpty ? nil : messages.joined(separator: "\n")
    }

    // MARK: - get test-results summary

    static func summary(_ root: JSONCursor) throws -> TestReport {
        var report = TestReport(format: .xcresult, shape: "xcresulttool test-results summary")
        let configurations = try root.optional("devicesAndConfigurations")?.array() ?? []
        let devices = try configurations.compactMap { try $0.optional("device").map(device) }
        guard devices.count <= 1 else {
            throw root.error(
                "a summary of \(devices.count) devices does not say which failure ran where; ingest the output of 'xcresulttool get test-results tests' instead")
        }
        report.devices = devices.isEmpty ? [TestReport.Device()] : devices
        if let start = root.optional("startTime") {
            let seconds = try start.number()
            guard Timestamp.representable.contains(seconds) else {
                throw start.error("expected seconds since 1970 within the years 0001 to 9999, found \(NumberText.format(seconds))")
            }
            report.startedAt = Timestamp.format(Date(timeIntervalSince1970: seconds))
            report.dates.append((Timestamp.format(Date(timeIntervalSince1970: seconds)), start.path))
        }
        let total = try root.optional("totalTestCount")?.number()
        let passed = try root.optional("passedTests")?.number()
        let failed = try root.optional("failedTests")?.number()
        let skipped = try root.optional("skippedTests")?.number()
        let expected = try root.optional("expectedFailures")?.number()
        var counts: [String] = []
        if let passed { counts.append("\(NumberText.format(passed)) passed") }
        if let failed { counts.append("\(NumberText.format(failed)) failed") }
        if let skipped { counts.append("\(NumberText.format(skipped)) skipped") }
        if let expected { counts.append("\(NumberText.format(expected)) expected failures") }
        report.notes.append(
            "xcresulttool summary of \(total.map(NumberText.format) ?? "?") tests (\(counts.joined(separator: ", "))); a summary lists only the failures one by one")
        for failure in try root.optional("testFailures")?.array() ?? [] {
            let identifier = try failure.optional("testIdentifierString")?.string() ?? failure.field("testName").string()
            let name = try failure.optional("testName")?.string() ?? identifier
            report.tests.append(TestReport.TestCase(
                identifier: identifier, name: name, outcome: .fail, duration: nil,
                message: try failure.optional("failureText")?.string()))
        }
        return report
    }

    // MARK: - The legacy ActionsInvocationRecord

    static func legacy(_ root: JSONCursor) throws -> TestReport {
        var report = TestReport(format: .xcresult, shape: "xcresulttool ActionsInvocationRecord (legacy)")
        report.devices = []
        for action in try root.optional("actions")?.legacyArray() ?? [] {
            guard let result = action.optional("actionResult") else { continue }
            let metrics = result.optional("metrics")
            let testsCount = try metrics?.optional("testsCount")?.legacyNumber()
            guard testsCount != nil || result.optional("testsRef") != nil else { continue }
            var device = TestReport.Device()
            if let target = action.optional("runDestination")?.optional("targetDeviceRecord") {
                device.model = try target.optional("modelName")?.legacyString()
                if let version = try target.optional("operatingSystemVersionWithBuildNumber")?.legacyString() {
                    (device.osVersion, device.osBuild) = TestReport.Device.versionAndBuild(version)
                } else {
                    device.osVersion = try target.optional("operatingSystemVersion")?.legacyString()
                }
                if let platform = try target.optional("platformRecord")?.optional("userDescription")?.legacyString() {
                    device.read(platform: platform)
                }
            }
            report.devices.append(device)
            let index = report.devices.count - 1
            if let cursor = action.optional("startedTime"),
                case let text = try cursor.legacyString(),
                let parsed = try? Timestamp.parse(colonInOffset(text), field: "startedTime")
            {
                report.startedAt = report.startedAt ?? parsed
                report.dates.append((parsed, cursor.path))
            }
            let failed = try metrics?.optional("testsFailedCount")?.legacyNumber()
            report.notes.append(
                "legacy xcresult record of \(testsCount.map(NumberText.format) ?? "?") tests, \(failed.map(NumberText.format) ?? "0") failed; it lists only the failures one by one")
            for failure in try result.optional("issues")?.optional("testFailureSummaries")?.legacyArray() ?? [] {
                let name = try failure.optional("testCaseName")?.legacyString() ?? "unnamed test"
                // "Suite.test()" or "Module.Suite.test()": the suite ends at the last dot before "(".
                let head = name.prefix { $0 != "(" }
                let identifier = head.lastIndex(of: ".").map { dot in
                    name[..<dot] + "/" + name[name.index(after: dot)...]
                } ?? name
                report.tests.append(TestReport.TestCase(
                    identifier: identifier, name: String(name.split(separator: ".").last ?? Substring(name)),
                    outcome: .fail, duration: nil, message: try failure.optional("message")?.legacyString(), device: index))
            }
        }
        if report.devices.isEmpty {
            throw root.error("an ActionsInvocationRecord with no test action")
        }
        return report
    }

    /// "2021-04-23T07:13:02.660+0300" becomes "2021-04-23T07:13:02.660+03:00".
    static func colonInOffset(_ text: String) -> String {
        guard text.count > 5 else { return text }
        let tail = text.suffix(5)
        if (tail.first == "+" || tail.first == "-"), tail.dropFirst().allSatisfy(\.isNumber) {
            return text.dropLast(2) + ":" + text.suffix(2)
        }
        return text
    }
}

/// A position in a JSON document, for reading it with errors that give the path.
struct JSONCursor {
    let value: JSONValue
    let file: String
    /// Built into text only when an error names it.
    private let location: Location

    init(value: JSONValue, path: String, file: String) {
        self.init(value: value, location: Location(parent: nil, step: .text(path)), file: file)
    }

    private init(value: JSONValue, location: Location, file: String) {
        self.value = value
        self.location = location
        self.file = file
    }

    /// "testNodes[0].children[3].name"; empty at the top.
    var path: String { location.text }

    private final class Location: Sendable {
        enum Step {
            case text(String), key(String), index(Int)
        }

        let parent: Location?
        let step: Step

        init(parent: Location?, step: Step) {
            self.parent = parent
            self.step = step
        }

        var text: String {
            var steps: [Step] = []
            var node: Location? = self
            while let current = node {
                steps.append(current.step)
                node = current.parent
            }
            var text = ""
            for step in steps.reversed() {
                switch step {
                case .text(let path): text += path
                case .key(let key): text += text.isEmpty ? key : "." + key
                case .index(let index): text += "[\(index)]"
                }
            }
            return text
        }
    }

    func error(_ reason: String) -> EvidenceError {
        EvidenceError.badFile(path: file, location: path.isEmpty ? "$" : path, reason: reason)
    }

    private func child(_ key: String, _ value: JSONValue) -> JSONCursor {
        JSONCursor(value: value, location: Location(parent: location, step: .key(key)), file: file)
    }

    /// The value of a key, or nil when it is missing or null.
    func optional(_ key: String) -> JSONCursor? {
        guard let found = value[key] else { return nil }
        if case .null = found { return nil }
        return child(key, found)
    }

    func field(_ key: String) throws -> JSONCursor {
        guard let found = optional(key) else { throw error("'\(key)' is missing") }
        return found
    }

    func string() throws -> String {
        guard case .string(let text) = value else { throw error("expected a string, found \(value.typeName)") }
        return text
    }

    func number() throws -> Double {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let number): return number
        default: throw error("expected a number, found \(value.typeName)")
        }
    }

    func array() throws -> [JSONCursor] {
        guard case .array(let items) = value else { throw error("expected an array, found \(value.typeName)") }
        return items.enumerated().map {
            JSONCursor(value: $1, location: Location(parent: location, step: .index($0)), file: file)
        }
    }

    // MARK: - The legacy format's {"_type": …, "_value": …} wrapping

    func legacyString() throws -> String {
        guard let wrapped = optional("_value") else {
            if case .string(let text) = value { return text }
            throw error("expected {\"_value\": …}, found \(value.typeName)")
        }
        return try wrapped.string()
    }

    func legacyNumber() throws -> Double {
        let text = try legacyString()
        guard let number = Double(text) else { throw error("expected a number, found '\(text)'") }
        return number
    }

    func legacyArray() throws -> [JSONCursor] {
        guard let values = optional("_values") else { throw error("expected {\"_values\": […]}") }
        return try values.array()
    }
}

/// A node of `xcresulttool get test-results tests`, read the general way
/// (`JSONCursor`) or as the one pass keeps it (`XCResultOnePass.Node`): what
/// `XCResultReader.results(of:base:devices:)` reads of a test case.
protocol XCResultNode {
    func nodeType() throws -> String?
    func nodeName() throws -> String?
    /// Its "result" as written: "Passed", "Failed", "Expected Failure", …
    func nodeResult() throws -> String?
    func nodeSeconds() throws -> Double?
    func nodeChildren() throws -> [Self]
}

extension JSONCursor: XCResultNode {
    func nodeType() throws -> String? { try optional("nodeType")?.string() }
    func nodeName() throws -> String? { try optional("name")?.string() }
    func nodeResult() throws -> String? { try field("result").string() }
    func nodeSeconds() throws -> Double? { try XCResultReader.duration(self) }
    func nodeChildren() throws -> [JSONCursor] { try optional("children")?.array() ?? [] }
}
