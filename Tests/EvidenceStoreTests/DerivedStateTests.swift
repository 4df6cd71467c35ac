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

    func version(_ os: String, build: String = "", xcode: String = "27.1", xcodeBuild: String = "27A9275")
        -> EnvironmentSpec
    {
        EnvironmentSpec(
            kind: .simulator, model: "iPhone Duo", osName: "iOS", osVersion: os, osBuild: build, toolName: "Xcode",
            toolVersion: xcode, toolBuild: xcodeBuild)
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
        #expect(try reason("bars.overflow") == "no pass or fail yet; last result blocked on 2026-10-20")
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
        #expect(text.contains("OS iOS 27.1 (23B85)"), "\(text)")
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
        #expect(try reason("bars.overflow").contains("Xcode 27.1 (27C40)"))
    }

    @Test func mismatchesNameWhatTheEvidenceDoesNotSupport() throws {
        try store.addClaim(ClaimDraft(key: "sourced.alone", statement: "s", document: "d", area: "a", label: .sourced), by: "w")
        try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        try log("standby.either-display", .fail, on: environment(.device), "2026-10-20")
        let problems = try store.reader.mismatches().map { "\($0.claim): \($0.text)" }
        #expect(problems.contains("island.clock-offset.closed: labelled measured but has no current pass: untested: no result yet"))
        #expect(problems.contains("sourced.alone: labelled sourced but cites no source"))
        #expect(problems.contains { $0.hasPrefix("standby.either-display: its latest decisive result failed: failed on 2026-10-20") })
        #expect(problems.contains { $0.hasPrefix("bars.overflow: labelled unverified but verified-in-simul") })
        // The view gives the kind, the problem and the state's reason apart.
        let rows = try store.reader.mismatches()
        let failing = try #require(rows.first { $0.claim == "standby.either-display" && $0.kind == .failing })
        #expect(failing.problem == "its latest decisive result failed")
        #expect(failing.reason.hasPrefix("failed on 2026-10-20 in run "))
        let sourced = try #require(rows.first { $0.claim == "sourced.alone" })
        #expect(sourced.kind == .sourced && sourced.problem == "labelled sourced but cites no source")
        #expect(rows.first { $0.claim == "bars.overflow" }?.problem == "labelled unverified but verified-in-simulator")
    }

    @Test func theChecklistTicksOnlyVerifiedItemsAndSaysWhy() throws {
        try store.database.execute("INSERT INTO checklists (document, title) VALUES ('duo-system-surfaces', 'Checklist')")
        let items: [(String, [String])] = [
            ("item.verified", ["bars.overflow"]), ("item.device", ["standby.either-display"]),
            ("item.failing", ["island.clock-offset.closed"]), ("item.marked", ["bars.overflow", "standby.either-display"]),
            ("item.marked-failing", ["island.clock-offset.closed"]), ("item.unlinked", []),
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
        try store.markChecklistItem(key: "item.marked", as: .untested, reason: "no device yet", by: "lead")
        try store.markChecklistItem(key: "item.marked-failing", as: .untested, reason: "later", by: "lead")
        func rendered() throws -> [String] {
            let list = try #require(try store.reader.checklists().first)
            return list.items.map { "\($0.ticked ? "x" : " ") \($0.key): \($0.why ?? "")" }
        }
        var lines = try rendered()
        #expect(lines[0] == "x item.verified: ")
        #expect(lines[1] == "  item.device: needs a device for standby (standby.either-display)")
        #expect(lines[2] == "  item.failing: failing since run \(failed.run.shortName) (island.clock-offset.closed)")
        #expect(lines[3].hasPrefix("  item.marked: needs a device for standby (standby.either-display); marked untested by lead on "))
        #expect(lines[3].hasSuffix(": no device yet"))
        // A mark never replaces a failure: it shows first.
        #expect(lines[4].hasPrefix("  item.marked-failing: failing since run \(failed.run.shortName) (island.clock-offset.closed); marked untested by lead"))
        // No claim, no evidence: only a hand check with a reason ticks it.
        #expect(lines[5] == "  item.unlinked: no claim is linked to it and nobody has checked it by hand")
        try store.markChecklistItem(key: "item.unlinked", as: .checked, reason: "read the code", by: "lead")
        lines = try rendered()
        #expect(lines[5].hasPrefix("x item.unlinked: checked by hand by lead on "))
        // Where claims are linked, their evidence decides; a hand check is refused.
        #expect(throws: EvidenceError.self) {
            try store.markChecklistItem(key: "item.failing", as: .checked, reason: "looks fine", by: "lead")
        }
        try store.markChecklistItem(key: "item.marked", as: nil, reason: nil, by: "lead")
        #expect(try store.reader.checklists().first?.items[3].why == "needs a device for standby (standby.either-display)")
        #expect(throws: EvidenceError.self) {
            try store.markChecklistItem(key: "item.nope", as: .untested, reason: "x", by: "lead")
        }
    }

    // MARK: - Truthful state

    @Test func aLaterSkipOrBlockNeverHidesAFailure() throws {
        try log("bars.overflow", .pass, on: environment(), "2026-10-20T09:00:00Z")
        try log("bars.overflow", .fail, on: environment(), "2026-10-20T09:10:00Z")
        try log("bars.overflow", .skipped, on: environment(), "2026-10-20T09:20:00Z")
        #expect(try fixture.state("bars.overflow") == "failing")
        try log("island.clock-offset.closed", .fail, on: environment(), "2026-10-20")
        try log("island.clock-offset.closed", .blocked, on: environment(), "2026-10-21")
        #expect(try fixture.state("island.clock-offset.closed") == "failing")
        #expect(try reason("island.clock-offset.closed").hasPrefix("failed on 2026-10-20 in run "))
    }

    @Test func aDayWithADateOnlyResultIsTiedAndItsFailDecides() throws {
        // A timed pass this morning, then a date-only failure the same day: they cannot be ordered, and the fail decides.
        try log("bars.overflow", .pass, on: environment(), "2026-10-20T09:00:00Z")
        try log("bars.overflow", .fail, on: environment(), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "failing")
        #expect(try reason("bars.overflow").hasPrefix("failed and passed on 2026-10-20, order unknown"))
        // Whichever was recorded first.
        try log("island.clock-offset.closed", .fail, on: environment(), "2026-10-20")
        try log("island.clock-offset.closed", .pass, on: environment(), "2026-10-20T08:00:00Z")
        #expect(try fixture.state("island.clock-offset.closed") == "failing")
        // A pass of the next day decides; a result of an earlier day logged later is older all the same.
        try log("island.clock-offset.closed", .pass, on: environment(), "2026-10-21")
        try log("island.clock-offset.closed", .fail, on: environment(), "2026-10-19T23:00:00Z")
        #expect(try fixture.state("island.clock-offset.closed") == "verified-in-simulator")
    }

    @Test func aDateLaterThanNowIsRefused() throws {
        let before = try fixture.count("results")
        // Five minutes are allowed for a clock a little ahead.
        let skewed = Timestamp.format(Date().addingTimeInterval(4 * 60))
        try log("bars.overflow", .pass, on: environment(), skewed)
        for date in ["2099-01-01", Timestamp.format(Date().addingTimeInterval(6 * 60)), Timestamp.format(Date().addingTimeInterval(20 * 3600))] {
            #expect(throws: EvidenceError.self) { try log("bars.overflow", .fail, on: environment(), date) }
            #expect(throws: EvidenceError.self) {
                try store.startRun(RunDraft(environment: environment(), startedAt: date))
            }
        }
        #expect(try fixture.count("results") == before + 1)
    }

    @Test func missingBuildsNeverLookNewer() throws {
        // iOS 27.1 with no build, then a run on iOS 27.2: the 27.1 evidence is stale.
        try log("bars.overflow", .pass, on: version("27.1", xcodeBuild: ""), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        try log("island.clock-offset.closed", .pass, on: version("27.2", xcodeBuild: ""), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "stale")
        #expect(try reason("bars.overflow").contains("OS iOS 27.2"))
        // Versions compare as numbers: 27.10 is newer than 27.9.
        try log("standby.either-display", .pass, on: version("27.10", xcodeBuild: ""), "2026-10-22")
        #expect(try fixture.state("island.clock-offset.closed") == "stale")
    }

    @Test func atTheSameVersionARecordedBuildIsNewerThanAMissingOne() throws {
        try log("bars.overflow", .pass, on: version("27.1", xcode: "27.1", xcodeBuild: ""), "2026-10-20")
        try log("island.clock-offset.closed", .pass, on: version("27.1", xcode: "27.1", xcodeBuild: "27A9275"), "2026-10-20")
        #expect(try fixture.state("bars.overflow") == "stale")
        #expect(try fixture.state("island.clock-offset.closed") == "verified-in-simulator")
        // A newer point release without a build is newer than an older one with one.
        try log("standby.either-display", .pass, on: version("27.1", xcode: "27.1.1", xcodeBuild: ""), "2026-10-21")
        #expect(try fixture.state("island.clock-offset.closed") == "stale")
    }

    @Test func aRetractedResultCountsForNothing() throws {
        let first = try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        let wrong = try log("bars.overflow", .fail, on: environment(), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "failing")
        try store.retractResult(String(wrong.resultID), reason: "logged against the wrong claim", by: "qa")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        let detail = try store.reader.claimDetail(key: "bars.overflow")
        #expect(detail.results.count == 2, "a retracted result stays")
        #expect(detail.results.last?.retraction?.reason == "logged against the wrong claim")
        #expect(throws: EvidenceError.self) { try store.retractResult(String(wrong.resultID), reason: "again", by: "qa") }
        #expect(throws: DatabaseError.self) {
            try store.database.execute("DELETE FROM retractions")
        }
        // A whole run: every result in it.
        try store.retractRun(first.run.uuid, reason: "the wrong simulator", by: "qa")
        #expect(try fixture.state("bars.overflow") == "untested")
        #expect(try reason("bars.overflow") == "no result that counts yet (every one was retracted)")
    }

    @Test func changedWordsMakeOldProofStale() throws {
        let passed = try log("bars.overflow", .pass, on: environment(), "2026-10-20")
        let edit = try store.editClaim(key: "bars.overflow", ClaimChanges(statement: "App items move to the overflow menu."))
        #expect(edit.statementChanged)
        #expect(edit.earlierProof == [passed.run.shortName])
        #expect(try fixture.state("bars.overflow") == "stale")
        #expect(try reason("bars.overflow").hasPrefix("statement changed since run \(passed.run.shortName)"))
        // Checked again against the new words, it is verified again.
        try log("bars.overflow", .pass, on: environment(), "2026-10-21")
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
        // Editing other fields keeps the proof.
        let other = try store.editClaim(key: "bars.overflow", ClaimChanges(area: "Toolbars"))
        #expect(!other.statementChanged)
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
    }

    @Test func notPublishedClaimsAreNotQAWork() throws {
        try store.addClaim(
            ClaimDraft(
                key: "not-published.sizes", statement: "Widget sizes.", document: "duo-system-surfaces", area: "Widgets",
                label: .notPublished, asOf: "2026-10-20"), by: "writer")
        #expect(!(try store.reader.untestedList().map(\.key).contains("not-published.sizes")))
        #expect(try store.reader.untestedList(all: true).map(\.key).contains("not-published.sizes"))
    }
}
