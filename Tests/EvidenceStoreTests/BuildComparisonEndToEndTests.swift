import Foundation
import Testing

@testable import EvidenceStore

/// What changed between builds: compare, history, flaky results and expected
/// values, on the built binary.
@Suite struct BuildComparisonEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let beta1 = ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--os-build", "24C5050a", "--xcode", "27.2", "--xcode-build", "27C5032a"]
    static let beta2 = ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--os-build", "24C5061b", "--xcode", "27.2", "--xcode-build", "27C5032a"]

    /// The seed, then two betas of iOS 27.2 on the simulator: a regression, a
    /// fix, one still failing, one newly and one no longer covered, a moved
    /// measurement, a flaky pair, and two JUnit files of the betas (one test
    /// maps to a claim, the others map to none).
    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
        func log(_ key: String, _ result: String, _ beta: [String], _ more: [String] = []) throws {
            try run(["log", key, "--result", result, "--date", beta == Self.beta1 ? "2026-11-20" : "2026-11-27"] + beta + more)
        }
        try log("live-activity.request-active", "pass", Self.beta1)
        try log("live-activity.request-active", "fail", Self.beta2, ["--note", "Activity.request threw."])
        try log("bars.other-app-activity", "fail", Self.beta1)
        try log("bars.other-app-activity", "pass", Self.beta2)
        try log("bars.share-column.overflow", "fail", Self.beta1)
        try log("bars.share-column.overflow", "fail", Self.beta2)
        try log("deep-links.closed-and-open", "pass", Self.beta2)
        try log("breaks.geometry-reader-width", "pass", Self.beta1)
        try log("island.clock-offset.closed", "pass", Self.beta1, ["--measure", "status-bar clock y=171pt from 87pt", "--posture", "closed"])
        try log("island.clock-offset.closed", "pass", Self.beta2, ["--measure", "status-bar clock y=173pt from 87pt", "--posture", "closed"])
        // A flaky pair on beta 2: its latest decisive result fails, so it stays failing.
        try log("island.clock-offset.open-wide", "pass", Self.beta2)
        try log("island.clock-offset.open-wide", "fail", Self.beta2)
        for (name, beta, cases) in [
            ("beta1.xml", Self.beta1, [("testLaunch", true), ("testRotate", false), ("testOld", true), ("testIsland claim:island.vertical.several-activities", true)]),
            ("beta2.xml", Self.beta2, [("testLaunch", false), ("testRotate", true), ("testNew", true), ("testIsland claim:island.vertical.several-activities", true)]),
        ] {
            let body = cases.map { name, passed in
                "<testcase classname=\"AppTests\" name=\"\(name)\" time=\"0.5\">" + (passed ? "" : "<failure message=\"boom\"/>") + "</testcase>"
            }.joined()
            try folder.write(name, "<testsuites><testsuite name=\"AppTests\">\(body)</testsuite></testsuites>")
            try run(["ingest", name, "--date", beta == Self.beta1 ? "2026-11-20" : "2026-11-27"] + beta)
        }
    }

    // MARK: compare

    /// A version known on simulators only, asked of devices: no "did you
    /// mean" of the same value, but where it is and how to ask for it.
    @Test func aVersionOnTheOtherKindIsExplainedNotSuggested() throws {
        let refused = try run(["compare", "--model", "iPhone Duo", "--kind", "device", "--from", "24C5050a", "--to", "24C5061b"], expect: 64)
        #expect(refused.stderr.contains("iPhone Duo has '24C5050a' only on simulators, not on devices; give --kind simulator"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("did you mean '24C5050a'"))
        let unknown = try run(["compare", "--model", "iPhone Duo", "--kind", "simulator", "--from", "24C5050b", "--to", "24C5061b"], expect: 65)
        #expect(unknown.stderr.contains("did you mean") && unknown.stderr.contains("'24C5050a'"), "\(unknown.stderr)")
        // Spaces around a version are not part of it.
        try run(["compare", "--model", "iPhone Duo", "--from", " 24C5050a", "--to", "24C5061b "])
    }

    @Test func betasCompareInEveryFormat() throws {
        let sides = ["compare", "--model", "iPhone Duo", "--kind", "simulator", "--from", "24C5050a", "--to", "24C5061b"]
        for format in ["table", "json", "csv", "markdown"] {
            let compared = try run(sides + ["--format", format])
            try Golden.check(compared.stdout, against: "compare-betas.\(format == "markdown" ? "md" : format)")
        }
        // Each line with its columns one space apart.
        let table = try run(sides).stdout.split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.joined(separator: "\n")
        for line in [
            "claim live-activity.request-active simulator regressed pass fail iPhone Duo simulator, iOS 27.2 (24C5050a)",
            "claim bars.other-app-activity simulator fixed fail pass",
            "claim bars.share-column.overflow simulator still-failing fail fail",
            "claim deep-links.closed-and-open simulator newly-covered pass iPhone Duo simulator, iOS 27.2 (24C5061b)",
            "claim breaks.geometry-reader-width simulator no-longer-covered pass iPhone Duo simulator, iOS 27.2 (24C5050a)",
            "test AppTests/testLaunch simulator regressed pass fail",
            "test AppTests/testRotate simulator fixed fail pass",
            "test AppTests/testNew simulator newly-covered pass",
            "test AppTests/testOld simulator no-longer-covered pass",
            "claim island.clock-offset.closed · status-bar clock y (closed) simulator moved 171 173 2 pt",
        ] {
            #expect(table.contains(line), "\(line)\n\(table)")
        }
        // A pass on both sides is no line, for a claim and for a test (whether or not it maps to one).
        #expect(!table.split(separator: "\n").contains { $0.hasPrefix("claim island.clock-offset.closed ") && !$0.contains("·") })
        #expect(!table.contains("testIsland"))
        // The other way round, everything turns over.
        let back = try run(["compare", "--model", "iPhone Duo", "--kind", "simulator", "--from", "24C5061b", "--to", "24C5050a", "--format", "json"])
        try Golden.check(back.stdout, against: "compare-betas-reversed.json")
        #expect(back.stdout.contains(#"{"subject": "claim", "name": "live-activity.request-active", "kind": "simulator", "change": "fixed""#))
        #expect(back.stdout.contains(#""delta": -2"#))
    }

    @Test func runsCompareByTestIdentifierAndTheGateSetsTheExitCode() throws {
        let runs = try run(["query", "--format", "csv", "SELECT id FROM runs WHERE ingested_file_id IS NOT NULL ORDER BY id"]).stdout
            .split(separator: "\n").dropFirst().map(String.init)
        #expect(runs.count == 2)
        let compared = try run(["compare", "--from", runs[0], "--to", runs[1], "--format", "csv"]).stdout
        #expect(compared.contains("test,AppTests/testLaunch,simulator,regressed,pass,fail"), "\(compared)")
        #expect(compared.contains("test,AppTests/testRotate,simulator,fixed,fail,pass"))
        #expect(!compared.contains("live-activity.request-active"), "a run holds only its own results")
        // The gate: exit 1 on what it names, with what it found on standard error.
        let gated = try run(["compare", "--from", runs[0], "--to", runs[1], "--fail-on", "regressed"], expect: 1)
        #expect(gated.stderr == "Failing (--fail-on): 1 regressed.\n")
        try run(["compare", "--from", runs[0], "--to", runs[1], "--fail-on", "moved"])
        let both = ["compare", "--model", "iPhone Duo", "--from", "24C5050a", "--to", "24C5061b", "--fail-on", "regressed,moved"]
        #expect(try run(both, expect: 1).stderr == "Failing (--fail-on): 2 regressed, 1 moved.\n")
        #expect(try run(["compare", "--from", runs[0], "--to", runs[1], "--fail-on", "worse"], expect: 64).stderr.contains("invalid change 'worse'"))
        #expect(try run(["compare", "--model", "iPhone Duo", "--from", "27.9", "--to", "24C5061b"], expect: 65).stderr
            .contains("unknown OS version or build of iPhone Duo '27.9'; did you mean"))
        #expect(try run(["compare", "--from", "1", "--to", "2", "--kind", "device"], expect: 64).stderr.contains("--kind needs --model"))
    }

    // MARK: history and flaky

    @Test func historyIsNewestFirstAndDateOnlyResultsGoByRecordingOrder() throws {
        let key = "home-screen.closed-dock-side-column"
        // On one day: a timed pass, then (recorded later) a date-only fail, then
        // a timed pass at an earlier hour. The date-only one holds the day to
        // recording order; on a day of timed results only, the clock decides.
        try run(["log", key, "--result", "pass", "--date", "2026-11-28T15:00:00Z"] + Self.beta2)
        try run(["log", key, "--result", "fail", "--date", "2026-11-28"] + Self.beta2)
        try run(["log", key, "--result", "pass", "--date", "2026-11-28T09:00:00Z"] + Self.beta2)
        try run(["log", key, "--result", "pass", "--date", "2026-11-29T18:00:00Z"] + Self.beta2)
        try run(["log", key, "--result", "fail", "--date", "2026-11-29T08:00:00Z"] + Self.beta2)
        let retracted = try run(["log", key, "--result", "inconclusive", "--date", "2026-11-26"] + Self.beta2).stderr
        let id = try #require(retracted.split(separator: " ").firstIndex(of: "result").map { retracted.split(separator: " ")[$0 + 1] })
        try run(["result", "retract", String(id), "--reason", "wrong claim"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(try run(["history", key, "--format", "json"]).stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { "\($0["checked_at"] ?? "") \($0["outcome"] ?? "")" } == [
            "2026-11-29T18:00:00Z pass", "2026-11-29T08:00:00Z fail",
            "2026-11-28T09:00:00Z pass", "2026-11-28 fail", "2026-11-28T15:00:00Z pass",
            "2026-11-26 inconclusive", "2026-10-20 pass",
        ])
        #expect((rows[5]["retracted"] as? String)?.hasPrefix("retracted by qa on ") == true)
        #expect(rows[6]["measurements"] as? String == "", "the seed's result of this claim has no measurement")
        let json = try run(["history", key, "--format", "json"]).stdout
        #expect(json.hasPrefix("[\n  {\"result\": "))
        #expect(try run(["history", "home-screen.closed-dock"], expect: 65).stderr.contains("did you mean"))
    }

    @Test func flakyIsFlaggedEverywhereAndNeverHidesFailing() throws {
        // A claim that simulator cannot prove (Xcode 27.1's lacks StandBy): flaky
        // there, and failing: its pass there never counts, so it hides nothing.
        let lacking = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
        // A day apart: within one run, a fail outweighs a pass at the same moment.
        try run(["log", "standby.presentation", "--result", "fail", "--date", "2026-11-26"] + lacking)
        try run(["log", "standby.presentation", "--result", "pass", "--date", "2026-11-27"] + lacking)
        // An automated test rerun on beta 2 passes where it failed: flaky too.
        try folder.write(
            "rerun.xml", "<testsuites><testsuite name=\"AppTests\"><testcase classname=\"AppTests\" name=\"testLaunch\"/></testsuite></testsuites>")
        try run(["ingest", "rerun.xml", "--date", "2026-11-28"] + Self.beta2)
        let flaky = try run(["flaky", "--format", "csv"]).stdout
        #expect(
            flaky == """
                subject,name,environment,passes,fails,results
                claim,island.clock-offset.open-wide,"iPhone Duo simulator, iOS 27.2 (24C5061b), Xcode 27.2 (27C5032a)",1,1,2
                claim,standby.presentation,"iPhone Duo simulator, iOS 27.1, Xcode 27.1 (27A9275)",1,1,2
                test,AppTests/testLaunch,"iPhone Duo simulator, iOS 27.2 (24C5061b), Xcode 27.2 (27C5032a)",1,1,2

                """, "\(flaky)")
        #expect(try run(["flaky", "--window", "1"]).stdout.split(separator: "\n").count == 2, "a window of one holds no pair")
        let shown = try run(["claim", "show", "island.clock-offset.open-wide"]).stdout
        #expect(shown.contains("state:     failing: failed and passed on 2026-11-27, order unknown"), "\(shown)")
        #expect(shown.contains("flaky:     passed 1 and failed 1 of its last 2 results on iPhone Duo simulator, iOS 27.2 (24C5061b)"))
        let untested = try run(["untested", "--needs-device", "--format", "csv"]).stdout
        #expect(!untested.contains("standby.presentation,"), "\(untested)")
        let failing = try run(["untested", "--failing", "--format", "csv"]).stdout
        #expect(failing.contains("standby.presentation,failing,,duo-system-surfaces,StandBy,sourced,\"failed on 2026-11-26 in run "), "\(failing)")
        // The flaky column, then the owner (none here).
        #expect(failing.split(separator: "\n").first { $0.hasPrefix("standby.presentation,") }?.hasSuffix(",yes,") == true)
        #expect(untested.split(separator: "\n").first { $0.hasPrefix("standby.either-display,") }?.hasSuffix(",,") == true)
        let report = try run(["report"]).stdout
        // By environment, each named once.
        #expect(report.contains("### iPhone Duo simulator, iOS 27.2 (24C5061b), Xcode 27.2 (27C5032a)\n\n| claim | passes | fails | of the last |"))
        #expect(report.contains("| island.clock-offset.open-wide | 1 | 1 | 2 |"))
        // A retraction takes a result out.
        #expect(try run(["flaky", "--window", "0", "--format", "csv"], expect: 64).stderr.contains("invalid window '0'"))
        let id = try run(["query", "--format", "csv", "SELECT max(r.id) AS id FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE c.key = 'standby.presentation'"])
            .stdout.split(separator: "\n")[1]
        try run(["result", "retract", String(id), "--reason", "the wrong build"])
        #expect(!(try run(["flaky"]).stdout.contains("standby.presentation")))
    }

    // MARK: expected values

    @Test func expectedValuesJudgeResultsOnBothSidesOfTheTolerance() throws {
        let key = "island.clock-offset.closed"
        try run(["claim", "expect", key, "status-bar clock y=171pt ±2pt"])
        #expect(try run(["claim", "show", key]).stdout.contains("expects:   status-bar clock y = 171 ±2 pt"))
        #expect(try run(["claim", "expect", key, "status-bar clock y=171pt ±two"], expect: 64).stderr.contains("the tolerance is a number of pt"))
        // Within: a pass, judged; on the edge too.
        let within = try run(["log", key, "--measure", "status-bar clock y=173pt from 87pt"] + Self.beta2)
        #expect(within.stderr.hasPrefix("Logged pass (judged by its expected values) for \(key)"), "\(within.stderr)")
        // Outside: a fail, and the note says why.
        let outside = try run(["log", key, "--measure", "status-bar clock y=174pt from 87pt"] + Self.beta2)
        #expect(outside.stderr.hasPrefix("Logged fail (judged by its expected values)"))
        #expect(outside.stderr.contains("Outside the expected values: status-bar clock y: measured 174 pt, expected 171 ±2 pt."))
        #expect(try run(["claim", "show", key]).stdout.contains("state:     failing"))
        // The tester says otherwise: the pass stands and the note says so.
        let overruled = try run(["log", key, "--result", "pass", "--measure", "status-bar clock y=174pt from 87pt"] + Self.beta2)
        #expect(overruled.stderr.hasPrefix("Logged pass for \(key)"))
        let notes = try run(["query", "--format", "csv", "SELECT result, note FROM results WHERE claim_id = (SELECT id FROM claims WHERE key = '\(key)') ORDER BY id DESC LIMIT 3"]).stdout
        #expect(notes == """
            result,note
            pass,"The tester gave pass although it is outside the expected values: status-bar clock y: measured 174 pt, expected 171 ±2 pt."
            fail,"Outside the expected values: status-bar clock y: measured 174 pt, expected 171 ±2 pt."
            pass,

            """, "\(notes)")
        // Without a result, every measurement needs an expected value.
        let before = try fileDigest(store)
        #expect(try run(["log", key] + Self.beta2, expect: 64).stderr.contains("give --result"))
        #expect(try run(["log", key, "--measure", "other=1pt"] + Self.beta2, expect: 64).stderr.contains("no expected value for 'other'"))
        #expect(try fileDigest(store) == before)
        // The report shows what was expected beside what was measured; export and import keep it.
        let report = try run(["report"]).stdout
        #expect(report.contains("status-bar clock y: 87 pt → 173 pt (Δ +86 pt); expected 171 ±2 pt |"))
        #expect(report.contains("status-bar clock y: 87 pt → 174 pt (Δ +87 pt); expected 171 ±2 pt, outside |"))
        try run(["export", "out"])
        try run(["init", "--store", "copy.sqlite"])
        try run(["import", "out", "--store", "copy.sqlite"])
        #expect(try run(["report", "--store", "copy.sqlite"]).stdout == report)
        try run(["claim", "expect", key, "status-bar clock y", "--remove"])
        #expect(!(try run(["claim", "show", key]).stdout.contains("expects:")))
        #expect(try run(["claim", "expect", key, "status-bar clock y", "--remove"], expect: 65).stderr.contains("unknown expected value"))
    }

    @Test func expectedValuesParseEveryFormAndRefuseTheRest() throws {
        let plain = try ExpectedValue(parsing: "status-bar clock y=171pt ±2pt")
        #expect(plain == ExpectedValue(name: "status-bar clock y", value: 171, unit: .pt, tolerance: 2))
        #expect(try ExpectedValue(parsing: "status-bar clock y = 171 pt +- 2") == plain)
        #expect(try ExpectedValue(parsing: "frame rate=120fps").tolerance == 0)
        #expect(try ExpectedValue(parsing: "cpu=40% ±5").summary == "40 ±5%")
        for bad in ["status-bar clock y=171pt from 87pt ±2pt", "y=171pt ±-2", "y=171pt ±2px", "y=171 ±2", "y=171pt at closed"] {
            #expect(throws: EvidenceError.self, "\(bad)") { try ExpectedValue(parsing: bad) }
        }
        // Within the tolerance, at its edge, outside it, and in another unit.
        #expect(plain.accepts(MeasurementDraft(name: "status-bar clock y", value: 173, unit: .pt)))
        #expect(!plain.accepts(MeasurementDraft(name: "status-bar clock y", value: 173.5, unit: .pt)))
        #expect(!plain.accepts(MeasurementDraft(name: "status-bar clock y", value: 171, unit: .px)))
        let verdict = ExpectationVerdict(
            measurements: [MeasurementDraft(name: "status-bar clock y", value: 175, unit: .pt), MeasurementDraft(name: "other", value: 1, unit: .pt)],
            expectations: [plain])
        #expect(verdict.outcome == .fail, "a miss is a fail even when another measurement has no expected value")
        #expect(ExpectationVerdict(measurements: [MeasurementDraft(name: "other", value: 1, unit: .pt)], expectations: [plain]).outcome == nil)
        #expect(ComparisonChange.between(.pass, .pass) == nil)
        #expect(ComparisonChange.between(nil, nil) == nil)
        #expect(ComparisonChange.between(.fail, nil) == .noLongerCovered)
    }
}
