#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Reads one JSON document from a file a chunk at a time: its structure (objects,
/// keys, arrays) token by token, and any value whole when asked. Only what is
/// being read is held, so a document of any size is read in bounded memory.
/// The same rules as `JSONReader` (which parses each value read whole): valid
/// UTF-8, no NUL, bounded nesting; errors give the line.
final class JSONStream {
    private let path: String
    private let file: FileChunks?
    /// What each chunk is read into, before it is checked and kept.
    private let scratch: UnsafeMutableRawBufferPointer
    // Unchecked: every token read touches these two. Profiled on an xcresult
    // ingest (100,000 of the fixtures' cases, release build), the run-time
    // exclusivity checks (swift_beginAccess, AccessSet::insert, the TLS lookup)
    // took 3.4% of the samples, 0.6% with these two unchecked. Their accesses
    // begin and end within one method of this final class, and the debug
    // build, which still checks them, runs the whole suite.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var position = 0
    /// The line of `buffer[0]`, and whether the file has no more to give.
    private var lineAtStart = 1
    /// How many bytes of the document came before `buffer[0]`.
    private var dropped = 0
    private var exhausted = false
    private var text: UTF8Stream
    /// Whether the text check found a problem: the error being thrown is it.
    private var textFailed = false
    let hasher: (any ChunkDigest)?
    static let maxDepth = 64
    private(set) var depth = 0

    /// Over a file of at most `limit` bytes, read `chunkSize` bytes at a time;
    /// `hasher` is given every byte read. Without `countingLines`, for a
    /// reader whose errors no user sees, errors name the byte, not the line.
    init(path: String, limit: Int, hasher: (any ChunkDigest)?, chunkSize: Int = 256 << 10, countingLines: Bool = true) throws {
        self.path = path
        self.hasher = hasher
        text = UTF8Stream(path: path, what: "JSON", countsLines: countingLines)
        file = try FileChunks(path: path, limit: limit)
        scratch = .allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit {
        scratch.deallocate()
    }

    /// Over bytes already in memory, that `UntrustedText.check` has passed.
    init(checked data: Data, path: String) {
        self.path = path
        file = nil
        hasher = nil
        scratch = .allocate(byteCount: 0, alignment: 16)
        text = UTF8Stream(path: path, what: "JSON")
        buffer = Array(data)
        exhausted = true
    }

    // MARK: - Bytes

    /// Makes at least `count` bytes past the position available, unless the file ends first.
    private func fill(_ count: Int) throws -> Bool {
        while buffer.count - position < count {
            guard !exhausted, let file else { return false }
            let read = try file.read(into: scratch)
            guard read > 0 else {
                exhausted = true
                try checkingText { try $0.finish() }
                return buffer.count - position >= count
            }
            let chunk = UnsafeRawBufferPointer(rebasing: scratch[..<read])
            // What was read is dropped before the buffer grows. Every byte
            // in the buffer has been checked, so the checker's line is the
            // line at its end: only what is kept is counted back.
            if position > 0 {
                if text.countsLines {
                    lineAtStart = text.line - buffer.withUnsafeBytes {
                        Newlines.count(in: UnsafeRawBufferPointer(rebasing: $0[position...]))
                    }
                }
                buffer.removeFirst(position)
                dropped += position
                position = 0
            }
            hasher?.update(chunk)
            try checkingText { try $0.check(chunk) }
            // Copied whole, not byte by byte.
            buffer.append(contentsOf: chunk.bindMemory(to: UInt8.self))
        }
        return true
    }

    /// Runs `read`; an error of the file's it throws gives way to a text
    /// problem (a NUL byte, invalid UTF-8) in the rest of the file, which is
    /// said first whatever else is wrong, as when the file is read whole:
    /// the error does not depend on where the file was cut into chunks.
    func textProblemsFirst<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as EvidenceError {
            if !textFailed, let problem = textProblemAhead() { throw problem }
            throw error
        }
    }

    /// Runs a check of the text, noting when it finds a problem.
    private func checkingText(_ check: (inout UTF8Stream) throws -> Void) throws {
        do {
            try check(&text)
        } catch {
            textFailed = true
            throw error
        }
    }

    /// The first text problem in what is left of the file, which is read to
    /// its end for it; nil when there is none (or it cannot be read).
    private func textProblemAhead() -> EvidenceError? {
        guard let file, !exhausted else { return nil }
        while let read = try? file.read(into: scratch) {
            do {
                guard read > 0 else {
                    try text.finish()
                    return nil
                }
                try text.check(UnsafeRawBufferPointer(rebasing: scratch[..<read]))
            } catch let problem as EvidenceError {
                return problem
            } catch {
                return nil
            }
        }
        return nil
    }

    /// How many '\n' the first `end` bytes hold: for the line of an error.
    static func newlines(in bytes: [UInt8], before end: Int) -> Int {
        bytes.withUnsafeBytes { Newlines.count(in: UnsafeRawBufferPointer(rebasing: $0[..<end])) }
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
        let location = text.countsLines ? String(lineAtStart + Self.newlines(in: buffer, before: end)) : "byte \(dropped + end)"
        return EvidenceError.badFile(path: path, location: location, reason: "not valid JSON: \(message)")
    }

    /// How many bytes of the document have been read past.
    var offset: Int { dropped + position }

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
        guard try openKey(first: first) else { return nil }
        let key: JSONKey
        if let end = try plainStringEnd() {
            key = buffer.withUnsafeBytes { bytes in
                let text = UnsafeRawBufferPointer(rebasing: bytes[position + 1..<end - 1])
                if let index = known.index(of: text) { return .known(index) }
                return .other(String(decoding: text, as: UTF8.self))
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

    /// Within an object, before a key: false at its '}' (read), true at the
    /// key's opening quote.
    private func openKey(first: Bool) throws -> Bool {
        try skipSpace()
        guard let byte = try peek() else { throw failure("unexpected end of input") }
        if byte == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
            position += 1
            try skipSpace()
        }
        guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
        return true
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

    /// The next value, read whole.
    func value() throws -> JSONValue {
        try skipSpace()
        if try peek() == UInt8(ascii: "\"") { return .string(try string()) }
        return try parsed(maxDepth: Self.maxDepth - depth)
    }

    /// Reads on, to twice as many bytes past `start` (the position) as now, so
    /// that a long value is parsed a few times, not once a chunk; false when
    /// the file had nothing more.
    private func readMore(after start: Int) throws -> Bool {
        let had = buffer.count - start
        _ = try fill(2 * had + 1)
        return buffer.count - position > had
    }

    /// The value at the position, parsed by `JSONReader` from the buffer. A
    /// value the buffer ends in the middle of fails at the buffer's end: then
    /// the buffer takes in more and the value is parsed again.
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
                let message = failure.message.hasPrefix("nested deeper than")
                    ? "nested deeper than \(Self.maxDepth) levels" : failure.message
                throw self.failure(message, at: start + failure.offset)
            }
        }
    }

    /// The next value, checked and passed over.
    func skip() throws {
        try skipSpace()
        switch try peek() ?? 0 {
        case UInt8(ascii: "\""):
            if let end = try plainStringEnd() {
                position = end
                return
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let end = plainNumberEnd() {
                position = end
                return
            }
        default:
            break
        }
        _ = try value()
    }

    /// When the value at the position is an object with no object, array or
    /// escape inside it: what `body` makes of it, given its bytes from '{' on
    /// (to the buffer's end, or to its '}'), with the length it read. When
    /// `body` returns a value the object is passed over; when it returns nil,
    /// or the object is not so plain, the stream stays where it was, for
    /// `value()` to read it (or say what is wrong with it).
    func plainObject<T>(_ body: (UnsafeRawBufferPointer) -> (value: T, length: Int)?) throws -> T? {
        try skipSpace()
        guard try peek() == UInt8(ascii: "{"), depth < Self.maxDepth else { return nil }
        // Most objects lie whole in the buffer: read in one go where they are.
        if let (value, length) = buffer.withUnsafeBytes({ body(UnsafeRawBufferPointer(rebasing: $0[position...])) }) {
            position += length
            return value
        }
        // Else the object's bytes are found first, read on until they are all
        // in the buffer, and `body` is given them alone.
        var offset = 1
        while true {
            let (stop, byte) = buffer.withUnsafeBytes { bytes in
                let stop = JSONBytes.structureStop(in: bytes, from: position + offset)
                return (stop, stop < bytes.count ? bytes[stop] : 0)
            }
            guard stop < buffer.count else {
                offset = stop - position
                guard try fill(offset + 1) else { return nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "}"):
                let end = stop + 1
                guard let (value, length) = buffer.withUnsafeBytes({ body(UnsafeRawBufferPointer(rebasing: $0[position..<end])) })
                else { return nil }
                position += length
                return value
            case UInt8(ascii: "\""):
                // A string's plain run to its closing quote; anything else in it is for value().
                guard let end = try plainStringEnd(quote: stop - position) else { return nil }
                offset = end - position
            default:
                // '{' or '[': not plain.
                return nil
            }
        }
    }

    /// After the whole document: nothing but white space.
    func finish() throws {
        try skipSpace()
        if try peek() != nil { throw failure("unexpected text after the JSON value") }
    }

    // MARK: - Scanning

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

    /// Where the number at the position ends, when `JSONReader`'s grammar
    /// takes it, it has no exponent and at most 300 characters (so it cannot
    /// be out of range), and a byte follows it in the buffer (so it does not go
    /// on in the next chunk); nil otherwise, for `JSONReader` to read it whole
    /// or say what is wrong.
    private func plainNumberEnd() -> Int? {
        let start = position
        guard let number = try? buffer.withUnsafeBytes({ try JSONReader.scanNumber($0, from: start) }),
            !number.hasExponent, number.end - start <= 300, number.end < buffer.count
        else { return nil }
        return number.end
    }

    /// Where the string whose opening quote is `quote` bytes past the position
    /// ends (past its closing quote), when it has no escape and no control
    /// character; nil otherwise, for `JSONReader` to read it or say what is
    /// wrong. The buffer may read on, so the end is counted from the buffer's
    /// start as it is on return.
    private func plainStringEnd(quote: Int = 0) throws -> Int? {
        var offset = quote + 1
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
            if bytes.count <= 16 || key.bytes.withUnsafeBytes({ Self.same($0, bytes) }) { return index }
        }
        return nil
    }

    private static func same(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        guard let one = first.baseAddress, let other = second.baseAddress else { return first.count == second.count }
        return first.count == second.count && Bytes.equal(one, other, count: first.count)
    }
}
