#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The output of `xcresulttool get test-results tests`, read as a stream in two
/// passes, as JUnit XML is. xcresulttool writes a node's children before its
/// name and type, so the first pass reads the whole document, checks it, and
/// notes what each node turned out to be; the second, knowing that, reads each
/// test case whole and hands its results on in the file's order. Only one test
/// case is held at a time, however many the file has.
enum XCResultTests {
    /// What the first pass learnt.
    struct Outline {
        var report: TestReport
        /// How many results the test cases give (one for each device a case ran on).
        var testCount: Int
        /// What each node outside a test case is, in document order.
        fileprivate var kinds: [Kind]
        /// The names of the suites among them, in the same order.
        fileprivate var suiteNames: [String]
    }

    fileprivate enum Kind: UInt8 {
        case other, suite, testCase
    }

    /// The keys of a node the passes look at or see most often, matched on
    /// their bytes.
    enum NodeKey: Int, CaseIterable {
        case children, nodeType, name, result, duration, durationInSeconds, nodeIdentifier, nodeIdentifierURL, tags, details
    }

    static let nodeKeys = JSONKeys(NodeKey.allCases.map { "\($0)" })

    enum TopKey: Int, CaseIterable {
        case testNodes, devices
    }

    static let topKeys = JSONKeys(TopKey.allCases.map { "\($0)" })

    /// The first pass. nil when the document is not an object with "testNodes":
    /// a summary, a legacy record or something else, which is then read whole.
    static func outline(_ stream: JSONStream, file: String) throws -> Outline? {
        try stream.textProblemsFirst { try outlinePass(stream, file: file) }
    }

    private static func outlinePass(_ stream: JSONStream, file: String) throws -> Outline? {
        guard try stream.next() == UInt8(ascii: "{") else { return nil }
        var decoder = XCResultDecoder(stream: stream, file: file, consumer: OutlinePass(stream: stream, file: file))
        guard try decoder.decode() else { return nil }
        var pass = decoder.consumer
        var report = TestReport(format: .xcresult, shape: "xcresulttool test-results tests")
        report.devices = try Self.devices(pass.devices, file: file)
        pass.suites.sort { $0.node < $1.node }
        return Outline(report: report, testCount: pass.results, kinds: pass.kinds, suiteNames: pass.suites.map(\.name))
    }

    /// The JSON path of a node, given as its index in testNodes, then in each
    /// children ("testNodes[0].children[3]"), or of its `key`.
    static func pathText(_ path: [Int], _ key: String? = nil) -> String {
        var text = "testNodes"
        for (depth, index) in path.enumerated() { text += depth == 0 ? "[\(index)]" : ".children[\(index)]" }
        return key.map { text + "." + $0 } ?? text
    }

    /// The devices the file names under "devices": one unnamed device where it names none.
    static func devices(_ devices: JSONValue?, file: String) throws -> [TestReport.Device] {
        var report: [TestReport.Device] = []
        if let devices, !devices.isNull {
            report = try JSONCursor(value: devices, path: "devices", file: file).array().map(XCResultReader.device)
        }
        return report.isEmpty ? [TestReport.Device()] : report
    }

    /// The second pass: each result, in the file's order.
    static func forEachTest(
        _ stream: JSONStream, outline: Outline, file: String, _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        try stream.textProblemsFirst { try testPass(stream, outline: outline, file: file, body) }
    }

    private static func testPass(
        _ stream: JSONStream, outline: Outline, file: String, _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        try withoutActuallyEscaping(body) { body in
            var decoder = XCResultDecoder(stream: stream, file: file, consumer: TestPass(stream: stream, file: file, outline: outline, emit: body))
            _ = try decoder.decode()
            guard decoder.consumer.nextNode == outline.kinds.count, decoder.consumer.nextSuite == outline.suiteNames.count else {
                throw ResultFile.changed(file)
            }
        }
    }

    /// Opens the array of nodes at the position (`path` names it in errors,
    /// made only for one): false for a null, which is an empty array.
    static func openNodes(_ stream: JSONStream, file: String, in path: @autoclosure () -> String) throws -> Bool {
        guard try stream.next() == UInt8(ascii: "[") else {
            let value = try stream.value()
            if value.isNull {
                // testNodes may not be null; children may.
                if path() == "testNodes" { throw JSONCursor(value: value, path: "", file: file).error("'testNodes' is missing") }
                return false
            }
            throw JSONCursor(value: value, path: path(), file: file).error("expected an array, found \(value.typeName)")
        }
        try stream.open(UInt8(ascii: "["))
        return true
    }
}

/// The keys of one object so far, to refuse one that appears twice: a bit
/// for each known key, the text of any other.
struct KeysSeen {
    let stream: JSONStream
    let known: JSONKeys
    private var knownSeen: UInt64 = 0
    private var others: [String] = []

    init(_ stream: JSONStream, known: JSONKeys) {
        self.stream = stream
        self.known = known
    }

    var isEmpty: Bool { knownSeen == 0 && others.isEmpty }

    mutating func add(_ key: JSONKey) throws {
        switch key {
        case .known(let index) where index < 64:
            let bit: UInt64 = 1 << index
            if knownSeen & bit != 0 { throw twice(known.names[index]) }
            knownSeen |= bit
        case .known(let index):
            try add(other: known.names[index])
        case .other(let text):
            try add(other: text)
        }
    }

    private mutating func add(other key: String) throws {
        if others.contains(key) { throw twice(key) }
        others.append(key)
    }

    private func twice(_ key: String) -> EvidenceError {
        stream.failure("the key \"\(key)\" appears twice")
    }
}

/// The first pass: what each node outside a test case is, the suites'
/// names, how many results the test cases give, and the devices.
private struct OutlinePass: XCResultConsumer {
    let stream: JSONStream
    let file: String
    var kinds: [XCResultTests.Kind] = []
    /// Suites by the index of their node, in the order they end.
    var suites: [(node: Int, name: String)] = []
    var devices: JSONValue?
    var results = 0

    init(stream: JSONStream, file: String) {
        self.stream = stream
        self.file = file
    }

    struct NodeState {
        var slot: Int
        var type = ""
        var name = ""
        var results = 0
        /// The results its devices give (each one per repetition), and its repetitions.
        var deviceResults = 0
        var devices = 0
        var repetitions = 0
    }

    mutating func topLevel(_ key: JSONKey, sawTests: Bool) throws {
        if key == .known(XCResultTests.TopKey.devices.rawValue) { devices = try stream.value() } else { try stream.skip() }
    }

    func reading(nodeAt path: [Int]) -> XCResultNodeReading { .keys }

    func plain(_ bytes: UnsafeRawBufferPointer, path: [Int]) -> (value: (type: String, results: Int), length: Int)? { nil }

    func value(_ value: JSONValue, path: [Int]) -> (type: String, results: Int) { ("", 0) }

    mutating func begin(nodeAt path: [Int]) -> NodeState {
        kinds.append(.other)
        return NodeState(slot: kinds.count - 1)
    }

    mutating func key(_ key: XCResultTests.NodeKey?, of node: inout NodeState, path: [Int]) throws {
        guard key == .nodeType || key == .name else { return try stream.skip() }
        switch try stream.value() {
        case .null: return
        case .string(let text): if key == .nodeType { node.type = text } else { node.name = text }
        case let value:
            throw JSONCursor(value: value, path: XCResultTests.pathText(path, key == .nodeType ? "nodeType" : "name"), file: file)
                .error("expected a string, found \(value.typeName)")
        }
    }

    mutating func child(_ child: (type: String, results: Int), of node: inout NodeState, start: Int, path: [Int]) {
        node.results += child.results
        if child.type == "Device" {
            node.devices += 1
            node.deviceResults += child.results
        }
        if child.type == "Repetition" { node.repetitions += 1 }
    }

    mutating func root(_ node: (type: String, results: Int), path: [Int]) {
        results += node.results
    }

    mutating func end(_ node: NodeState, path: [Int]) -> (type: String, results: Int) {
        let slot = node.slot
        switch node.type {
        case "Test Case":
            // Its children are read with it in the second pass: they are not noted.
            kinds.removeSubrange((slot + 1)...)
            while let last = suites.last, last.node > slot { suites.removeLast() }
            kinds[slot] = .testCase
            // One result per device, each one per repetition (XCResultReader.results).
            return (node.type, node.devices > 0 ? node.deviceResults : max(1, node.repetitions))
        case "Device":
            return (node.type, max(1, node.repetitions))
        case "Test Suite":
            kinds[slot] = .suite
            suites.append((slot, node.name))
        default:
            break
        }
        return (node.type, node.results)
    }
}

/// The second pass: knowing from the outline which nodes are test cases,
/// reads each whole and hands its results on in the file's order.
private struct TestPass: XCResultConsumer {
    let stream: JSONStream
    let file: String
    let outline: XCResultTests.Outline
    let emit: (TestReport.TestCase) throws -> Void
    var nextNode = 0
    var nextSuite = 0
    /// What the node being read is.
    private var kind = XCResultTests.Kind.other
    /// The names of the suites around the node being read.
    var suites: [String] = []

    init(stream: JSONStream, file: String, outline: XCResultTests.Outline, emit: @escaping (TestReport.TestCase) throws -> Void) {
        self.stream = stream
        self.file = file
        self.outline = outline
        self.emit = emit
    }

    func topLevel(_ key: JSONKey, sawTests: Bool) throws {
        try stream.skip()
    }

    mutating func reading(nodeAt path: [Int]) throws -> XCResultNodeReading {
        guard nextNode < outline.kinds.count else { throw ResultFile.changed(file) }
        kind = outline.kinds[nextNode]
        nextNode += 1
        return kind == .testCase ? .plainThenValue : .keys
    }

    func plain(_ bytes: UnsafeRawBufferPointer, path: [Int]) -> (value: TestReport.TestCase?, length: Int)? {
        PlainNode.read(bytes) { $0.testCase(suite: suites.last) }.map { (.some($0.value), $0.length) }
    }

    func value(_ value: JSONValue, path: [Int]) throws -> TestReport.TestCase? {
        let cursor = JSONCursor(value: value, path: XCResultTests.pathText(path), file: file)
        for test in try XCResultReader.testCases(cursor, suite: suites, devices: outline.report.devices) {
            try emit(test)
        }
        return nil
    }

    /// Whether the node is a suite, whose name the cases under it carry.
    mutating func begin(nodeAt path: [Int]) throws -> Bool {
        guard kind == .suite else { return false }
        guard nextSuite < outline.suiteNames.count else { throw ResultFile.changed(file) }
        suites.append(outline.suiteNames[nextSuite])
        nextSuite += 1
        return true
    }

    func key(_ key: XCResultTests.NodeKey?, of node: inout Bool, path: [Int]) throws {
        try stream.skip()
    }

    /// A test case read from its bytes is handed on here, where the reading may throw.
    func child(_ child: TestReport.TestCase?, of node: inout Bool, start: Int, path: [Int]) throws {
        if let child { try emit(child) }
    }

    func root(_ node: TestReport.TestCase?, path: [Int]) throws {
        if let node { try emit(node) }
    }

    mutating func end(_ isSuite: Bool, path: [Int]) -> TestReport.TestCase? {
        if isSuite { suites.removeLast() }
        return nil
    }
}
