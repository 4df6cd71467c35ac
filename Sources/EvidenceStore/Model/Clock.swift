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
}
