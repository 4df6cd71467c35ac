import Foundation

/// JSON written by hand so that key order is the column order and the same rows
/// always give the same bytes.
public enum JSONRenderer {
    /// An array of objects, one per line.
    public static func render(_ table: Tabular) -> String {
        guard !table.rows.isEmpty else { return "[]\n" }
        var out = "[\n"
        for (index, row) in table.rows.enumerated() {
            out += "  " + object(zip(table.columns, row).map { ($0, $1) })
            out += index == table.rows.count - 1 ? "\n" : ",\n"
        }
        return out + "]\n"
    }

    /// One object on one line: `{"key": "value", "count": 3}`.
    public static func object(_ fields: [(String, SQLValue)]) -> String {
        "{" + fields.map { quote($0.0) + ": " + value($0.1) }.joined(separator: ", ") + "}"
    }

    public static func value(_ value: SQLValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? SQLValue.format(number) : "null"
        case .text(let text): return quote(text)
        case .blob(let bytes): return quote(Data(bytes).base64EncodedString())
        }
    }

    /// A JSON string literal; every control character escaped.
    public static func quote(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
