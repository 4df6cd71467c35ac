#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where "now" comes from. The store is given one when it opens, so every
/// timestamp it writes (a result's date, a label change, a migration) and every
/// check against the future reads the same clock, and tests can fix it.
public struct Clock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The system's clock.
    public static let system = Clock { Date() }

    /// A clock that always reads `date`.
    public static func fixed(_ date: Date) -> Clock {
        Clock { date }
    }

    /// A clock that always reads the UTC timestamp `text` (to the second, or
    /// to the microsecond as results record it); `field` names it in an error.
    public static func fixed(parsing text: String, field: String) throws -> Clock {
        if Timestamp.isMicroseconds(text), let second = Timestamp.date(String(text.prefix(19)) + "Z"),
            let fraction = Int(text.dropFirst(20).prefix(6))
        {
            return .fixed(second.addingTimeInterval(Double(fraction) / 1_000_000))
        }
        let parsed = try Timestamp.parse(text, field: field)
        guard let date = Timestamp.date(parsed), parsed.count > 10 else {
            throw EvidenceError.invalidValue(field: field, value: text, expected: "a UTC timestamp such as 2026-10-20T14:03:00Z")
        }
        return .fixed(date)
    }

    public func now() -> Date { read() }

    /// Now in the store's form, `YYYY-MM-DDTHH:MM:SSZ`.
    public func timestamp() -> String { Timestamp.format(now()) }

    /// Now to the microsecond, as results record when they were recorded.
    public func recordingTime() -> String { Timestamp.formatMicroseconds(now()) }
}

extension Clock {
    /// How far ahead of this clock another machine's may run.
    public static let allowedSkew: TimeInterval = 300

    /// The latest moment a result, a run, a label change or an edit may carry:
    /// now, and five minutes for a clock a little ahead. A later date is a
    /// typo or a broken clock, and would outrank every real result.
    public func futureLimit() -> FutureLimit {
        FutureLimit(latest: Timestamp.format(now().addingTimeInterval(Self.allowedSkew)))
    }
}

/// Refuses dates after a fixed moment. Dates come in the store's form
/// (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ` or the same to the microsecond), so
/// the check is a comparison of canonical text, cheap enough for a million
/// imported results.
public struct FutureLimit: Sendable {
    /// The moment, `YYYY-MM-DDTHH:MM:SSZ`.
    public let latest: String

    /// Whether a date in the store's form is no later than the limit; a date
    /// without a time counts from its midnight (UTC), a time to the
    /// microsecond from its second.
    public func allows(_ date: String) -> Bool {
        switch date.utf8.count {
        case 10: return date + "T00:00:00Z" <= latest
        case 27: return date.prefix(19) + "Z" <= latest
        default: return date <= latest
        }
    }

    /// Why a date is refused, for an error message.
    public func reason(_ date: String) -> String {
        "'\(date)' is in the future (the latest accepted is \(latest), five minutes from now); "
            + "check the date, or the clock of the machine that wrote it"
    }

    /// Throws when a date given as an option or argument is too late.
    public func check(_ date: String, field: String) throws {
        guard allows(date) else {
            throw EvidenceError.invalidValue(
                field: field, value: date, expected: "a date no later than now (\(latest), with five minutes for clock skew)")
        }
    }
}
