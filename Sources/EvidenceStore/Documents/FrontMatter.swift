#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The YAML front matter of a Markdown document, read for the two fields the
/// tool owns: `name:` at the top level and `verified:` at any depth. Each is
/// read as YAML reads a scalar (plain, single- or double-quoted, literal or
/// folded, over several lines), with where its value starts and ends, so a
/// rewrite replaces the whole value and nothing else. What the tool cannot
/// read or rewrite safely (an anchor, a tag, an alias, a flow collection, a
/// mapping where a value should be, an unclosed quote) is a problem, never a
/// guess.
public struct FrontMatter: Sendable {
    /// One field the tool owns.
    public struct Field: Sendable, Equatable {
        public var key: String
        /// Its value as YAML reads it; nil when it cannot be read (`problem` says why).
        public var value: String?
        /// Why the value cannot be read or rewritten safely.
        public var problem: String?
        /// A plain value YAML parsers refuse (it holds ": " or " #"); it is read, and a rewrite quotes it.
        public var invalidYAML: String?
        /// Where the value starts (1-based line, byte column) and the line it ends on.
        public var line: Int
        public var column: Int
        public var endLine: Int
        /// The byte column just after the value on its last line (what follows is a comment or nothing).
        public var endColumn: Int
    }

    /// The lines it spans in the document, the two `---` lines included (0-based, half-open).
    public var lines: Range<Int>
    public var name: Field?
    public var verified: Field?

    /// Reads the front matter at the start of `lines`, if the first line is `---`.
    public init?(_ lines: [String]) {
        guard lines.first == "---" else { return nil }
        var end = 1
        while end < lines.count && lines[end] != "---" && lines[end] != "..." { end += 1 }
        // A `---` never closed is a rule, not front matter: what follows is prose.
        guard end < lines.count else { return nil }
        self.lines = 0..<(end + 1)
        var index = 1
        while index < end {
            defer { index += 1 }
            guard let (key, indent, valueStart) = Self.key(lines[index]) else { continue }
            let topLevel = indent == 0
            guard key == "verified" && verified == nil || key == "name" && topLevel && name == nil else {
                // Another key's value: a line inside it that looks like `verified:` is its text, not a key.
                index = Self.lastLine(ofValueAt: index, start: valueStart, indent: indent, lines: lines, end: end)
                continue
            }
            // The value's lines: this one and the following ones indented deeper than the key (or blank).
            var last = index
            var probe = index + 1
            while probe < end {
                let line = lines[probe]
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    probe += 1
                    continue
                }
                guard Self.indentation(line) > indent else { break }
                last = probe
                probe += 1
            }
            let field = Self.scalar(
                key: key, lines: lines, line: index, start: valueStart, last: last, indent: indent, blanksTo: probe - 1)
            if key == "verified" { verified = field } else { name = field }
            index = max(index, field.endLine - 1)
        }
    }

    // MARK: - Keys

    /// The last line of the value a key on line `line` gives on that line
    /// (from byte `start`): a quoted scalar runs to its closing quote, a block
    /// or plain scalar over the lines indented deeper than its key. A key with
    /// nothing after it gives `line`: the lines below are keys of their own.
    private static func lastLine(ofValueAt line: Int, start: Int, indent: Int, lines: [String], end: Int) -> Int {
        let first = Array(lines[line].utf8)
        guard start < first.count, first[start] != UInt8(ascii: "#") else { return line }
        let quote = first[start]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            var index = start + 1
            var current = line
            var bytes = first
            while current < end {
                while index < bytes.count {
                    let byte = bytes[index]
                    if quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == quote {
                        // In single quotes, '' is a quote.
                        if quote == UInt8(ascii: "'") && index + 1 < bytes.count && bytes[index + 1] == quote {
                            index += 2
                            continue
                        }
                        return current
                    }
                    index += 1
                }
                current += 1
                guard current < end else { break }
                bytes = Array(lines[current].utf8)
                index = 0
            }
            // Never closed: the rest of the front matter is its text.
            return end - 1
        }
        var last = line
        var probe = line + 1
        while probe < end {
            let text = lines[probe]
            if !text.allSatisfy({ $0 == " " || $0 == "\t" }) {
                guard indentation(text) > indent else { break }
                last = probe
            }
            probe += 1
        }
        return last
    }

    /// `key:` (after any `- ` of a list item): the key, its column, and where the value starts (a byte offset).
    private static func key(_ line: String) -> (String, Int, Int)? {
        let bytes = Array(line.utf8)
        var index = 0
        while index < bytes.count && bytes[index] == UInt8(ascii: " ") { index += 1 }
        while index + 1 < bytes.count && bytes[index] == UInt8(ascii: "-") && bytes[index + 1] == UInt8(ascii: " ") {
            index += 2
            while index < bytes.count && bytes[index] == UInt8(ascii: " ") { index += 1 }
        }
        let keyStart = index
        while index < bytes.count, isKeyByte(bytes[index]) { index += 1 }
        guard index > keyStart, index < bytes.count else { return nil }
        let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
        while index < bytes.count && bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":"),
            index + 1 == bytes.count || bytes[index + 1] == UInt8(ascii: " ") || bytes[index + 1] == UInt8(ascii: "\t")
        else { return nil }
        index += 1
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
        return (key, keyStart, index)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// Leading spaces (YAML indents with spaces only; a tab counts as one, and is refused where it matters).
    static func indentation(_ line: String) -> Int {
        line.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
    }

    // MARK: - Scalars

    /// The field whose value starts at byte `start` of line `line` and may run to line `last`.
    /// `blanksTo` is the last of the blank lines after `last`, which a kept (`|+`) block scalar holds.
    private static func scalar(key: String, lines: [String], line: Int, start: Int, last: Int, indent: Int, blanksTo: Int) -> Field {
        let first = Array(lines[line].utf8)
        var field = Field(key: key, line: line + 1, column: start + 1, endLine: line + 1, endColumn: first.count + 1)
        func refuse(_ reason: String) -> Field {
            var refused = field
            refused.value = nil
            refused.problem = "\(key): \(reason); evidence cannot rewrite it safely"
            refused.endLine = last + 1
            refused.endColumn = Array(lines[last].utf8).count + 1
            return refused
        }
        let rest = start < first.count ? first[start...] : []
        switch rest.first {
        case nil, UInt8(ascii: "#"):
            // The value is on the lines below, or there is none.
            guard last > line else {
                field.value = ""
                field.endColumn = start + 1
                return field
            }
            let next = lines[line + 1].trimmingWhitespace()
            if next.hasPrefix("- ") || next == "-" || next.contains(": ") || next.hasSuffix(":") {
                return refuse("holds a mapping or a list, not one value")
            }
            if next.hasPrefix("\"") || next.hasPrefix("'") || next.hasPrefix("|") || next.hasPrefix(">") {
                return refuse("starts its value on the next line")
            }
            return plain(field, lines: lines, from: line + 1, column: indentation(lines[line + 1]), last: last)
        case UInt8(ascii: "&"), UInt8(ascii: "!"), UInt8(ascii: "*"):
            return refuse("uses an anchor, a tag or an alias")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            return refuse("holds a flow collection")
        case UInt8(ascii: "@"), UInt8(ascii: "`"):
            return refuse("starts with a character YAML reserves")
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            guard let quoted = quoted(field, lines: lines, last: last) else {
                return refuse("has a quoted value that does not close where YAML expects")
            }
            return quoted
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            guard let block = blockScalar(field, lines: lines, last: last, indent: indent, blanksTo: blanksTo) else {
                return refuse("has a block scalar whose header or indentation cannot be read")
            }
            return block
        default:
            return plain(field, lines: lines, from: line, column: start, last: last)
        }
    }

    /// A plain scalar: its lines folded (one break becomes a space, an empty
    /// line a break), a ` #` comment ending it.
    private static func plain(_ field: Field, lines: [String], from line: Int, column: Int, last: Int) -> Field {
        var field = field
        var parts: [String] = []
        var endLine = line
        var endColumn = column + 1
        var invalid: String?
        for index in line...last {
            let bytes = Array(lines[index].utf8)
            let from = index == line ? column : indentation(lines[index])
            var text = from < bytes.count ? Array(bytes[from...]) : []
            var commented = false
            if let hash = commentStart(text, atLineStart: index != line || from == 0) {
                text = Array(text[..<hash])
                commented = true
            }
            let value = String(decoding: text, as: UTF8.self).trimmingWhitespace()
            if !value.isEmpty {
                endLine = index
                endColumn = from + (text.lastIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? -1) + 2
                if value.contains(": ") || value.hasSuffix(":") { invalid = invalid ?? "a plain value holds \": \", which YAML reads as a mapping" }
            }
            parts.append(value)
            if commented { break }
        }
        field.value = fold(parts)
        field.endLine = endLine + 1
        field.endColumn = endColumn
        field.invalidYAML = invalid
        return field
    }

    /// Where a ` #` comment starts in a plain value's bytes.
    private static func commentStart(_ bytes: [UInt8], atLineStart: Bool) -> Int? {
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "#") {
            if index == 0 ? atLineStart : bytes[index - 1] == UInt8(ascii: " ") || bytes[index - 1] == UInt8(ascii: "\t") {
                return index
            }
        }
        return nil
    }

    /// Lines of a flow scalar folded as YAML folds them: a single break is a
    /// space, each empty line a break.
    private static func fold(_ parts: [String]) -> String {
        var result = ""
        var pendingBreaks = 0
        var started = false
        for part in parts {
            if part.isEmpty {
                if started { pendingBreaks += 1 }
                continue
            }
            if started { result += pendingBreaks == 0 ? " " : String(repeating: "\n", count: pendingBreaks) }
            result += part
            started = true
            pendingBreaks = 0
        }
        return result
    }

    /// A single- or double-quoted scalar, over as many lines as it takes;
    /// nil when it does not close within the field's lines or text follows it.
    private static func quoted(_ field: Field, lines: [String], last: Int) -> Field? {
        var field = field
        let quote = Array(lines[field.line - 1].utf8)[field.column - 1]
        let double = quote == UInt8(ascii: "\"")
        var parts: [String] = []
        var current: [UInt8] = []
        var index = field.line - 1
        var bytes = Array(lines[index].utf8)
        var position = field.column
        var escapedBreak = false
        while true {
            if position >= bytes.count {
                // The line ends inside the quotes: fold it into the next.
                guard index < last else { return nil }
                if escapedBreak {
                    escapedBreak = false
                } else {
                    parts.append(String(decoding: current, as: UTF8.self))
                    current = []
                }
                index += 1
                bytes = Array(lines[index].utf8)
                position = indentation(lines[index])
                continue
            }
            let byte = bytes[position]
            if byte == quote {
                if !double && position + 1 < bytes.count && bytes[position + 1] == quote {
                    current.append(quote)
                    position += 2
                    continue
                }
                position += 1
                break
            }
            if double && byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else {
                    escapedBreak = true
                    position += 1
                    continue
                }
                guard let (scalar, length) = unescape(bytes, at: position + 1) else { return nil }
                current += Array(String(scalar).utf8)
                position += 1 + length
                continue
            }
            current.append(byte)
            position += 1
        }
        parts.append(String(decoding: current, as: UTF8.self))
        // Only spaces and a comment may follow the closing quote.
        let after = String(decoding: bytes[position...], as: UTF8.self)
        let trimmed = after.trimmingWhitespace()
        guard trimmed.isEmpty || trimmed.hasPrefix("#") && after.first.map({ $0 == " " || $0 == "\t" }) == true else { return nil }
        // Inner lines lose their leading and trailing white space when folded.
        let folded = parts.enumerated().map { offset, part -> String in
            var text = part
            if offset > 0 { text = String(text.drop { $0 == " " || $0 == "\t" }) }
            if offset < parts.count - 1 {
                while text.last == " " || text.last == "\t" { text.removeLast() }
            }
            return text
        }
        var value = ""
        var breaks = 0
        for (offset, part) in folded.enumerated() {
            if offset == 0 {
                value = part
                continue
            }
            if part.isEmpty && offset < folded.count - 1 {
                breaks += 1
                continue
            }
            value += breaks == 0 ? " " : String(repeating: "\n", count: breaks)
            value += part
            breaks = 0
        }
        field.value = value
        field.endLine = index + 1
        field.endColumn = position + 1
        return field
    }

    /// A double-quoted escape after its backslash: the character and how many bytes it took.
    private static func unescape(_ bytes: [UInt8], at index: Int) -> (Character, Int)? {
        let simple: [UInt8: Character] = [
            UInt8(ascii: "0"): "\0", UInt8(ascii: "a"): "\u{07}", UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "t"): "\t",
            UInt8(ascii: "\t"): "\t", UInt8(ascii: "n"): "\n", UInt8(ascii: "v"): "\u{0B}", UInt8(ascii: "f"): "\u{0C}",
            UInt8(ascii: "r"): "\r", UInt8(ascii: "e"): "\u{1B}", UInt8(ascii: " "): " ", UInt8(ascii: "\""): "\"",
            UInt8(ascii: "/"): "/", UInt8(ascii: "\\"): "\\", UInt8(ascii: "N"): "\u{85}", UInt8(ascii: "_"): "\u{A0}",
            UInt8(ascii: "L"): "\u{2028}", UInt8(ascii: "P"): "\u{2029}",
        ]
        let code = bytes[index]
        if let character = simple[code] { return (character, 1) }
        let digits: Int
        switch code {
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default: return nil
        }
        guard index + digits < bytes.count,
            let number = UInt32(String(decoding: bytes[(index + 1)...(index + digits)], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(number)
        else { return nil }
        return (Character(scalar), 1 + digits)
    }

    /// A literal (`|`) or folded (`>`) block scalar with its chomping and
    /// indentation indicators; nil when its header or lines cannot be read.
    private static func blockScalar(_ field: Field, lines: [String], last lastText: Int, indent: Int, blanksTo: Int) -> Field? {
        var field = field
        let header = String(decoding: Array(lines[field.line - 1].utf8)[(field.column - 1)...], as: UTF8.self)
        let headerText = header.split(separator: "#", maxSplits: 1).first.map { $0.trimmingWhitespace() } ?? header
        guard let style = headerText.first, headerText.count <= 3 else { return nil }
        var chomping: Character?
        var explicitIndent: Int?
        for character in headerText.dropFirst() {
            if character == "-" || character == "+", chomping == nil {
                chomping = character
            } else if let digit = character.wholeNumberValue, digit > 0, explicitIndent == nil {
                explicitIndent = digit
            } else {
                return nil
            }
        }
        if header.contains("#") && !header.contains(" #") { return nil }
        let last = chomping == "+" ? max(lastText, blanksTo) : lastText
        let contentLines = field.line < last + 1 ? Array(lines[field.line...last]) : []
        let blockIndent: Int
        if let explicitIndent {
            blockIndent = indent + explicitIndent
        } else {
            blockIndent = contentLines.first { !$0.allSatisfy { $0 == " " } }.map(indentation) ?? indent + 1
        }
        guard blockIndent > indent else { return nil }
        var texts: [String] = []
        for line in contentLines {
            if line.allSatisfy({ $0 == " " }) {
                texts.append("")
                continue
            }
            let bytes = Array(line.utf8)
            guard indentation(line) >= blockIndent, !bytes.prefix(blockIndent).contains(UInt8(ascii: "\t")) else { return nil }
            texts.append(String(decoding: bytes[blockIndent...], as: UTF8.self))
        }
        var body: String
        if style == "|" {
            body = texts.joined(separator: "\n")
        } else {
            // Folded: a break between two lines of text is a space; each
            // empty line is a break; breaks around more-indented lines stay.
            body = ""
            var empty = 0
            var previousNormal: Bool?
            for text in texts {
                if text.isEmpty {
                    empty += 1
                    continue
                }
                let normal = text.first != " " && text.first != "\t"
                switch previousNormal {
                case nil: body += String(repeating: "\n", count: empty)
                case true? where normal: body += empty == 0 ? " " : String(repeating: "\n", count: empty)
                default: body += String(repeating: "\n", count: empty + 1)
                }
                body += text
                empty = 0
                previousNormal = normal
            }
        }
        while body.hasSuffix("\n") { body.removeLast() }
        switch chomping {
        case "-": break
        case "+": body += String(repeating: "\n", count: texts.reversed().prefix { $0.isEmpty }.count + 1)
        default: body += body.isEmpty ? "" : "\n"
        }
        field.value = body
        field.endLine = last + 1
        field.endColumn = Array(lines[last].utf8).count + 1
        return field
    }

    // MARK: - Writing

    /// `text` as a double-quoted YAML scalar, which any YAML reader takes
    /// whatever it holds: a JSON string literal is one (YAML 1.2 reads JSON).
    public static func quoted(_ text: String) -> String {
        JSONValue.quote(text)
    }

    /// The lines `field`'s value spans, and the one line that replaces them:
    /// the whole value replaced by `value`, double-quoted; what followed the
    /// value on its last line (a comment) stays.
    public static func replacement(of field: Field, with value: String, in lines: [String]) -> (Range<Int>, String) {
        let first = Array(lines[field.line - 1].utf8)
        let last = Array(lines[field.endLine - 1].utf8)
        let prefix = String(decoding: first[..<(field.column - 1)], as: UTF8.self)
        let suffixStart = min(field.endColumn - 1, last.count)
        var suffix = String(decoding: last[suffixStart...], as: UTF8.self)
        if !suffix.isEmpty && !suffix.hasPrefix(" ") { suffix = " " + suffix }
        var head = prefix
        while head.last == " " { head.removeLast() }
        return ((field.line - 1)..<field.endLine, head + " " + quoted(value) + suffix)
    }
}
