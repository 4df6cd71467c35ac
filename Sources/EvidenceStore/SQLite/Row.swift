/// One result row, detached from its statement: column names and values in order.
public struct Row: Hashable, Sendable {
    public let columns: [String]
    public let values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public subscript(index: Int) -> SQLValue { values[index] }

    /// The value of the named column, or NULL when there is no such column.
    public subscript(name: String) -> SQLValue {
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
    }

    public func text(_ name: String) -> String { self[name].description }
    public func optionalText(_ name: String) -> String? { self[name].string }
    public func int(_ name: String) -> Int { self[name].int ?? 0 }
    public func optionalInt(_ name: String) -> Int? { self[name].int }
    public func double(_ name: String) -> Double? { self[name].double }
}
