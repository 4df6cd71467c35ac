import Foundation

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
    /// Why a file must be read in two passes.
    struct NeedsTwoPasses: Error, Equatable {
        let reason: String
    }

    /// The most bytes of the file whose nodes are held, waiting to know what they are.
    static let maxHeld = 16 << 20

    private typealias Key = XCResultTests.NodeKey
    private typealias TopKey = XCResultTests.TopKey

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
                return try report(devices, file: file)
            case .known(TopKey.devices.rawValue):
                devices = try stream.value()
            default:
                try stream.skip()
            }
        }
        return nil
    }

    /// The devices as the two passes read them: one unnamed device where the file names none.
    private static func report(_ devices: JSONValue?, file: String) throws -> [TestReport.Device] {
        var report: [TestReport.Device] = []
        if let devices, !devices.isNull {
            report = try JSONCursor(value: devices, path: "devices", file: file).array().map(XCResultReader.device)
        }
        return report.isEmpty ? [TestReport.Device()] : report
    }

    /// Each result, in the file's order, with `devices` as `devices(_:file:)` read them.
    static func forEachTest(
        _ stream: JSONStream, devices: [TestReport.Device], file: String, maxHeld: Int = maxHeld,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws {
        try withoutActuallyEscaping(body) { body in
            try stream.open(UInt8(ascii: "{"))
            var keys = KeysSeen(stream, known: XCResultTests.topKeys)
            var pass = Pass(stream: stream, file: file, devices: devices, maxHeld: maxHeld, emit: body)
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
    }

    /// The reading of the nodes.
    private struct Pass {
        let stream: JSONStream
        let file: String
        let devices: [TestReport.Device]
        let maxHeld: Int
        let emit: (TestReport.TestCase) throws -> Void
        /// Where the node being read is: its index in testNodes, then in each children.
        var path: [Int] = []

        private func pathText(_ key: String? = nil) -> String {
            var text = "testNodes"
            for (depth, index) in path.enumerated() { text += depth == 0 ? "[\(index)]" : ".children[\(index)]" }
            return key.map { text + "." + $0 } ?? text
        }

        /// What a node read whole turned out to be.
        private enum Leaf {
            case test(TestReport.TestCase)
            case other(JSONValue)
        }

        /// Reads the node at the position. A test case's results are handed
        /// on, and nil returned, as for a node with one under it; any other
        /// node is returned whole, for the node around it to hold.
        mutating func node() throws -> JSONValue? {
            let depth = JSONStream.maxDepth - stream.depth
            let plain = try stream.plainObject { bytes -> Leaf? in
                // Anything the general reading would refuse or read otherwise is left to it.
                guard let node = PlainNode(bytes), let type = node.type, node.hasTextName else { return nil }
                guard type == "Test Case" else {
                    // A leaf such as a failure message: short, and held whole.
                    return (try? JSONReader.parsePrefix(bytes, maxDepth: depth)).map { Leaf.other($0.value) }
                }
                guard node.hasIdentifier else { return nil }
                return node.testCase(suite: nil).map(Leaf.test)
            }
            switch plain {
            case .test(let test)?:
                try emit(test)
                return nil
            case .other(let value)?:
                return value
            case nil:
                return try general()
            }
        }

        /// A node read key by key: its children one by one, every other value whole.
        private mutating func general() throws -> JSONValue? {
            try stream.open(UInt8(ascii: "{"))
            var keys = KeysSeen(stream, known: XCResultTests.nodeKeys)
            var fields: [(String, JSONValue)] = []
            var children: Int?
            var childrenIsArray = false
            var held: [JSONValue] = []
            var holdsTests = false
            var type: String?
            var named = false
            while let key = try stream.nextKey(first: keys.isEmpty, among: XCResultTests.nodeKeys) {
                try keys.add(key)
                let name: String
                switch key {
                case .known(let index): name = XCResultTests.nodeKeys.names[index]
                case .other(let text): name = text
                }
                if key == .known(Key.children.rawValue) {
                    children = fields.count
                    childrenIsArray = try self.children(&held, holdsTests: &holdsTests)
                    fields.append((name, .null))
                    continue
                }
                let value = try stream.value()
                switch key {
                case .known(Key.nodeType.rawValue), .known(Key.name.rawValue):
                    switch value {
                    case .null: break
                    case .string(let text): if key == .known(Key.nodeType.rawValue) { type = text }
                    default: throw JSONCursor(value: value, path: pathText(name), file: file).error("expected a string, found \(value.typeName)")
                    }
                case .known(Key.nodeIdentifier.rawValue):
                    named = !value.isNull
                default:
                    break
                }
                fields.append((name, value))
            }
            if let children, childrenIsArray, !holdsTests { fields[children].1 = .array(held) }
            guard type == "Test Case" else { return holdsTests ? nil : .object(fields) }
            guard !holdsTests else { throw NeedsTwoPasses(reason: "a test case inside a test case at \(pathText())") }
            guard named else { throw NeedsTwoPasses(reason: "the test case at \(pathText()) has no nodeIdentifier") }
            let cursor = JSONCursor(value: .object(fields), path: pathText(), file: file)
            for test in try XCResultReader.testCases(cursor, suite: [], devices: devices) { try emit(test) }
            return nil
        }

        /// A node's children: each held until one turns out to be a test case
        /// or to have one under it, and none after that. False when they are null.
        private mutating func children(_ held: inout [JSONValue], holdsTests: inout Bool) throws -> Bool {
            guard try stream.next() == UInt8(ascii: "[") else {
                let value = try stream.value()
                if value.isNull { return false }
                throw JSONCursor(value: value, path: pathText("children"), file: file).error("expected an array, found \(value.typeName)")
            }
            try stream.open(UInt8(ascii: "["))
            var heldFrom: Int?
            var index = 0
            while try stream.nextElement(first: index == 0) {
                defer { index += 1 }
                let start = stream.offset
                let child: JSONValue?
                if try stream.next() == UInt8(ascii: "{") {
                    path.append(index)
                    defer { path.removeLast() }
                    child = try node()
                    if child == nil {
                        holdsTests = true
                        held = []
                    }
                } else {
                    child = try stream.value()
                }
                guard let child, !holdsTests else { continue }
                let from = heldFrom ?? start
                heldFrom = from
                held.append(child)
                if stream.offset - from > maxHeld {
                    throw NeedsTwoPasses(reason: "more than \(maxHeld) bytes of nodes at \(pathText()) hold no test case")
                }
            }
            return true
        }
    }
}
