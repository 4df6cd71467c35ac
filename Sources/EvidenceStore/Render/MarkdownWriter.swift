/// Writes a document as GitHub-flavoured Markdown into a sink: blocks apart by
/// one blank line, every text escaped (`Markdown.escape`), links with their
/// destinations percent-encoded, tables with `|` rows. It gathers its bytes in
/// a buffer of its own and hands them to the sink in large pieces.
public final class MarkdownWriter: FragmentingWriter {
    private enum Place {
        case outside, heading, paragraph, item, cell
    }

    private let sink: TextSink
    private var buffer: [UInt8] = []
    private var place = Place.outside
    private var wroteBlock = false
    /// Where the current cell's content starts in the buffer, to tell an empty cell.
    private var cellStart = 0
    private static let flushSize = 1 << 16

    public init(into sink: TextSink) {
        self.sink = sink
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    public func fragment(into sink: TextSink) -> any FragmentingWriter {
        let writer = MarkdownWriter(into: sink)
        writer.wroteBlock = true
        return writer
    }

    public var position: Int { sink.position + buffer.count }

    public func appendFragment(at path: String, ranges: [Range<Int>]) throws {
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        try sink.appendFile(path, ranges: ranges)
    }

    private func write(_ literal: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Hands the buffer to the sink between blocks and rows, never inside a cell.
    private func flushIfFull() {
        if buffer.count >= Self.flushSize {
            sink.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Starts a block: a blank line before every block but the first.
    private func startBlock() {
        flushIfFull()
        if wroteBlock { write("\n") }
        wroteBlock = true
    }

    public func beginHeading(level: Int, anchor: String?) {
        startBlock()
        buffer.append(contentsOf: repeatElement(UInt8(ascii: "#"), count: max(1, min(level, 6))))
        write(" ")
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
        Markdown.escape(text, into: &buffer)
    }

    public func link(_ text: String, to url: String) {
        write("[")
        Markdown.escape(text, into: &buffer)
        write("](")
        buffer.append(contentsOf: Markdown.encodeURL(url).utf8)
        write(")")
    }

    public func code(_ text: String) {
        Markdown.codeSpan(text, inTable: place == .cell, into: &buffer)
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
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        try sink.flush()
    }
}
