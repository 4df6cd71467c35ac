/// Writes a document as its content is produced: headings, paragraphs, lists
/// and tables, each made of inline pieces (text, links, code, line breaks).
/// The content of a report is written once, against this protocol; each
/// format (Markdown, HTML) is one implementation, which owns its escaping.
///
/// A block opens with `begin…`, receives inline pieces (or items, rows and
/// cells), and closes with `end…`. Nothing is buffered beyond a block, so a
/// run log of a million rows streams through without being held.
public protocol DocumentWriter: AnyObject {
    func beginHeading(level: Int, anchor: String?)
    func endHeading()
    func beginParagraph()
    func endParagraph()
    /// A bullet list (`checked` nil for its items) or a task list (true or false).
    func beginList()
    func beginItem(checked: Bool?)
    func endItem()
    func endList()
    func beginTable(columns: [String])
    func beginRow(anchor: String?)
    func beginCell()
    func endCell()
    func endRow()
    func endTable()

    /// Plain text, escaped for the format.
    func text(_ text: String)
    /// A link to an http(s) URL or an in-page anchor (`#claim-…`).
    func link(_ text: String, to url: String)
    /// A code span.
    func code(_ text: String)
    /// Text written by people, whose well-formed code spans stay code.
    func prose(_ text: String)
    /// A line break inside a paragraph, an item or a cell.
    func lineBreak()

    /// Writes what is left; throws the first write error.
    func finish() throws
}

extension DocumentWriter {
    /// Text with its well-formed code spans kept as code, in any format.
    public func prose(_ text: String) {
        for piece in Markdown.codeSpans(in: text) {
            if piece.isCode {
                code(piece.text)
            } else {
                self.text(piece.text)
            }
        }
    }

    public func heading(_ level: Int, _ text: String, anchor: String? = nil) {
        beginHeading(level: level, anchor: anchor)
        self.text(text)
        endHeading()
    }

    /// A paragraph of one or more lines of plain text.
    public func paragraph(_ lines: String...) {
        beginParagraph()
        for (index, line) in lines.enumerated() {
            if index > 0 { lineBreak() }
            text(line)
        }
        endParagraph()
    }

    /// A bullet list of plain-text items.
    public func list(_ items: [String]) {
        beginList()
        for item in items {
            beginItem(checked: nil)
            text(item)
            endItem()
        }
        endList()
    }

    /// A cell of plain text.
    public func cell(_ text: String) {
        beginCell()
        self.text(text)
        endCell()
    }

    /// A row of plain-text cells.
    public func row(_ cells: [String], anchor: String? = nil) {
        beginRow(anchor: anchor)
        for cell in cells { self.cell(cell) }
        endRow()
    }

    /// A whole table of plain-text cells.
    public func table(columns: [String], rows: [[String]]) {
        beginTable(columns: columns)
        for cells in rows { row(cells) }
        endTable()
    }
}
