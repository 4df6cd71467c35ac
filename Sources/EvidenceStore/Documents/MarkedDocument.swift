#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Markdown document as `evidence lint` reads it: its front matter, the
/// claim markers (`<!-- evidence: KEY (LABEL) -->`) with the words each marks,
/// and its generated blocks (`<!-- evidence:checklist -->` …
/// `<!-- /evidence:checklist -->`). Code, fenced, indented or in backticks,
/// is never read for markers, as CommonMark draws it; lines end at "\r\n",
/// "\r" or "\n"; lines and columns count from 1, columns in bytes, as
/// compilers count them.
public struct MarkedDocument: Sendable {
    public struct Marker: Sendable, Equatable {
        public var key: String
        /// As written between the parentheses.
        public var labelText: String
        public var label: Label?
        public var line: Int
        public var column: Int
        /// The words it marks: a table row's first cell, or a list item's or
        /// paragraph's text from its start (or the previous marker) up to it.
        public var text: String
        /// Where its links are looked for: the whole row of a table, else its words.
        public var context: String
        /// Whether it ends a table row (and marks the row's first cell).
        public var inTable: Bool
        /// Whether its words are a list item's (which counts as one sentence).
        public var inListItem = false
        /// The markers that end the same text, this one included (by index).
        public var group: [Int]
        /// The heading the marker sits under.
        public var section: String
    }

    public struct Block: Sendable, Equatable {
        public var kind: String
        /// The lines of the opening and closing comments.
        public var startLine: Int
        public var endLine: Int
        /// The text between them, line breaks included.
        public var content: String
        /// The level of the heading of the section it sits in; 0 before any heading.
        public var sectionLevel = 0
    }

    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
        /// `bad-marker` for markers and blocks, `front-matter` for the fields the tool owns.
        public var rule: LintRule = .marker
    }

    /// The text as lines, with its line ending and byte-order mark, to write back as it was.
    public var source: TextLines
    public var lines: [String] { source.lines }
    public var frontMatter: FrontMatter?
    /// `name:` at the top level of the front matter, when it can be read.
    public var name: String? { frontMatter?.name?.value }
    /// `verified:` at any depth of the front matter.
    public var verified: FrontMatter.Field? { frontMatter?.verified }
    public var markers: [Marker] = []
    public var blocks: [Block] = []
    /// Markers that cannot be read, blocks that never close or nest, front
    /// matter the tool cannot read or rewrite safely.
    public var problems: [Problem] = []
    /// The lines (by index, from 0) that are not the document's prose, so no
    /// marker is read or goes there: the front matter, fenced and indented
    /// code, HTML comments over several lines, and generated blocks with the
    /// lines that open and close them.
    public var skippedLines: Set<Int> = []

    /// The generated blocks a document may hold.
    public static let blockKinds = ["checklist", "untested", "sources"]

    public init(text: String) {
        self.init(lines: TextLines(text))
    }

    public init(lines: TextLines) {
        source = lines
        parse()
    }

    // The patterns read text as NSRegularExpression did, a Unicode scalar at
    // a time ("\r\n" is two), and are checked when the tool is compiled.
    // `Regex` is not `Sendable` in Swift 6.3, hence `nonisolated(unsafe)`:
    // these are made once and only read (the standard library builds a
    // pattern's program once, with an atomic exchange).
    nonisolated(unsafe) private static let marker = #/<!--\s*evidence:\s*([^\s()]+)\s*\(([^)]*)\)\s*-->/#.matchingSemantics(.unicodeScalar)
    nonisolated(unsafe) private static let anyMarker = #/<!--\s*\/?\s*evidence\s*:/#.matchingSemantics(.unicodeScalar)
    nonisolated(unsafe) private static let listItem = #/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/#.matchingSemantics(.unicodeScalar)
    /// A generated block's opening or closing comment, spaces aside: `<!-- evidence:checklist -->`, `<!-- /evidence:checklist -->`.
    nonisolated(unsafe) private static let blockComment = #/^<!--\s*(\/?)\s*evidence\s*:\s*([A-Za-z0-9_.-]*)\s*-->$/#.matchingSemantics(.unicodeScalar)

    private mutating func parse() {
        var index = 0
        if let front = FrontMatter(lines) {
            frontMatter = front
            index = front.lines.upperBound
            skippedLines.formUnion(front.lines)
            for field in [front.name, front.verified].compactMap({ $0 }) {
                if let problem = field.problem {
                    problems.append(Problem(line: field.line, column: field.column, message: problem, rule: .frontMatter))
                }
            }
        }
        var scanner = BlockScanner()
        var section = ""
        var sectionLevel = 0
        var open: (kind: String, line: Int, content: [String])?
        // The block of text being read: its words so far.
        var words = ""
        var tableRow = false
        var listItem = false
        func endBlock() {
            words = ""
            tableRow = false
            listItem = false
        }
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            let kind = scanner.next(line)
            if open != nil || kind == .code || kind == .comment { skippedLines.insert(number - 1) }
            guard kind != .code && kind != .comment else {
                open?.content.append(line)
                if open == nil { endBlock() }
                continue
            }
            let trimmed = line.trimmingWhitespace()
            if let (closing, name) = Self.blockDelimiter(trimmed) {
                skippedLines.insert(number - 1)
                endBlock()
                readBlockDelimiter(closing: closing, kind: name, line: number, open: &open)
                if let last = blocks.last, last.endLine == number { blocks[blocks.count - 1].sectionLevel = sectionLevel }
                continue
            }
            if var block = open {
                block.content.append(line)
                open = block
                continue
            }
            switch kind {
            case .blank, .rule:
                endBlock()
                continue
            case .heading(let level, let title):
                section = title
                sectionLevel = level
                endBlock()
                continue
            default: break
            }
            var body = line
            var bodyOffset = 0
            if trimmed.hasPrefix("|") {
                endBlock()
                tableRow = true
            } else if let item = line.prefixMatch(of: Self.listItem) {
                let range = item.range
                endBlock()
                listItem = true
                body = String(line[range.upperBound...])
                bodyOffset = line[..<range.upperBound].utf8.count
            } else if !words.isEmpty {
                words += " "
            }
            readMarkers(
                in: body, offset: bodyOffset, line: number, section: section, tableRow: tableRow, listItem: listItem,
                fullLine: line, words: &words)
            if tableRow { endBlock() }
        }
        if let block = open {
            problems.append(Problem(line: block.line, column: 1, message: "the \(block.kind) block is never closed with <!-- /evidence:\(block.kind) -->"))
        }
        problems.sort { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// A line that is a generated block's comment and nothing else: whether it closes, and the kind it names.
    private static func blockDelimiter(_ trimmed: String) -> (Bool, String)? {
        guard let match = trimmed.wholeMatch(of: blockComment) else { return nil }
        return (!match.1.isEmpty, String(match.2))
    }

    /// Opens or closes a generated block, or says why the comment cannot: an
    /// unknown kind, an opener inside an open block, a closer with no opener
    /// or of another kind. Any of these stops `lint --write`.
    private mutating func readBlockDelimiter(closing: Bool, kind: String, line: Int, open: inout (kind: String, line: Int, content: [String])?) {
        let comment = closing ? "<!-- /evidence:\(kind) -->" : "<!-- evidence:\(kind) -->"
        guard Self.blockKinds.contains(kind) else {
            problems.append(Problem(
                line: line, column: 1,
                message: "\(comment) is neither a claim marker (<!-- evidence: KEY (LABEL) -->) nor a generated block (\(Self.blockKinds.joined(separator: ", ")))"))
            return
        }
        switch (closing, open) {
        case (false, nil):
            open = (kind, line, [])
        case (false, let current?):
            problems.append(Problem(
                line: line, column: 1,
                message: "\(comment) opens a block inside the \(current.kind) block opened on line \(current.line); close that one first with <!-- /evidence:\(current.kind) -->"))
        case (true, let current?) where current.kind == kind:
            blocks.append(Block(kind: kind, startLine: current.line, endLine: line, content: current.content.map { $0 + "\n" }.joined()))
            open = nil
        case (true, let current?):
            problems.append(Problem(
                line: line, column: 1,
                message: "\(comment) closes no \(kind) block: the \(current.kind) block opened on line \(current.line) is open"))
        case (true, nil):
            problems.append(Problem(line: line, column: 1, message: "\(comment) closes no block: nothing opened it"))
        }
    }

    /// Reads the markers of one line of a block, adding its words to the block's.
    private mutating func readMarkers(
        in body: String, offset: Int, line: Int, section: String, tableRow: Bool, listItem: Bool, fullLine: String,
        words: inout String
    ) {
        let code = Self.codeSpans(in: body)
        func outsideCode(_ range: Range<String.Index>) -> Bool {
            let units = range.lowerBound.utf16Offset(in: body)..<range.upperBound.utf16Offset(in: body)
            return !code.contains { $0.overlaps(units) }
        }
        let found = body.matches(of: Self.marker).filter { outsideCode($0.range) }
        let loose = body.matches(of: Self.anyMarker).filter { outsideCode($0.range) }
        for candidate in loose where !found.contains(where: { $0.range.contains(candidate.range.lowerBound) }) {
            problems.append(Problem(
                line: line, column: offset + body[..<candidate.range.lowerBound].utf8.count + 1,
                message: "a claim marker reads <!-- evidence: KEY (LABEL) -->, with LABEL one of \(Label.names.joined(separator: ", "))"))
        }
        var cursor = body.startIndex
        var groupText: String?
        var group: [Int] = []
        for match in found {
            let (whole, key, label) = (match.range, match.1, match.2)
            let between = body[cursor..<whole.lowerBound]
            if groupText == nil || !between.trimmingWhitespace().isEmpty {
                // A new group: its words run from the block's start, or the previous group, to here.
                words += between
                groupText = tableRow ? Self.firstCell(fullLine) : words.trimmingWhitespace()
                group = []
                words = ""
            }
            let labelText = label.trimmingWhitespace()
            group.append(markers.count)
            markers.append(Marker(
                key: String(key), labelText: labelText,
                label: Label(rawValue: labelText.lowercased().replacingEvery(" ", with: "-")),
                line: line, column: offset + body[..<whole.lowerBound].utf8.count + 1, text: groupText ?? "",
                context: tableRow ? fullLine : groupText ?? "", inTable: tableRow, inListItem: listItem, group: [],
                section: section))
            for member in group { markers[member].group = group }
            cursor = whole.upperBound
        }
        words += body[cursor...]
    }

    /// The code spans of a line (a run of backticks to the next run as long), as UTF-16 ranges.
    static func codeSpans(in text: String) -> [Range<Int>] {
        let units = Array(text.utf16)
        let backtick = UInt16(UInt8(ascii: "`"))
        var spans: [Range<Int>] = []
        // How many backticks run from `start`.
        func run(at start: Int) -> Int {
            var length = 0
            while start + length < units.count && units[start + length] == backtick { length += 1 }
            return length
        }
        var index = 0
        while index < units.count {
            guard units[index] == backtick else {
                index += 1
                continue
            }
            let length = run(at: index)
            var probe = index + length
            var closed = false
            while probe < units.count {
                guard units[probe] == backtick else {
                    probe += 1
                    continue
                }
                let closing = run(at: probe)
                if closing == length {
                    spans.append(index..<probe + closing)
                    index = probe + closing
                    closed = true
                    break
                }
                probe += closing
            }
            if !closed { index += length }
        }
        return spans
    }

    /// Where a line's words start: after its list bullet and task box, if it has them.
    public static func bodyStart(_ line: String) -> String.Index {
        line.prefixMatch(of: listItem)?.range.upperBound ?? line.startIndex
    }

    /// The first cell of a table row.
    static func firstCell(_ line: String) -> String {
        var text = line.trimmingWhitespace()
        if text.hasPrefix("|") { text.removeFirst() }
        var cell = ""
        var escaped = false
        for character in text {
            if character == "|" && !escaped { break }
            escaped = character == "\\" && !escaped
            cell.append(character)
        }
        return cell.trimmingWhitespace()
    }

    /// The whole sentences at the end of a marker's words that state
    /// `statement` (normalised), the fewest that do; nil when none do. A
    /// marker may follow sentences that are no claim; only the claim's own
    /// sentences are its words.
    public static func trailingSentences(of text: String, stating statement: String) -> Substring? {
        for start in sentenceBoundaries(text[...]).starts.reversed() where normalized(String(text[start...])) == statement {
            return text[start...]
        }
        return nil
    }

    /// The last sentence of `text` (all of it when it has one).
    public static func lastSentence(of text: String) -> Substring {
        guard let start = sentenceBoundaries(text[...]).starts.last else { return text[...] }
        return text[start...]
    }

    /// Where sentences start in `text` (its first non-blank character, and
    /// the first after each sentence's end) and where they end (after ".",
    /// "!", "?", ":" or ";" and any closing quotes, brackets or emphasis,
    /// before white space or the end).
    public static func sentenceBoundaries(_ text: Substring) -> (starts: [String.Index], ends: [String.Index]) {
        var starts: [String.Index] = []
        var ends: [String.Index] = []
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return ([], []) }
        starts.append(first)
        var index = first
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            guard ".!?:;".contains(character) else { continue }
            var end = index
            while end < text.endIndex, ")]\"'”’*_".contains(text[end]) { end = text.index(after: end) }
            guard end == text.endIndex || text[end].isWhitespace else { continue }
            ends.append(end)
            if let next = text[end...].firstIndex(where: { !$0.isWhitespace }) { starts.append(next) }
            index = end
        }
        if let last = text.lastIndex(where: { !$0.isWhitespace }), ends.last.map({ $0 <= last }) ?? true {
            ends.append(text.index(after: last))
        }
        return (starts, ends)
    }

    /// Words as lint compares them: links reduced to their text (a
    /// parenthesis holding only links goes), emphasis marks and markers
    /// dropped, white space collapsed.
    public static func normalized(_ text: String) -> String {
        // Most lines of prose hold nothing the patterns below change: one scan of their bytes says so.
        if isAlreadyNormal(text) { return text.trimmingWhitespace() }
        var text = text
        // Comments (markers among them) go.
        text.replace(#/<!--.*?-->/#.matchingSemantics(.unicodeScalar), with: "")
        // A parenthesis of links only goes: "(see [a](u), [b](v))".
        text.replace(#/\s*\((?:\s*\[[^\]]*\]\([^)]*\)\s*,?)+\)/#.matchingSemantics(.unicodeScalar), with: "")
        // A link becomes its text.
        text.replace(#/\[([^\]]*)\]\([^)]*\)/#.matchingSemantics(.unicodeScalar)) { String($0.1) }
        text = withoutEmphasis(text)
        text.replace(#/\s+/#.matchingSemantics(.unicodeScalar), with: " ")
        text.replace(#/ ([.,;:])/#.matchingSemantics(.unicodeScalar)) { String($0.1) }
        return text.trimmingWhitespace()
    }

    /// Whether `normalized` would change nothing but the ends: ASCII with no
    /// comment, parenthesis, link, emphasis mark, run of blanks or blank
    /// before punctuation.
    private static func isAlreadyNormal(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x80...0xFF, 0x00...0x1F, UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "*"), UInt8(ascii: "_"):
                return false
            case UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"):
                if previous == UInt8(ascii: " ") { return false }
            default:
                break
            }
            previous = byte
        }
        return true
    }

    /// Without emphasis marks: every "**", "__" and "*", and each "_" with no
    /// letter or digit before it or none after it (a word_with_underscores
    /// keeps them). Before and after are read in the text as given.
    static func withoutEmphasis(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        func isWordCharacter(_ index: Int) -> Bool {
            guard index >= 0, index < scalars.count else { return false }
            let scalar = scalars[index]
            return scalar.isASCII && (CharacterSetASCII.alphanumeric(scalar))
        }
        var kept = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if scalar == "*" || scalar == "_", next == scalar {
                index += 2
            } else if scalar == "*" || (scalar == "_" && (!isWordCharacter(index - 1) || !isWordCharacter(index + 1))) {
                index += 1
            } else {
                kept.append(scalar)
                index += 1
            }
        }
        return String(kept)
    }
}
