/// One value as SQLite stores it: a case for each storage class, so no `Any`
/// crosses the boundary between Swift and the database.
public enum SQLValue: Hashable, Sendable {
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
    public init(nilLiteral: ()) { self = .null }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }

    /// Text, or NULL when the optional is empty.
    public init(_ text: String?) {
        self = text.map(SQLValue.text) ?? .null
    }

    /// An integer, or NULL when the optional is empty.
    public init(_ integer: Int?) {
        self = integer.map { .integer(Int64($0)) } ?? .null
    }

    public init(_ integer: Int64?) {
        self = integer.map(SQLValue.integer) ?? .null
    }

    /// A real, or NULL when the optional is empty.
    public init(_ real: Double?) {
        self = real.map(SQLValue.real) ?? .null
    }

    public init(_ flag: Bool) {
        self = .integer(flag ? 1 : 0)
    }
}

// MARK: - Reading values

extension SQLValue {
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, converting a real that holds a whole number; nil otherwise.
    public var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    public var int: Int? { int64.map { Int($0) } }

    /// The number as a Double, whether stored as integer or real.
    public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    public var bool: Bool? { int64.map { $0 != 0 } }
}

extension SQLValue: CustomStringConvertible {
    /// The value as a person reads it: NULL is empty, reals without a needless ".0".
    public var description: String {
        switch self {
        case .null: return ""
        case .integer(let value): return String(value)
        case .real(let value): return SQLValue.format(value)
        case .text(let value): return value
        case .blob(let bytes): return "<\(bytes.count) bytes>"
        }
    }

    /// Formats a real the way reports show numbers: `171`, `0.014`, `-84.5`.
    public static func format(_ value: Double) -> String {
        var out: [UInt8] = []
        appendFormatted(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, written as UTF-8 into a buffer without an intermediate string.
    public static func appendFormatted(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite, value.rounded() == value, abs(value) < 1e15 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var integer = Int64(value)
        if integer == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if integer < 0 {
            out.append(UInt8(ascii: "-"))
            integer = -integer
        }
        let start = out.count
        while integer > 0 {
            out.append(UInt8(ascii: "0") + UInt8(integer % 10))
            integer /= 10
        }
        out[start...].reverse()
    }
}
