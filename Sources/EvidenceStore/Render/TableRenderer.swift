/// Aligned columns for a terminal: a header, a rule, one line per row.
/// Line breaks and control characters inside a cell are flattened so that a
/// value never breaks the table.
public enum TableRenderer {
    /// One line of cells, each padded to its column's width but the last;
    /// a cell wider than its column is cut with "…" when `cut`, else it
    /// pushes the rest along.
    static func line(_ cells: [String], widths: [Int], cut: Bool = false) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { text += "  " }
            let width = index < widths.count ? widths[index] : 0
            let shown = cut && cell.count > width ? String(cell.prefix(max(0, width - 1))) + "…" : cell
            text += index == cells.count - 1 ? shown : shown + String(repeating: " ", count: max(0, width - shown.count))
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }

    /// The columns' widths narrowed to fit `total` characters with two spaces
    /// between columns: every column wider than some cap is cut to it (the
    /// largest cap that fits), none narrower than `narrowest` or its own width.
    /// The first column (a key people copy) stays whole while the others can
    /// make the room.
    static func fitted(_ widths: [Int], into total: Int, narrowest: Int = 8) -> [Int] {
        let room = total - 2 * max(0, widths.count - 1)
        guard widths.reduce(0, +) > room, let first = widths.first else { return widths }
        let rest = Array(widths.dropFirst())
        if rest.reduce(0, { $0 + min($1, narrowest) }) <= room - first {
            return [first] + capped(rest, into: room - first, narrowest: narrowest)
        }
        return capped(widths, into: room, narrowest: narrowest)
    }

    /// Every width above the largest cap that fits `room` cut to it (never below `narrowest`).
    private static func capped(_ widths: [Int], into room: Int, narrowest: Int) -> [Int] {
        func used(_ cap: Int) -> Int { widths.reduce(0) { $0 + min($1, max(cap, narrowest)) } }
        var low = 0
        var high = widths.max() ?? 0
        // The largest cap whose columns fit, found by halving.
        while low < high {
            let middle = (low + high + 1) / 2
            if used(middle) <= room { low = middle } else { high = middle - 1 }
        }
        return widths.map { min($0, max(low, narrowest)) }
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
