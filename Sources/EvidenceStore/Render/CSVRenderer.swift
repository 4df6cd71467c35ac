/// RFC 4180 CSV: a header row, fields quoted when they hold a comma, a quote
/// or a line break. A CSV file is opened in spreadsheets, so no cell can be
/// turned against its reader: a cell a spreadsheet would run as a formula
/// (one starting with `=`, `+`, `-`, `@`, a tab or a carriage return, as
/// OWASP lists them) starts with an apostrophe instead, unless it is a plain
/// number such as `-1.5`; a control character (ESC and kin, which a
/// terminal obeys) or a mark that reorders text shows as U+FFFD.
public enum CSVRenderer {
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    public static func field(_ text: String) -> String {
        var text = text
        if text.unicodeScalars.contains(where: isHidden) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { isHidden($0) ? "\u{FFFD}" : $0 }))
        }
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isNumber(text) {
            text = "'" + text
        }
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return text
        }
        return "\"" + text.replacingEvery("\"", with: "\"\"") + "\""
    }

    /// A control character other than a tab or a line break, or one of the
    /// marks that reorder text without showing (`ControlCharacters`' set).
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\n" && scalar != "\r" && ControlCharacters.isControl(scalar)
    }

    /// A signed decimal number (`-3`, `+1.5`, `-0.25e3`): a value, not a formula.
    private static func isNumber(_ text: String) -> Bool {
        var digits = 0
        var sawDot = false
        var sawExponent = false
        var previous: UInt8 = 0
        for (index, byte) in text.utf8.enumerated() {
            let isSign = byte == 0x2B || byte == 0x2D
            let isExponent = byte == 0x65 || byte == 0x45
            if byte >= 0x30 && byte <= 0x39 {
                digits += 1
            } else if isSign && (index == 0 || previous == 0x65 || previous == 0x45) {
                // A sign: first, or the exponent's.
            } else if byte == 0x2E && !sawDot && !sawExponent {
                sawDot = true
            } else if isExponent && digits > 0 && !sawExponent {
                sawExponent = true
            } else {
                return false
            }
            previous = byte
        }
        return digits > 0 && previous >= 0x30 && previous <= 0x39
    }
}
