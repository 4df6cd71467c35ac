/// A node of `xcresulttool get test-results tests` with no object, array or
/// escape in it (almost every test case: one that passed, with no children
/// or tags), read straight from its bytes, without a `JSONValue` on the way:
/// where each of its values lies. Anything it does not expect, right or
/// wrong, gives nil, and the node is then read the general way, which reads
/// the same or says what is wrong with it.
struct PlainNode {
    /// A value of the node: where its bytes lie, and what it is.
    private enum Value {
        case string(Range<Int>)
        case number(Range<Int>)
        case null
        case other
    }

    private let bytes: UnsafeRawBufferPointer
    /// How many bytes the object takes, '{' to '}'.
    let length: Int
    /// By `NodeKey`, held inline: most nodes are read this way. A key past
    /// its end (one added to `NodeKey` without it) sends every node to the
    /// general reading; a test keeps the two in step.
    private var values: Values
    private typealias Values = InlineArray<10, Value?>
    static let capacity = Values.count
    private typealias Key = XCResultTests.NodeKey

    /// Reads the object at the start of `bytes` ('{' to '}', strings without
    /// escapes, as `JSONStream.plainObject` gives them), which may go on past
    /// it; nil when they end before it does. Valid only as long as they are,
    /// so only `read` makes one, and lends it to its closure alone.
    private init?(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        var values = Values(repeating: nil)
        var otherKeys: [Range<Int>] = []
        var index = 1
        func space() { index = JSONBytes.firstNonSpace(in: bytes, from: index) }
        func at(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
        /// The plain string at the index (its quote), or nil; the index past it.
        func string() -> Range<Int>? {
            guard at(UInt8(ascii: "\"")) else { return nil }
            let end = JSONBytes.stringStop(in: bytes, from: index + 1)
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            defer { index = end + 1 }
            return index + 1..<end
        }
        func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count, JSONReader.mismatch(of: word, in: bytes, at: index) == nil else { return false }
            index += count
            return true
        }
        func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .other : nil
            case UInt8(ascii: "f"): return literal("false") ? .other : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Without an exponent and short, a number cannot be out of range.
                guard let number = try? JSONReader.scanNumber(bytes, from: index), !number.hasExponent,
                    number.end - index <= 300
                else { return nil }
                defer { index = number.end }
                return .number(index..<number.end)
            default: return nil
            }
        }

        space()
        if at(UInt8(ascii: "}")) { return nil }
        while true {
            space()
            guard let key = string() else { return nil }
            space()
            guard at(UInt8(ascii: ":")) else { return nil }
            index += 1
            space()
            guard let found = value() else { return nil }
            // A key twice is for the general reading to refuse.
            if let known = XCResultTests.nodeKeys.index(of: UnsafeRawBufferPointer(rebasing: bytes[key])) {
                guard known < values.count, values[known] == nil else { return nil }
                values[known] = found
            } else {
                guard !otherKeys.contains(where: { bytes[$0].elementsEqual(bytes[key]) }) else { return nil }
                otherKeys.append(key)
            }
            space()
            if at(UInt8(ascii: ",")) {
                index += 1
                continue
            }
            guard at(UInt8(ascii: "}")) else { return nil }
            break
        }
        self.values = values
        length = index + 1
    }

    /// What `make` makes of the plain object at the start of `bytes`, and its
    /// length: what `JSONStream.plainObject` takes. The node is `make`'s only
    /// while it runs (it views `bytes`, which are lent for the call).
    static func read<T>(_ bytes: UnsafeRawBufferPointer, _ make: (PlainNode) -> T?) -> (value: T, length: Int)? {
        guard let node = PlainNode(bytes), let value = make(node) else { return nil }
        return (value, node.length)
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The string under `key`, or .some(nil) when it is missing or null; nil
    /// when it is anything else, which the general reading refuses.
    private func optionalString(_ key: Key) -> String?? {
        switch values[key.rawValue] {
        case nil, .null?: return .some(nil)
        case .string(let range)?: return .some(text(range))
        default: return nil
        }
    }

    /// Whether the value under `key` is missing or null.
    private func isAbsent(_ key: Key) -> Bool {
        switch values[key.rawValue] {
        case nil, .null?: return true
        default: return false
        }
    }

    /// What the one pass keeps of this node; nil where a value is not one it
    /// reads from bytes, for the general reading to read or refuse.
    func node() -> XCResultOnePass.Node? {
        guard let type = optionalString(.nodeType), let name = optionalString(.name),
            let identifier = optionalString(.nodeIdentifier), let result = optionalString(.result),
            isAbsent(.children), isAbsent(.tags), let seconds = seconds()
        else { return nil }
        return XCResultOnePass.Node(type: type, name: name, identifier: identifier, result: result, seconds: seconds)
    }

    /// The node's duration as `XCResultReader` reads it: "durationInSeconds"
    /// where it is there, else "duration"; .some(nil) when neither is, nil
    /// when it is not a duration.
    private func seconds() -> Double?? {
        func number(_ range: Range<Int>) -> Double? {
            bytes.withMemoryRebound(to: UInt8.self) { Duration.plainDecimal($0, range.lowerBound, range.upperBound) }
        }
        switch (values[Key.durationInSeconds.rawValue], values[Key.duration.rawValue]) {
        case (.number(let range)?, _):
            return number(range).map { $0 }
        case (nil, nil), (nil, .null?), (.null?, nil), (.null?, .null?):
            return .some(nil)
        case (nil, .string(let range)?), (.null?, .string(let range)?):
            return Duration.seconds(text(range)).map { $0 }
        case (nil, .number(let range)?), (.null?, .number(let range)?):
            return number(range).map { $0 }
        default:
            return nil
        }
    }

    /// What `XCResultReader.testCases` makes of this node as a test case in
    /// the suite named; nil where it would read it otherwise or refuse it.
    func testCase(suite: String?) -> TestReport.TestCase? {
        // Children or tags that are there at all are for the general reading.
        guard isAbsent(.children), isAbsent(.tags), case .string(let result)? = values[Key.result.rawValue],
            let name = optionalString(.name), let identifier = optionalString(.nodeIdentifier), let duration = seconds()
        else { return nil }
        let testName = name ?? ""
        var test = TestReport.TestCase(
            identifier: identifier ?? suite.map { "\($0)/\(testName)" } ?? testName, name: testName, outcome: .pass,
            duration: duration)
        (test.outcome, test.note) = XCResultReader.outcome(text(result))
        return test
    }
}
