#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// JSON written by hand so that key order is the column order and the same rows
/// always give the same bytes: an array of objects, one per line (`TabularStream`).
public enum JSONRenderer {
    /// One object on one line: `{"key": "value", "count": 3}`.
    public static func object(_ fields: [(String, TableValue)]) -> String {
        "{" + fields.map { JSONValue.quote($0.0) + ": " + value($0.1) }.joined(separator: ", ") + "}"
    }

    public static func value(_ value: TableValue) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return String(number)
        case .real(let number): return number.isFinite ? NumberText.format(number) : "null"
        case .text(let text): return JSONValue.quote(text)
        case .blob(let bytes): return JSONValue.quote(Data(bytes).base64EncodedString())
        }
    }
}
