import Foundation

/// A Markdown document as `evidence lint` reads it: its front matter, the
/// claim markers (`<!-- evidence: KEY (LABEL) -->`) with the words each marks,
/// and its generated blocks (`<!-- evidence:checklist -->` …
/// `<!-- /evidence:checklist -->`). Code fences are skipped; lines and
/// columns count from 1, columns in bytes, as compilers count them.
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
    }

    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var column: Int
        public var message: String
    }

    public var lines: [String]
    /// `name:` at the top level of the front matter.
    public var name: String?
    /// `verified:` at any depth of the front matter: its value and where the value starts.
    public var verified: (value: String, line: Int, column: Int)?
    public var markers: [Marker] = []
    public var blocks: [Block] = []
    /// Markers that cannot be read, blocks that never close.
    public var problems: [Problem] = []
    /// The lines (by index, from 0) that are not the document's prose, so no
    /// marker is read or goes there: the front matter, code fences and
    /// generated blocks, with the lines that open and close them.
    public var skippedLines: Set<Int> = []

    /// The generated blocks a document may hold.
    public static let blockKinds = ["checklist", "untested", "sources"]

    public init(text: String) {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        self.lines = lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        parse()
    }

    private static let marker = try? NSRegularExpression(pattern: #"<!--\s*evidence:\s*([^\s()]+)\s*\(([^)]*)\)\s*-->"#)
    private static let anyMarker = try? NSRegularExpression(pattern: #"<!--\s*/?\s*evidence\s*:"#)
    private static let listItem = try? NSRegularExpression(pattern: #"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?"#)

    private mutating func parse() {
        var index = 0
        if lines.first == "---" {
            index = 1
            while index < lines.count && lines[index] != "---" && lines[index] != "..." {
                readFrontMatter(lines[index], line: index + 1)
                index += 1
            }
            index += 1
            skippedLines.formUnion(0..<min(index, lines.count))
        }
        var fence: String?
        var section = ""
        var open: (kind: String, line: Int, content: [String])?
        // The block of text being read: its words so far, and where its last marker group ended.
        var words = ""
        var tableRow = false
        func endBlock() {
            words = ""
            tableRow = false
        }
        while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let current = fence {
                if trimmed.hasPrefix(current) { fence = nil }
                skippedLines.insert(number - 1)
                continue
            }
            if open != nil { skippedLines.insert(number - 1) }
            if let kind = Self.blockComment(trimmed, closing: true), var block = open {
                if kind == block.kind {
                    blocks.append(Block(kind: kind, startLine: block.line, endLine: number, content: block.content.map { $0 + "\n" }.joined()))
                    open = nil
                } else {
                    block.content.append(line)
                    open = block
                }
                continue
            }
            if var block = open {
                block.content.append(line)
                open = block
                continue
            }
            if let kind = Self.blockComment(trimmed, closing: false) {
                open = (kind, number, [])
                skippedLines.insert(number - 1)
                endBlock()
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                skippedLines.insert(number - 1)
                endBlock()
                continue
            }
            if trimmed.isEmpty {
                endBlock()
                continue
            }
            if trimmed.hasPrefix("#") {
                section = trimmed.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                endBlock()
                continue
            }
            var body = line
            var bodyOffset = 0
            if trimmed.hasPrefix("|") {
                endBlock()
                tableRow = true
            } else if let item = Self.listItem?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let range = Range(item.range, in: line)
            {
                endBlock()
                body = String(line[range.upperBound...])
                bodyOffset = line[..<range.upperBound].utf8.count
            } else if !words.isEmpty {
                words += " "
            }
            readMarkers(
                in: body, offset: bodyOffset, line: number, section: section, tableRow: tableRow, fullLine: line,
                words: &words)
            if tableRow { endBlock() }
        }
        if let block = open {
            problems.append(Problem(line: block.line, column: 1, message: "the \(block.kind) block is never closed with <!-- /evidence:\(block.kind) -->"))
        }
    }

    /// `<!-- evidence:checklist -->` or, closing, `<!-- /evidence:checklist -->`: the kind, or nil.
    private static func blockComment(_ trimmed: String, closing: Bool) -> String? {
        let prefix = closing ? "<!-- /evidence:" : "<!-- evidence:"
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(" -->") else { return nil }
        let kind = String(trimmed.dropFirst(prefix.count).dropLast(4))
        return blockKinds.contains(kind) ? kind : nil
    }

    private mutating func readFrontMatter(_ line: String, line number: Int) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let key = line[..<colon].trimmingCharacters(in: .whitespaces)
        var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let valueColumn = line.utf8.count - value.utf8.count + 1
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = String(value.dropFirst().dropLast())
        }
        if key == "name" && !line.hasPrefix(" ") && !line.hasPrefix("\t") { name = value }
        if key == "verified" && verified == nil { verified = (value, number, valueColumn) }
    }

    /// Reads the markers of one line of a block, adding its words to the block's.
    private mutating func readMarkers(
        in body: String, offset: Int, line: Int, section: String, tableRow: Bool, fullLine: String, words: inout String
    ) {
        let range = NSRange(body.startIndex..., in: body)
        let found = Self.marker?.matches(in: body, range: range) ?? []
        let loose = Self.anyMarker?.matches(in: body, range: range) ?? []
        for candidate in loose where !found.contains(where: { NSLocationInRange(candidate.range.location, $0.range) }) {
            if let start = Range(candidate.range, in: body) {
                problems.append(Problem(
                    line: line, column: offset + body[..<start.lowerBound].utf8.count + 1,
                    message: "a claim marker reads <!-- evidence: KEY (LABEL) -->, with LABEL one of \(Label.names.joined(separator: ", "))"))
            }
        }
        var cursor = body.startIndex
        var groupText: String?
        var group: [Int] = []
        for match in found {
            guard let whole = Range(match.range, in: body), let key = Range(match.range(at: 1), in: body),
                let label = Range(match.range(at: 2), in: body)
            else { continue }
            let between = body[cursor..<whole.lowerBound]
            if groupText == nil || !between.trimmingCharacters(in: .whitespaces).isEmpty {
                // A new group: its words run from the block's start, or the previous group, to here.
                words += between
                groupText = tableRow ? Self.firstCell(fullLine) : words.trimmingCharacters(in: .whitespaces)
                group = []
                words = ""
            }
            let labelText = body[label].trimmingCharacters(in: .whitespaces)
            group.append(markers.count)
            markers.append(Marker(
                key: String(body[key]), labelText: labelText,
                label: Label(rawValue: labelText.lowercased().replacingOccurrences(of: " ", with: "-")),
                line: line, column: offset + body[..<whole.lowerBound].utf8.count + 1, text: groupText ?? "",
                context: tableRow ? fullLine : groupText ?? "", inTable: tableRow, group: [], section: section))
            for member in group { markers[member].group = group }
            cursor = whole.upperBound
        }
        words += body[cursor...]
    }

    /// Where a line's words start: after its list bullet and task box, if it has them.
    public static func bodyStart(_ line: String) -> String.Index {
        guard let item = listItem?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let range = Range(item.range, in: line)
        else { return line.startIndex }
        return range.upperBound
    }

    /// The first cell of a table row.
    static func firstCell(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("|") { text.removeFirst() }
        var cell = ""
        var escaped = false
        for character in text {
            if character == "|" && !escaped { break }
            escaped = character == "\\" && !escaped
            cell.append(character)
        }
        return cell.trimmingCharacters(in: .whitespaces)
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
        var text = text
        for (expression, template) in normalizing {
            text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The rewrites of `normalized`, in order, compiled once.
    private static let normalizing: [(NSRegularExpression, String)] = [
        (#"<!--.*?-->"#, ""),
        (#"\s*\((?:\s*\[[^\]]*\]\([^)]*\)\s*,?)+\)"#, ""),
        (#"\[([^\]]*)\]\([^)]*\)"#, "$1"),
        (#"(\*\*|__|\*|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))"#, ""),
        (#"\s+"#, " "),
        (#" ([.,;:])"#, "$1"),
    ].compactMap { pattern, template in (try? NSRegularExpression(pattern: pattern)).map { ($0, template) } }
}
