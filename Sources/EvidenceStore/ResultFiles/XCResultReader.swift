#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the JSON of `xcresulttool`, streamed: `get test-results tests` in
/// its Xcode 16 and Xcode 26 shapes, node by node, each test case's results
/// handed on as the case ends; `get test-results summary` and the legacy
/// `ActionsInvocationRecord` of `xcresulttool get --format json`, which list
/// only failures, from their top-level values read whole. Wrong types are
/// errors that give the JSON path of the value.
///
/// xcresulttool sorts its keys, so a node's children come before its name and
/// type: each node is read from the bottom up. A test case ends with its
/// children (devices, repetitions, arguments, failure messages) held, and its
/// results are handed on then; a node with a test case under it is a
/// container, which holds none of its test cases. What a result needs that
/// comes later (the name of the suite around a case without a
/// `nodeIdentifier`, the devices listed after the nodes) is kept as its
/// `Place` and resolved once the file has ended (`ResultFileFacts`).
final class XCResultReader {
    /// A node as the reading keeps it, until it turns out to be a test case or not.
    struct Node {
        var type: String?
        var name: String?
        var identifier: String?
        var result: String?
        var seconds: Double?
        var tags: [String] = []
        var children: [Node] = []
    }

    /// A node that held test cases: what resolving their places needs of it.
    struct Container {
        var parent: Int
        var type: String?
        var name: String?
    }

    enum NodeKey: Int, CaseIterable {
        case children, nodeType, name, result, duration, durationInSeconds, nodeIdentifier, tags
        /// Known only to be passed over without a String made of their names.
        case nodeIdentifierURL, details
    }

    private static let nodeKeys = JSONKeys(NodeKey.allCases.map { "\($0)" })
    private static let topKeys = JSONKeys(["testNodes", "devices"])

    private let stream: JSONStream
    private let path: String
    private let emit: (TestReport.TestCase) throws -> Void
    /// The node being read: its index in testNodes, then in each children.
    private var nodePath: [Int] = []
    private var nodeCount = 0
    private(set) var containers: [Int: Container] = [:]
    private(set) var testCases = 0

    private init(stream: JSONStream, path: String, emit: @escaping (TestReport.TestCase) throws -> Void) {
        self.stream = stream
        self.path = path
        self.emit = emit
    }

    /// Reads the document whose bytes `chunks` gives, handing each result on
    /// (those of a summary or a legacy record once it has ended); what it
    /// says beside them.
    static func read(
        _ chunks: TextChunks, path: String, _ emit: (TestReport.TestCase) throws -> Void
    ) throws -> ResultFileFacts {
        try withoutActuallyEscaping(emit) { emit in
            let reader = XCResultReader(stream: JSONStream(chunks, path: path), path: path, emit: emit)
            return try chunks.textProblemsFirst { try reader.document() }
        }
    }

    private func cursor(_ value: JSONValue, _ path: String) -> JSONCursor {
        JSONCursor(value: value, path: path, file: self.path)
    }

    /// "testNodes[0].children[3].name"
    private func pathText(_ key: String? = nil) -> String {
        var text = "testNodes"
        for (depth, index) in nodePath.enumerated() { text += depth == 0 ? "[\(index)]" : ".children[\(index)]" }
        return key.map { text + "." + $0 } ?? text
    }

    private func document() throws -> ResultFileFacts {
        guard try stream.next() == UInt8(ascii: "{") else {
            let value = try stream.value()
            throw cursor(value, "").error("expected an object at the top, found \(value.typeName)")
        }
        try stream.open(UInt8(ascii: "{"))
        var seen: Set<String> = []
        var others: [(String, JSONValue)] = []
        var devices: JSONValue?
        var sawTests = false
        while let key = try stream.nextKey(first: seen.isEmpty, among: Self.topKeys) {
            let name: String
            switch key {
            case .known(let index): name = index == 0 ? "testNodes" : "devices"
            case .other(let text): name = text
            }
            guard seen.insert(name).inserted else { throw stream.failure("the key \"\(name)\" appears twice") }
            switch key {
            case .known(0):
                sawTests = true
                guard try openNodes(root: true) else { continue }
                var index = 0
                while try stream.nextElement(first: index == 0) {
                    defer { index += 1 }
                    guard try stream.next() == UInt8(ascii: "{") else {
                        try stream.skip()
                        continue
                    }
                    nodePath = [index]
                    if let node = try node(parent: -1), node.type == "Test Case" { try results(of: node, parent: -1) }
                }
            case .known(1):
                devices = try stream.value()
            default:
                others.append((name, try stream.value()))
            }
        }
        try stream.finish()
        if sawTests {
            var facts = ResultFileFacts(format: .xcresult, shape: "xcresulttool test-results tests")
            if let devices, !devices.isNull {
                facts.devices = try cursor(devices, "devices").array().map(Self.device)
            }
            if facts.devices.isEmpty { facts.devices = [TestReport.Device()] }
            facts.containers = containers
            facts.testCases = testCases
            return facts
        }
        // A summary or a legacy record: small, read whole.
        let whole = JSONValue.object(others + (devices.map { [("devices", $0)] } ?? []))
        let root = cursor(whole, "")
        var (facts, tests): (ResultFileFacts, [TestReport.TestCase])
        if whole["devicesAndConfigurations"] != nil || whole["totalTestCount"] != nil {
            (facts, tests) = try Self.summary(root)
        } else if let type = whole["_type"], case .string("ActionsInvocationRecord")? = type["_name"] {
            (facts, tests) = try Self.legacy(root)
        } else {
            throw root.error(
                "not xcresulttool output: expected 'testNodes' (tests), 'devicesAndConfigurations' (summary) or an ActionsInvocationRecord")
        }
        for test in tests { try emit(test) }
        facts.testCases = tests.count
        return facts
    }

    /// Opens the array of nodes at the position: false for a null (an empty
    /// array), which "testNodes" may not be.
    private func openNodes(root: Bool) throws -> Bool {
        guard try stream.next() == UInt8(ascii: "[") else {
            let value = try stream.value()
            if value.isNull && !root { return false }
            throw cursor(value, root ? "" : pathText("children"))
                .error(value.isNull ? "'testNodes' is missing" : "expected an array, found \(value.typeName)")
        }
        try stream.open(UInt8(ascii: "["))
        return true
    }

    /// Reads the node at the position: the node, or nil for a container (its
    /// test cases' results were handed on). A test case is handed to the
    /// node around it, which hands its results on.
    private func node(parent: Int) throws -> Node? {
        let number = nodeCount
        nodeCount += 1
        let testCasesBefore = testCases
        try stream.open(UInt8(ascii: "{"))
        var node = Node()
        var seen: UInt16 = 0
        var others: [String] = []
        var holdsTests = false
        var inSeconds: Double?
        var duration: Double?
        while let key = try stream.nextKey(first: seen == 0 && others.isEmpty, among: Self.nodeKeys) {
            guard case .known(let index) = key, let known = NodeKey(rawValue: index) else {
                if case .other(let name) = key {
                    if others.contains(name) { throw stream.failure("the key \"\(name)\" appears twice") }
                    others.append(name)
                }
                try stream.skip()
                continue
            }
            guard seen & (1 << index) == 0 else { throw stream.failure("the key \"\(known)\" appears twice") }
            seen |= 1 << index
            switch known {
            case .children:
                guard try openNodes(root: false) else { continue }
                var index = 0
                while try stream.nextElement(first: index == 0) {
                    defer { index += 1 }
                    guard try stream.next() == UInt8(ascii: "{") else {
                        try stream.skip()
                        continue
                    }
                    nodePath.append(index)
                    defer { nodePath.removeLast() }
                    guard let child = try self.node(parent: number) else {
                        holdsTests = true
                        continue
                    }
                    if child.type == "Test Case" {
                        try results(of: child, parent: number)
                        holdsTests = true
                    } else {
                        node.children.append(child)
                    }
                }
            case .nodeType: node.type = try text(known)
            case .name: node.name = try text(known)
            case .nodeIdentifier: node.identifier = try text(known)
            case .result: node.result = try text(known)
            case .durationInSeconds: inSeconds = try seconds(known, text: false)
            case .duration: duration = try seconds(known, text: true)
            case .tags:
                let value = try stream.value()
                if !value.isNull { node.tags = try cursor(value, pathText("tags")).array().map { try $0.string() } }
            case .nodeIdentifierURL, .details:
                try stream.skip()
            }
        }
        node.seconds = inSeconds ?? duration
        guard holdsTests else { return node }
        containers[number] = Container(parent: parent, type: node.type, name: node.name)
        // A test case with test cases under it is a result itself; they are not.
        guard node.type == "Test Case" else { return nil }
        testCases = testCasesBefore
        return node
    }

    /// A string or null, as a node's type, name, identifier and result are.
    private func text(_ key: NodeKey) throws -> String? {
        if let (text, isString) = try stream.scalar() {
            if isString || text == nil { return text }
            throw cursor(.number(0), pathText("\(key)")).error("expected a string, found a number")
        }
        let value = try stream.value()
        switch value {
        case .null: return nil
        case .string(let text): return text
        default: throw cursor(value, pathText("\(key)")).error("expected a string, found \(value.typeName)")
        }
    }

    /// A number of seconds, or null; `text` takes "0,014s" as well.
    private func seconds(_ key: NodeKey, text: Bool) throws -> Double? {
        if let (scalar, isString) = try stream.scalar() {
            guard let scalar else { return nil }
            if !isString, let number = Double(scalar) { return number }
            if isString, text, let seconds = Duration.seconds(scalar) { return seconds }
            let value: JSONValue = isString ? .string(scalar) : .number(0)
            throw cursor(value, pathText("\(key)")).error(
                isString && text ? "expected a duration such as '0,014s', found '\(scalar)'" : "expected a number, found \(value.typeName)")
        }
        let value = try stream.value()
        switch value {
        case .null: return nil
        case .integer(let number): return Double(number)
        case .number(let number): return number
        case .string(let string) where text:
            guard let seconds = Duration.seconds(string) else {
                throw cursor(value, pathText("\(key)")).error("expected a duration such as '0,014s', found '\(string)'")
            }
            return seconds
        default:
            throw cursor(value, pathText("\(key)")).error("expected a number, found \(value.typeName)")
        }
    }

    // MARK: - A test case's results

    /// The results of a test case node: one for each device it ran on
    /// ("Device" children; itself when it has none), and for each of those
    /// one for every repetition and retry ("Repetition" children, each with
    /// its own result, duration and failure messages; itself when it has
    /// none). A test that failed and passed on retry gives a fail and a pass
    /// in one run, and the fail outweighs the pass.
    private func results(of node: Node, parent: Int) throws {
        testCases += 1
        guard node.result != nil else { throw cursor(.null, pathText()).error("'result' is missing") }
        var base = TestReport.TestCase(
            identifier: node.identifier ?? node.name ?? "", name: node.name ?? "", outcome: .pass, duration: node.seconds,
            place: .node(parent: parent, deviceName: nil, deviceIdentifier: nil))
        base.namedAfterSuite = node.identifier == nil
        base.tags = node.tags
        let devices = node.children.filter { $0.type == "Device" }
        guard !devices.isEmpty else { return try repetitions(of: node, test: base, itself: "the test case") }
        for device in devices {
            var test = base
            test.place = .node(parent: parent, deviceName: device.name ?? "", deviceIdentifier: device.identifier)
            test.duration = device.seconds ?? base.duration
            try repetitions(of: device, test: test, itself: "a device of the test case")
        }
    }

    /// The results of a node that ran (a test case, or one of its devices):
    /// one for each "Repetition" child, or the node's own where it has none.
    private func repetitions(of node: Node, test: TestReport.TestCase, itself: String) throws {
        let repetitions = node.children.filter { $0.type == "Repetition" }
        guard !repetitions.isEmpty else {
            guard let result = node.result else { throw cursor(.null, pathText()).error("\(itself) has no result") }
            var test = test
            (test.outcome, test.note) = Self.outcome(result)
            test.message = Self.failureMessages(under: node)
            return try emit(test)
        }
        for (number, repetition) in repetitions.enumerated() {
            guard let result = repetition.result else {
                throw cursor(.null, pathText()).error("a repetition of the test case has no result")
            }
            var attempt = test
            (attempt.outcome, attempt.note) = Self.outcome(result)
            attempt.duration = repetition.seconds ?? test.duration
            attempt.message = Self.failureMessages(under: repetition)
            // "repetition 2 of 3 (Retry 1)", after the outcome's own note.
            let said = "repetition \(number + 1) of \(repetitions.count)" + (repetition.name.map { " (\($0))" } ?? "")
            attempt.note = attempt.note.isEmpty ? said : attempt.note + "; " + said
            try emit(attempt)
        }
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

    /// The distinct failure messages under a node, in order, one a line; not
    /// those under a "Device" or a "Repetition", which are that one's.
    static func failureMessages(under node: Node) -> String? {
        var messages: [String] = []
        func collect(_ node: Node) {
            for child in node.children {
                if child.type == "Failure Message" {
                    let text = child.name ?? ""
                    if !text.isEmpty, !messages.contains(text) { messages.append(text) }
                } else if child.type != "Device" && child.type != "Repetition" {
                    collect(child)
                }
            }
        }
        collect(node)
        return messages.isEmpty ? nil : messages.joined(separator: "\n")
    }

    /// A device of the "devices" list, or of a summary.
    static func device(_ cursor: JSONCursor) throws -> TestReport.Device {
        var device = TestReport.Device()
        device.name = try cursor.optional("deviceName")?.string()
        device.model = try cursor.optional("modelName")?.string() ?? device.name
        device.identifier = try cursor.optional("deviceId")?.string()
        device.osVersion = try cursor.optional("osVersion")?.string()
        device.osBuild = try cursor.optional("osBuildNumber")?.string()
        if let platform = try cursor.optional("platform")?.string() { device.read(platform: platform) }
        return device
    }

    // MARK: - get test-results summary

    static func summary(_ root: JSONCursor) throws -> (ResultFileFacts, [TestReport.TestCase]) {
        var report = ResultFileFacts(format: .xcresult, shape: "xcresulttool test-results summary")
        var tests: [TestReport.TestCase] = []
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
            tests.append(TestReport.TestCase(
                identifier: identifier, name: name, outcome: .fail, duration: nil,
                message: try failure.optional("failureText")?.string()))
        }
        return (report, tests)
    }

    // MARK: - The legacy ActionsInvocationRecord

    static func legacy(_ root: JSONCursor) throws -> (ResultFileFacts, [TestReport.TestCase]) {
        var report = ResultFileFacts(format: .xcresult, shape: "xcresulttool ActionsInvocationRecord (legacy)")
        var tests: [TestReport.TestCase] = []
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
                tests.append(TestReport.TestCase(
                    identifier: identifier, name: String(name.split(separator: ".").last ?? Substring(name)),
                    outcome: .fail, duration: nil, message: try failure.optional("message")?.legacyString(), place: .device(index)))
            }
        }
        if report.devices.isEmpty {
            throw root.error("an ActionsInvocationRecord with no test action")
        }
        return (report, tests)
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

