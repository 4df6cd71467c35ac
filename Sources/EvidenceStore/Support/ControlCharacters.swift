/// Characters that do something instead of showing: C0 and C1 controls, DEL,
/// the line and paragraph separators, and the marks that reorder text. A name,
/// a version or a build holds none; free text holds none but line breaks and
/// tabs. Output that may still meet one (an older store, a failure message of
/// a test) shows it escaped, never raw.
public enum ControlCharacters {
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The first control in `text`, line breaks and tabs passed over when allowed.
    public static func first(in text: String, allowingLineBreaks: Bool) -> Unicode.Scalar? {
        // Printable ASCII, nearly every value, holds none: a byte scan says so.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        return text.unicodeScalars.first { scalar in
            isControl(scalar) && !(allowingLineBreaks && (scalar == "\n" || scalar == "\t" || scalar == "\r"))
        }
    }

    /// How a control is named in an error: U+001B.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The text with each control shown as `\u{1B}`; line breaks and tabs kept when asked.
    public static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        guard first(in: text, allowingLineBreaks: keepingLineBreaks) != nil else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t")) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
