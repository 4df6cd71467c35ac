import FoundationEssentials

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
        try stream.open(UInt8(ascii: "{"))
        var keys = KeysSeen(stream, known: XCResultTests.topKeys)
        var pass = Pass(stream: stream, devices: devices, maxHeld: maxHeld, emit: emit)
        var sawTests = false
        while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.topKeys) {
            try keys.add(key)
            switch key {
            case .known(TopKey.testNodes.rawValue):
                sawTests = true
                try XCResultTests.forEachNode(stream, file: file, in: "testNodes") { index in
                    pass.path = [index]
                    _ = try pass.node()
                }
            case .known(TopKey.devices.rawValue) where sawTests:
                throw NeedsTwoPasses(reason: "\"devices\" comes after \"testNodes\"")
            default:
                try stream.skip()
            }
        }
        try stream.finish()
        guard sawTests else { throw ResultFile.changed(file) }
    }

    /// The reading of the nodes.
    private struct Pass {
        let stream: JSONStream
        let devices: [TestReport.Device]
        let maxHeld: Int
        let emit: (TestReport.TestCase) throws -> Void
        /// Where the node being read is: its index in testNodes, then in each children.
        var path: [Int] = []

        init(stream: JSONStream, devices: [TestReport.Device], maxHeld: Int, emit: @escaping (TestReport.TestCase) throws -> Void) {
            self.stream = stream
            self.devices = devices
            self.maxHeld = maxHeld
            self.emit = emit
        }

        private func pathText(_ key: String? = nil) -> String {
            XCResultTests.pathText(path, key)
        }

        /// Reads the node at the position. A test case's results are handed
        /// on, and nil returned, as for a node with one under it; any other
        /// node is returned, for the node around it to hold.
        mutating func node() throws -> Node? {
            // A node with no object, array or escape in it (most test cases,
            // failure messages, repetitions) is read from its bytes; one that
            // the plain reading does not take is read key by key.
            if let leaf = try stream.plainObject({ PlainNode.read($0) { $0.node() } }) {
                guard leaf.type == "Test Case" else { return leaf }
                try emitResults(of: leaf)
                return nil
            }
            let (node, holdsTests) = try general()
            guard node.type == "Test Case" else { return holdsTests ? nil : node }
            guard !holdsTests else {
                throw NeedsTwoPasses(reason: "a test case inside a test case at \(pathText())")
            }
            try emitResults(of: node)
            return nil
        }

        /// A node read key by key, its children one by one; whether it has a test case under it.
        private mutating func general() throws -> (Node, Bool) {
            try stream.open(UInt8(ascii: "{"))
            var keys = KeysSeen(stream, known: XCResultTests.nodeKeys)
            var node = Node()
            var holdsTests = false
            var inSeconds: Double?
            var duration: Double?
            while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.nodeKeys) {
                try keys.add(key)
                guard case .known(let index) = key, let known = Key(rawValue: index) else {
                    try stream.skip()
                    continue
                }
                switch known {
                case .children: holdsTests = try children(&node.children)
                case .nodeType: node.type = try text(known)
                case .name: node.name = try text(known)
                case .nodeIdentifier: node.identifier = try text(known)
                case .result: node.result = try text(known)
                case .durationInSeconds: inSeconds = try number(known, text: false)
                case .duration: duration = try number(known, text: true)
                case .tags: node.tags = try tags()
                case .nodeIdentifierURL, .details: try stream.skip()
                }
            }
            node.seconds = inSeconds ?? duration
            return (node, holdsTests)
        }

        /// A string or null, as a node's type, name, identifier and result are.
        private func text(_ key: Key) throws -> String? {
            switch try stream.value() {
            case .null: return nil
            case .string(let text): return text
            default: throw NeedsTwoPasses(reason: "\(pathText("\(key)")) is not a string")
            }
        }

        /// A number of seconds, or null; `text` takes "0,5s" as well.
        private func number(_ key: Key, text: Bool) throws -> Double? {
            switch try stream.value() {
            case .null: return nil
            case .integer(let number): return Double(number)
            case .number(let number): return number
            case .string(let string) where text:
                if let seconds = Duration.seconds(string) { return seconds }
            default: break
            }
            throw NeedsTwoPasses(reason: "\(pathText("\(key)")) is not a duration")
        }

        private func tags() throws -> [String] {
            switch try stream.value() {
            case .null: return []
            case .array(let items):
                return try items.map {
                    guard case .string(let tag) = $0 else {
                        throw NeedsTwoPasses(reason: "\(pathText("tags")) holds a value that is not a string")
                    }
                    return tag
                }
            default: throw NeedsTwoPasses(reason: "\(pathText("tags")) is not an array")
            }
        }

        /// A node's children: each held until one turns out to be a test case
        /// or to have one under it, and none after that; whether one did.
        private mutating func children(_ held: inout [Node]) throws -> Bool {
            guard try stream.next() == UInt8(ascii: "[") else {
                if case .null = try stream.value() { return false }
                throw NeedsTwoPasses(reason: "\(pathText("children")) is not an array")
            }
            try stream.open(UInt8(ascii: "["))
            var holdsTests = false
            var heldFrom: Int?
            var index = 0
            while try stream.nextElement(first: index == 0) {
                defer { index += 1 }
                let start = stream.offset
                guard try stream.next() == UInt8(ascii: "{") else {
                    throw NeedsTwoPasses(reason: "\(pathText("children"))[\(index)] is not a node")
                }
                path.append(index)
                let child = try node()
                path.removeLast()
                guard let child else {
                    holdsTests = true
                    held = []
                    continue
                }
                guard !holdsTests else { continue }
                let from = heldFrom ?? start
                heldFrom = from
                held.append(child)
                if stream.offset - from > maxHeld {
                    throw NeedsTwoPasses(reason: "more than \(maxHeld) bytes of nodes at \(pathText()) hold no test case")
                }
            }
            return holdsTests
        }

        /// Hands on the results of a test case, as `XCResultReader.testCases` makes them.
        private func emitResults(of node: Node) throws {
            // Named after its suite, whose name comes after it.
            guard let identifier = node.identifier else {
                throw NeedsTwoPasses(reason: "the test case at \(pathText()) has no nodeIdentifier")
            }
            guard node.result != nil else {
                throw NeedsTwoPasses(reason: "the test case at \(pathText()) has no result")
            }
            var base = TestReport.TestCase(identifier: identifier, name: node.name ?? "", outcome: .pass, duration: node.seconds)
            base.tags = node.tags
            let tests = try XCResultReader.results(of: node, base: base, devices: devices) { what in
                NeedsTwoPasses(reason: "\(what) at \(pathText()) has no result")
            }
            for test in tests { try emit(test) }
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
