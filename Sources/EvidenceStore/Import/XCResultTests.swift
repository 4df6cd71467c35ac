import FoundationEssentials

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
        try stream.open(UInt8(ascii: "{"))
        var pass = OutlinePass(stream: stream, file: file)
        var keys = KeysSeen(stream, known: topKeys)
        var devices: JSONValue?
        var sawTests = false
        var results = 0
        while let key = try stream.nextKey(first: keys.isEmpty, among: topKeys) {
            try keys.add(key)
            switch key {
            case .known(TopKey.testNodes.rawValue):
                sawTests = true
                try forEachNode(stream, file: file, in: "testNodes") { index in
                    pass.path = [index]
                    results += try pass.node().results
                }
            case .known(TopKey.devices.rawValue):
                devices = try stream.value()
            default:
                try stream.skip()
            }
        }
        try stream.finish()
        guard sawTests else { return nil }
        var report = TestReport(format: .xcresult, shape: "xcresulttool test-results tests")
        report.devices = try Self.devices(devices, file: file)
        pass.suites.sort { $0.node < $1.node }
        return Outline(report: report, testCount: results, kinds: pass.kinds, suiteNames: pass.suites.map(\.name))
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
        try stream.open(UInt8(ascii: "{"))
        var pass = TestPass(stream: stream, file: file, outline: outline)
        var first = true
        while let key = try stream.nextKey(first: first, among: topKeys) {
            first = false
            guard key == .known(TopKey.testNodes.rawValue) else {
                try stream.skip()
                continue
            }
            try forEachNode(stream, file: file, in: "testNodes") { index in
                try pass.node(suite: [], path: "testNodes[\(index)]", body)
            }
        }
        try stream.finish()
        guard pass.nextNode == outline.kinds.count, pass.nextSuite == outline.suiteNames.count else {
            throw ResultFile.changed(file)
        }
    }

    /// Reads the array of nodes at the position (`path` names it in errors),
    /// calling `node` at each object, its index given; anything else in the
    /// array is read and passed over. A null is an empty array.
    static func forEachNode(
        _ stream: JSONStream, file: String, in path: String, _ node: (Int) throws -> Void
    ) throws {
        guard try stream.next() == UInt8(ascii: "[") else {
            let value = try stream.value()
            if value.isNull {
                // testNodes may not be null; children may.
                if path == "testNodes" { throw JSONCursor(value: value, path: "", file: file).error("'testNodes' is missing") }
                return
            }
            throw JSONCursor(value: value, path: path, file: file).error("expected an array, found \(value.typeName)")
        }
        try stream.open(UInt8(ascii: "["))
        var index = 0
        while try stream.nextElement(first: index == 0) {
            if try stream.next() == UInt8(ascii: "{") {
                try node(index)
            } else {
                try stream.skip()
            }
            index += 1
        }
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

/// The first pass over the nodes.
private struct OutlinePass {
    let stream: JSONStream
    let file: String
    var kinds: [XCResultTests.Kind] = []
    /// Suites by the index of their node, in the order they end.
    var suites: [(node: Int, name: String)] = []
    /// Where the node being read is: its index in testNodes, then in each children.
    var path: [Int] = []

    init(stream: JSONStream, file: String) {
        self.stream = stream
        self.file = file
    }

    func pathText(_ key: String) -> String {
        XCResultTests.pathText(path, key)
    }

    /// Reads the node at the position: its type, and how many results it gives.
    mutating func node() throws -> (type: String, results: Int) {
        let slot = kinds.count
        kinds.append(.other)
        try stream.open(UInt8(ascii: "{"))
        var keys = KeysSeen(stream, known: XCResultTests.nodeKeys)
        var type = ""
        var name = ""
        var results = 0
        // The results its devices give (each one per repetition), and its repetitions.
        var deviceResults = 0
        var devices = 0
        var repetitions = 0
        while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.nodeKeys) {
            try keys.add(key)
            switch key {
            case .known(XCResultTests.NodeKey.children.rawValue):
                try XCResultTests.forEachNode(stream, file: file, in: pathText("children")) { index in
                    path.append(index)
                    defer { path.removeLast() }
                    let child = try node()
                    results += child.results
                    if child.type == "Device" {
                        devices += 1
                        deviceResults += child.results
                    }
                    if child.type == "Repetition" { repetitions += 1 }
                }
            case .known(XCResultTests.NodeKey.nodeType.rawValue), .known(XCResultTests.NodeKey.name.rawValue):
                let isType = key == .known(XCResultTests.NodeKey.nodeType.rawValue)
                switch try stream.value() {
                case .null: continue
                case .string(let text): if isType { type = text } else { name = text }
                case let value:
                    throw JSONCursor(value: value, path: pathText(isType ? "nodeType" : "name"), file: file)
                        .error("expected a string, found \(value.typeName)")
                }
            default:
                try stream.skip()
            }
        }
        switch type {
        case "Test Case":
            // Its children are read with it in the second pass: they are not noted.
            kinds.removeSubrange((slot + 1)...)
            while let last = suites.last, last.node > slot { suites.removeLast() }
            kinds[slot] = .testCase
            // One result per device, each one per repetition (XCResultReader.results).
            return (type, devices > 0 ? deviceResults : max(1, repetitions))
        case "Device":
            return (type, max(1, repetitions))
        case "Test Suite":
            kinds[slot] = .suite
            suites.append((slot, name))
        default:
            break
        }
        return (type, results)
    }
}

/// The second pass over the nodes.
private struct TestPass {
    let stream: JSONStream
    let file: String
    let outline: XCResultTests.Outline
    var nextNode = 0
    var nextSuite = 0

    init(stream: JSONStream, file: String, outline: XCResultTests.Outline) {
        self.stream = stream
        self.file = file
        self.outline = outline
    }

    mutating func node(suite: [String], path: String, _ body: (TestReport.TestCase) throws -> Void) throws {
        guard nextNode < outline.kinds.count else { throw ResultFile.changed(file) }
        let kind = outline.kinds[nextNode]
        nextNode += 1
        if kind == .testCase {
            if let test = try stream.plainObject({ PlainNode.read($0) { $0.testCase(suite: suite.last) } }) {
                try body(test)
                return
            }
            let cursor = JSONCursor(value: try stream.value(), path: path, file: file)
            for test in try XCResultReader.testCases(cursor, suite: suite, devices: outline.report.devices) {
                try body(test)
            }
            return
        }
        var inner = suite
        if kind == .suite {
            guard nextSuite < outline.suiteNames.count else { throw ResultFile.changed(file) }
            inner.append(outline.suiteNames[nextSuite])
            nextSuite += 1
        }
        try stream.open(UInt8(ascii: "{"))
        var first = true
        while let key = try stream.nextKey(first: first, among: XCResultTests.nodeKeys) {
            first = false
            guard key == .known(XCResultTests.NodeKey.children.rawValue) else {
                try stream.skip()
                continue
            }
            try XCResultTests.forEachNode(stream, file: file, in: path + ".children") { index in
                try node(suite: inner, path: "\(path).children[\(index)]", body)
            }
        }
    }
}
