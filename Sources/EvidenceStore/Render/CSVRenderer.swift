/// RFC 4180 CSV: a header row, fields quoted when they hold a comma, a quote
/// or a line break.
public enum CSVRenderer {
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\n"
    }

    public static func field(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
            return text
        }
        return "\"" + text.replacingEvery("\"", with: "\"\"") + "\""
    }
}
