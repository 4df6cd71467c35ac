#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The reading seam of `xcresulttool get test-results tests`: the decoder
/// walks the document (its top-level keys, then the tree of test nodes under
/// "testNodes", each node's keys and children in the file's order) and knows
/// nothing of passes; a consumer makes of it the outline (the first pass),
/// the test cases (the second) or the one pass (`XCResultOnePass`).
///
/// A node is read as its consumer asks (`reading(nodeAt:)`): key by key, its
/// children read as nodes in turn and handed back to it; or whole, from its
/// bytes where it has no object, array or escape in it (most test cases,
/// repetitions and failure messages), else as a JSON value or key by key.
protocol XCResultConsumer {
    /// What the consumer keeps of a node while its keys are read.
    associatedtype NodeState
    /// What a node read gives the node around it.
    associatedtype Read

    /// A top-level key other than "testNodes", its value at the position,
    /// for the consumer to read or skip; `sawTests` once "testNodes" was read.
    mutating func topLevel(_ key: JSONKey, sawTests: Bool) throws

    /// How the node at `path` (its index in testNodes, then in each children) is read.
    mutating func reading(nodeAt path: [Int]) throws -> XCResultNodeReading

    /// A node read from its bytes alone (`plainThenKeys`, `plainThenValue`):
    /// what it gives and its length, or nil for the other reading.
    func plain(_ bytes: UnsafeRawBufferPointer, path: [Int]) -> (value: Read, length: Int)?

    /// A node read whole as a JSON value (`plainThenValue`).
    mutating func value(_ value: JSONValue, path: [Int]) throws -> Read

    /// A node read key by key: its start, each key but "children" (its value
    /// at the position, for the consumer to read or skip), each child read, its end.
    mutating func begin(nodeAt path: [Int]) throws -> NodeState
    mutating func key(_ key: XCResultTests.NodeKey?, of node: inout NodeState, path: [Int]) throws
    /// `start`: the child's offset in the file; `path`: the child's.
    mutating func child(_ child: Read, of node: inout NodeState, start: Int, path: [Int]) throws
    mutating func end(_ node: NodeState, path: [Int]) throws -> Read

    /// A node read directly under "testNodes".
    mutating func root(_ node: Read, path: [Int]) throws
}

/// How a consumer asks for a node to be read.
enum XCResultNodeReading {
    /// Key by key, its children read as nodes.
    case keys
    /// From its bytes where it can be, else key by key.
    case plainThenKeys
    /// From its bytes where it can be, else as a JSON value.
    case plainThenValue
}

/// Walks an xcresulttool tests document for a consumer.
struct XCResultDecoder<Consumer: XCResultConsumer> {
    let stream: JSONStream
    let file: String
    var consumer: Consumer
    /// Where the node being read is: its index in testNodes, then in each
    /// children (a stack, so that no node's path is a new array).
    private var path: [Int] = []

    init(stream: JSONStream, file: String, consumer: Consumer) {
        self.stream = stream
        self.file = file
        self.consumer = consumer
    }

    /// Reads the document, an object, to its end: whether it had "testNodes".
    mutating func decode() throws -> Bool {
        try stream.open(UInt8(ascii: "{"))
        var keys = KeysSeen(stream, known: XCResultTests.topKeys)
        var sawTests = false
        while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.topKeys) {
            try keys.add(key)
            guard key == .known(XCResultTests.TopKey.testNodes.rawValue) else {
                try consumer.topLevel(key, sawTests: sawTests)
                continue
            }
            sawTests = true
            var root: Consumer.NodeState?
            try nodes(in: &root)
        }
        try stream.finish()
        return sawTests
    }

    /// Reads the node at the position, at `path`.
    private mutating func node() throws -> Consumer.Read {
        let reading = try consumer.reading(nodeAt: path)
        if reading != .keys {
            let path = self.path
            if let read = try stream.plainObject({ consumer.plain($0, path: path) }) { return read }
            if reading == .plainThenValue { return try self.consumer.value(try stream.value(), path: path) }
        }
        try stream.open(UInt8(ascii: "{"))
        var keys = KeysSeen(stream, known: XCResultTests.nodeKeys)
        var state = try consumer.begin(nodeAt: path)
        while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.nodeKeys) {
            try keys.add(key)
            guard case .known(let index) = key, let known = XCResultTests.NodeKey(rawValue: index) else {
                try consumer.key(nil, of: &state, path: path)
                continue
            }
            guard known == .children else {
                try consumer.key(known, of: &state, path: path)
                continue
            }
            var parent: Consumer.NodeState? = consume state
            try nodes(in: &parent)
            state = parent!
        }
        return try consumer.end(state, path: path)
    }

    /// Reads the array of nodes at the position: "testNodes" (no `parent`),
    /// or a node's children. Each object in it is a node, handed to the
    /// consumer; anything else is read and passed over; a null is an empty
    /// array. A loop, not a closure: a closure capturing the decoder would
    /// have its every access checked for exclusivity at run time.
    private mutating func nodes(in parent: inout Consumer.NodeState?) throws {
        let isRoot = parent == nil
        let path = self.path
        guard try XCResultTests.openNodes(stream, file: file, in: isRoot ? "testNodes" : XCResultTests.pathText(path, "children"))
        else { return }
        var index = 0
        while try stream.nextElement(first: index == 0) {
            defer { index += 1 }
            guard try stream.next() == UInt8(ascii: "{") else {
                try stream.skip()
                continue
            }
            let start = stream.offset
            self.path.append(index)
            defer { self.path.removeLast() }
            let read = try node()
            if parent != nil {
                try consumer.child(read, of: &parent!, start: start, path: self.path)
            } else {
                try consumer.root(read, path: self.path)
            }
        }
    }
}
