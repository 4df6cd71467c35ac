extension JSONValue {
    public init(_ value: TableValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .number(number)
        case .text(let text): self = .string(text)
        case .blob: self = .string(value.description)
        }
    }
}

extension Tabular {
    /// The rows as a JSON array of objects.
    public var json: JSONValue {
        .array(rows.map { row in .object(zip(columns, row).map { ($0, JSONValue($1)) }) })
    }
}
