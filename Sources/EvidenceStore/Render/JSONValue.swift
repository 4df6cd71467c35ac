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

    public init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .number(number)
        case .text(let text): self = .string(text)
        case .blob: self = .string(value.description)
        }
    }

    public init(_ text: String?) {
        self = text.map(JSONValue.string) ?? .null
    }

    public init(_ number: Double?) {
        self = number.map(JSONValue.number) ?? .null
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
        case .number(let number): out += number.isFinite ? SQLValue.format(number) : "null"
        case .integer(let number): out += String(number)
        case .string(let text): out += JSONRenderer.quote(text)
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
                out += indent + "  " + JSONRenderer.quote(key) + ": "
                value.write(into: &out, indent: indent + "  ")
                out += index == fields.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }
}

extension Tabular {
    /// The rows as a JSON array of objects.
    public var json: JSONValue {
        .array(rows.map { row in .object(zip(columns, row).map { ($0, JSONValue($1)) }) })
    }
}
