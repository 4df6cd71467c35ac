import Foundation

/// Renders Markdown with cmark-gfm (Debian's package, installed by .ci/run) and
/// reads back the structure of the HTML, to prove escaped values stay inert.
enum CommonMark {
    struct Table {
        var headerCells: Int
        /// The number of cells of each body row.
        var rows: [Int]
        /// The text of each body row's cells.
        var cellTexts: [[String]]
    }

    /// With `unsafe`, raw HTML is let through, so any that escaped the escaping
    /// shows as a tag; without it, as safe renderers do, it is omitted with a comment.
    static func html(_ markdown: String, unsafe: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cmark-gfm"] + (unsafe ? ["--unsafe"] : [])
            + ["-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = DispatchQueue(label: "cmark-input")
        writer.async {
            input.fileHandleForWriting.write(Data(markdown.utf8))
            try? input.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cmark-gfm is missing or failed; .ci/run installs it"])
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every table of the HTML, with its header width and each row's cell count.
    static func tables(_ html: String) -> [Table] {
        html.components(separatedBy: "<table>").dropFirst().map { chunk in
            let table = chunk.components(separatedBy: "</table>")[0]
            let head = table.components(separatedBy: "</thead>")[0]
            let body = table.components(separatedBy: "<tbody>").dropFirst().first ?? ""
            let rows = body.components(separatedBy: "<tr>").dropFirst().map { row in
                row.components(separatedBy: "<td").dropFirst().map { cell -> String in
                    let inner = cell.drop { $0 != ">" }.dropFirst()
                    return String(inner.components(separatedBy: "</td>")[0])
                }
            }
            return Table(
                headerCells: head.components(separatedBy: "<th>").count - 1 + head.components(separatedBy: "<th ").count - 1,
                rows: rows.map(\.count), cellTexts: rows)
        }
    }

    /// Tags in the HTML, such as "a", "img", "em", with how often each appears.
    static func tagCounts(_ html: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            let name = after.prefix { $0.isLetter || $0.isNumber }
            if !name.isEmpty { counts[String(name), default: 0] += 1 }
            rest = after
        }
        return counts
    }

    /// HTML text back to plain text: entities decoded, the word joiner that
    /// keeps "@" from making a link taken out.
    static func text(_ html: String) -> String {
        html.replacingOccurrences(of: "\u{2060}", with: "")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
