/// Escaping for GitHub-flavoured Markdown, so that no value from the store can
/// break a table, add a row, or slip in HTML, emphasis, code or a link.
public enum Markdown {
    /// Text for inline use and table cells. Backslash first, then every
    /// character with Markdown meaning; line breaks become spaces, other
    /// control and direction-override characters are dropped, and bare URLs and
    /// e-mail addresses are kept from turning into links. No raw HTML is ever
    /// written: renderers that strip it would drop text with it.
    public static func escape(_ text: String) -> String {
        if text.utf8.withContiguousStorageIfAvailable({ isPlain($0) }) ?? isPlain(text.utf8) { return text }
        var out: [UInt8] = []
        escapeSlowly(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same escaping, from bytes read out of SQLite straight into an output
    /// buffer (for reports that write a million rows). Only plain ASCII is copied
    /// as it is; anything else is decoded first, so invalid UTF-8 reads as U+FFFD.
    public static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        if bytes.allSatisfy({ $0 < 0x80 }) && isPlain(bytes) {
            out.append(contentsOf: bytes)
        } else {
            escapeSlowly(String(decoding: bytes, as: UTF8.self), into: &out)
        }
    }

    /// Escapes a string into an output buffer.
    public static func escape(_ text: String, into out: inout [UInt8]) {
        // Native strings are contiguous UTF-8: scanned and copied through a pointer.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard isPlain(bytes) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        if copied == nil, isPlain(text.utf8) {
            out.append(contentsOf: text.utf8)
        } else {
            escapeSlowly(text, into: &out)
        }
    }

    private static func escapeSlowly(_ text: String, into out: inout [UInt8]) {
        // Dropped characters go first, so none can hide a "://" or a "www." from the checks below.
        let scalars: [Unicode.Scalar] = text.unicodeScalars.filter { !isDropped($0) || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        out.reserveCapacity(out.count + text.utf8.count + 16)
        func append(_ literal: StaticString) {
            out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\", "|", "`", "*", "_", "[", "]", "<", ">", "&", "~":
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(scalar.value))
            case ":" where index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/":
                // "https://…" stays text: the extended autolink needs an unescaped "://".
                append("\\:")
            case "." where index >= 3 && scalars[(index - 3)..<index].allSatisfy({ $0 == "w" || $0 == "W" }):
                // "www.example.com" likewise needs an unescaped "www.".
                append("\\.")
            case "@":
                // An e-mail autolink is found after escapes are resolved, and
                // needs the address's letters right before "@": an invisible
                // word joiner (U+2060) stands between them.
                append("\u{2060}@")
            case "\r":
                out.append(UInt8(ascii: " "))
                if index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
            case "\n", "\u{2028}", "\u{2029}":
                out.append(UInt8(ascii: " "))
            case "\t":
                out.append(UInt8(ascii: " "))
            default:
                out.append(contentsOf: String(scalar).utf8)
            }
            index += 1
        }
    }

    /// The same escaping for text that starts a line (a list item, a
    /// paragraph's line): leading blank space goes (four spaces would make
    /// code), and what would start a block is escaped: `#` a heading, `-`, `+`
    /// a list or a rule, `=` a heading's underline, `1.` or `1)` a numbered
    /// list. (`>`, `*`, a backtick and `~` are escaped wherever they are.)
    public static func escapeLineStart(_ text: String, into out: inout [UInt8]) {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.unicodeScalars.first else { return }
        switch first {
        case "#", "-", "+", "=":
            out.append(UInt8(ascii: "\\"))
            out.append(UInt8(first.value))
            escape(String(trimmed.dropFirst()), into: &out)
        case "0"..."9":
            let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
            let after = trimmed.dropFirst(digits.count).first
            if digits.count <= 9, after == "." || after == ")" {
                out.append(contentsOf: digits.utf8)
                out.append(UInt8(ascii: "\\"))
                escape(String(trimmed.dropFirst(digits.count)), into: &out)
            } else {
                escape(String(trimmed), into: &out)
            }
        default:
            escape(String(trimmed), into: &out)
        }
    }

    /// Splits text at its well-formed code spans: a run of backticks, text on
    /// one line with no run of the same length, and the same run again. Each
    /// piece comes with whether it is code (its content, without the fences).
    public static func codeSpans(in text: String) -> [(text: String, isCode: Bool)] {
        let characters = Array(text)
        var pieces: [(String, Bool)] = []
        var plain = ""
        var index = 0
        func run(at start: Int) -> Int {
            var end = start
            while end < characters.count && characters[end] == "`" { end += 1 }
            return end - start
        }
        while index < characters.count {
            guard characters[index] == "`" else {
                plain.append(characters[index])
                index += 1
                continue
            }
            let fence = run(at: index)
            var close = index + fence
            var found: Int?
            while close < characters.count, !characters[close].isNewline {
                if characters[close] == "`" {
                    let length = run(at: close)
                    if length == fence {
                        found = close
                        break
                    }
                    close += length
                } else {
                    close += 1
                }
            }
            let content = found.map { String(characters[(index + fence)..<$0]) } ?? ""
            if let end = found, !content.trimmingWhitespace().isEmpty {
                if !plain.isEmpty { pieces.append((plain, false)) }
                plain = ""
                pieces.append((content, true))
                index = end + fence
            } else {
                plain += String(characters[index..<(index + fence)])
                index += fence
            }
        }
        if !plain.isEmpty { pieces.append((plain, false)) }
        return pieces
    }

    /// True when no character needs escaping or dropping, which is most values.
    /// Non-ASCII text is plain too, unless it holds a C1 control (C2 80–9F),
    /// one of the line separators and direction marks of U+2000–U+207F (E2 80,
    /// E2 81) or the Arabic letter mark (D8 9C), which the slow path handles.
    static func isPlain<Bytes: Sequence>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        let copy = Array(bytes)
        return copy.withUnsafeBufferPointer { isPlain($0) }
    }

    /// What a byte asks of the scan: 0 nothing, 1 the slow path, 2 a look at
    /// the bytes before it ("://", "www.", a C1 control or U+2028 and kin).
    private static let byteClasses: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        for byte in 0x00...0x1F { classes[byte] = 1 }
        classes[0x7F] = 1
        for character in "\\|`*_[]<>&~@".utf8 { classes[Int(character)] = 1 }
        classes[Int(UInt8(ascii: "/"))] = 2
        classes[Int(UInt8(ascii: "."))] = 2
        for byte in 0x80...0x9F { classes[byte] = 2 }
        return classes
    }()

    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        byteClasses.withUnsafeBufferPointer { classes in
            for index in bytes.indices {
                let byte = bytes[index]
                switch classes[Int(byte)] {
                case 0:
                    continue
                case 1:
                    return false
                default:
                    let previous = index > 0 ? bytes[index - 1] : 0
                    switch byte {
                    case UInt8(ascii: "/"):
                        if previous == UInt8(ascii: "/") && index > 1 && bytes[index - 2] == UInt8(ascii: ":") { return false }
                    case UInt8(ascii: "."):
                        if index >= 3 && (1...3).allSatisfy({ bytes[index - $0] | 0x20 == UInt8(ascii: "w") }) { return false }
                    default:
                        // A continuation byte: C2 80–9F is a C1 control, E2 80 and E2 81 start U+2000–U+207F,
                        // D8 9C is U+061C.
                        if previous == 0xC2 || (previous == 0xE2 && byte <= 0x81) || (previous == 0xD8 && byte == 0x9C) { return false }
                    }
                }
            }
            return true
        }
    }

    /// Control characters and the invisible characters that reorder text.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A link whose text is escaped and whose destination is percent-encoded
    /// wherever a character could end it or break a table.
    public static func link(_ text: String, to url: String) -> String {
        "[\(escape(text))](\(encodeURL(url)))"
    }

    static func encodeURL(_ url: String) -> String {
        PercentEncoding.encode(url) { byte, _ in
            switch byte {
            case 0x21, 0x23...0x27, 0x2B...0x3B, 0x3D, 0x3F, 0x40, 0x41...0x5A, 0x5F, 0x61...0x7A: return true
            default: return false
            }
        }
    }

    /// A code span holding `text` as it is: fenced by one more backtick than
    /// the longest run inside it, padded when it starts or ends with one, line
    /// breaks as spaces, and (in a table cell) pipes escaped, which GFM allows.
    static func codeSpan(_ text: String, inTable: Bool, into out: inout [UInt8]) {
        var longest = 0
        var run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = [UInt8](repeating: UInt8(ascii: "`"), count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`")
        out.append(contentsOf: fence)
        if pad { out.append(UInt8(ascii: " ")) }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t", "\u{2028}", "\u{2029}": out.append(UInt8(ascii: " "))
            case "|" where inTable: out.append(contentsOf: "\\|".utf8)
            default:
                if !isDropped(scalar) { out.append(contentsOf: String(scalar).utf8) }
            }
        }
        if pad { out.append(UInt8(ascii: " ")) }
        out.append(contentsOf: fence)
    }
}
