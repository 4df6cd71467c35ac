import CLibXML2
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where something is in an XML file: "12:5".
struct XMLLocation: Sendable, Equatable {
    var line: Int
    var column: Int

    var text: String { "\(line):\(column)" }
}

/// An element's attributes as libxml2 hands them over, read only when asked:
/// most elements have attributes no one reads.
struct XMLAttributes {
    fileprivate let pointers: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// The value of an attribute, or nil.
    subscript(_ name: String) -> String? {
        guard let pointers else { return nil }
        for index in 0..<count {
            let base = index * 5
            guard let key = pointers[base], let start = pointers[base + 3], let end = pointers[base + 4] else { continue }
            if Self.equals(key, name) {
                return String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
            }
        }
        return nil
    }

    /// The first attribute longer than `limit` bytes: its name and length.
    func first(longerThan limit: Int) -> (name: String, length: Int)? {
        guard let pointers else { return nil }
        for index in 0..<count {
            let base = index * 5
            guard let key = pointers[base], let start = pointers[base + 3], let end = pointers[base + 4] else { continue }
            if end - start > limit { return (String(cString: key), end - start) }
        }
        return nil
    }

    private static func equals(_ key: UnsafePointer<UInt8>, _ name: String) -> Bool {
        var index = 0
        for byte in name.utf8 {
            if key[index] != byte { return false }
            index += 1
        }
        return key[index] == 0
    }
}

/// What a SAX parse reports, in document order. A handler stops the parse by
/// throwing; the error is rethrown when the parse ends.
protocol XMLEventHandler: AnyObject {
    func startElement(_ name: String, attributes: XMLAttributes, at location: XMLLocation) throws
    func endElement(_ name: String, at location: XMLLocation) throws
    /// Character data and CDATA sections, in pieces as they come.
    func text(_ bytes: UnsafeBufferPointer<UInt8>)
    /// A processing instruction (`<?…?>`) other than the XML declaration.
    func processingInstruction(at location: XMLLocation) throws
    /// A document type declaration (`<!DOCTYPE …>`), before its internal subset is read.
    func documentType(at location: XMLLocation) throws
}

/// libxml2's SAX2 push parser: the input is fed in chunks of any size, so a
/// file of any length is parsed in bounded memory. Entities are never
/// substituted or loaded, and no network is touched.
final class XMLPushParser {
    private var context: xmlParserCtxtPtr?
    private let handler: XMLEventHandler
    private let path: String
    /// The first error a callback threw; the parse stops there.
    fileprivate var failure: Error?
    /// The first error libxml2 reported: its code and where.
    fileprivate var xmlError: (code: Int, location: XMLLocation)?

    init(path: String, handler: XMLEventHandler) throws {
        self.path = path
        self.handler = handler
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, name, prefix, _, _, _, count, _, attributes in
            guard let parser = XMLPushParser.of(context), let name else { return }
            let values = XMLAttributes(pointers: attributes, count: Int(count))
            var qualified = String(cString: name)
            if let prefix { qualified = String(cString: prefix) + ":" + qualified }
            parser.call { try parser.handler.startElement(qualified, attributes: values, at: parser.location) }
        }
        sax.endElementNs = { context, name, prefix, _ in
            guard let parser = XMLPushParser.of(context), let name else { return }
            var qualified = String(cString: name)
            if let prefix { qualified = String(cString: prefix) + ":" + qualified }
            parser.call { try parser.handler.endElement(qualified, at: parser.location) }
        }
        sax.characters = { context, bytes, length in
            guard let parser = XMLPushParser.of(context), parser.failure == nil, let bytes else { return }
            parser.handler.text(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        sax.cdataBlock = sax.characters
        sax.processingInstruction = { context, _, _ in
            guard let parser = XMLPushParser.of(context) else { return }
            parser.call { try parser.handler.processingInstruction(at: parser.location) }
        }
        sax.internalSubset = { context, _, _, _ in
            guard let parser = XMLPushParser.of(context) else { return }
            parser.call { try parser.handler.documentType(at: parser.location) }
        }
        sax.serror = { context, error in
            guard let parser = XMLPushParser.of(context), let error, parser.xmlError == nil else { return }
            let code = Int(error.pointee.code)
            let location = XMLLocation(line: Int(error.pointee.line), column: Int(cxml_error_column(error)))
            parser.xmlError = (code, location)
            // libxml2 goes on after an error it can recover from, as far as the
            // chunk it was given goes: the handler would see more or fewer
            // elements after it as the file happened to be cut. It stops here.
            xmlStopParser(parser.context)
        }
        let unmanaged = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, unmanaged, nil, 0, path) else {
            throw EvidenceError.io(path: path, reason: "libxml2 cannot start a parser")
        }
        self.context = context
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    fileprivate static func of(_ context: UnsafeMutableRawPointer?) -> XMLPushParser? {
        context.map { Unmanaged<XMLPushParser>.fromOpaque($0).takeUnretainedValue() }
    }

    fileprivate var location: XMLLocation {
        XMLLocation(line: Int(cxml_line(context)), column: Int(cxml_column(context)))
    }

    /// Runs a handler call, unless an error came first; its first error stops the parser.
    fileprivate func call(_ body: () throws -> Void) {
        guard failure == nil, xmlError == nil else { return }
        do {
            try body()
        } catch {
            failure = error
            xmlStopParser(context)
        }
    }

    /// Parses the next chunk of the file.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard failure == nil, xmlError == nil, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        xmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
        if let failure { throw failure }
    }

    /// Whether libxml2's error lies at the input's very end (`end`, the
    /// position after its last character): the document was cut short, not
    /// something met on the way. Told by where, not by when the error came:
    /// libxml2 keeps a chunk's unfinished last tag until more comes, so an
    /// error met on the way may come only when it is told the input ended,
    /// or before, as the file happened to be cut.
    func errorLies(at end: XMLLocation) -> Bool {
        guard let (_, location) = xmlError else { return false }
        return location == end
    }

    /// Ends the input; throws the first error of a callback or of libxml2.
    func finish() throws {
        if failure == nil, xmlError == nil {
            xmlParseChunk(context, nil, 0, 1)
        }
        if let failure { throw failure }
        if let (code, location) = xmlError {
            throw EvidenceError.badFile(
                path: path, location: location.text, reason: "not well-formed XML: " + Self.describe(code))
        }
    }

    /// libxml2's error codes, in words.
    static func describe(_ code: Int) -> String {
        switch code {
        case 1: return "a value longer than the parser accepts (text and attributes are limited to 10,000,000 bytes)"
        case 4: return "the document is empty"
        case 5: return "the document ends before it is complete"
        case 9: return "a character that XML does not allow"
        case 26: return "an entity that is not declared"
        case 38, 39, 40, 41: return "a malformed attribute"
        case 65, 73: return "a malformed tag"
        case 76: return "an end tag that does not match its start tag"
        case 77: return "the document ends before every element is closed"
        case 111: return "an element nested too deeply"
        case 201: return "a namespace prefix that is not declared"
        default: return "libxml2 error \(code)"
        }
    }
}

/// Checks text as it streams by: no NUL byte, valid UTF-8 (across chunk
/// boundaries), and which line the input is on. A reader whose errors no
/// user sees (the one pass over xcresulttool's tests, which hands every error
/// to the two passes) need not count lines, the most of this check's work:
/// its errors then name the byte.
struct UTF8Stream {
    private(set) var line = 1
    let countsLines: Bool
    private var pending: [UInt8] = []
    /// Where in the input `pending` starts, and how many bytes came before this chunk.
    private var pendingStart = 0
    private var offset = 0
    let path: String
    let what: String

    init(path: String, what: String, countsLines: Bool = true) {
        self.path = path
        self.what = what
        self.countsLines = countsLines
    }

    /// The characters after the input's last line feed so far: with `line`,
    /// where the input ends (counted as libxml2 counts columns, one per
    /// character). Kept only where lines are counted.
    private(set) var lastLineCharacters = 0

    /// Where the input ends so far: after its last character.
    var end: XMLLocation { XMLLocation(line: line, column: lastLineCharacters + 1) }

    /// Checks the next chunk.
    mutating func check(_ bytes: UnsafeRawBufferPointer) throws {
        if countsLines { countLastLine(bytes) }
        if offset == 0, let first = bytes.first, first == 0xFE || first == 0xFF {
            // A UTF-16 byte order mark, perhaps cut after its first byte:
            // said as such however the file is cut. (0xFE and 0xFF are
            // never UTF-8, so a first chunk of one such byte is held.)
            guard bytes.count >= 2 else {
                markStart = first
                offset = 1
                return
            }
            try refuseByteOrderMark(first, bytes[1])
        } else if offset == 1, let held = markStart, let next = bytes.first {
            try refuseByteOrderMark(held, next)
        }
        let start = offset
        offset += bytes.count
        var index = 0
        // A sequence split by the last chunk's end is finished first.
        while !pending.isEmpty, index < bytes.count {
            pending.append(bytes[index])
            index += 1
            if let length = Self.sequenceLength(pending[0]), pending.count == length {
                try pending.withUnsafeBytes { if !Self.isValidSequence($0, at: 0, length: length) { throw invalid(at: pendingStart) } }
                pending.removeAll()
            }
        }
        while index < bytes.count {
            index = countsLines ? Self.asciiRun(in: bytes, from: index, lines: &line) : Self.asciiRun(in: bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0 {
                    throw EvidenceError.badFile(
                        path: path, location: location(at: start + index), reason: "a NUL byte; the file is not \(what) text")
                }
                if byte == 0x0A, countsLines { line += 1 }
                index += 1
                continue
            }
            guard let length = Self.sequenceLength(byte) else { throw invalid(at: start + index) }
            if index + length > bytes.count {
                pending = Array(bytes[index...])
                pendingStart = start + index
                return
            }
            guard Self.isValidSequence(bytes, at: index, length: length) else { throw invalid(at: start + index) }
            index += length
        }
    }

    /// The characters after the chunk's last line feed (all of them, added,
    /// when it has none): each byte but UTF-8's continuation bytes.
    private mutating func countLastLine(_ bytes: UnsafeRawBufferPointer) {
        var start = bytes.count
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var characters = 0
        for index in start..<bytes.count where bytes[index] & 0xC0 != 0x80 { characters += 1 }
        lastLineCharacters = start == 0 ? lastLineCharacters + characters : characters
    }

    /// Past the ASCII bytes at `index` that are not NUL (the usual case),
    /// eight at a time; the line feeds among them are counted, not stepped
    /// through. Stops at most seven bytes short of a byte that is not.
    private static func asciiRun(in bytes: UnsafeRawBufferPointer, from start: Int, lines: inout Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = ByteWords.word(bytes, at: index)
            if !isPlainASCII(word) { break }
            lines += ByteWords.bytes(word, equalTo: 0x0A).nonzeroBitCount
            index += 8
        }
        return index
    }

    /// The same without counting lines, 32 bytes at a time.
    private static func asciiRun(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 32 <= bytes.count {
            let words = (
                ByteWords.word(bytes, at: index), ByteWords.word(bytes, at: index + 8),
                ByteWords.word(bytes, at: index + 16), ByteWords.word(bytes, at: index + 24)
            )
            let high = (words.0 | words.1 | words.2 | words.3) & ByteWords.highBits
            let zero = ByteWords.zeroBytes(words.0) | ByteWords.zeroBytes(words.1)
                | ByteWords.zeroBytes(words.2) | ByteWords.zeroBytes(words.3)
            if high | zero != 0 { break }
            index += 32
        }
        while index + 8 <= bytes.count, isPlainASCII(ByteWords.word(bytes, at: index)) { index += 8 }
        return index
    }

    /// Whether a word's eight bytes are ASCII and none is NUL.
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64) -> Bool {
        (word & ByteWords.highBits) | ByteWords.zeroBytes(word) == 0
    }

    /// At the end of the input: nothing may be left half a character.
    func finish() throws {
        if markStart != nil, offset == 1 { throw invalid(at: 0) }
        if !pending.isEmpty { throw invalid(at: pendingStart) }
    }

    /// A first byte 0xFE or 0xFF, held while the second is not yet read.
    private var markStart: UInt8?

    /// Refuses UTF-16's byte order mark; any other start with 0xFE or 0xFF is invalid UTF-8.
    private func refuseByteOrderMark(_ first: UInt8, _ second: UInt8) throws {
        if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) {
            throw EvidenceError.badFile(path: path, location: "1", reason: "the \(what) is UTF-16; only UTF-8 is read")
        }
        throw invalid(at: 0)
    }

    /// Whether the `length` bytes at `index`, the first a lead byte of that
    /// length, are one character: continuation bytes, and neither an overlong
    /// form, a surrogate nor past U+10FFFF (RFC 3629's table).
    private static func isValidSequence(_ bytes: UnsafeRawBufferPointer, at index: Int, length: Int) -> Bool {
        let first = bytes[index]
        let second = bytes[index + 1]
        let secondRange: ClosedRange<UInt8> =
            switch first {
            case 0xE0: 0xA0...0xBF
            case 0xED: 0x80...0x9F
            case 0xF0: 0x90...0xBF
            case 0xF4: 0x80...0x8F
            default: 0x80...0xBF
            }
        guard secondRange.contains(second) else { return false }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
        return true
    }

    private func location(at byte: Int) -> String {
        countsLines ? String(line) : "byte \(byte)"
    }

    private func invalid(at byte: Int) -> EvidenceError {
        EvidenceError.badFile(path: path, location: location(at: byte), reason: "invalid UTF-8")
    }

    private static func sequenceLength(_ first: UInt8) -> Int? {
        switch first {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return nil
        }
    }
}
