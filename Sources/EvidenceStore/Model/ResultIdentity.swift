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
    /// the same one.
    public static func legacyUUID(runUUID: String, n: Int64) -> String {
        nameBased("evidence legacy result", [runUUID, String(n)])
    }

    /// The UUID of a label change recorded before changes had their own: named
    /// by its claim and its place in the claim's history (from 1).
    public static func legacyLabelChangeUUID(claimKey: String, n: Int64) -> String {
        nameBased("evidence legacy label change", [claimKey, String(n)])
    }

    /// The run an ingested file gives on one environment: named by the file's
    /// SHA-256 and the environment, so the same file ingested by two people,
    /// on two branches, is one run once they merge.
    public static func ingestedRunUUID(fileSHA256: String, environment: EnvironmentSpec) -> String {
        nameBased("evidence ingested run", [fileSHA256, environment.description])
    }

    /// A result of an ingested run: named by the run, the test's place in the
    /// file (from 0) and the claim it maps to (none for an unmapped test).
    public static func ingestedResultUUID(runUUID: String, test: Int, claim: String?) -> String {
        nameBased("evidence ingested result", [runUUID, String(test), claim ?? ""])
    }

    /// A name-based UUID (version 8) from SHA-256 of a namespace and parts.
    static func nameBased(_ namespace: String, _ parts: [String]) -> String {
        let name = ([namespace] + parts).joined(separator: "\u{0}")
        var bytes = Array(SHA256.digest(Data(name.utf8)).prefix(16))
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
