import Foundation

/// How a result is named and placed in time wherever it is kept: a UUID, and
/// the moment it was recorded (UTC, to the microsecond), which orders results
/// that the rules cannot order by when they were checked.
public enum ResultIdentity {
    /// A new result's UUID.
    public static func newUUID() -> String {
        UUID().uuidString.lowercased()
    }

    /// The UUID of a result recorded before results had their own: named by its
    /// run and its place in it (from 1), so every store that holds it gives it
    /// the same one. A name-based UUID (version 8) from SHA-256.
    public static func legacyUUID(runUUID: String, n: Int64) -> String {
        var bytes = Array(SHA256.digest(Data("evidence legacy result\u{0}\(runUUID)\u{0}\(n)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16).leftPadded(2) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// When a result recorded before results kept the moment was recorded: its
    /// run's start (the earliest time, for a run with no date) and, in the
    /// microseconds, its place in the run.
    public static func legacyRecordedAt(runStartedAt: String?, n: Int64) -> String {
        let base: String
        switch runStartedAt?.count {
        case nil: base = "0001-01-01T00:00:00"
        case 10?: base = (runStartedAt ?? "") + "T00:00:00"
        default: base = String((runStartedAt ?? "").prefix(19))
        }
        return base + "." + String(n % 1_000_000).leftPadded(6) + "Z"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
