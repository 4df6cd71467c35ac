import Foundation
import Testing

/// Time, runs, automated outcomes, expectations, compare, merges and names
/// across clones never make a claim read better than its evidence: each way
/// the audit found, tried on the built binary with a fixed clock.
@Suite struct TruthOverTimeEndToEndTests {
    let folder: TemporaryFolder
    static let now = "2026-12-02T12:00:00Z"
    static let duo = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    init() throws {
        folder = try TemporaryFolder()
        try run(["init"])
        try run(["seed"])
    }

    /// Runs the binary on the suite's store (or `store`), as qa, at `now`.
    @discardableResult
    func run(
        _ arguments: [String], at now: String = Self.now, store: String = "evidence.sqlite", as user: String = "qa",
        expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try EvidenceBinary.run(
            arguments, environment: ["EVIDENCE_STORE": folder.path(store), "EVIDENCE_NOW": now, "USER": user], in: folder.url)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func claim(_ key: String, store: String = "evidence.sqlite") throws -> [String: Any] {
        let output = try run(["claim", "show", key, "--format", "json"], store: store).stdout
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
    }

    func state(_ key: String, store: String = "evidence.sqlite") throws -> String {
        try claim(key, store: store)["state"] as? String ?? ""
    }

    func csv(_ sql: String, store: String = "evidence.sqlite") throws -> String {
        try run(["query", "--format", "csv", sql], store: store).stdout.split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    // MARK: - Time

    @Test func anythingDatedAfterNowIsRefusedOnEveryPath() throws {
        let before = try csv("SELECT count(*) FROM results")
        // Five minutes for a clock a little ahead; six are refused.
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-12-02T12:04:00Z"] + Self.duo)
        let ahead = try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-12-02T12:06:00Z"] + Self.duo, expect: 64)
        #expect(ahead.stderr.contains("'2026-12-02T12:06:00Z'"), "\(ahead.stderr)")
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-12-03"] + Self.duo, expect: 64)
        try run(["run", "start", "--date", "2026-12-02T13:00:00Z"] + Self.duo, expect: 64)
        #expect(try csv("SELECT count(*) FROM results") == String(Int(before)! + 1))

        // A file's timestamp with no zone is read in the zone given, and the run says which.
        let junit = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="DuoTests" tests="1" timestamp="2026-12-02T20:00:00">
                <testcase classname="DuoTests" name="testIsland" time="0.1">
                  <properties><property name="claim" value="island.clock-offset.closed"/></properties>
                </testcase>
              </testsuite>
            </testsuites>
            """
        try folder.write("tokyo.xml", junit)
        let tokyo = try run(["ingest", "tokyo.xml", "--timezone", "Asia/Tokyo"] + Self.duo)
        #expect(tokyo.stdout.contains("note: timestamps without a zone read in Asia/Tokyo (UTC+09:00)"), "\(tokyo.stdout)")
        #expect(try csv("SELECT started_at FROM runs WHERE note LIKE '%tokyo.xml%'") == "2026-12-02T11:00:00Z")
        // Read in UTC the same hour is hours ahead: refused, with its line.
        try folder.write("utc.xml", junit.replacingOccurrences(of: "testIsland", with: "testIslandAgain"))
        let utc = try run(["ingest", "utc.xml", "--timezone", "UTC"] + Self.duo, expect: 65)
        #expect(utc.stderr.contains("utc.xml:3:") && utc.stderr.contains("is in the future"), "\(utc.stderr)")
        try run(["ingest", "utc.xml", "--timezone", "Mars/Olympus"] + Self.duo, expect: 64)

        // An import: a result, a label change or a retraction dated later than now.
        try run(["claim", "label", "bars.other-app-activity", "measured", "--reason", "seen"])
        try run(["export", "out"])
        try run(["init"], store: "other.sqlite")
        let history = folder.url.appendingPathComponent("out/label_history/duo-system-surfaces.jsonl")
        let original = try String(contentsOf: history, encoding: .utf8)
        try Data(original.replacingOccurrences(of: "\"changed_at\":\"2026-12-02T12:00:00Z\"", with: "\"changed_at\":\"2099-01-01T00:00:00Z\"").utf8)
            .write(to: history)
        let label = try run(["import", "out"], store: "other.sqlite", expect: 65)
        #expect(label.stderr.contains("label_history/duo-system-surfaces.jsonl:1: field 'changed_at': '2099-01-01T00:00:00Z' is in the future"), "\(label.stderr)")
        try Data(original.utf8).write(to: history)
        let runFile = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/runs")).first)
        let runPath = folder.url.appendingPathComponent("out/runs/" + runFile)
        let runText = try String(contentsOf: runPath, encoding: .utf8)
        let recorded = try #require(runText.range(of: #""recorded_at":"[0-9T:.Z-]+""#, options: .regularExpression))
        try Data(runText.replacingCharacters(in: recorded, with: "\"recorded_at\":\"2099-01-01T00:00:00.000001Z\"").utf8).write(to: runPath)
        let future = try run(["import", "out"], store: "other.sqlite", expect: 65)
        #expect(future.stderr.contains("field 'recorded_at': '2099-01-01T00:00:00.000001Z' is in the future"), "\(future.stderr)")
        #expect(try csv("SELECT count(*) FROM claims", store: "other.sqlite") == "0", "nothing written")
    }

    // MARK: - Runs

    @Test func aFailOutweighsAPassOfItsRunWhicheverTestCameLast() throws {
        for (name, first, second) in [("fail-last.xml", "", "<failure message=\"no\"/>"), ("fail-first.xml", "<failure message=\"no\"/>", "")] {
            let store = name + ".sqlite"
            try run(["init"], store: store)
            try run(["seed"], store: store)
            try folder.write(
                name,
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites><testsuite name="DuoTests" timestamp="2026-12-01T09:00:00Z">
                  <testcase classname="DuoTests" name="testOne" time="0.1">\(first)<properties><property name="claim" value="bars.other-app-activity"/></properties></testcase>
                  <testcase classname="DuoTests" name="testTwo" time="0.1">\(second)<properties><property name="claim" value="bars.other-app-activity"/></properties></testcase>
                </testsuite></testsuites>
                """)
            try run(["ingest", name] + Self.duo, store: store)
            #expect(try state("bars.other-app-activity", store: store) == "failing", "\(name)")
            #expect(try run(["flaky", "--format", "csv"], store: store).stdout.contains("claim,bars.other-app-activity,"), "\(name)")
            #expect(try run(["untested", "--format", "csv"], store: store).stdout.contains("bars.other-app-activity") == false)
        }
    }

    @Test func anExpectedFailureAndATestThatPassedOnRetryVerifyNothing() throws {
        try run(["map", "add", "XCTestTests/test_expectedFailure()", "bars.other-app-activity"])
        try run(["map", "add", "XCTestTests/test_flacky()", "bars.share-column.overflow"])
        // The file's device is an iPhone 15: the claims speak about it too here.
        for key in ["bars.other-app-activity", "bars.share-column.overflow"] {
            try run(["claim", "edit", key, "--model", "iPhone 15", "--new-model"])
        }
        try run(["ingest", Fixtures.apple("xcresult-tests-3.json").path, "--xcode", "26.1", "--xcode-build", "17B55", "--new-model"])
        for key in ["bars.other-app-activity", "bars.share-column.overflow"] {
            let detail = try claim(key)
            #expect(detail["state"] as? String == "failing", "\(key)")
        }
        // Every repetition is kept: the flaky test's failing first run and its passing retry.
        #expect(try csv("SELECT group_concat(result || ' ' || note, '; ') FROM (SELECT result, note FROM results WHERE test_id = 'XCTestTests/test_flacky()' ORDER BY id)")
            == "fail repetition 1 of 2 (First Run); pass repetition 2 of 2 (Retry 1)")
        #expect(try csv("SELECT result || ' ' || note || ' ' || message FROM results WHERE test_id = 'XCTestTests/test_expectedFailure()'")
            == "fail expected failure Failure is expected")
        let flaky = try run(["flaky", "--format", "csv"]).stdout
        #expect(flaky.contains("claim,bars.share-column.overflow,") && flaky.contains("test,XCTestTests/test_flacky(),"), "\(flaky)")
    }

    // MARK: - Expectations

    @Test func resultsLoggedWithoutAVerdictAreJudgedByTheExpectedValuesAsTheyAreNow() throws {
        try run(["claim", "expect", "island.clock-offset.closed", "status-bar clock y=180pt ±10pt"])
        let judged = ["log", "island.clock-offset.closed", "--measure", "status-bar clock y=180pt from 87pt", "--date", "2026-12-01T10:00:00Z"]
        try run(judged + ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2", "--xcode-build", "27B40"])
        #expect(try state("island.clock-offset.closed") == "verified-in-simulator")
        // Tightened: the judged pass is judged again, and fails.
        try run(["claim", "expect", "island.clock-offset.closed", "status-bar clock y=171pt ±2pt"])
        #expect(try state("island.clock-offset.closed") == "failing")
        let shown = try run(["claim", "show", "island.clock-offset.closed"]).stdout
        #expect(shown.contains("note: Outside the expected values: status-bar clock y: measured 180 pt, expected 171 ±2 pt."), "\(shown)")
        // A tester's verdict stands, with the disagreement shown.
        try run([
            "log", "live-activity.request-active", "--result", "pass", "--measure", "status-bar clock y=180pt",
            "--date", "2026-12-01T10:00:00Z", "--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2", "--xcode-build", "27B40",
        ])
        try run(["claim", "expect", "live-activity.request-active", "status-bar clock y=171pt ±2pt"])
        #expect(try state("live-activity.request-active") == "verified-in-simulator")
        #expect(try run(["claim", "show", "live-activity.request-active"]).stdout.contains(
            "The tester gave pass although it is outside the expected values: status-bar clock y: measured 180 pt, expected 171 ±2 pt."))
        // No expected value left: the judged result cannot be judged, and proves nothing.
        try run(["claim", "expect", "island.clock-offset.closed", "status-bar clock y", "--remove"])
        #expect(try csv("SELECT result FROM results WHERE judged = 1") == "inconclusive")
        #expect(try state("island.clock-offset.closed") != "failing")
        // Judged again through an export and import: the flag travels.
        try run(["export", "out"])
        #expect(try String(contentsOfFile: folder.path("out/runs/" + (try FileManager.default.contentsOfDirectory(atPath: folder.path("out/runs")).sorted().first { name in
            (try? String(contentsOfFile: folder.path("out/runs/" + name), encoding: .utf8))?.contains("\"judged\":true") == true } ?? "")), encoding: .utf8)
            .contains("\"judged\":true"))
    }

    // MARK: - lint

    @Test func lintChecksTheLatestMeasurementWhicheverResultCarriesIt() throws {
        let annotated = EvidenceBinary.packageRoot.appendingPathComponent(
            "Tests/EvidenceStoreTests/Fixtures/documents/annotated/duo-system-surfaces.md")
        try FileManager.default.copyItem(atPath: annotated.path, toPath: folder.path("duo-system-surfaces.md"))
        try run(["log", "island.clock-offset.closed", "--result", "pass", "--posture", "closed",
                 "--measure", "status-bar clock y=177pt from 87pt", "--date", "2026-12-01T09:00:00Z"] + Self.duo)
        try run(["log", "island.clock-offset.closed", "--result", "pass", "--date", "2026-12-01T10:00:00Z"] + Self.duo)
        let lint = try run(["lint", "duo-system-surfaces.md"], expect: 1).stdout
        #expect(lint.contains("[numbers]") && lint.contains("177 pt"), "\(lint)")
    }

    // MARK: - compare

    @Test func compareOrdersAsTheStateDoesAndKeepsDevicesAndSimulatorsApart() throws {
        let b2 = ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--os-build", "24C40", "--xcode", "27.2", "--xcode-build", "27B40"]
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-20"] + Self.duo)
        // A fail at 12:00, then a pass at 10:00 logged later the same day: the fail is the latest.
        try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-12-01T12:00:00Z"] + b2)
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-12-01T10:00:00Z"] + b2)
        #expect(try state("bars.other-app-activity") == "failing")
        let compared = try run(["compare", "--model", "iPhone Duo", "--kind", "simulator", "--from", "27.1", "--to", "24C40", "--format", "csv"]).stdout
        #expect(compared.contains("claim,bars.other-app-activity,simulator,regressed,pass,fail"), "\(compared)")
        // A device fail and a later simulator pass on 27.2: each kind its own line.
        let device = ["--device", "iPhone Duo", "--os", "iOS 27.2", "--os-build", "24C40", "--xcode", "27.2", "--xcode-build", "27B40"]
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-11-20", "--device", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275"])
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--date", "2026-12-01T08:00:00Z"] + device)
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-12-01T09:00:00Z"] + b2)
        let both = try run(["compare", "--model", "iPhone Duo", "--from", "27.1", "--to", "27.2", "--format", "csv"]).stdout
        #expect(both.contains("claim,deep-links.closed-and-open,device,regressed,pass,fail"), "\(both)")
        #expect(both.contains("claim,deep-links.closed-and-open,simulator,newly-covered,,pass"), "\(both)")
        let gated = try run(["compare", "--model", "iPhone Duo", "--from", "27.1", "--to", "27.2", "--fail-on", "regressed"], expect: 1)
        #expect(gated.stderr == "Failing (--fail-on): 2 regressed.\n", "\(gated.stderr)")
    }

    // MARK: - Merges

    @Test func anImportNeverGoesBackToOlderWords() throws {
        try run(["export", "shared"])
        try run(["init"], store: "bob.sqlite")
        try run(["import", "shared"], store: "bob.sqlite")
        // Alice (this store) edits the words and exports; Bob never imports that, logs a pass and exports.
        try run(["claim", "edit", "bars.other-app-activity", "--statement", "A Live Activity of another app can take height from the bar."],
                 at: "2026-12-02T12:10:00Z", as: "alice")
        try run(["export", "alice"], at: "2026-12-02T12:11:00Z", as: "alice")
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-12-02T12:20:00Z"] + Self.duo,
                at: "2026-12-02T12:20:00Z", store: "bob.sqlite", as: "bob")
        try run(["export", "bob"], at: "2026-12-02T12:21:00Z", store: "bob.sqlite", as: "bob")
        try run(["import", "bob"], at: "2026-12-02T12:30:00Z", as: "alice")
        let detail = try claim("bars.other-app-activity")
        #expect(detail["statement"] as? String == "A Live Activity of another app can take height from the bar.")
        #expect(detail["state"] as? String == "stale", "Bob's pass proved the earlier words")
        // Every editable record says when and by whom it last changed.
        let line = try String(contentsOfFile: folder.path("alice/claims/duo-system-surfaces.jsonl"), encoding: .utf8)
            .split(separator: "\n").first { $0.contains("\"key\":\"bars.other-app-activity\"") } ?? ""
        #expect(line.hasSuffix(",\"changed_at\":\"2026-12-02T12:10:00Z\",\"changed_by\":\"alice\"}"), "\(line)")
    }

    @Test func aChecklistItemProvesOnlyWithClaimsOfItsOwnDocument() throws {
        try run(["export", "out"])
        let items = folder.url.appendingPathComponent("out/checklist_items.jsonl")
        let text = try String(contentsOf: items, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("\"checklist\":\"duo-system-surfaces\"") && $0.contains("\"claims\":[") })
        let edited = line.replacingOccurrences(of: "\"claims\":[", with: "\"claims\":[\"breaks.geometry-reader-width\",")
        try Data(text.replacingOccurrences(of: line, with: edited).utf8).write(to: items)
        try run(["init"], store: "other.sqlite")
        let refused = try run(["import", "out"], store: "other.sqlite", expect: 65)
        #expect(refused.stderr.contains("claim 'breaks.geometry-reader-width' belongs to document 'everything-that-breaks'"), "\(refused.stderr)")
    }

    // MARK: - Names across clones

    @Test func runsAndResultsAreNamedByTheirUUIDsEverywhere() throws {
        let logged = try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-12-01", "--format", "json"] + Self.duo)
        let object = try JSONSerialization.jsonObject(with: Data(logged.stdout.utf8)) as? [String: Any] ?? [:]
        let result = try #require(object["result"] as? String)
        let runUUID = try #require(object["run"] as? String)
        #expect(logged.stderr.isEmpty || !logged.stderr.contains("Logged"), "JSON to standard output only")
        let shown = try run(["claim", "show", "bars.other-app-activity"]).stdout
        #expect(shown.contains(String(result.prefix(8)) + " (#"), "\(shown)")
        let history = try run(["history", "bars.other-app-activity", "--format", "csv"]).stdout
        #expect(history.hasPrefix("result,local,checked_at,") && history.contains("\n" + String(result.prefix(8)) + ","), "\(history)")
        #expect(try run(["run", "show", String(runUUID.prefix(6))]).stdout.hasPrefix("run \(runUUID.prefix(8)) (local #"))
        // Retracted by a prefix of 6: the same result in every clone.
        let retracted = try run(["result", "retract", String(result.prefix(6)), "--reason", "wrong claim"])
        #expect(retracted.stderr.contains("Retracted result \(result.prefix(8)) (local #"), "\(retracted.stderr)")
        // A local number still works, written #N where it could be read as a prefix.
        try run(["run", "retract", "#1", "--reason", "wrong Xcode"])
        let unknown = try run(["result", "retract", "9999", "--reason", "x"], expect: 65)
        #expect(unknown.stderr == "Error: unknown result '9999'\n", "no suggestion that is not close: \(unknown.stderr)")
        let help = try run(["help", "result", "retract"]).stdout
        let words = help.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        #expect(words.contains("or its local number, which another clone's store gives another result"), "\(words)")
    }
}
