/// The block structure of Markdown as CommonMark draws it, line by line, as
/// far as lint needs it: which lines are code (fenced, with their fences, or
/// indented four columns past their list item when no paragraph is open),
/// which sit inside an HTML comment that spans lines, which are headings,
/// and which are prose. Nothing in code or a comment is a marker, a block or
/// a place for one.
struct BlockScanner {
    enum Kind: Equatable {
        case blank
        case code
        /// Inside an HTML comment opened on an earlier line (its closing line included).
        case comment
        case heading(level: Int, text: String)
        /// A thematic break or a setext underline: no words.
        case rule
        case prose
    }

    private var fence: (character: UInt8, length: Int, base: Int)?
    private var indentedCode = false
    private var inComment = false
    /// Whether the previous line left a paragraph open (so an indented line continues it).
    private var paragraph = false
    /// The content columns of the list items the line may be inside, innermost last.
    private var items: [Int] = []

    mutating func next(_ line: String) -> Kind {
        if inComment {
            if line.utf8.contains(subsequence: Self.commentClose) { inComment = false }
            return .comment
        }
        let bytes = Array(line.utf8)
        let (indent, start) = Self.indentation(bytes)
        guard start < bytes.count else {
            paragraph = false
            return fence != nil || indentedCode ? .code : .blank
        }
        let rest = bytes[start...]
        if let open = fence {
            if indent >= open.base {
                if indent - open.base <= 3, Self.closes(rest, open.character, open.length) { fence = nil }
                return .code
            }
            // A line left of the fence's list item ends the item, and the fence with it.
            fence = nil
        }
        while let content = items.last, indent < content {
            if paragraph && !Self.startsBlock(rest) { return .prose }
            items.removeLast()
        }
        let base = items.last ?? 0
        if indent - base >= 4 {
            if paragraph { return .prose }
            indentedCode = true
            return .code
        }
        indentedCode = false
        if let (character, length) = Self.fenceOpener(rest) {
            fence = (character, length, base)
            paragraph = false
            return .code
        }
        if Self.isRule(rest) || paragraph && Self.isSetextUnderline(rest) {
            paragraph = false
            return .rule
        }
        if let heading = Self.heading(rest) {
            paragraph = false
            return .heading(level: rest.prefix { $0 == UInt8(ascii: "#") }.count, text: heading)
        }
        if let content = Self.listItemContent(rest, indent: indent) {
            items.append(content)
            paragraph = true
            return .prose
        }
        if rest.starts(with: Self.commentOpen) {
            // An HTML block: it ends on the line that closes the comment.
            paragraph = false
            if !Self.closesLastComment(rest) { inComment = true }
            return .prose
        }
        paragraph = true
        if !Self.closesLastComment(rest) { inComment = true }
        return .prose
    }

    // MARK: - Pieces of a line

    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)

    /// The line's indentation in columns (a tab to the next multiple of 4) and where its text starts.
    static func indentation(_ bytes: [UInt8]) -> (columns: Int, start: Int) {
        var columns = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: " ") {
                columns += 1
            } else if bytes[index] == UInt8(ascii: "\t") {
                columns += 4 - columns % 4
            } else {
                break
            }
            index += 1
        }
        return (columns, index)
    }

    /// Whether every `<!--` of the text is closed by a later `-->` on it. A
    /// `\<!--` is text, as CommonMark reads a backslash before `<` (the
    /// escaping a generated block gives a name that holds one).
    private static func closesLastComment(_ text: ArraySlice<UInt8>) -> Bool {
        var end = text.endIndex
        while let open = text[..<end].lastRange(of: commentOpen) {
            let backslashes = text[..<open.lowerBound].reversed().prefix { $0 == UInt8(ascii: "\\") }.count
            guard backslashes % 2 == 1 else { return text[open.upperBound...].contains(subsequence: commentClose) }
            end = open.lowerBound
        }
        return true
    }

    /// Three or more backticks or tildes (a backtick fence's info string holds no backtick).
    private static func fenceOpener(_ text: ArraySlice<UInt8>) -> (UInt8, Int)? {
        guard let first = text.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") else { return nil }
        let length = text.prefix { $0 == first }.count
        guard length >= 3 else { return nil }
        if first == UInt8(ascii: "`") && text.dropFirst(length).contains(UInt8(ascii: "`")) { return nil }
        return (first, length)
    }

    /// A closing fence: the opener's character, at least as many, then only spaces.
    private static func closes(_ text: ArraySlice<UInt8>, _ character: UInt8, _ length: Int) -> Bool {
        let run = text.prefix { $0 == character }.count
        return run >= length && text.dropFirst(run).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// `***`, `---` or `___` (three or more, spaces between allowed).
    private static func isRule(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first, [UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "_")].contains(first) else { return false }
        let marks = text.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        return marks.count >= 3 && marks.allSatisfy { $0 == first }
    }

    private static func isSetextUnderline(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first, first == UInt8(ascii: "=") || first == UInt8(ascii: "-") else { return false }
        let run = text.prefix { $0 == first }.count
        return text.dropFirst(run).allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// An ATX heading's text: one to six `#`, then a space or the end.
    private static func heading(_ text: ArraySlice<UInt8>) -> String? {
        let level = text.prefix { $0 == UInt8(ascii: "#") }.count
        guard (1...6).contains(level) else { return nil }
        let after = text.dropFirst(level)
        guard after.isEmpty || after.first == UInt8(ascii: " ") || after.first == UInt8(ascii: "\t") else { return nil }
        var words = String(decoding: after, as: UTF8.self).trimmingWhitespace()
        // A closing run of '#' after a space is not part of the text.
        if let hashes = words.lastIndex(where: { $0 != "#" }), hashes < words.index(before: words.endIndex),
            words[hashes] == " "
        {
            words = String(words[..<hashes]).trimmingWhitespace()
        } else if words.allSatisfy({ $0 == "#" }) {
            words = ""
        }
        return words
    }

    /// A list item's content column: after `-`, `+`, `*` or `1.`/`1)` and one to four spaces.
    private static func listItemContent(_ text: ArraySlice<UInt8>, indent: Int) -> Int? {
        guard let first = text.first else { return nil }
        var width: Int
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            width = 1
        } else {
            let digits = text.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            guard (1...9).contains(digits), digits < text.count,
                text[text.startIndex + digits] == UInt8(ascii: ".") || text[text.startIndex + digits] == UInt8(ascii: ")")
            else { return nil }
            width = digits + 1
        }
        let after = text.dropFirst(width)
        guard after.isEmpty || after.first == UInt8(ascii: " ") || after.first == UInt8(ascii: "\t") else { return nil }
        let spaces = after.prefix { $0 == UInt8(ascii: " ") }.count
        if after.count == spaces || spaces > 4 { return indent + width + 1 }
        return indent + width + max(spaces, 1)
    }

    /// Whether a line starts a block of its own, so it cannot continue a paragraph lazily.
    private static func startsBlock(_ text: ArraySlice<UInt8>) -> Bool {
        fenceOpener(text) != nil || isRule(text) || heading(text) != nil || listItemContent(text, indent: 0) != nil
            || text.first == UInt8(ascii: ">") || text.starts(with: commentOpen)
    }
}

extension Sequence where Element == UInt8 {
    /// Whether the bytes hold `needle` somewhere.
    func contains(subsequence needle: [UInt8]) -> Bool {
        let bytes = Array(self)
        guard needle.count <= bytes.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension ArraySlice where Element == UInt8 {
    /// The last place `needle` occurs.
    func lastRange(of needle: [UInt8]) -> Range<Int>? {
        guard needle.count <= count else { return nil }
        for start in stride(from: endIndex - needle.count, through: startIndex, by: -1)
        where self[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
