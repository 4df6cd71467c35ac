#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tests of `xcresulttool get test-results tests` read in one pass, each
/// handed on as it ends, where the file allows it; xcresulttool's own output
/// does: it sorts its keys, so "devices" comes before "testNodes", and it
/// names every test case ("nodeIdentifier").
///
/// xcresulttool writes a node's type after its children, so each node is
/// read from the bottom up. A test case ends with its type known and its
/// children (repetitions, failure messages, devices) held, and its results
/// are handed on then. A node with a test case under it is a container: the
/// children it held before that are let go, and so is every one after. So
/// only one test case's nodes are held at a time, or a container's first
/// children before its first test case.
///
/// Where the file does not allow one pass the reading stops with
/// `NeedsTwoPasses`, and the caller reads it again in two
/// (`XCResultTests.outline`, then `forEachTest`), which gives what the one
/// pass would have and is what decides: "devices" after "testNodes", a test
/// case with no "nodeIdentifier" (it is named after its suite, whose name
/// comes after it), a test case inside a test case, and more than `maxHeld`
/// bytes of nodes held before one of them turns out to be a test case.
enum XCResultOnePass {
    typealias NeedsTwoPasses = IngestSource.NeedsTwoPasses

    /// The most bytes of the file whose nodes are held, waiting to know what they are.
    static let maxHeld = 16 << 20

    private typealias Key = XCResultTests.NodeKey
    private typealias TopKey = XCResultTests.TopKey

    /// The devices of the file at `path`, as `devices(_:file:)` reads them;
    /// what is wrong with them is for the two passes to say, in their order.
    static func devices(path: String, maxBytes: Int) throws -> [TestReport.Device]? {
        do {
            return try devices(JSONStream(path: path, limit: maxBytes, hasher: nil), file: path)
        } catch let error as EvidenceError {
            throw NeedsTwoPasses(reason: "\(error)")
        }
    }

    /// What the top of the document says before its test nodes: nil when it
    /// is not an object or has no "testNodes" at all (a summary, a legacy
    /// record), which is then read another way.
    static func devices(_ stream: JSONStream, file: String) throws -> [TestReport.Device]? {
        guard try stream.next() == UInt8(ascii: "{") else { return nil }
        try stream.open(UInt8(ascii: "{"))
        var keys = KeysSeen(stream, known: XCResultTests.topKeys)
        var devices: JSONValue?
        while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.topKeys) {
            try keys.add(key)
            switch key {
            case .known(TopKey.testNodes.rawValue):
                return try XCResultTests.devices(devices, file: file)
            case .known(TopKey.devices.rawValue):
                devices = try stream.value()
            default:
                try stream.skip()
            }
        }
        return nil
    }

    /// What the one pass keeps of a node that may be under a test case: what
    /// a test case's results need of it, as `XCResultReader.testCases` reads them.
    struct Node {
        var type: String?
        var name: String?
        var identifier: String?
        var result: String?
        var seconds: Double?
        var tags: [String] = []
        var children: [Node] = []
    }

    /// Each result, in the file's order, with `devices` as `devices(_:file:)`
    /// read them. Anything in the file that is not as xcresulttool writes it,
    /// an error included, stops the pass with `NeedsTwoPasses`: the two passes
    /// then read it, or say what is wrong with it, as they always have.
    static func forEachTest(
        _ stream: JSONStream, devices: [TestReport.Device], file: String, maxHeld: Int = maxHeld,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        /// An error of `body`'s, passed on as it is.
        struct Handed: Error {
            let error: any Error
        }
        do {
            try withoutActuallyEscaping(body) { body in
                let emit: (TestReport.TestCase) throws -> Void = { test in
                    do { try body(test) } catch { throw Handed(error: error) }
                }
                try read(stream, devices: devices, file: file, maxHeld: maxHeld, emit: emit)
            }
        } catch let handed as Handed {
            throw handed.error
        } catch let error as EvidenceError {
            throw NeedsTwoPasses(reason: "\(error)")
        }
    }

    private static func read(
        _ stream: JSONStream, devices: [TestReport.Device], file: String, maxHeld: Int,
        emit: @escaping (TestReport.TestCase) throws -> Void
    ) throws {
        var decoder = XCResultDecoder(
            stream: stream, file: file, consumer: Pass(stream: stream, devices: devices, maxHeld: maxHeld, emit: emit))
        guard try decoder.decode() else { throw ResultFile.changed(file) }
    }

    /// The one pass over the nodes: each node read from its bytes where it
    /// can be, else key by key; a test case's results handed on as it ends.
    private struct Pass: XCResultConsumer {
        let stream: JSONStream
        let devices: [TestReport.Device]
        let maxHeld: Int
        let emit: (TestReport.TestCase) throws -> Void

        init(stream: JSONStream, devices: [TestReport.Device], maxHeld: Int, emit: @escaping (TestReport.TestCase) throws -> Void) {
            self.stream = stream
            self.devices = devices
            self.maxHeld = maxHeld
            self.emit = emit
        }

        /// A node being read key by key.
        struct NodeState {
            var node = Node()
            /// Whether a test case is under it: its children are then let go.
            var holdsTests = false
            /// Where its first child held starts in the file.
            var heldFrom: Int?
            var inSeconds: Double?
            var duration: Double?
        }

        func topLevel(_ key: JSONKey, sawTests: Bool) throws {
            if key == .known(TopKey.devices.rawValue), sawTests {
                throw NeedsTwoPasses(reason: "\"devices\" comes after \"testNodes\"")
            }
            try stream.skip()
        }

        // A node with no object, array or escape in it (most test cases,
        // failure messages, repetitions) is read from its bytes; one that
        // the plain reading does not take is read key by key.
        func reading(nodeAt path: [Int]) -> XCResultNodeReading { .plainThenKeys }

        func plain(_ bytes: UnsafeRawBufferPointer, path: [Int]) -> (value: Node?, length: Int)? {
            PlainNode.read(bytes) { $0.node() }.map { (.some($0.value), $0.length) }
        }

        func value(_ value: JSONValue, path: [Int]) -> Node? { nil }

        func begin(nodeAt path: [Int]) -> NodeState { NodeState() }

        func key(_ key: Key?, of state: inout NodeState, path: [Int]) throws {
            guard let key else { return try stream.skip() }
            switch key {
            case .nodeType: state.node.type = try text(key, path)
            case .name: state.node.name = try text(key, path)
            case .nodeIdentifier: state.node.identifier = try text(key, path)
            case .result: state.node.result = try text(key, path)
            case .durationInSeconds: state.inSeconds = try number(key, path, text: false)
            case .duration: state.duration = try number(key, path, text: true)
            case .tags: state.node.tags = try tags(path)
            case .children, .nodeIdentifierURL, .details: try stream.skip()
            }
        }

        /// A child is held until one turns out to be a test case or to have
        /// one under it (its results are handed on then), and none after that.
        func child(_ child: Node?, of state: inout NodeState, start: Int, path: [Int]) throws {
            guard let child, child.type != "Test Case" else {
                if let child { try emitResults(of: child, path: path) }
                state.holdsTests = true
                state.node.children = []
                return
            }
            guard !state.holdsTests else { return }
            let from = state.heldFrom ?? start
            state.heldFrom = from
            state.node.children.append(child)
            if stream.offset - from > maxHeld {
                throw NeedsTwoPasses(
                    reason: "more than \(maxHeld) bytes of nodes at \(XCResultTests.pathText(Array(path.dropLast()))) hold no test case")
            }
        }

        /// The node, for the node around it to hold: nil when it has a test
        /// case under it; a test case itself, for the node around it to hand on.
        func end(_ state: NodeState, path: [Int]) throws -> Node? {
            var node = state.node
            node.seconds = state.inSeconds ?? state.duration
            if node.type == "Test Case", state.holdsTests {
                throw NeedsTwoPasses(reason: "a test case inside a test case at \(XCResultTests.pathText(path))")
            }
            return state.holdsTests ? nil : node
        }

        func root(_ node: Node?, path: [Int]) throws {
            if let node, node.type == "Test Case" { try emitResults(of: node, path: path) }
        }

        /// A string or null, as a node's type, name, identifier and result are.
        private func text(_ key: Key, _ path: [Int]) throws -> String? {
            switch try stream.value() {
            case .null: return nil
            case .string(let text): return text
            default: throw NeedsTwoPasses(reason: "\(XCResultTests.pathText(path, "\(key)")) is not a string")
            }
        }

        /// A number of seconds, or null; `text` takes "0,5s" as well.
        private func number(_ key: Key, _ path: [Int], text: Bool) throws -> Double? {
            switch try stream.value() {
            case .null: return nil
            case .integer(let number): return Double(number)
            case .number(let number): return number
            case .string(let string) where text:
                if let seconds = Duration.seconds(string) { return seconds }
            default: break
            }
            throw NeedsTwoPasses(reason: "\(XCResultTests.pathText(path, "\(key)")) is not a duration")
        }

        private func tags(_ path: [Int]) throws -> [String] {
            switch try stream.value() {
            case .null: return []
            case .array(let items):
                return try items.map {
                    guard case .string(let tag) = $0 else {
                        throw NeedsTwoPasses(reason: "\(XCResultTests.pathText(path, "tags")) holds a value that is not a string")
                    }
                    return tag
                }
            default: throw NeedsTwoPasses(reason: "\(XCResultTests.pathText(path, "tags")) is not an array")
            }
        }

        /// Hands on the results of a test case, as `XCResultReader.testCases` makes them.
        private func emitResults(of node: Node, path: [Int]) throws {
            // Named after its suite, whose name comes after it.
            guard let identifier = node.identifier else {
                throw NeedsTwoPasses(reason: "the test case at \(XCResultTests.pathText(path)) has no nodeIdentifier")
            }
            guard node.result != nil else {
                throw NeedsTwoPasses(reason: "the test case at \(XCResultTests.pathText(path)) has no result")
            }
            var base = TestReport.TestCase(identifier: identifier, name: node.name ?? "", outcome: .pass, duration: node.seconds)
            base.tags = node.tags
            try XCResultReader.forEachResult(
                of: node, base: base, devices: devices,
                missing: { what in NeedsTwoPasses(reason: "\(what) at \(XCResultTests.pathText(path)) has no result") }, emit)
        }
    }
}

extension XCResultOnePass.Node: XCResultNode {
    func nodeType() -> String? { type }
    func nodeName() -> String? { name }
    func nodeResult() -> String? { result }
    func nodeSeconds() -> Double? { seconds }
    func nodeChildren() -> [Self] { children }
}
