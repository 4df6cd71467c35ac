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

    /// A UUID that sorts after `uuid`, a random step above it (so that two
    /// clones stepping from one record differ); nil at the very end of the range.
    static func uuid(after uuid: String) -> String? {
        let digits = uuid.filter { $0 != "-" }
        guard digits.count == 32, let high = UInt64(digits.prefix(16), radix: 16), let low = UInt64(digits.suffix(16), radix: 16)
        else { return nil }
        let (sum, carried) = low.addingReportingOverflow(UInt64.random(in: 1...(1 << 62)))
        guard !carried || high < .max else { return nil }
        let hex = String(carried ? high + 1 : high, radix: 16).zeroPadded(to: 16) + String(sum, radix: 16).zeroPadded(to: 16)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
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

    /// A result of an ingested run: named by the run (itself named by the
    /// file's SHA-256), the result's place in the file (from 0) and which of
    /// the test's claims it is for (0 for a test that maps to none, else its
    /// place among the test's claims, sorted, from 1). Every bit depends on
    /// both. The first eight hex digits are the run's own plus the place and
    /// the claim (eight slots a test): the results of one file differ from
    /// their first characters, so an 8-character prefix names one (a test of
    /// more than seven claims shares its last), and a file's results are
    /// named in order, which keeps the store's index of names written in one
    /// place rather than all over it.
    public static func ingestedResultUUID(runUUID: String, test: Int, claimSlot: Int) -> String {
        ingestedResultUUID(runPart: ingestedRunPart(runUUID), test: test, claimSlot: claimSlot)
    }

    /// What every result UUID of an ingested run is made from besides its
    /// place: worked out once per run.
    public static func ingestedRunPart(_ runUUID: String) -> [UInt8] {
        Array(SHA256.digest(bytes: Array(("evidence ingested result\u{0}" + runUUID).utf8)).prefix(16))
    }

    public static func ingestedResultUUID(runPart: [UInt8], test: Int, claimSlot: Int) -> String {
        let base = UInt32(runPart[0]) << 24 | UInt32(runPart[1]) << 16 | UInt32(runPart[2]) << 8 | UInt32(runPart[3])
        let prefix = base &+ UInt32(truncatingIfNeeded: test) &* 8 &+ UInt32(min(max(claimSlot, 0), 7))
        // The place, mixed into 96 bits (SplitMix64's finaliser, twice), laid over the rest of the run's part.
        let place = UInt64(truncatingIfNeeded: test) << 16 | UInt64(truncatingIfNeeded: claimSlot & 0xFFFF)
        let high = mix(place)
        let low = mix(high ^ 0x9E37_79B9_7F4A_7C15)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { raw in
            for position in 0..<4 { raw[position] = UInt8(truncatingIfNeeded: prefix >> (8 * UInt32(3 - position))) }
            for position in 4..<10 { raw[position] = runPart[position] ^ UInt8(truncatingIfNeeded: high >> (8 * UInt64(position - 4))) }
            for position in 10..<16 { raw[position] = runPart[position] ^ UInt8(truncatingIfNeeded: low >> (8 * UInt64(position - 10))) }
            return formatted(UnsafeBufferPointer(raw))
        }
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A name-based UUID (version 8) from SHA-256 of a namespace and parts.
    static func nameBased(_ namespace: String, _ parts: [String]) -> String {
        var name = Array(namespace.utf8)
        for part in parts {
            name.append(0)
            name.append(contentsOf: part.utf8)
        }
        return Array(SHA256.digest(bytes: name).prefix(16)).withUnsafeBufferPointer(formatted)
    }

    /// Sixteen bytes as a version 8 UUID (the version and variant bits set),
    /// written straight into the string: an ingest names every result this way.
    private static func formatted(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var written = 0
            for index in 0..<16 {
                var value = raw[index]
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
