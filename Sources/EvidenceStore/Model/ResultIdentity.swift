#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a result is named and placed in time wherever it is kept: a UUID, and
/// the moment it was recorded (UTC, to the microsecond), which orders results
/// that the rules cannot order by when they were checked.
public enum ResultIdentity {
    /// How outputs name a run or a result: the first 8 hex digits of its
    /// UUID, the same in every clone.
    public static func shortName(_ uuid: String) -> String {
        String(uuid.prefix(8))
    }

    /// "result 1a2b3c4d (local #17)": the name every clone shares, and the
    /// number this store gave it, which another clone's may not.
    public static func described(_ kind: String, uuid: String, local: Int64) -> String {
        "\(kind) \(shortName(uuid)) (local #\(local))"
    }

    /// The shortest UUID prefix a command takes for a run or a result.
    public static let shortestPrefix = 6

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
    /// file (from 0) and which of the test's claims it is for (0 for a test
    /// that maps to none, else its place among the test's claims, sorted,
    /// from 1). The run's part comes first and the test's place next, so a
    /// file's results are named in order and their index grows at its end.
    public static func ingestedResultUUID(runUUID: String, test: Int, claimSlot: Int) -> String {
        ingestedResultUUID(runPart: ingestedRunPart(runUUID), test: test, claimSlot: claimSlot)
    }

    /// What every result UUID of an ingested run starts with: worked out once per run.
    public static func ingestedRunPart(_ runUUID: String) -> [UInt8] {
        Array(SHA256.digest(bytes: Array(("evidence ingested result\u{0}" + runUUID).utf8)).prefix(16))
    }

    public static func ingestedResultUUID(runPart: [UInt8], test: Int, claimSlot: Int) -> String {
        let index = UInt32(truncatingIfNeeded: test)
        return formatted { position in
            switch position {
            case 10: UInt8(truncatingIfNeeded: index >> 24)
            case 11: UInt8(truncatingIfNeeded: index >> 16)
            case 12: UInt8(truncatingIfNeeded: index >> 8)
            case 13: UInt8(truncatingIfNeeded: index)
            case 14: UInt8(truncatingIfNeeded: claimSlot >> 8)
            case 15: UInt8(truncatingIfNeeded: claimSlot)
            default: runPart[position]
            }
        }
    }

    /// A name-based UUID (version 8) from SHA-256 of a namespace and parts.
    static func nameBased(_ namespace: String, _ parts: [String]) -> String {
        var name = Array(namespace.utf8)
        for part in parts {
            name.append(0)
            name.append(contentsOf: part.utf8)
        }
        return formatted(Array(SHA256.digest(bytes: name).prefix(16)))
    }

    /// Sixteen bytes as a version 8 UUID: the version and variant bits set.
    private static func formatted(_ raw: [UInt8]) -> String {
        formatted { raw[$0] }
    }

    /// The sixteen bytes `byte(0)` to `byte(15)` as a version 8 UUID, written
    /// straight into the string: an ingest names every result this way.
    private static func formatted(_ byte: (Int) -> UInt8) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var written = 0
            for index in 0..<16 {
                var value = byte(index)
                if index == 6 { value = (value & 0x0F) | 0x80 }
                if index == 8 { value = (value & 0x3F) | 0x80 }
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[written] = UInt8(ascii: "-")
                    written += 1
                }
                text[written] = digits.utf8Start[Int(value >> 4)]
                text[written + 1] = digits.utf8Start[Int(value & 0x0F)]
                written += 2
            }
            return written
        }
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
        return base + "." + String(n % 1_000_000).zeroPadded(to: 6) + "Z"
    }
}
