/// Numbers as reports and listings write them: `171`, `0.014`, `-84.5`, never
/// a needless ".0".
public enum NumberText {
    /// "1 result", "2 results", "0 results"; `plural` where adding "s" is wrong.
    public static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// A number to 10 significant digits: a mean of samples or a difference
    /// carries no more than its operands, and 0.252 reads 0.252, not
    /// 0.25199999999999995. Numbers of 10 digits or more before the point
    /// are kept as they are.
    public static func rounded(_ value: Double) -> Double {
        guard value.isFinite, value != 0, abs(value) < 1e9 else { return value }
        var factor = 1e10
        var magnitude = abs(value)
        while magnitude >= 1 {
            magnitude /= 10
            factor /= 10
        }
        while magnitude < 0.1 {
            magnitude *= 10
            factor *= 10
        }
        guard factor.isFinite, factor > 0, (value * factor).isFinite else { return value }
        return (value * factor).rounded() / factor
    }

    public static func format(_ value: Double) -> String {
        var out: [UInt8] = []
        append(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, written as UTF-8 into a buffer without an intermediate
    /// string: whole numbers as integers, others in their shortest exact
    /// digits, never with an exponent ("1e+23" is written out).
    public static func append(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite, value.rounded() == value, abs(value) < 1e15 else {
            out.append(contentsOf: plainDecimal(String(value)).utf8)
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

    /// Swift's shortest digits of a Double ("1.5e-07", "1e+23", "171.5")
    /// without the exponent: "0.00000015", "100000000000000000000000"; "inf"
    /// and "nan" as they are.
    static func plainDecimal(_ text: String) -> String {
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...])
        else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        var mantissa = text[..<e]
        let negative = mantissa.first == "-"
        if negative { mantissa = mantissa.dropFirst() }
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.filter { $0 != "." }
        // Where the point goes among the digits.
        let place = point + exponent
        if place <= 0 {
            digits = "0." + String(repeating: "0", count: -place) + digits
        } else if place >= digits.count {
            digits += String(repeating: "0", count: place - digits.count)
        } else {
            digits.insert(".", at: digits.index(digits.startIndex, offsetBy: place))
        }
        while digits.contains("."), digits.hasSuffix("0") { digits.removeLast() }
        if digits.hasSuffix(".") { digits.removeLast() }
        return (negative ? "-" : "") + digits
    }
}
