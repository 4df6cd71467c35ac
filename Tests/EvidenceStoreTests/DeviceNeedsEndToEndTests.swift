import Foundation
import Testing

/// What needs a device stays true when a new Xcode, a missing build or another
/// model arrives: tried on the built binary with the bundled data set, over
/// one more Xcode release, as a new user would.
@Suite struct DeviceNeedsEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let duo272 = ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2", "--xcode-build", "27B40"]
    static let releaseNotes = "https://developer.apple.com/documentation/xcode-release-notes/xcode-27_1-release-notes"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    func claim(_ key: String) throws -> [String: Any] {
        let output = try run(["claim", "show", key, "--format", "json"]).stdout
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
    }

    func state(_ key: String) throws -> String { try claim(key)["state"] as? String ?? "" }
    func reason(_ key: String) throws -> String { try claim(key)["reason"] as? String ?? "" }

    func needsDevice() throws -> [String] {
        try run(["untested", "--needs-device", "--format", "csv"]).stdout.split(separator: "\n").dropFirst()
            .map { String($0.split(separator: ",")[0]) }
    }

    // MARK: - The seed's StandBy claims stay needs-device

    @Test func aPassOnANewerXcodeDoesNotVerifyWhatTheSimulatorLacks() throws {
        #expect(try state("standby.either-display") == "needs-device")
        let logged = try run(["log", "standby.either-display", "--result", "pass"] + Self.duo272)
        #expect(logged.stderr.contains("Warning: this environment lacks standby"), "\(logged.stderr)")
        #expect(logged.stderr.contains("from Xcode build 27A9275"), "the record that decides is named")
        #expect(try state("standby.either-display") == "needs-device")
        #expect(try reason("standby.either-display") == "passed only where a needed capability is missing (standby)")
        #expect(try needsDevice().contains("standby.either-display"))
        let report = try run(["report"]).stdout
        let stillNeeds = report.components(separatedBy: "## Still needs a device").dropFirst().first ?? ""
        #expect(stillNeeds.contains("standby.either-display"), "\(stillNeeds.prefix(600))")
    }

    @Test func aPassWithNoXcodeBuildLacksWhatAnyRecordSaysItLacks() throws {
        try run(["log", "standby.either-display", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2"])
        #expect(try state("standby.either-display") == "needs-device")
        let listing = try run(["env", "list", "--format", "json"]).stdout
        let rows = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [[String: Any]] ?? []
        let noBuild = rows.first { ($0["os"] as? String) == "iOS 27.2" && ($0["tool_build"] as? String) == "" }
        #expect((noBuild?["lacks"] as? String)?.contains("standby") == true, "\(listing)")
        #expect((noBuild?["decided_by"] as? String)?.contains("standby: no Xcode build recorded, and a record says: lacks standby") == true)
    }

    @Test func aPassOnAnotherModelNeverCountsAndShowsAsOnOtherModels() throws {
        let logged = try run([
            "log", "standby.either-display", "--result", "pass", "--simulator", "iPhone 18 Pro Max", "--os", "iOS 27.2",
            "--xcode", "27.2", "--xcode-build", "27B40",
        ])
        #expect(logged.stderr.contains("standby.either-display speaks about iPhone Duo, not the iPhone 18 Pro Max simulator"))
        #expect(try state("standby.either-display") == "needs-device")
        let shown = try run(["claim", "show", "standby.either-display"]).stdout
        #expect(shown.contains("models:    iPhone Duo"))
        #expect(shown.contains("pass (on other models: not counted)"), "\(shown)")
        let report = try run(["report"]).stdout
        #expect(report.contains("on other models (not counted): pass on iPhone 18 Pro Max simulator"), "\(report.prefix(300))")
        let history = try run(["history", "standby.either-display", "--format", "csv"]).stdout
        // on_other_model, then does_not_count.
        #expect(history.split(separator: "\n").last?.contains(",yes,") == true, "\(history)")
    }

    // MARK: - Capability records carry forward

    @Test func aHasRecordAtALaterBuildLetsASimulatorThereVerifyWhileABuildBetweenStillLacks() throws {
        try run([
            "env", "has", "standby", "--simulator", "iPhone Duo", "--xcode-build", "27C10", "--source", Self.releaseNotes,
            "--note", "StandBy in the simulator from Xcode 27.3.",
        ])
        // 27B40 lies between the lack (27A9275) and the record that it has it (27C10).
        try run(["log", "standby.either-display", "--result", "pass", "--date", "2026-11-01"] + Self.duo272)
        #expect(try state("standby.either-display") == "untested", "testable on the newest simulator, not verified")
        #expect(try reason("standby.either-display") == "passed only where a needed capability is missing")
        try run([
            "log", "standby.either-display", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.3",
            "--xcode", "27.3", "--xcode-build", "27C10", "--date", "2026-11-02",
        ])
        #expect(try state("standby.either-display") == "verified-in-simulator")
        // As of the newest record, the Duo simulator has StandBy: claims needing only it are no longer device work.
        #expect(!(try needsDevice().contains("standby.background-tint")))
        let listing = try run(["env", "list", "--format", "csv"]).stdout
        #expect(listing.contains("standby: the newest record at or before Xcode build 27C10 says: has standby from Xcode build 27C10"), "\(listing)")
        #expect(listing.contains("standby: the newest record at or before Xcode build 27B40 says: lacks standby from Xcode build 27A9275"))
    }

    @Test func aRecordForEveryModelCoversModelsWithoutOneOfTheirOwn() throws {
        try run(["env", "lacks", "standby", "--all-models", "--source", Self.releaseNotes])
        try run(["claim", "edit", "standby.either-display", "--model", "iPhone 18 Pro Max"])
        try run([
            "log", "standby.either-display", "--result", "pass", "--simulator", "iPhone 18 Pro Max", "--os", "iOS 27.2",
            "--xcode", "27.2", "--xcode-build", "27B40",
        ])
        #expect(try state("standby.either-display") == "needs-device")
        let records = try run(["capability", "list", "--format", "csv"]).stdout
        #expect(records.contains("every simulator model lacks standby (Xcode 27.1 Release Notes)"), "\(records)")
        // Taken out of the claim's models again, the Pro Max pass no longer counts either way.
        try run(["claim", "edit", "standby.either-display", "--remove-model", "iPhone 18 Pro Max"])
        #expect(try claim("standby.either-display")["models"] as? [String] == ["iPhone Duo"])
        try run(["env", "lacks", "standby", "--all-models", "--source", Self.releaseNotes], expect: 65)
        try run(["env", "lacks", "standby", "--simulator", "iPhone Duo", "--all-models", "--source", Self.releaseNotes], expect: 64)
    }

    // MARK: - The newest decisive evidence decides

    /// Logs a pass on 27.1, a fail on 27.2 and a blocked result on 27.3, all on the Duo simulator.
    func passFailBlocked(_ key: String) throws {
        let builds = [("27.1", "24B85", "27.1", "27A9275"), ("27.2", "24C40", "27.2", "27B40"), ("27.3", "24D10", "27.3", "27C10")]
        for ((os, osBuild, xcode, xcodeBuild), (result, date)) in zip(
            builds, [("pass", "2026-11-01"), ("fail", "2026-11-10"), ("blocked", "2026-11-20")])
        {
            try run([
                "log", key, "--result", result, "--simulator", "iPhone Duo", "--os", "iOS \(os)",
                "--os-build", osBuild, "--xcode", xcode, "--xcode-build", xcodeBuild, "--date", date,
            ])
        }
    }

    @Test func aFailOnANewerBuildThenOnlyBlockedReadsFailingEverywhere() throws {
        try passFailBlocked("island.clock-offset.closed")
        #expect(try state("island.clock-offset.closed") == "failing")
        let reason = try reason("island.clock-offset.closed")
        #expect(reason.hasPrefix("failed on 2026-11-10 in run "), "\(reason)")
        #expect(reason.contains("iOS 27.2 (24C40)") && reason.contains("no pass or fail since") && reason.contains("27.3 (24D10)"))
        let status = try run(["status", "--format", "csv", "--document", "duo-system-surfaces"]).stdout
        #expect(status.contains("duo-system-surfaces,yes,measured,failing,1"), "\(status)")
        let report = try run(["report"]).stdout
        let staleSection = report.components(separatedBy: "\n## Stale\n").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        #expect(staleSection.contains("Verified only on builds older than the newest recorded"), "\(staleSection)")
        #expect(!staleSection.contains("island.clock-offset.closed"), "\(staleSection)")
        #expect(report.contains("| island.clock-offset.closed |"), "the claim's row")
        #expect(report.contains("failing: failed on 2026-11-10"))
        let html = try run(["report", "--format", "html"]).stdout
        #expect(html.contains("data-claim=\"island.clock-offset.closed\"") && html.contains("failing: failed on 2026-11-10"))
        let mismatches = try run(["query", "--format", "csv", "SELECT problem FROM claim_mismatches WHERE key = 'island.clock-offset.closed'"]).stdout
        #expect(mismatches.contains("its latest decisive result failed"))
        // compare sees the regression between the two builds it was decided on.
        let compared = try run([
            "compare", "--model", "iPhone Duo", "--kind", "simulator", "--from", "24B85", "--to", "27.2", "--format", "json",
        ], expect: 0).stdout
        #expect(compared.contains("island.clock-offset.closed") && compared.contains("regressed"), "\(compared)")
        // untested never lists it: it has a failure.
        #expect(!(try run(["untested", "--format", "csv"]).stdout.contains("island.clock-offset.closed")))
    }

    @Test func lintReportsTheFailureOfAClaimWhoseNewestDecisiveResultFailed() throws {
        let annotated = EvidenceBinary.packageRoot.appendingPathComponent(
            "Tests/EvidenceStoreTests/Fixtures/documents/annotated/duo-system-surfaces.md")
        try FileManager.default.copyItem(atPath: annotated.path, toPath: folder.path("duo-system-surfaces.md"))
        try passFailBlocked("live-activity.request-active")
        let lint = try run(["lint", "duo-system-surfaces.md"], expect: 1).stdout
        #expect(lint.contains("error: live-activity.request-active: its latest decisive result failed: failed on 2026-11-10"), "\(lint)")
    }

    // MARK: - Saying when a result will not count

    @Test func loggingOnAnEnvironmentThatIsNotCurrentSaysSo() throws {
        try run(["log", "bars.other-app-activity", "--result", "pass"] + Self.duo272)
        let older = try run([
            "log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275", "--format", "json",
        ])
        #expect(older.stderr.contains("is not current: newer builds are recorded for the iPhone Duo simulator"), "\(older.stderr)")
        #expect(older.stderr.contains("27B40"))
        let object = try JSONSerialization.jsonObject(with: Data(older.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["counts"] as? Bool == false)
        #expect((object["notes"] as? [String])?.first?.contains("not current") == true)
        // No build at all, at the version others have a build of: not current either.
        let noBuild = try run([
            "log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2",
        ])
        #expect(noBuild.stderr.contains("not current"), "\(noBuild.stderr)")
        // The result is kept.
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM results WHERE claim_id = (SELECT id FROM claims WHERE key = 'bars.other-app-activity')"]).stdout == "n\n3\n")
    }

    @Test func aSessionSaysWhenItsEnvironmentIsNotCurrent() throws {
        try run(["log", "bars.other-app-activity", "--result", "pass"] + Self.duo272)
        try "claim: standby.background-tint\nresult: pass\n".write(toFile: folder.path("answers.txt"), atomically: true, encoding: .utf8)
        let session = try run([
            "session", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275",
            "standby.background-tint", "--answers", "answers.txt",
        ])
        #expect(session.stdout.contains("is not current: newer builds are recorded for the iPhone Duo simulator"), "\(session.stdout)")
        #expect(session.stdout.contains("lacks standby"))
    }

    @Test func ingestSaysWhichOfItsResultsWillNotCount() throws {
        try run(["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone 15", "--os", "iOS 26.2", "--xcode", "26.2", "--xcode-build", "17C100", "--new-model"])
        try run(["map", "add", "XCTestTests/test_async()", "island.clock-offset.closed"])
        let fixture = EvidenceBinary.packageRoot.appendingPathComponent("Tests/EvidenceStoreTests/Fixtures/apple/xcresult-tests-3.json")
        let ingested = try run(["ingest", fixture.path, "--xcode", "26.1", "--xcode-build", "17B55"])
        #expect(ingested.stderr.contains("is not current: newer builds are recorded for the iPhone 15 simulator"), "\(ingested.stderr)")
        #expect(ingested.stderr.contains("1 result on a model its claim does not speak about"), "\(ingested.stderr)")
    }

    // MARK: - Claims speak about models

    @Test func claimsTakeTheirDocumentsModelsAndTravelThroughExportAndImport() throws {
        try run(["claim", "add", "standby.new", "--statement", "New words.", "--document", "duo-system-surfaces", "--area", "StandBy", "--label", "unverified", "--needs", "standby"])
        #expect(try claim("standby.new")["models"] as? [String] == ["iPhone Duo"])
        try run(["document", "subjects", "duo-system-surfaces", "--model", "iPhone Duo Mini", "--new-model"])
        try run(["claim", "add", "standby.newer", "--statement", "Newer words.", "--document", "duo-system-surfaces", "--area", "StandBy", "--label", "unverified"])
        #expect(try claim("standby.newer")["models"] as? [String] == ["iPhone Duo", "iPhone Duo Mini"])
        try run(["claim", "add", "any.model", "--statement", "Any words.", "--document", "duo-system-surfaces", "--area", "StandBy", "--label", "unverified", "--model", "iPhone Duo"])
        // A typo of a known model is refused, as everywhere.
        let typo = try run(["claim", "edit", "any.model", "--model", "iPhone Dou"], expect: 64)
        #expect(typo.stderr.contains("did you mean 'iPhone Duo'?"), "\(typo.stderr)")
        try run(["env", "has", "standby", "--simulator", "iPhone Duo", "--xcode-build", "27C10", "--source", Self.releaseNotes])
        try run(["export", "shared"])
        let documents = try String(contentsOfFile: folder.path("shared/documents.jsonl"), encoding: .utf8)
        #expect(documents.contains("{\"document\":\"duo-system-surfaces\",\"models\":[\"iPhone Duo\",\"iPhone Duo Mini\"]}"))
        let lacks = try String(contentsOfFile: folder.path("shared/environment_lacks.jsonl"), encoding: .utf8)
        #expect(lacks.contains("\"tool_build\":\"27C10\",\"capability\":\"standby\",\"status\":\"has\""), "\(lacks)")
        let other = folder.path("other.sqlite")
        try EvidenceBinary.run(["init", "--store", other])
        let imported = try EvidenceBinary.run(["import", folder.path("shared"), "--store", other])
        #expect(imported.status == 0, "\(imported.stderr)")
        let shown = try EvidenceBinary.run(["claim", "show", "standby.newer", "--store", other]).stdout
        #expect(shown.contains("models:    iPhone Duo, iPhone Duo Mini"), "\(shown)")
        let subjects = try EvidenceBinary.run(["document", "subjects", "duo-system-surfaces", "--store", other]).stdout
        #expect(subjects == "duo-system-surfaces: new claims speak about iPhone Duo, iPhone Duo Mini\n")
        #expect(try EvidenceBinary.run(["capability", "list", "--format", "csv", "--store", other]).stdout.contains(
            "iPhone Duo simulator has standby from Xcode build 27C10"))
    }

    @Test func theVerifiedLineCountsOnlyTheDocumentsModelsAndNamesThemWhenThereAreSeveral() throws {
        let shell = try run(["verified-line", "--document", "shell-by-window-width"]).stdout
        #expect(shell == "iPad Pro 13: Xcode 27.1 RC, iPadOS 27 simulator; iPhone 18 Pro Max: Xcode 27.1 RC, iOS simulator; device: no\n")
        let before = try run(["verified-line", "--document", "duo-system-surfaces"]).stdout
        try run([
            "log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPad Pro 13", "--os", "iPadOS 27.2",
            "--xcode", "27.2", "--xcode-build", "27B40", "--date", "2026-11-05",
        ])
        #expect(try run(["verified-line", "--document", "duo-system-surfaces"]).stdout == before)
        #expect(before == "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no\n")
    }
}
