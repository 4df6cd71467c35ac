/// Aligned columns for a terminal: a header, a rule, one line per row.
/// Line breaks and control characters inside a cell are flattened so that a
/// value never breaks the table.
public enum TableRenderer {
    /// One line of cells, each padded to its column's width but the last;
    /// a cell wider than its column pushes the rest along.
    static func line(_ cells: [String], widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { text += "  " }
            let width = index < widths.count ? widths[index] : 0
            text += index == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, width - cell.count))
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
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
