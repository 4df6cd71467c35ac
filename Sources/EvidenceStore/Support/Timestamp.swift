import Foundation

/// ISO 8601 dates and times as the store keeps them: `YYYY-MM-DD`, or
/// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
public enum Timestamp {
    /// Overrides the clock for the whole process (tests, reproducible demos):
    /// set EVIDENCE_NOW to a full timestamp.
    public static func now() -> String {
        if let fixed = ProcessInfo.processInfo.environment["EVIDENCE_NOW"], let parsed = try? parse(fixed, field: "EVIDENCE_NOW"), parsed.count > 10 {
            return parsed
        }
        return format(Date())
    }

    public static func today() -> String {
        String(now().prefix(10))
    }

    public static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
            parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0
        )
    }

    /// Accepts a date (`2026-10-20`) or a full timestamp with `Z` or an offset
    /// (`2026-10-20T14:03:00+02:00`), and returns it in the store's form.
    public static func parse(_ text: String, field: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = parseDate(trimmed) {
            return date
        }
        if let time = parseDateTime(trimmed) {
            return time
        }
        throw EvidenceError.invalidValue(
            field: field, value: text,
            expected: "an ISO 8601 date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SSZ)"
        )
    }

    /// Accepts only a calendar date, `YYYY-MM-DD`.
    public static func parseDay(_ text: String, field: String) throws -> String {
        guard let date = parseDate(text.trimmingCharacters(in: .whitespaces)) else {
            throw EvidenceError.invalidValue(field: field, value: text, expected: "an ISO 8601 date (YYYY-MM-DD)")
        }
        return date
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func parseDate(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = digits(parts[0]), let month = digits(parts[1]), let day = digits(parts[2]),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), year >= 1
        else { return nil }
        return text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func parseDateTime(_ text: String) -> String? {
        guard text.count >= 20, let tIndex = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }),
            let day = parseDate(String(text[..<tIndex]))
        else { return nil }
        var rest = text[text.index(after: tIndex)...]
        // HH:MM:SS
        let clock = rest.prefix(8)
        let clockParts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 8, clockParts.count == 3,
            let hour = digits(clockParts[0]), let minute = digits(clockParts[1]), let second = digits(clockParts[2]),
            clockParts.allSatisfy({ $0.count == 2 }), hour < 24, minute < 60, second < 60
        else { return nil }
        rest = rest.dropFirst(8)
        if rest.hasPrefix(".") {
            rest = rest.dropFirst().drop(while: { $0.isASCII && $0.isNumber })
        }
        var offsetSeconds = 0
        if rest == "Z" || rest == "z" {
            offsetSeconds = 0
        } else if let sign = rest.first, sign == "+" || sign == "-" {
            let zone = rest.dropFirst()
            let zoneParts = zone.split(separator: ":", omittingEmptySubsequences: false)
            guard zone.count == 5, zoneParts.count == 2, let zh = digits(zoneParts[0]), let zm = digits(zoneParts[1]),
                zh < 24, zm < 60
            else { return nil }
            offsetSeconds = (zh * 3600 + zm * 60) * (sign == "-" ? -1 : 1)
        } else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let dayParts = day.split(separator: "-").compactMap { Int($0) }
        var components = DateComponents()
        components.year = dayParts[0]
        components.month = dayParts[1]
        components.day = dayParts[2]
        components.hour = hour
        components.minute = minute
        components.second = second
        guard let local = calendar.date(from: components) else { return nil }
        return format(local.addingTimeInterval(TimeInterval(-offsetSeconds)))
    }
}
