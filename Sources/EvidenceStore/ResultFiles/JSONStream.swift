#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads one JSON document a chunk at a time: its structure (objects, keys,
/// arrays) token by token, and any value whole when asked (`JSONReader`
/// parses it: one grammar for both). Only what is being read is held, so a
/// document of any size is read in bounded memory; errors give the line.
final class JSONStream {
    private let path: String
    private let chunks: TextChunks
    // Every token read touches these two: unchecked for exclusivity, which
    // took 3% of an xcresult ingest's time in run-time checks (profiled on
    // the fixtures' shape). Their accesses begin and end within one method
    // of this final class, and the debug build, which still checks them,
    // runs the whole suite.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var position = 0
    private var exhausted = false
    static let maxDepth = 64
    private(set) var depth = 0

    init(_ chunks: TextChunks, path: String) {
        self.chunks = chunks
        self.path = path
    }

    // MARK: - Bytes

    /// Makes at least `count` bytes past the position available, unless the input ends first.
    private func fill(_ count: Int) throws -> Bool {
        while buffer.count - position < count {
            guard !exhausted, let chunk = try chunks.next() else {
                exhausted = true
                return buffer.count - position >= count
            }
            // What was read is dropped before the buffer grows.
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            buffer.append(contentsOf: chunk.bindMemory(to: UInt8.self))
        }
        return true
    }

    @inline(__always)
    private func peek() throws -> UInt8? {
        if position < buffer.count { return buffer[position] }
        return try fill(1) ? buffer[position] : nil
    }

    private func skipSpace() throws {
        repeat {
            position = buffer.withUnsafeBytes { JSONBytes.firstNonSpace(in: $0, from: position) }
            if position < buffer.count { return }
        } while try fill(1)
    }

    /// An error at the position, or at `offset` bytes into the buffer.
    func failure(_ message: String, at offset: Int? = nil) -> EvidenceError {
        let end = min(offset ?? position, buffer.count)
        // The buffer ends where the text check's count of lines has got to:
        // the lines after the place are counted back from there.
        let line = chunks.text.line - buffer.withUnsafeBytes { Newlines.count(in: UnsafeRawBufferPointer(rebasing: $0[end...])) }
        return EvidenceError.badFile(path: path, location: String(line), reason: "not valid JSON: \(message)")
    }

    // MARK: - Structure

    /// What comes next: '{', '[', or the first byte of a scalar; nil at the end.
    func next() throws -> UInt8? {
        try skipSpace()
        return try peek()
    }

    /// Reads '{' or '['.
    func open(_ bracket: UInt8) throws {
        try skipSpace()
        guard try peek() == bracket else { throw failure("expected '\(Character(UnicodeScalar(bracket)))'") }
        position += 1
        depth += 1
        if depth > Self.maxDepth { throw failure("nested deeper than \(Self.maxDepth) levels") }
    }

    /// Within an object: the next key (the ':' read), or nil at its '}'. A
    /// key among `known` is matched on its bytes and never made a String.
    func nextKey(first: Bool, among known: JSONKeys) throws -> JSONKey? {
        try skipSpace()
        guard let byte = try peek() else { throw failure("unexpected end of input") }
        if byte == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return nil
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
            position += 1
            try skipSpace()
        }
        guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
        let key: JSONKey
        if let end = try plainStringEnd() {
            key = buffer.withUnsafeBytes { bytes in
                let text = UnsafeRawBufferPointer(rebasing: bytes[position + 1..<end - 1])
                return known.index(of: text).map(JSONKey.known) ?? .other(String(decoding: text, as: UTF8.self))
            }
            position = end
        } else {
            // Escaped: decoded first, so that "n\u0061me" is "name".
            let text = try string()
            key = Array(text.utf8).withUnsafeBytes { known.index(of: $0) }.map(JSONKey.known) ?? .other(text)
        }
        try skipSpace()
        guard try peek() == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
        position += 1
        return key
    }

    /// Within an array: true before its next element, false at its ']'.
    func nextElement(first: Bool) throws -> Bool {
        try skipSpace()
        guard let byte = try peek() else { throw failure("unexpected end of input") }
        if byte == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or ']'") }
            position += 1
        }
        return true
    }

    /// The next value when it is a string, null or a number: a string as it
    /// is, a number as its text (so that a caller may read it its own way);
    /// nil for anything else, which `value()` then reads. Most of a
    /// document's values are read so, without a `JSONValue` made for them.
    func scalar() throws -> (text: String?, isString: Bool)? {
        try skipSpace()
        switch try peek() ?? 0 {
        case UInt8(ascii: "\""):
            return (try string(), true)
        case UInt8(ascii: "n"):
            guard case .null = try value() else { return nil }
            return (nil, false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // A number whose end is in the buffer, by JSON's grammar, without an exponent.
            let start = position
            guard let number = try? buffer.withUnsafeBytes({ try JSONReader.scanNumber($0, from: start) }),
                !number.hasExponent, number.end < buffer.count, number.end - start <= 300
            else { return nil }
            position = number.end
            return (String(decoding: buffer[start..<number.end], as: UTF8.self), false)
        default:
            return nil
        }
    }

    /// The next value, read whole.
    func value() throws -> JSONValue {
        try skipSpace()
        if try peek() == UInt8(ascii: "\"") { return .string(try string()) }
        return try parsed(maxDepth: Self.maxDepth - depth)
    }

    /// The next value, checked and passed over.
    func skip() throws {
        try skipSpace()
        if try peek() == UInt8(ascii: "\""), let end = try plainStringEnd() {
            position = end
            return
        }
        _ = try value()
    }

    /// After the whole document: nothing but white space.
    func finish() throws {
        try skipSpace()
        if try peek() != nil { throw failure("unexpected text after the JSON value") }
    }

    // MARK: - Scanning

    /// The value at the position, parsed by `JSONReader` from the buffer. A
    /// value the buffer ends in the middle of fails at the buffer's end: the
    /// buffer then takes in as much again and the value is parsed again, so
    /// that a long value is parsed a few times, not once a chunk.
    private func parsed(maxDepth: Int) throws -> JSONValue {
        while true {
            let start = position
            do {
                let (value, length) = try buffer.withUnsafeBytes {
                    try JSONReader.parsePrefix(UnsafeRawBufferPointer(rebasing: $0[start...]), maxDepth: maxDepth)
                }
                // A number or a literal may go on in the next chunk.
                if start + length == buffer.count, try readMore(after: start) { continue }
                position = start + length
                return value
            } catch let failure as JSONReader.Failure {
                // Cut short by the buffer's end: a literal, an escape or a character may go on.
                if buffer.count - (start + failure.offset) <= 16, try readMore(after: start) { continue }
                let message = failure.message.hasPrefix("nested deeper than") ? "nested deeper than \(Self.maxDepth) levels" : failure.message
                throw self.failure(message, at: start + failure.offset)
            }
        }
    }

    /// Reads on, to twice as many bytes past `start` (the position) as now;
    /// false when the input had nothing more.
    private func readMore(after start: Int) throws -> Bool {
        let had = buffer.count - start
        _ = try fill(2 * had + 1)
        return buffer.count - position > had
    }

    /// The string at the position (its opening quote), decoded.
    private func string() throws -> String {
        if let end = try plainStringEnd() {
            // Valid UTF-8 already (every chunk is checked as it is read), no escapes.
            let text = buffer.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[position + 1..<end - 1]), as: UTF8.self)
            }
            position = end
            return text
        }
        guard case .string(let text) = try parsed(maxDepth: 1) else { throw failure("expected a string") }
        return text
    }

    /// Where the string at the position ends (past its closing quote), when it
    /// has no escape and no control character; nil otherwise, for
    /// `JSONReader` to read it or say what is wrong.
    private func plainStringEnd() throws -> Int? {
        var offset = 1
        while true {
            let scanned = buffer.withUnsafeBytes { JSONBytes.stringStop(in: $0, from: position + offset) }
            if scanned < buffer.count { return buffer[scanned] == UInt8(ascii: "\"") ? scanned + 1 : nil }
            offset = scanned - position
            guard try fill(offset + 1) else { return nil }
        }
    }
}

/// A key of an object as `JSONStream.nextKey(first:among:)` reads it.
enum JSONKey: Equatable {
    /// The index of a known key.
    case known(Int)
    case other(String)
}

/// The keys a reader looks for, a handful, each found by its length and its
/// first and last eight bytes (all of a key of up to 16 bytes) before the
/// rest of a longer one is compared.
struct JSONKeys {
    let names: [String]
    private let keys: [(length: Int, head: UInt64, tail: UInt64, bytes: [UInt8])]

    init(_ names: [String]) {
        self.names = names
        keys = names.map { name in
            let bytes = Array(name.utf8)
            return bytes.withUnsafeBytes { (bytes.count, Self.head(of: $0), Self.tail(of: $0), bytes) }
        }
    }

    /// The first eight bytes (fewer for a shorter key), zero-padded: a short
    /// key is loaded as two halves that may overlap, not byte by byte.
    private static func head(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        func load<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, at offset: Int) -> UInt64 {
            UInt64(T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))) << (8 * offset)
        }
        switch bytes.count {
        case 8...: return ByteWords.word(bytes, at: 0)
        case 4...: return load(UInt32.self, at: 0) | load(UInt32.self, at: bytes.count - 4)
        case 2...: return load(UInt16.self, at: 0) | load(UInt16.self, at: bytes.count - 2)
        case 1: return UInt64(bytes[0])
        default: return 0
        }
    }

    /// The last eight bytes; 0 for a key shorter than eight.
    private static func tail(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.count >= 8 ? ByteWords.word(bytes, at: bytes.count - 8) : 0
    }

    func index(of bytes: UnsafeRawBufferPointer) -> Int? {
        let head = Self.head(of: bytes), tail = Self.tail(of: bytes)
        for (index, key) in keys.enumerated() where key.length == bytes.count && key.head == head && key.tail == tail {
            if bytes.count <= 16 { return index }
            let same = key.bytes.withUnsafeBytes { known in
                guard let one = known.baseAddress, let other = bytes.baseAddress else { return known.count == bytes.count }
                return Bytes.equal(one, other, count: bytes.count)
            }
            if same { return index }
        }
        return nil
    }
}
