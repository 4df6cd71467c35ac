#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// ISO 8601 dates and times as the store keeps them: `YYYY-MM-DD`, or
/// `YYYY-MM-DDTHH:MM:SSZ` in UTC. Parsing works on the bytes with the civil
/// calendar's arithmetic, since imports read a million of these.
public enum Timestamp {
    /// The range the store's form can hold: years 0001 to 9999.
    static let representable: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// A date in the store's form; one outside years 0001 to 9999 (only a
    /// file's own numbers can be) is clamped to that range's ends.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? 0 : min(max(seconds, representable.lowerBound), representable.upperBound)
        return format(secondsSinceEpoch: Int64(clamped.rounded(.down)))
    }

    /// A moment to the microsecond, `YYYY-MM-DDTHH:MM:SS.ffffffZ`: when a
    /// result was recorded.
    public static func formatMicroseconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? 0 : min(max(seconds, representable.lowerBound), representable.upperBound)
        let whole = clamped.rounded(.down)
        let micros = min(999_999, max(0, Int(((clamped - whole) * 1_000_000).rounded(.down))))
        let text = format(secondsSinceEpoch: Int64(whole))
        return text.dropLast() + "." + pad(micros, 6) + "Z"
    }

    /// "YYYY-MM-DDTHH:MM:SSZ" for seconds since 1970-01-01T00:00:00Z.
    static func format(secondsSinceEpoch seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(rest / 3600, 2) + ":"
            + pad(rest / 60 % 60, 2) + ":" + pad(rest % 60, 2) + "Z"
    }

    /// Moments a microsecond apart from a start, in the store's form, made
    /// cheaply: the seconds are formatted once per second, not per moment.
    public struct MicrosecondSequence {
        private var seconds: Int64
        private var micros: Int
        /// "YYYY-MM-DDTHH:MM:SS" of the current second.
        private var prefix: [UInt8]

        public init(from date: Date) {
            let value = date.timeIntervalSince1970
            let clamped = value.isNaN ? 0 : min(max(value, representable.lowerBound), representable.upperBound)
            let whole = clamped.rounded(.down)
            seconds = Int64(whole)
            micros = min(999_999, max(0, Int(((clamped - whole) * 1_000_000).rounded(.down))))
            prefix = Self.prefix(seconds)
        }

        /// "YYYY-MM-DDTHH:MM:SS" of a second, as bytes.
        private static func prefix(_ seconds: Int64) -> [UInt8] {
            Array(Timestamp.format(secondsSinceEpoch: seconds).utf8.dropLast())
        }

        /// The next moment: one microsecond after the last one given.
        public mutating func next() -> String {
            micros += 1
            if micros == 1_000_000 {
                micros = 0
                seconds += 1
                prefix = Self.prefix(seconds)
            }
            // Written straight into the string: an ingest gives every result one.
            var value = micros
            return String(unsafeUninitializedCapacity: prefix.count + 8) { text in
                var written = 0
                for byte in prefix {
                    text[written] = byte
                    written += 1
                }
                text[written] = UInt8(ascii: ".")
                for place in stride(from: written + 6, to: written, by: -1) {
                    text[place] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                text[written + 7] = UInt8(ascii: "Z")
                return written + 8
            }
        }
    }

    /// Accepts a date (`2026-10-20`) or a full timestamp with `Z` or an offset
    /// (`2026-10-20T14:03:00+02:00`), and returns it in the store's form.
    public static func parse(_ text: String, field: String) throws -> String {
        if let value = parseCanonical(text) { return value }
        let trimmed = text.trimmingWhitespace()
        if let date = parseDate(Array(trimmed.utf8)) {
            return date.text
        }
        if let time = parseDateTime(Array(trimmed.utf8)) {
            return time
        }
        throw EvidenceError.invalidValue(
            field: field, value: text,
            expected: "an ISO 8601 date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SSZ)"
        )
    }

    /// A timestamp as result files write it: with a zone (`Z`, `+02:00`,
    /// `+0200`), or without one (`2026-12-02T09:00:00`, fractions of a second
    /// allowed, seconds left out), which is then read as the wall-clock time
    /// of `zone`; or a date alone. Returns it in the store's form and whether
    /// it had a zone of its own; nil for any other text.
    public static func parse(_ text: String, readingZoneless zone: Zone) -> (value: String, zoned: Bool)? {
        var bytes = Array(text.trimmingWhitespace().utf8)
        // A date alone is a day, whatever the zone.
        if bytes.count == 10 { return parseDate(bytes).map { ($0.text, true) } }
        // Minutes without seconds ("2026-11-30T10:00"), and an offset without
        // its colon ("+0100"), as some producers write them.
        if bytes.count >= 16, bytes[13] == UInt8(ascii: ":"), bytes.count == 16 || bytes[16] != UInt8(ascii: ":") {
            bytes.insert(contentsOf: Array(":00".utf8), at: 16)
        }
        if bytes.count >= 24, case let sign = bytes[bytes.count - 5], sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
            bytes.suffix(4).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            bytes.insert(UInt8(ascii: ":"), at: bytes.count - 2)
        }
        let zoned = bytes.dropFirst(19).contains { "Zz+-".utf8.contains($0) }
        if zoned { return parseDateTime(bytes).map { ($0, true) } }
        guard let utc = parseDateTime(bytes + [UInt8(ascii: "Z")]), let wall = date(utc) else { return nil }
        // The wall-clock time read as UTC, less the zone's offset at that moment;
        // asked twice, so that a time near a change of offset gets the right one.
        let guess = wall.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: wall)))
        let moment = wall.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: guess)))
        return (format(moment), false)
    }

    /// How a zone is named in notes: "Europe/Berlin (UTC+01:00)".
    public static func describe(_ zone: Zone, at moment: Date) -> String {
        let offset = zone.secondsFromGMT(for: moment)
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return "\(zone.identifier) (UTC\(sign)\(pad(minutes / 60, 2)):\(pad(minutes % 60, 2)))"
    }

    /// The moment a date or timestamp in the store's form names (a date's
    /// midnight, UTC); nil for any other text.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard let calendarDay = day(bytes) else { return nil }
        var seconds = days(year: calendarDay.year, month: calendarDay.month, day: calendarDay.day) * 86_400
        if bytes.count == 20 {
            guard bytes[10] == UInt8(ascii: "T"), bytes[19] == UInt8(ascii: "Z"), let time = clock(bytes, at: 11) else {
                return nil
            }
            seconds += Int64(time)
        } else if bytes.count != 10 {
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Whether a text is a moment to the microsecond in the store's form,
    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, as results record when they were recorded.
    public static func isMicroseconds(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 27 && bytes[10] == UInt8(ascii: "T") && bytes[19] == UInt8(ascii: ".")
            && bytes[26] == UInt8(ascii: "Z") && number(bytes, 20..<26) != nil && day(bytes) != nil && clock(bytes, at: 11) != nil
    }

    /// Accepts only a calendar date, `YYYY-MM-DD`.
    public static func parseDay(_ text: String, field: String) throws -> String {
        guard let date = parseDate(Array(text.trimmingWhitespace().utf8)) else {
            throw EvidenceError.invalidValue(field: field, value: text, expected: "an ISO 8601 date (YYYY-MM-DD)")
        }
        return date.text
    }

    // MARK: - Parsing bytes

    /// The store's own forms, returned as they are when valid: the common case.
    private static func parseCanonical(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if bytes.count == 10 { return parseDate(bytes) != nil ? text : nil }
        if bytes.count == 20, bytes[19] == UInt8(ascii: "Z"), bytes[10] == UInt8(ascii: "T"),
            day(bytes) != nil, clock(bytes, at: 11) != nil
        {
            return text
        }
        return nil
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard range.upperBound <= bytes.count else { return nil }
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func parseDate(_ bytes: [UInt8]) -> (year: Int, month: Int, day: Int, text: String)? {
        guard bytes.count == 10, let (year, month, day) = day(bytes) else { return nil }
        return (year, month, day, String(decoding: bytes, as: UTF8.self))
    }

    /// The calendar day `YYYY-MM-DD` in the first ten bytes; nil when malformed or out of range.
    private static func day(_ bytes: [UInt8]) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(bytes, 0..<4), let month = number(bytes, 5..<7), let day = number(bytes, 8..<10),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    /// HH:MM:SS at an offset; nil when malformed or out of range.
    private static func clock(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 8 <= bytes.count, bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hour = number(bytes, start..<start + 2), let minute = number(bytes, start + 3..<start + 5),
            let second = number(bytes, start + 6..<start + 8), hour < 24, minute < 60, second < 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private static func parseDateTime(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 20, let date = day(bytes) else { return nil }
        let separator = bytes[10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            let seconds = clock(bytes, at: 11)
        else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            guard index > digits else { return nil }
        }
        var offset = 0
        let zone = Array(bytes[index...])
        if zone == [UInt8(ascii: "Z")] || zone == [UInt8(ascii: "z")] {
            offset = 0
        } else if zone.count == 6, zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"), zone[3] == UInt8(ascii: ":"),
            let hours = number(zone, 1..<3), let minutes = number(zone, 4..<6), hours < 24, minutes < 60
        {
            offset = (hours * 3600 + minutes * 60) * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let days = Self.days(year: date.year, month: date.month, day: date.day)
        return format(secondsSinceEpoch: days * 86_400 + Int64(seconds - offset))
    }

    // MARK: - The civil calendar (proleptic Gregorian, after H. Hinnant)

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a date.
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a number of days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
