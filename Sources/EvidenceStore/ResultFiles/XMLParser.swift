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
    subscript(_ name: StaticString) -> String? {
        guard let pointers else { return nil }
        for index in 0..<count {
            let base = index * 5
            guard let key = pointers[base], let start = pointers[base + 3], let end = pointers[base + 4] else { continue }
            if xmlStrEqual(key, name.utf8Start) == 1 {
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
