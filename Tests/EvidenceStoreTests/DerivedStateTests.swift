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
        let stale = try store.staleClaims()
        #expect(stale.map(\.claim) == ["bars.overflow"])
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
        let problems = try store.mismatches().map { "\($0.claim): \($0.problem)" }
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
        let list = try #require(try store.checklists().first)
        let rendered = list.items.map { "\($0.ticked ? "x" : " ") \($0.key): \($0.why ?? "")" }
        #expect(rendered[0] == "x item.verified: ")
        #expect(rendered[1] == "  item.device: needs a device for standby (standby.either-display)")
        #expect(rendered[2] == "  item.failing: failing since run \(failed.run.shortName) (island.clock-offset.closed)")
        #expect(rendered[3].hasPrefix("  item.marked: marked untested by lead on "))
        #expect(rendered[3].hasSuffix(": no device yet"))
        try store.markChecklistItem(key: "item.marked", untestedReason: nil, by: "lead")
        #expect(try store.checklists().first?.items[3].why == "needs a device for standby (standby.either-display)")
        #expect(throws: EvidenceError.self) {
            try store.markChecklistItem(key: "item.nope", untestedReason: "x", by: "lead")
        }
    }
}
