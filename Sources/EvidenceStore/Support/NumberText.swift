/// Numbers as reports and listings write them: `171`, `0.014`, `-84.5`, never
/// a needless ".0".
public enum NumberText {
    /// "1 result", "2 results", "0 results"; `plural` where adding "s" is wrong.
    public static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    public static func format(_ value: Double) -> String {
        var out: [UInt8] = []
        append(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, written as UTF-8 into a buffer without an intermediate string.
    public static func append(_ value: Double, into out: inout [UInt8]) {
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
