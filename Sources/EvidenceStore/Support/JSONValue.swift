/// A JSON document built in order, so that the same data always gives the same bytes.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    /// Keys in the order they were given.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.rendered() == rhs.rendered()
    }

    public init(_ text: String?) {
        self = text.map(JSONValue.string) ?? .null
    }

    public init(_ number: Double?) {
        self = number.map(JSONValue.number) ?? .null
    }

    /// A JSON string literal; every control character escaped.
    public static func quote(_ text: String) -> String {
        // Most text needs no escape (no quote, backslash, control character or
        // U+2028/2029, whose UTF-8 starts with 0xE2): it is taken whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
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
                    out += "\\u" + String(scalar.value, radix: 16).zeroPadded(to: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Pretty-printed with two-space indents and a final newline.
    public func rendered() -> String {
        var out = ""
        write(into: &out, indent: "")
        return out + "\n"
    }

    private func write(into out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += number.isFinite ? NumberText.format(number) : "null"
        case .integer(let number): out += String(number)
        case .string(let text): out += JSONValue.quote(text)
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent + "  "
                item.write(into: &out, indent: indent + "  ")
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let fields):
            guard !fields.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, (key, value)) in fields.enumerated() {
                out += indent + "  " + JSONValue.quote(key) + ": "
                value.write(into: &out, indent: indent + "  ")
                out += index == fields.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }
}

extension JSONValue {
    /// The text of a string value, or nil for any other.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a boolean, or nil for any other.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
