/// Writes a document as GitHub-flavoured Markdown into a sink: blocks apart by
/// one blank line, every text escaped (`Markdown.escape`), links with their
/// destinations percent-encoded, tables with `|` rows. It gathers its bytes in
/// a buffer of its own and hands them to the sink in large pieces.
public final class MarkdownWriter: BufferedWriter, DocumentWriter {
    private enum Place {
        case outside, heading, paragraph, item, cell
    }

    private var place = Place.outside
    /// Whether the next text starts a line, where block syntax must be escaped.
    private var atLineStart = false
    private var wroteBlock = false
    /// Where the current cell's content starts in the buffer, to tell an empty cell.
    private var cellStart = 0
    /// Where the current heading's text starts in the buffer.
    private var headingStart = 0
    /// Set for a block inside another document: its title (level 1) is left
    /// out and its other headings start at this level, below the section it
    /// sits in.
    public var headingBase: Int?
    /// Where a left-out heading started, with whether a block was written before it.
    private var dropped: (start: Int, wroteBlock: Bool)?
    /// Set for a long document that cites the same pages many times: each
    /// link is written `[text][n]` and each destination defined once, at the
    /// end (`[n]: URL`), numbered in the order they first appear.
    public var referenceLinks = false
    private var references: [String: Int] = [:]
    private var referenceOrder: [String] = []
    public override init(into sink: TextSink) {
        super.init(into: sink)
    }

    /// Starts a block: a blank line before every block but the first.
    private func startBlock() {
        flushIfFull()
        if wroteBlock { write("\n") }
        wroteBlock = true
    }

    public func beginHeading(level: Int, anchor: String?) {
        var level = level
        if let base = headingBase {
            if level <= 1 {
                dropped = (buffer.count, wroteBlock)
                place = .heading
                headingStart = buffer.count
                return
            }
            level = base + level - 2
        }
        startBlock()
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "#"), count: max(1, min(level, 6))))
        write(" ")
        place = .heading
        headingStart = buffer.count
    }

    /// A heading's own closing "#"s would be taken off: each is escaped.
    public func endHeading() {
        if let left = dropped {
            buffer.removeLast(buffer.count - left.start)
            wroteBlock = left.wroteBlock
            dropped = nil
            place = .outside
            return
        }
        var index = buffer.count - 1
        while index >= headingStart, buffer[index] == UInt8(ascii: "#") { index -= 1 }
        if index < buffer.count - 1, index < headingStart || buffer[index] == UInt8(ascii: " ") {
            let hashes = buffer.count - 1 - index
            buffer.removeLast(hashes)
            for _ in 0..<hashes { write("\\#") }
        }
        write("\n")
        place = .outside
    }

    public func beginParagraph() {
        startBlock()
        place = .paragraph
        atLineStart = true
    }

    public func endParagraph() {
        write("\n")
        place = .outside
    }

    public func beginList() {
        startBlock()
    }

    public func beginItem(checked: Bool?) {
        switch checked {
        case nil: write("- ")
        case true?: write("- [x] ")
        case false?: write("- [ ] ")
        }
        place = .item
        atLineStart = true
    }

    public func endItem() {
        write("\n")
        place = .outside
        flushIfFull()
    }

    public func endList() {}

    public func beginTable(columns: [String]) {
        startBlock()
        write("|")
        for column in columns {
            write(" ")
            Markdown.escape(column, into: &buffer)
            write(" |")
        }
        write("\n|")
        for _ in columns { write("---|") }
        write("\n")
    }

    public func beginRow(anchor: String?) {
        write("|")
    }

    public func beginCell() {
        write(" ")
        cellStart = buffer.count
        place = .cell
    }

    /// An empty cell holds a space, so the row keeps its shape in any renderer.
    public func endCell() {
        if buffer.count == cellStart { write(" ") }
        write(" |")
        place = .outside
    }

    public func endRow() {
        write("\n")
        flushIfFull()
    }

    public func endTable() {}

    public func text(_ text: String) {
        guard !text.isEmpty else { return }
        if atLineStart {
            Markdown.escapeLineStart(text, into: &buffer)
            atLineStart = false
        } else {
            Markdown.escape(text, into: &buffer)
        }
    }

    public func link(_ text: String, to url: String) {
        atLineStart = false
        write("[")
        Markdown.escape(text, into: &buffer)
        guard referenceLinks else {
            write("](")
            buffer.append(contentsOf: Markdown.encodeURL(url).utf8)
            return write(")")
        }
        let encoded = Markdown.encodeURL(url)
        let number = references[encoded] ?? {
            referenceOrder.append(encoded)
            references[encoded] = referenceOrder.count
            return referenceOrder.count
        }()
        write("][")
        buffer.append(contentsOf: String(number).utf8)
        write("]")
    }

    public func code(_ text: String) {
        atLineStart = false
        Markdown.codeSpan(text, inTable: place == .cell, into: &buffer)
    }

    /// In a paragraph a new line; in an item a hard line break that stays in
    /// the item; in a cell, which cannot hold one, "; ". Never HTML.
    public func lineBreak() {
        switch place {
        case .paragraph:
            write("\n")
            atLineStart = true
        case .item:
            write("\\\n  ")
            atLineStart = true
        default:
            write("; ")
        }
    }

    public func finish() throws {
        if !referenceOrder.isEmpty {
            // Link reference definitions: a block of their own, shown by no renderer.
            startBlock()
            for (index, url) in referenceOrder.enumerated() {
                flushIfFull()
                write("[")
                buffer.append(contentsOf: (String(index + 1) + "]: " + url).utf8)
                write("\n")
            }
            referenceOrder = []
            references = [:]
        }
        try flushAll()
    }
}
