import Foundation
import Testing

@testable import EvidenceStore

/// Time zones read from the tz database's files (and POSIX rules) without
/// ICU: checked against Foundation's own zones, which this test target may
/// use, and at the moments the offsets change.
@Suite struct ZoneTests {
    private static func moment(_ text: String) -> Date {
        Timestamp.date(text)!
    }

    @Test func offsetsChangeAtTheMomentsTheRulesSay() throws {
        let berlin = try #require(Zone.named("Europe/Berlin"))
        #expect(berlin.secondsFromGMT(for: Self.moment("2026-03-29T00:59:59Z")) == 3600)
        #expect(berlin.secondsFromGMT(for: Self.moment("2026-03-29T01:00:00Z")) == 7200)
        #expect(berlin.secondsFromGMT(for: Self.moment("2026-10-25T00:59:59Z")) == 7200)
        #expect(berlin.secondsFromGMT(for: Self.moment("2026-10-25T01:00:00Z")) == 3600)
        // Past the file's last change, its footer's rule decides.
        #expect(berlin.secondsFromGMT(for: Self.moment("2091-07-01T12:00:00Z")) == 7200)
        #expect(berlin.secondsFromGMT(for: Self.moment("2091-01-01T12:00:00Z")) == 3600)
        // The southern hemisphere: summer across the new year.
        let sydney = try #require(Zone.named("Australia/Sydney"))
        #expect(sydney.secondsFromGMT(for: Self.moment("2026-01-15T00:00:00Z")) == 39_600)
        #expect(sydney.secondsFromGMT(for: Self.moment("2026-07-01T00:00:00Z")) == 36_000)
        #expect(sydney.secondsFromGMT(for: Self.moment("2095-12-31T23:00:00Z")) == 39_600)
        #expect(try #require(Zone.named("Asia/Tokyo")).secondsFromGMT(for: Self.moment("2026-12-02T00:00:00Z")) == 32_400)
        #expect(Zone.utc.secondsFromGMT(for: Self.moment("2026-12-02T00:00:00Z")) == 0)
    }

    @Test func posixRulesReadAsTheStandardSays() throws {
        let zone = Zone.current(environment: ["TZ": "EST5EDT,M3.2.0,M11.1.0"])
        #expect(zone.identifier == "EST5EDT,M3.2.0,M11.1.0")
        #expect(zone.secondsFromGMT(for: Self.moment("2026-03-08T06:59:59Z")) == -18_000)
        #expect(zone.secondsFromGMT(for: Self.moment("2026-03-08T07:00:00Z")) == -14_400)
        #expect(zone.secondsFromGMT(for: Self.moment("2026-11-01T05:59:59Z")) == -14_400)
        #expect(zone.secondsFromGMT(for: Self.moment("2026-11-01T06:00:00Z")) == -18_000)
        // A quoted name, a time past midnight, Julian days.
        let quoted = try #require(PosixRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        #expect(quoted.offset(at: Int64(Self.moment("2026-01-10T00:00:00Z").timeIntervalSince1970)) == 39_600)
        #expect(quoted.offset(at: Int64(Self.moment("2026-06-10T00:00:00Z").timeIntervalSince1970)) == 37_800)
        let julian = try #require(PosixRule("XST3XDT,J60/1,J300"))
        // March 1 (day 60, February 29 never counted) at 01:00 local, 04:00 UTC, also in a leap year.
        #expect(julian.offset(at: Int64(Self.moment("2028-03-01T03:59:59Z").timeIntervalSince1970)) == -10_800)
        #expect(julian.offset(at: Int64(Self.moment("2028-03-01T04:00:00Z").timeIntervalSince1970)) == -7200)
        for bad in ["", "E5", "EST", "EST5EDT,M13.1.0,M11.1.0", "EST5EDT,M3.2.0", "EST5EDT,M3.2.0,M11.1.0,x", "<EST5"] {
            #expect(PosixRule(bad) == nil, "\(bad)")
        }
    }

    @Test func namesAreTheDatabasesOnly() {
        for bad in ["Mars/Olympus", "../../etc/passwd", "/etc/localtime", "Europe//Berlin", "Europe/./Berlin", "", "Europe/Berlin\0"] {
            #expect(Zone.named(bad) == nil, "\(bad)")
        }
        #expect(Zone.named("UTC")?.identifier == "UTC")
        #expect(Zone.named("Europe/Berlin")?.identifier == "Europe/Berlin")
        // $TZ: a name, ":name", empty (UTC); an unreadable one is UTC.
        #expect(Zone.current(environment: ["TZ": ":Asia/Tokyo"]).identifier == "Asia/Tokyo")
        #expect(Zone.current(environment: ["TZ": ""]) == .utc)
        #expect(Zone.current(environment: ["TZ": "Mars/Olympus"]) == .utc)
        // A folder of zone files of one's own.
        #expect(Zone.named("Tokyo", environment: ["TZDIR": "/usr/share/zoneinfo/Asia"])?.secondsFromGMT(for: Date()) == 32_400)
    }

    /// The same offsets as Foundation's zones (ICU's) at moments spread over
    /// a century, in zones whose rules have not changed in that time.
    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Tokyo", "Europe/London", "Pacific/Auckland",
        "Asia/Kolkata", "America/St_Johns", "Europe/Dublin", "America/Los_Angeles", "Australia/Lord_Howe",
    ])
    func offsetsAgreeWithFoundation(name: String) throws {
        let ours = try #require(Zone.named(name))
        let theirs = try #require(TimeZone(identifier: name))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var disagreements: [String] = []
        // 1990 to 2090, and every hour around each of 2026's changes.
        var moments = (0..<2000).map { _ -> Date in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Date(timeIntervalSince1970: 631_152_000 + Double((state >> 30) % 3_155_760_000))
        }
        moments += stride(from: 1_767_225_600.0, to: 1_798_761_600, by: 3600).map { Date(timeIntervalSince1970: $0) }
        for moment in moments where ours.secondsFromGMT(for: moment) != theirs.secondsFromGMT(for: moment) {
            disagreements.append("\(moment): \(ours.secondsFromGMT(for: moment)) where Foundation says \(theirs.secondsFromGMT(for: moment))")
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
