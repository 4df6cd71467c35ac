/// Escaping for GitHub-flavoured Markdown, so that no value from the store can
/// break a table, add a row, or slip in HTML, emphasis, code or a link.
public enum Markdown {
    /// Text for inline use and table cells. Backslash first, then every
    /// character with Markdown meaning; line breaks become `<br>`, other control
    /// and direction-override characters are dropped, and bare URLs and e-mail
    /// addresses are kept from turning into links.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        // Dropped characters go first, so none can hide a "://" or a "www." from the checks below.
        let scalars: [Unicode.Scalar] = text.unicodeScalars.filter { !isDropped($0) || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\", "|", "`", "*", "_", "[", "]", "<", ">", "&", "~":
                out += "\\"
                out.unicodeScalars.append(scalar)
            case ":" where index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/":
                // "https://…" stays text: the extended autolink needs an unescaped "://".
                out += "\\:"
            case "." where index >= 3 && String(String.UnicodeScalarView(scalars[(index - 3)..<index])).lowercased() == "www":
                // "www.example.com" likewise needs an unescaped "www.".
                out += "\\."
            case "@":
                // An e-mail autolink is found after escapes are resolved; an empty
                // comment splits the text so that none is found.
                out += "<!-- -->@"
            case "\r":
                out += "<br>"
                if index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
            case "\n", "\u{2028}", "\u{2029}":
                out += "<br>"
            case "\t":
                out += " "
            default:
                out.unicodeScalars.append(scalar)
            }
            index += 1
        }
        return out
    }

    /// Control characters and the invisible characters that reorder text.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A link whose text is escaped and whose destination is percent-encoded
    /// wherever a character could end it or break a table.
    public static func link(_ text: String, to url: String) -> String {
        "[\(escape(text))](\(encodeURL(url)))"
    }

    static func encodeURL(_ url: String) -> String {
        var out = ""
        for byte in url.utf8 {
            switch byte {
            case 0x21, 0x23...0x27, 0x2B...0x3B, 0x3D, 0x3F, 0x40, 0x41...0x5A, 0x5F, 0x61...0x7A:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// One table row; cells are escaped here.
    public static func row(_ cells: [String]) -> String {
        "| " + cells.map(escape).joined(separator: " | ") + " |\n"
    }

    /// A row of cells that are already Markdown (escaped values, links).
    public static func rawRow(_ cells: [String]) -> String {
        "| " + cells.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |\n"
    }

    /// A table's header and delimiter rows.
    public static func header(_ titles: [String]) -> String {
        row(titles) + "|" + String(repeating: "---|", count: titles.count) + "\n"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
