import Foundation
import Testing

@testable import EvidenceStore

/// Each derived state, from a small store built in the test.
@Suite struct DerivedStateTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try fixture.addBasics()
    }

    func environment(_ kind: EnvironmentKind = .simulator, os: String = "", xcode: String = "27A9275") -> EnvironmentSpec {
        EnvironmentSpec(
            kind: kind, model: "iPhone Duo", osName: "iOS", osVersion: "27.1", osBuild: os, toolName: "Xcode",
            toolVersion: "27.1", toolBuild: xcode)
    }

    @discardableResult
    func log(_ key: String, _ outcome: Outcome, on spec: EnvironmentSpec, _ date: String) throws -> LoggedResult {
        try store.log(Observation(claimKey: key, outcome: outcome, checkedAt: date), run: .matching(spec, tester: "qa"))
    }

    func reason(_ key: String) throws -> String {
        try store.database.scalar("SELECT reason FROM claim_state WHERE key = ?", .text(key)).description
    }

    @Test func noResultIsUntested() throws {
        #expect(try fixture.state("bars.overflow") == "untested")
        #expect(try reason("bars.overflow") == "no result yet")
    }

    @Test func aCapabilityTheSimulatorLacksNeedsADevice() throws {
        #expect(try fixture.state("standby.either-display") == "needs-device")
        // A pass on the simulator that lacks StandBy does not verify it.
        try log("standby.either-display", .pass, on: environment(), "2026-10-20")
        #expect(try fixture.state("standby.either-display") == "needs-device")
        #expect(try reason("standby.either-display").contains("standby"))
    }

    @Test func aPassOnASimulatorVerifiesInTheSimulator() throws {
        try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        #expect(try reason("bars.overflow").hasPrefix("passed on 2026-10-20 in run "))
    }

    @Test func aPassOnADeviceVerifiesOnTheDeviceAndBeatsTheSimulator() throws {
        try log("standby.either-display", .pass, on: environment(.device, os: "23B85"), "2026-10-21")
        #expect(try fixture.state("standby.either-display") == "verified-on-device")
        try log("bars.overflow", .pass, on: environment(), "2026-10-22")
        try log("bars.overflow", .pass, on: environment(.device, os: "23B85"), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "verified-on-device")
    }

    @Test func aLatestFailureIsFailing() throws {
        try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        try log("bars.overflow", .fail, on: environment(), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "failing")
        try log("bars.overflow", .pass, on: environment(), "2026-10-22")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        // An older failure logged later does not count as the latest.
        try log("bars.overflow", .fail, on: environment(), "2026-10-01")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
    }

    @Test func onlyBlockedResultsStayUntested() throws {
        try log("bars.overflow", .blocked, on: environment(), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "untested")
        #expect(try reason("bars.overflow") == "no pass or fail yet; latest result blocked on 2026-10-20")
    }

    @Test func aNewerOSBuildMakesOlderEvidenceStale() throws {
        try log("bars.overflow", .pass, on: environment(os: "23A341"), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        // A beta of the same train is older, not newer.
        try log("island.clock-offset.closed", .pass, on: environment(os: "23A5318c"), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        // A newer build recorded for the model, through any claim's run.
        try log("island.clock-offset.closed", .pass, on: environment(os: "23B85"), "2026-10-22")
        #expect(try fixture.state("bars.overflow") == "stale")
        let text = try reason("bars.overflow")
        #expect(text.contains("(23A341)"), "\(text)")
        #expect(text.contains("OS 23B85"), "\(text)")
        let stale = try store.reader.claimList(ClaimFilter(state: .stale))
        #expect(stale.map(\.key) == ["bars.overflow"])
        // Verified again on the new build, it is current once more.
        try log("bars.overflow", .pass, on: environment(os: "23B85"), "2026-10-23")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
    }

    @Test func aNewerXcodeBuildMakesOlderEvidenceStale() throws {
        try log("bars.overflow", .pass, on: environment(xcode: "27A9275"), "2026-10-20")
        try log("island.clock-offset.closed", .pass, on: environment(xcode: "27A5012a"), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator", "an earlier counter is older")
        try log("island.clock-offset.closed", .pass, on: environment(xcode: "27C40"), "2026-10-22")
        #expect(try fixture.state("bars.overflow") == "stale")
        #expect(try reason("bars.overflow").contains("Xcode 27C40"))
    }

    @Test func mismatchesNameWhatTheEvidenceDoesNotSupport() throws {
        try store.addClaim(ClaimDraft(key: "sourced.alone", statement: "s", document: "d", area: "a", label: .sourced), by: "w")
        try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        try log("standby.either-display", .fail, on: environment(.device), "2026-10-20")
        let problems = try store.reader.mismatches().map { "\($0.claim): \($0.problem)" }
        #expect(problems.contains("island.clock-offset.closed: labelled measured but has no passing result"))
        #expect(problems.contains("sourced.alone: labelled sourced but cites no source"))
        #expect(problems.contains { $0.hasPrefix("standby.either-display: latest result failed") })
        #expect(problems.contains { $0.hasPrefix("bars.overflow: labelled unverified but verified-in-simul") })
    }

    @Test func theChecklistTicksOnlyVerifiedItemsAndSaysWhy() throws {
        try store.database.execute("INSERT INTO checklists (document, title) VALUES ('duo-system-surfaces', 'Checklist')")
        let items: [(String, [String])] = [
            ("item.verified", ["bars.overflow"]), ("item.device", ["standby.either-display"]),
            ("item.failing", ["island.clock-offset.closed"]), ("item.marked", ["bars.overflow", "standby.either-display"]),
        ]
        for (position, (key, claims)) in items.enumerated() {
            try store.database.execute(
                "INSERT INTO checklist_items (checklist_id, key, position, text) VALUES (1, ?, ?, ?)",
                .text(key), .integer(Int64(position + 1)), .text("Text of \(key)"))
            for claim in claims {
                try store.database.execute(
                    "INSERT INTO checklist_item_claims SELECT i.id, c.id FROM checklist_items AS i, claims AS c WHERE i.key = ? AND c.key = ?",
                    .text(key), .text(claim))
            }
        }
        try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        let failed = try log("island.clock-offset.closed", .fail, on: environment(), "2026-10-20")
        try store.markChecklistItem(key: "item.marked", untestedReason: "no device yet", by: "lead")
        let list = try #require(try store.reader.checklists().first)
        let rendered = list.items.map { "\($0.ticked ? "x" : " ") \($0.key): \($0.why ?? "")" }
        #expect(rendered[0] == "x item.verified: ")
        #expect(rendered[1] == "  item.device: needs a device for standby (standby.either-display)")
        #expect(rendered[2] == "  item.failing: failing since run \(failed.run.shortName) (island.clock-offset.closed)")
        #expect(rendered[3].hasPrefix("  item.marked: marked untested by lead on "))
        #expect(rendered[3].hasSuffix(": no device yet"))
        try store.markChecklistItem(key: "item.marked", untestedReason: nil, by: "lead")
        #expect(try store.reader.checklists().first?.items[3].why == "needs a device for standby (standby.either-display)")
        #expect(throws: EvidenceError.self) {
            try store.markChecklistItem(key: "item.nope", untestedReason: "x", by: "lead")
        }
    }
}

/// Migration 2 rewrote `claim_state`, `untested_claims` and `claim_mismatches`
/// for speed. Their answers must be those of version 1, on the seed and after
/// every batch of a long, varied series of results.
@Suite struct ClaimStateRewriteTests {
    /// SplitMix64: the same series on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Version 1's views, as temporary views beside the current ones.
    static func installVersionOneViews(_ database: Database) throws {
        guard let first = Migration.bundled.first(where: { $0.version == 1 }) else {
            Issue.record("no migration 1")
            return
        }
        for name in ["claim_state", "untested_claims", "claim_mismatches"] {
            let sql = first.sql
            guard let start = sql.range(of: "CREATE VIEW \(name) AS"),
                let end = sql[start.upperBound...].range(of: ";\n")
            else {
                Issue.record("migration 1 has no view \(name)")
                return
            }
            let body = sql[start.upperBound..<end.lowerBound].replacingOccurrences(of: "claim_state", with: "v1_claim_state")
            try database.execute("CREATE TEMP VIEW v1_\(name) AS" + body)
        }
    }

    static func compare(_ database: Database, _ context: String) throws {
        let queries = [
            ("claim_state", "claim_id, key, document, area, label, state, reason", "claim_id"),
            ("untested_claims", "claim_id, key, document, area, label, state, reason", "claim_id"),
            ("claim_mismatches", "claim_id, key, document, area, label, state, problem", "claim_id, problem"),
        ]
        for (view, columns, order) in queries {
            let now = try database.query("SELECT \(columns) FROM \(view) ORDER BY \(order)").map(\.values)
            let then = try database.query("SELECT \(columns) FROM v1_\(view) ORDER BY \(order)").map(\.values)
            #expect(now == then, "\(view) differs from version 1 \(context)")
        }
    }

    @Test func theRewrittenViewsAnswerAsVersionOneDid() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try StoreImporter(store: store).run(BundledSeed())
        try Self.installVersionOneViews(store.database)
        try Self.compare(store.database, "on the seed")
        var seen: Set<String> = []
        func noteStates() throws {
            for row in try store.database.query("SELECT DISTINCT state FROM claim_state") { seen.insert(try row.text("state")) }
        }
        try noteStates()
        #expect(try store.database.scalar("SELECT count(*) FROM v1_claim_state").int ?? 0 > 40)

        let keys = try store.database.query("SELECT key FROM claims ORDER BY key").map { try $0.text("key") }
        var generator = Generator(state: 2026)
        let builds = ["23A341", "23A5318c", "23B74", "23B85", ""]
        let xcodes = ["27A9275", "27A5012a", "27C40", ""]
        let outcomes: [Outcome] = [.pass, .pass, .pass, .fail, .blocked]
        for batch in 1...12 {
            for _ in 0..<15 {
                let spec = EnvironmentSpec(
                    kind: Bool.random(using: &generator) ? .simulator : .device,
                    model: ["iPhone Duo", "iPhone Duo", "iPad Pro 13"].randomElement(using: &generator) ?? "iPhone Duo",
                    osName: "iOS", osVersion: "27.1", osBuild: builds.randomElement(using: &generator) ?? "",
                    toolName: "Xcode", toolVersion: "27.1", toolBuild: xcodes.randomElement(using: &generator) ?? "")
                let day = Int.random(in: 1...12, using: &generator)
                let date = String(format: "2026-10-%02d", day)
                    + (Bool.random(using: &generator) ? "" : String(format: "T%02d:00:00Z", Int.random(in: 0...23, using: &generator)))
                try store.log(
                    Observation(
                        claimKey: keys.randomElement(using: &generator) ?? keys[0],
                        outcome: outcomes.randomElement(using: &generator) ?? .pass, checkedAt: date),
                    run: .matching(spec, tester: "qa"))
            }
            try Self.compare(store.database, "after batch \(batch)")
            try noteStates()
        }
        #expect(seen == Set(VerificationState.names), "the series passes through every state")
    }
}
