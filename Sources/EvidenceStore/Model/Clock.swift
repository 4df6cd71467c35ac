import Foundation

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

    public func now() -> Date { read() }

    /// Now in the store's form, `YYYY-MM-DDTHH:MM:SSZ`.
    public func timestamp() -> String { Timestamp.format(now()) }

    /// Now to the microsecond, as results record when they were recorded.
    public func recordingTime() -> String { Timestamp.formatMicroseconds(now()) }
}

extension Clock {
    /// The latest date a result, a run or a test report may carry: one day
    /// after now, room for any time zone and a clock a little ahead. A later
    /// date is a typo or a broken clock, and would outrank every real result.
    public func futureLimit() -> FutureLimit {
        FutureLimit(latest: Timestamp.format(now().addingTimeInterval(86_400)))
    }
}

/// Refuses dates after a fixed moment. Dates come in the store's form
/// (`YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`), so the check is a comparison of
/// canonical text, cheap enough for a million imported results.
public struct FutureLimit: Sendable {
    /// The moment, `YYYY-MM-DDTHH:MM:SSZ`.
    public let latest: String

    /// Whether a date in the store's form is no later than the limit; a date
    /// without a time counts from its midnight.
    public func allows(_ date: String) -> Bool {
        date.utf8.count == 10 ? date + "T00:00:00Z" <= latest : date <= latest
    }

    /// Why a date is refused, for an error message.
    public func reason(_ date: String) -> String {
        "'\(date)' is more than one day in the future (the latest accepted is \(latest)); "
            + "check the date, or the clock of the machine that wrote it"
    }

    /// Throws when a date given as an option or argument is too late.
    public func check(_ date: String, field: String) throws {
        guard allows(date) else {
            throw EvidenceError.invalidValue(
                field: field, value: date, expected: "a date no later than \(latest) (one day from now)")
        }
    }
}
