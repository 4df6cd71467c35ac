#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a document as HTML into a sink: headings with ids, paragraphs,
/// lists, tables in a scrolling box, every text escaped (`HTML.escape`), links
/// only to http(s) URLs and in-page anchors. A page (`beginPage`, ended by
/// `finish`) wraps it in one self-contained file; what the report draws beside its text
/// goes in through `markup`, which only this module's documents call with
/// markup they built from escaped values.
public final class HTMLWriter: BufferedWriter, DocumentWriter {
    private enum Place {
        case outside, heading, paragraph, item, cell
    }

    private var place = Place.outside
    /// Where the current heading's text starts, to make its id from it.
    private var headingStart = 0
    private var headingLevel = 1
    private var headingAnchor: String?
    private var ids: Set<String> = []
    /// Set between `beginPage` and the end of the page, which `finish` writes.
    private var page: (open: Bool, script: String?) = (false, nil)
    public override init(into sink: TextSink) {
        super.init(into: sink)
    }

    // MARK: - The page

    /// The page's head (its title, styles and a policy that allows no request
    /// to anywhere) and the opening of its body.
    public func beginPage(title: String, style: String, script: String?) {
        write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        write("<meta name=\"color-scheme\" content=\"light dark\">\n")
        write("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'")
        if let script {
            // Only this script runs: its digest is the policy's.
            markup("; script-src 'sha256-" + Data(SHA256.digest(bytes: Array(script.utf8))).base64EncodedString() + "'")
        }
        write("\">\n<title>")
        HTML.escape(title, into: &buffer)
        write("</title>\n<style>\n")
        markup(style)
        write("</style>\n</head>\n<body>\n<main>\n")
        page = (true, script)
    }

    /// Closes the body, with the page's script last, where it finds every element.
    private func endPage(script: String?) {
        write("</main>\n")
        if let script {
            write("<script>")
            markup(script)
            write("</script>\n")
        }
        write("</body>\n</html>\n")
    }

    /// Markup written as it is. Only for markup built here from escaped values.
    func markup(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Markup that is a whole block or more: the buffer may go to the sink first.
    func block(_ text: String) {
        flushIfFull()
        buffer.append(contentsOf: text.utf8)
    }

    /// An id no other element of the page has: `name`, then `name-2`, `name-3`…
    func uniqueID(_ name: String) -> String {
        var id = name
        var number = 1
        while ids.contains(id) {
            number += 1
            id = name + "-\(number)"
        }
        ids.insert(id)
        return id
    }

    // MARK: - Blocks

    public func beginHeading(level: Int, anchor: String?) {
        flushIfFull()
        headingLevel = max(1, min(level, 6))
        headingAnchor = anchor
        place = .heading
        headingStart = buffer.count
    }

    /// The heading is written once its text is known, so that a heading
    /// without an anchor gets an id made from its words.
    public func endHeading() {
        let text = Array(buffer[headingStart...])
        buffer.removeLast(buffer.count - headingStart)
        let id = headingAnchor.map(HTML.anchor) ?? uniqueID(Self.slug(String(decoding: text, as: UTF8.self)))
        markup("<h\(headingLevel) id=\"\(id)\">")
        buffer.append(contentsOf: text)
        markup("</h\(headingLevel)>\n")
        place = .outside
    }

    /// "Still needs a device" becomes "still-needs-a-device"; references and
    /// other characters become single hyphens.
    static func slug(_ escaped: String) -> String {
        var slug = ""
        var inReference = false
        for scalar in escaped.lowercased().unicodeScalars {
            if scalar == "&" { inReference = true }
            if inReference {
                if scalar == ";" { inReference = false }
                continue
            }
            if CharacterSetASCII.alphanumeric(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "section" : slug
    }

    public func beginParagraph() {
        flushIfFull()
        write("<p>")
        place = .paragraph
    }

    public func endParagraph() {
        write("</p>\n")
        place = .outside
    }

    public func beginList() {
        flushIfFull()
        write("<ul>\n")
    }

    public func beginItem(checked: Bool?) {
        switch checked {
        case nil: write("<li>")
        case true?: write("<li class=\"task done\"><span class=\"box\" role=\"img\" aria-label=\"done\">☑</span> ")
        case false?: write("<li class=\"task\"><span class=\"box\" role=\"img\" aria-label=\"not done\">☐</span> ")
        }
        place = .item
    }

    public func endItem() {
        write("</li>\n")
        place = .outside
        flushIfFull()
    }

    public func endList() {
        write("</ul>\n")
    }

    public func beginTable(columns: [String]) {
        flushIfFull()
        write("<div class=\"table\"><table>\n<thead><tr>")
        for column in columns {
            write("<th scope=\"col\">")
            HTML.escape(column, into: &buffer)
            write("</th>")
        }
        write("</tr></thead>\n<tbody>\n")
    }

    public func beginRow(anchor: String?) {
        if let anchor {
            write("<tr id=\"")
            markup(HTML.anchor(anchor))
            write("\">")
        } else {
            write("<tr>")
        }
    }

    public func beginCell() {
        write("<td>")
        place = .cell
    }

    /// HTML lets a cell's and a row's end tags go when another cell, row or
    /// the table's end follows, which is always so here: a run log of a
    /// million rows is 30 MB shorter without them.
    public func endCell() {
        place = .outside
    }

    public func endRow() {
        write("\n")
        flushIfFull()
    }

    public func endTable() {
        write("</tbody>\n</table></div>\n")
    }

    // MARK: - Inline pieces

    public func text(_ text: String) {
        HTML.escape(text, into: &buffer)
    }

    /// A link to the web or within the page; any other destination leaves the text alone.
    public func link(_ text: String, to url: String) {
        guard let href = HTML.href(url) else { return self.text(text) }
        write("<a href=\"")
        markup(href)
        write("\">")
        HTML.escape(text, into: &buffer)
        write("</a>")
    }

    public func code(_ text: String) {
        write("<code>")
        HTML.escape(text, into: &buffer)
        write("</code>")
    }

    public func lineBreak() {
        write("<br>")
    }

    /// Ends the page, if one was begun, and writes what is left.
    public func finish() throws {
        if page.open {
            endPage(script: page.script)
            page = (false, nil)
        }
        try flushAll()
    }
}
