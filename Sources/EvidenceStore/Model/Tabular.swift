/// One cell of a listing, typed as the value it holds.
public enum TableValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public init(_ text: String?) {
        self = text.map(TableValue.text) ?? .null
    }

    public init(_ number: Int?) {
        self = number.map { .integer(Int64($0)) } ?? .null
    }

    public init(_ number: Double?) {
        self = number.map(TableValue.real) ?? .null
    }

    /// The value as a person reads it: NULL is empty, reals without a needless ".0".
    public var description: String {
        switch self {
        case .null: return ""
        case .integer(let value): return String(value)
        case .real(let value): return NumberText.format(value)
        case .text(let value): return value
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }
}

/// Rows with named columns, ready for any of the output formats.
public struct Tabular: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[TableValue]]

    public init(columns: [String], rows: [[TableValue]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// A table of typed rows, in their columns' order.
    public init<Item: TableRow>(_ rows: [Item]) {
        self.init(columns: Item.columns, rows: rows.map(\.cells))
    }
}

/// A typed row of a listing: its columns, named as the JSON and CSV outputs
/// name them, and its cells in that order.
public protocol TableRow {
    static var columns: [String] { get }
    var cells: [TableValue] { get }
}
