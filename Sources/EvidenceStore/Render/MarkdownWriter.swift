/// Writes a document as GitHub-flavoured Markdown into a sink: blocks apart by
/// one blank line, every text escaped (`Markdown.escape`), links with their
/// destinations percent-encoded, tables with `|` rows.
public final class MarkdownWriter: DocumentWriter {
    private enum Place {
        case outside, heading, paragraph, item, cell
    }

    private let sink: TextSink
    private var place = Place.outside
    private var wroteBlock = false
    /// Where the current cell's content starts in the sink, to tell an empty cell.
    private var cellStart = 0

    public init(into sink: TextSink) {
        self.sink = sink
    }

    private func write(_ literal: StaticString) {
        sink.append { $0.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)) }
    }

    /// Starts a block: a blank line before every block but the first.
    private func startBlock() {
        if wroteBlock { write("\n") }
        wroteBlock = true
    }

    public func beginHeading(level: Int, anchor: String?) {
        startBlock()
        sink.write(String(repeating: "#", count: max(1, min(level, 6))) + " ")
        place = .heading
    }

    public func endHeading() {
        write("\n")
        place = .outside
    }

    public func beginParagraph() {
        startBlock()
        place = .paragraph
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
    }

    public func endItem() {
        write("\n")
        place = .outside
    }

    public func endList() {}

    public func beginTable(columns: [String]) {
        startBlock()
        sink.append { buffer in
            buffer.append(UInt8(ascii: "|"))
            for column in columns {
                buffer.append(UInt8(ascii: " "))
                Markdown.escape(column, into: &buffer)
                buffer.append(contentsOf: " |".utf8)
            }
            buffer.append(UInt8(ascii: "\n"))
            buffer.append(UInt8(ascii: "|"))
            for _ in columns { buffer.append(contentsOf: "---|".utf8) }
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    public func beginRow(anchor: String?) {
        write("|")
    }

    public func beginCell() {
        write(" ")
        cellStart = sink.position
        place = .cell
    }

    /// An empty cell holds a space, so the row keeps its shape in any renderer.
    public func endCell() {
        if sink.position == cellStart { write(" ") }
        write(" |")
        place = .outside
    }

    public func endRow() {
        write("\n")
    }

    public func endTable() {}

    public func text(_ text: String) {
        sink.append { Markdown.escape(text, into: &$0) }
    }

    public func link(_ text: String, to url: String) {
        sink.append { buffer in
            buffer.append(UInt8(ascii: "["))
            Markdown.escape(text, into: &buffer)
            buffer.append(contentsOf: "](".utf8)
            buffer.append(contentsOf: Markdown.encodeURL(url).utf8)
            buffer.append(UInt8(ascii: ")"))
        }
    }

    public func code(_ text: String) {
        let inTable = place == .cell
        sink.append { Markdown.codeSpan(text, inTable: inTable, into: &$0) }
    }

    /// In a paragraph a new line; in a cell or an item, where a new line would
    /// end the row or the item, a `<br>`.
    public func lineBreak() {
        if place == .paragraph {
            write("\n")
        } else {
            write("<br>")
        }
    }

    public func finish() throws {
        try sink.flush()
    }
}
