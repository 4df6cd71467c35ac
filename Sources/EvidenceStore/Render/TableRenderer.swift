/// Aligned columns for a terminal: a header, a rule, one line per row.
/// Line breaks and control characters inside a cell are flattened so that a
/// value never breaks the table.
public enum TableRenderer {
    public static func render(_ table: Tabular) -> String {
        let header = table.columns.map(flatten)
        let body = table.rows.map { $0.map { flatten($0.description) } }
        var widths = header.map(\.count)
        for row in body {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        var out = ""
        func line(_ cells: [String]) {
            var text = ""
            for (index, cell) in cells.enumerated() {
                if index > 0 { text += "  " }
                text += index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            out += text + "\n"
        }
        line(header)
        line(widths.map { String(repeating: "-", count: $0) })
        for row in body {
            line(row)
        }
        return out
    }

    /// One line of plain text: breaks become spaces, other control characters go.
    public static func flatten(_ text: String) -> String {
        // Printable ASCII, the common case, has nothing to change.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var lastWasBreak = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                if !lastWasBreak { out += " " }
                lastWasBreak = true
                continue
            }
            lastWasBreak = false
            if scalar == "\t" {
                out += " "
            } else if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format {
                continue
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
