#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// A strict JSON parser for untrusted files: RFC 8259 syntax only, valid UTF-8
/// only, a bounded nesting depth (so no input can exhaust the stack), and
/// errors that give the byte offset. Objects keep their keys in order.
public struct JSONReader {
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        public var offset: Int
    }

    public static let defaultMaxDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private let maxDepth: Int

    private init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one JSON text; anything but white space after it is an error.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        var reader = JSONReader(bytes, maxDepth: maxDepth)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else {
            throw reader.failure("unexpected text after the JSON value")
        }
        return value
    }

    /// Parses the JSON value at the start of `bytes`, and says how many bytes it took.
    static func parsePrefix(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws -> (value: JSONValue, length: Int) {
        var reader = JSONReader(bytes, maxDepth: maxDepth)
        let value = try reader.value(depth: 0)
        return (value, reader.index)
    }

    public static func parse(_ data: Data, maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        try data.withUnsafeBytes { try parse($0, maxDepth: maxDepth) }
    }

    private func failure(_ message: String) -> Failure {
        Failure(message: message, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        index = JSONBytes.firstNonSpace(in: bytes, from: index)
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            throw failure(byte == 0 ? "a NUL byte" : "unexpected character '\(Self.show(byte))'")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of input") }
        if let offset = Self.mismatch(of: word, in: bytes, at: index) {
            throw failure("unexpected character '\(Self.show(bytes[index + offset]))'")
        }
        index += count
    }

    /// Where the bytes from `start` stop spelling `word` (an offset into it),
    /// nil when they spell it whole; `word.utf8CodeUnitCount` bytes must follow.
    static func mismatch(of word: StaticString, in bytes: UnsafeRawBufferPointer, at start: Int) -> Int? {
        (0..<word.utf8CodeUnitCount).first { bytes[start + $0] != word.utf8Start[$0] }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        guard depth <= maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
        index += 1
        var fields: [(String, JSONValue)] = []
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            index += 1
            skipSpace()
            if fields.contains(where: { $0.0 == key }) {
                throw failure("the key \"\(key)\" appears twice")
            }
            fields.append((key, try value(depth: depth)))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(fields)
            default: throw failure(current == nil ? "unexpected end of input" : "expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        guard depth <= maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw failure(current == nil ? "unexpected end of input" : "expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        let scanned = try Self.scanNumber(bytes, from: start)
        index = scanned.end
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if scanned.isInteger, let integer = Int64(text) {
            return .integer(integer)
        }
        guard let double = Double(text), double.isFinite else {
            // Said at the number's end: a reader of pieces then knows the number may go on in the next one.
            throw failure("the number \(text) is out of range")
        }
        return .number(double)
    }

    /// The number at `start` by JSON's grammar: where it ends, and whether it
    /// is written as an integer (no fraction, no exponent) or has an
    /// exponent. A malformed one fails at the byte that breaks it. Its value
    /// is not read: `JSONStream` passes over numbers with this alone.
    static func scanNumber(_ bytes: UnsafeRawBufferPointer, from start: Int) throws
        -> (end: Int, isInteger: Bool, hasExponent: Bool)
    {
        var index = start
        func digit() -> Bool { index < bytes.count && isDigit(bytes[index]) }
        func malformed() -> Failure { Failure(message: "a malformed number", offset: index) }
        var isInteger = true
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit() else { throw malformed() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while digit() { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digit() else { throw malformed() }
            while digit() { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digit() else { throw malformed() }
            while digit() { index += 1 }
        }
        return (index, isInteger, hasExponent)
    }

    private mutating func string() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        index = JSONBytes.stringStop(in: bytes, from: index)
        if current == UInt8(ascii: "\"") {
            let text = try Self.decode(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), offset: start)
            index += 1
            return text
        }
        var buffer = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw failure("an unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try buffer.withUnsafeBytes { try Self.decode($0, offset: start) }
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { throw failure("an unterminated string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                        else { throw failure("an unpaired surrogate in a \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("an unpaired surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw failure("an unpaired surrogate in a \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw failure("an invalid escape '\\\(Self.show(escape))'")
                }
            default:
                guard byte >= 0x20 else {
                    throw failure(byte == 0 ? "a NUL byte in a string" : "a control character in a string")
                }
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("an unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("an invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Decodes UTF-8, refusing invalid sequences instead of repairing them.
    private static func decode(_ raw: UnsafeRawBufferPointer, offset: Int) throws -> String {
        guard let text = String(validatingUTF8Bytes: raw) else {
            throw Failure(message: "invalid UTF-8 in a string", offset: offset)
        }
        return text
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16, uppercase: true).zeroPadded(to: 2)
    }
}

extension JSONValue {
    /// The value of a key of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// What kind of JSON value this is, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number, .integer: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
