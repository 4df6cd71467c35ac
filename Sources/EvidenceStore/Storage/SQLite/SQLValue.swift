/// One value as SQLite stores it: a case for each storage class, so no `Any`
/// crosses the boundary between Swift and the database.
enum SQLValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

// MARK: - Building values

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    init(nilLiteral: ()) { self = .null }
    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(floatLiteral value: Double) { self = .real(value) }

    /// Text, or NULL when the optional is empty.
    init(_ text: String?) {
        self = text.map(SQLValue.text) ?? .null
    }

    /// An integer, or NULL when the optional is empty.
    init(_ integer: Int?) {
        self = integer.map { .integer(Int64($0)) } ?? .null
    }

    init(_ integer: Int64?) {
        self = integer.map(SQLValue.integer) ?? .null
    }

    /// A real, or NULL when the optional is empty.
    init(_ real: Double?) {
        self = real.map(SQLValue.real) ?? .null
    }

    init(_ flag: Bool) {
        self = .integer(flag ? 1 : 0)
    }
}

// MARK: - Reading values

extension SQLValue {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, converting a real that holds a whole number; nil otherwise.
    var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    var int: Int? { int64.map { Int($0) } }

    /// The number as a Double, whether stored as integer or real.
    var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}

extension SQLValue: CustomStringConvertible {
    /// The value as a person reads it: NULL is empty, reals without a needless ".0".
    var description: String {
        switch self {
        case .null: return ""
        case .integer(let value): return String(value)
        case .real(let value): return NumberText.format(value)
        case .text(let value): return value
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }
}

extension SQLValue {
    /// The value as a listing cell.
    var tableValue: TableValue {
        switch self {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text(let value): return .text(value)
        case .blob(let bytes): return .blob(bytes)
        }
    }
}
