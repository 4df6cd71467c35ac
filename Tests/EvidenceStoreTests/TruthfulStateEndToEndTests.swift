import Foundation
import Testing

/// Each way a claim could once read better than its evidence, tried on the
/// built binary with the bundled data set, as a new user would.
@Suite struct TruthfulStateEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let duo = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    /// The claim's state and reason, from `claim show --format json`.
    func state(_ key: String, store path: String? = nil) throws -> (state: String, reason: String) {
        let arguments = ["claim", "show", key, "--format", "json"] + (path.map { ["--store", $0] } ?? [])
        let object = try JSONSerialization.jsonObject(with: Data(try run(arguments).stdout.utf8)) as? [String: Any]
        return (object?["state"] as? String ?? "", object?["reason"] as? String ?? "")
    }

    func count(_ table: String) throws -> String {
        try run(["query", "--format", "csv", "SELECT count(*) AS n FROM \(table)"]).stdout
    }

    /// The number `log` printed: "Logged pass for … as result 17 in …".
    func resultNumber(_ logged: ProcessResult) -> String {
        let words = logged.stderr.split(separator: " ")
        guard let index = words.firstIndex(of: "result"), index + 1 < words.count else { return "" }
        return String(words[index + 1])
    }

    /// The run `log` named: "… in new run 1a2b3c4d (local #6)."
    func runName(_ logged: ProcessResult) -> String {
        let words = logged.stderr.split(separator: " ")
        guard let index = words.firstIndex(of: "run"), index + 1 < words.count else { return "" }
        return String(words[index + 1])
    }

    // MARK: 1. Decisive results

    @Test func aLaterSkipOrBlockDoesNotHideAFailure() throws {
        for (time, result) in [("09:00", "pass"), ("09:10", "fail"), ("09:20", "skipped")] {
            try run(["log", "bars.other-app-activity", "--result", result, "--date", "2026-11-02T\(time):00Z"] + Self.duo)
        }
        #expect(try state("bars.other-app-activity").state == "failing")
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--date", "2026-11-02"] + Self.duo)
        try run(["log", "deep-links.closed-and-open", "--result", "blocked", "--date", "2026-11-03"] + Self.duo)
        let (state, reason) = try state("deep-links.closed-and-open")
        #expect(state == "failing")
        #expect(reason.hasPrefix("failed on 2026-11-02 in run "))
    }

    /// A pass where the simulator lacks StandBy never counts: it neither
    /// decides nor hides the simulator's fail before it, so a device pass
    /// does not make the claim verified. Every output says so.
    @Test func aPassThatNeverCountsHidesNothing() throws {
        let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275"]
        let onDevice = try run(["log", "standby.presentation", "--result", "pass", "--date", "2026-11-02T08:00:00Z"] + device)
        let inSimulator = try run(["log", "standby.presentation", "--result", "fail", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        let pass = try run(["log", "standby.presentation", "--result", "pass", "--date", "2026-11-02T10:00:00Z"] + Self.duo)
        #expect(pass.stderr.contains("a pass here never counts for it"), "\(pass.stderr)")
        let decided = try state("standby.presentation")
        #expect(decided.state == "failing")
        #expect(decided.reason.hasPrefix("failed on 2026-11-02T09:00:00Z in run "), "\(decided.reason)")
        let report = try run(["report"]).stdout
        let row = report.split(separator: "\n").first { $0.hasPrefix("| standby.presentation |") } ?? ""
        #expect(row.contains("failing"), "\(row)")
        #expect(try run(["untested", "--failing"]).stdout.contains("standby.presentation"))
        let shown = try run(["claim", "show", "standby.presentation"]).stdout
        #expect(shown.contains("2026-11-02T10:00:00Z  pass (does not count: the environment lacks standby)"), "\(shown)")
        let history = try run(["history", "standby.presentation", "--format", "csv"]).stdout
        #expect(history.contains(",lacks standby\n"), "\(history)")
        // compare: the simulator's side is its fail, never the pass that does not count.
        let compared = try run(["compare", "--from", runName(onDevice), "--to", runName(inSimulator), "--format", "csv"]).stdout
        #expect(compared.contains("claim,standby.presentation,simulator,newly-covered,,fail,"), "\(compared)")
    }

    /// No label hides a fail: `untested --failing` lists a failing claim
    /// that is not published, its label saying so.
    @Test func untestedFailingListsEveryFailingClaim() throws {
        let key = try #require(try run(["query", "--format", "csv", "SELECT key FROM claims WHERE label = 'not-published' ORDER BY key LIMIT 1"])
            .stdout.split(separator: "\n").last.map(String.init))
        try run(["log", key, "--result", "fail", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        let listed = try run(["untested", "--failing", "--format", "csv"]).stdout
        let row = listed.split(separator: "\n").first { $0.hasPrefix(key + ",") }
        #expect(row?.contains(",failing,") == true && row?.contains(",not-published,") == true, "\(listed)")
        #expect(!(try run(["untested", "--format", "csv"]).stdout.contains(key + ",")), "untested alone keeps to QA work")
    }

    /// The seed's simulator runs recorded iOS 27.1 and Xcode 27A9275 without
    /// an OS build. One log with the OS build simctl gives (same iOS, same
    /// Xcode build) ran the same runtime: nothing turns stale. On a device a
    /// newly recorded OS build does make them stale, and `log` says how many.
    @Test func aMissingOSBuildIsNotAnOlderOneWhereTheDataSaysWhichItWas() throws {
        let stale = ["claim", "list", "--state", "stale", "--format", "csv"]
        let before = try run(stale).stdout
        let verified = try run(["claim", "list", "--state", "verified-in-simulator", "--format", "csv"]).stdout
        #expect(verified.split(separator: "\n").count > 2)
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-11-02T09:00:00Z",
                 "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275"])
        #expect(try run(stale).stdout == before, "one log with the OS build makes nothing stale")

        let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + device)
        let logged = try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-11-02T10:00:00Z",
                              "--os-build", "24B85"] + device)
        #expect(logged.stderr.contains("1 claim's evidence on iPhone Duo device, iOS 27.1, Xcode 27.1 (27A9275) is stale now only because those runs recorded no OS build"), "\(logged.stderr)")
        #expect(logged.stderr.contains("'evidence run correct RUN --os-build 24B85 --reason TEXT'"), "\(logged.stderr)")
        #expect(try state("bars.other-app-activity").state != "verified-on-device")
    }

    /// A device run logged without its OS build is corrected after the fact:
    /// the run and its results move to the build it used, so the claim is
    /// verified again; the correction (who, when, why) is shown, refused
    /// where it cannot be true, only ever added, and travels to a teammate.
    @Test func aCorrectionSaysWhichBuildAnEarlierRunUsed() throws {
        let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
        let first = runName(try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + device))
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-11-02T10:00:00Z", "--os-build", "24B85"] + device)
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-01T10:00:00Z", "--os", "iOS 27.2",
                 "--os-build", "24C20", "--simulator", "iPhone Duo", "--xcode", "27.1", "--xcode-build", "27A9275"])
        #expect(try state("bars.other-app-activity").state != "verified-on-device")

        // Refused, naming the bad value, and nothing written.
        let before = try count("run_corrections")
        let wrongVersion = try run(["run", "correct", first, "--os-build", "24C20", "--reason", "read from the device"], expect: 64)
        #expect(wrongVersion.stderr.contains("OS build 24C20 is iOS 27.2 in this store"), "\(wrongVersion.stderr)")
        let badBuild = try run(["run", "correct", first, "--os-build", "24 B85", "--reason", "x"], expect: 64)
        #expect(badBuild.stderr.contains("24 B85"), "\(badBuild.stderr)")
        #expect(try count("run_corrections") == before)

        let corrected = try run(["run", "correct", first, "--os-build", "24B85", "--reason", "the device ran 24B85 all week", "--by", "qa"])
        #expect(corrected.stderr.contains("to OS build 24B85 (1 result); evidence changed for bars.other-app-activity."), "\(corrected.stderr)")
        #expect(try state("bars.other-app-activity").state == "verified-on-device")
        let same = try run(["run", "correct", first, "--os-build", "24B85", "--reason", "again"], expect: 64)
        #expect(same.stderr.contains("already records OS build 24B85"), "\(same.stderr)")
        let shown = try run(["run", "show", first]).stdout
        #expect(shown.contains("iOS 27.1 (24B85)"), "\(shown)")
        #expect(shown.contains("OS build 24B85 (recorded: none) by qa at "), "\(shown)")
        #expect(shown.contains(": the device ran 24B85 all week"), "\(shown)")

        // The run's file keeps the build as recorded, and the correction beside it.
        let exchange = folder.path("exchange")
        try run(["export", exchange])
        let runFiles = try FileManager.default.subpathsOfDirectory(atPath: exchange).filter { $0.hasPrefix("runs/") }
        let path = try #require(try runFiles.first {
            try String(contentsOfFile: exchange + "/" + $0, encoding: .utf8).contains("\"correction\"")
        })
        let file = try String(contentsOfFile: exchange + "/" + path, encoding: .utf8)
        #expect(file.contains("\"os_build\":\"24B85\""), "\(file)")
        let header = String(file.split(separator: "\n")[0])
        #expect(!header.contains("24B85"), "the header keeps the build as recorded: \(header)")

        // A teammate's clone imports it and reads the same state; importing again changes nothing.
        let other = folder.path("other.sqlite")
        try run(["init", "--store", other])
        try run(["import", exchange, "--store", other])
        #expect(try state("bars.other-app-activity", store: other).state == "verified-on-device")
        let again = try run(["import", exchange, "--store", other]).stderr
        #expect(again.contains(": 0 records added"), "\(again)")
        let theirs = folder.path("theirs")
        try run(["export", theirs, "--store", other])
        #expect(try String(contentsOfFile: theirs + "/" + path, encoding: .utf8) == file, "the teammate's export writes the run's file as it came")
    }

    /// Two clones correct one run to different builds before they exchange:
    /// both corrections are kept on both, and the same one (the latest, then
    /// by UUID) decides the run's build everywhere.
    @Test func twoClonesCorrectingOneRunAgree() throws {
        let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
        let logged = runName(try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + device))
        let (mine, theirs) = (folder.path("mine"), folder.path("theirs"))
        let other = folder.path("other.sqlite")
        try run(["export", mine])
        try run(["init", "--store", other])
        try run(["import", mine, "--store", other])
        try run(["run", "correct", logged, "--os-build", "24B85", "--reason", "the device log says 24B85"])
        try run(["run", "correct", logged, "--os-build", "24B90", "--reason", "Settings said 24B90", "--store", other])
        try run(["export", mine])
        try run(["export", theirs, "--store", other])
        try run(["import", theirs])
        try run(["import", mine, "--store", other])
        let question = ["query", "--format", "csv",
                        "SELECT e.os_build, (SELECT count(*) FROM run_corrections) AS corrections FROM runs AS u "
                            + "JOIN environments AS e ON e.id = u.environment_id WHERE u.uuid LIKE '\(logged)%'"]
        let here = try run(question).stdout
        #expect(here.hasSuffix(",2\n"), "\(here)")
        #expect(try run(question + ["--store", other]).stdout == here)
    }

    // MARK: 2. Time

    @Test func aDateOnlyFailureLoggedLaterOutranksThisMorningsPass() throws {
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-02T08:00:00Z"] + Self.duo)
        try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-11-02"] + Self.duo)
        #expect(try state("bars.other-app-activity").state == "failing")
    }

    /// One day, one simulator: a fail at 10:00 and a pass at 09:00 recorded
    /// after it read failing; a fail with only the date, recorded between
    /// them, cannot turn that into a pass: the day's results are tied, the
    /// fail decides, and the reason says the order is unknown.
    @Test func aDaysResultsNeverOrderInACircle() throws {
        try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-11-02T10:00:00Z"] + Self.duo)
        try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-11-02"] + Self.duo)
        try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        let tied = try state("bars.other-app-activity")
        #expect(tied.state == "failing")
        #expect(tied.reason.hasPrefix("failed and passed on 2026-11-02, order unknown"), "\(tied.reason)")
        // With every result of the day timed, the clock orders them.
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--date", "2026-11-02T08:00:00Z"] + Self.duo)
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        #expect(try state("deep-links.closed-and-open").state == "verified-in-simulator")
    }

    @Test func futureDatesAreRefusedWhereverTheyComeFrom() throws {
        let before = try count("results")
        let log = try run(["log", "bars.other-app-activity", "--result", "pass", "--date", "2099-01-01"] + Self.duo, expect: 64)
        #expect(log.stderr.contains("'2099-01-01'"))
        try run(["run", "start", "--date", "2099-01-01T00:00:00Z"] + Self.duo, expect: 64)
        // A claim's as-of date, a source's dates.
        let asOf = try run(["claim", "edit", "bars.other-app-activity", "--as-of", "2099-01-01"], expect: 64)
        #expect(asOf.stderr.contains("as-of date"), "\(asOf.stderr)")
        try run(["claim", "add", "bars.future", "--statement", "S.", "--document", "duo-system-surfaces", "--area", "Bars",
                 "--label", "unverified", "--as-of", "2099-01-01"], expect: 64)
        for date in ["--published", "--updated", "--retrieved"] {
            let source = try run(["source", "add", "https://example.com/future", "--title", "T", "--publisher", "P",
                                  "--kind", "article", date, "2099-01-01"], expect: 64)
            #expect(source.stderr.contains("'2099-01-01'"), "\(source.stderr)")
        }

        // A JUnit timestamp, named by line and column.
        try folder.write(
            "future.xml",
            Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites>
                  <testsuite name="DuoTests" tests="1" timestamp="2099-01-01T09:00:00">
                    <testcase classname="DuoTests" name="testClaim_bars_other_app_activity" time="0.1"/>
                  </testsuite>
                </testsuites>
                """.utf8))
        let junit = try run(["ingest", "future.xml"] + Self.duo, expect: 65)
        #expect(junit.stderr.contains("future.xml:3:"), "\(junit.stderr)")
        #expect(junit.stderr.contains("'2099-01-01T09:00:00Z' is in the future"))
        try run(["ingest", "--date", "2099-01-01", Fixtures.apple("junit-xcbeautify-1.xml").path] + Self.duo, expect: 64)

        // An xcresult start time, named by its JSON path.
        var summary = try String(contentsOf: Fixtures.apple("xcresult-summary-1.json"), encoding: .utf8)
        summary = summary.replacingOccurrences(of: "\"startTime\" : 1768133526.361", with: "\"startTime\" : 4070908800")
        try folder.write("future.json", Data(summary.utf8))
        let xcresult = try run(["ingest", "future.json"] + Self.duo, expect: 65)
        #expect(xcresult.stderr.contains("future.json:startTime: '2099-01-01T00:00:00Z'"), "\(xcresult.stderr)")

        // A result line of an export.
        try run(["export", "out"])
        let results = folder.url.appendingPathComponent("out/runs/2cee86e8-9012-410a-9889-f129a39c0861.jsonl")
        let lines = try String(contentsOf: results, encoding: .utf8).split(separator: "\n").map(String.init)
        let index = try #require(lines.firstIndex { $0.contains("\"checked_at\":\"2026-10-20\"") })
        var edited = lines
        edited[index] = lines[index].replacingOccurrences(of: "\"checked_at\":\"2026-10-20\"", with: "\"checked_at\":\"2099-10-20\"")
        try Data((edited.joined(separator: "\n") + "\n").utf8).write(to: results)
        let other = folder.path("other.sqlite")
        try run(["init", "--store", other])
        let imported = try run(["import", "out", "--store", other], expect: 65)
        #expect(
            imported.stderr.contains("2cee86e8-9012-410a-9889-f129a39c0861.jsonl:\(index + 1): field 'checked_at': '2099-10-20'"),
            "\(imported.stderr)")
        // A claim's as_of and a source's retrieved date in the folder.
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: results)
        let edits = [
            ("sources.jsonl", "retrieved", "\"kind\":\"hig\"}", "\"kind\":\"hig\",\"retrieved\":\"2099-01-01\"}"),
            ("claims/duo-system-surfaces.jsonl", "as_of", "\"as_of\":\"2026-10-20\"", "\"as_of\":\"2099-01-01\""),
        ]
        for (file, field, was, now) in edits {
            let url = folder.url.appendingPathComponent("out/" + file)
            let original = try String(contentsOf: url, encoding: .utf8)
            let range = try #require(original.range(of: was))
            try Data(original.replacingCharacters(in: range, with: now).utf8).write(to: url)
            let refused = try run(["import", "out", "--store", other], expect: 65)
            #expect(refused.stderr.contains("field '\(field)': '2099-01-01' is in the future"), "\(refused.stderr)")
            try Data(original.utf8).write(to: url)
        }
        #expect(try run(["query", "--store", other, "--format", "csv", "SELECT count(*) AS n FROM claims"]).stdout == "n\n0\n")
        #expect(try count("results") == before)
    }

    // MARK: 3. Missing builds

    @Test func aNewerVersionWithoutBuildsMakesOlderEvidenceStale() throws {
        #expect(try state("island.clock-offset.closed").state == "verified-in-simulator")
        try run(["log", "live-activity.request-active", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.2",
                 "--xcode", "27.1", "--xcode-build", "27A9275"])
        let (state, reason) = try state("island.clock-offset.closed")
        #expect(state == "stale")
        #expect(reason.contains("newer builds recorded for iPhone Duo simulator: OS iOS 27.2"), "\(reason)")
    }

    // MARK: 4. Corrections

    @Test func aRetractedResultStaysShownAndCountsForNothing() throws {
        let logged = try run(["log", "island.clock-offset.closed", "--result", "fail", "--date", "2026-11-02"] + Self.duo)
        let number = resultNumber(logged)
        #expect(try state("island.clock-offset.closed").state == "failing")
        let shown = try run(["claim", "show", "island.clock-offset.closed"]).stdout
        #expect(shown.contains("\(number) (#") && shown.contains(")  2026-11-02  fail"), "\(shown)")

        try run(["result", "retract", number], expect: 64)
        let retracted = try run(["result", "retract", number, "--reason", "logged against the wrong claim"])
        #expect(retracted.stderr.contains("Retracted result \(number) (local #"), "\(retracted.stderr)")
        #expect(retracted.stderr.contains("); evidence changed for island.clock-offset.closed."))
        #expect(try state("island.clock-offset.closed").state == "verified-in-simulator")
        let after = try run(["claim", "show", "island.clock-offset.closed"]).stdout
        #expect(after.contains(")  2026-11-02  fail (RETRACTED)"))
        #expect(after.contains("retracted by qa on "))
        #expect(after.contains(": logged against the wrong claim"))
        let report = try run(["report"]).stdout
        #expect(report.contains("| island.clock-offset.closed | fail (retracted) |"))
        try run(["result", "retract", number, "--reason", "again"], expect: 64)
        try run(["result", "retract", "999999", "--reason", "x"], expect: 65)

        // A whole run; its results stay in the run's listing.
        let run = try run(["run", "retract", "2cee86e8", "--reason", "the wrong Xcode"])
        #expect(run.stderr.contains("Retracted run 2cee86e8 (local #"), "\(run.stderr)")
        #expect(run.stderr.contains(") (6 results)"))
        #expect(try state("island.clock-offset.closed").state == "untested")
        let shownRun = try self.run(["run", "show", "2cee86e8"]).stdout
        #expect(shownRun.contains("RETRACTED:   by qa at "))
        #expect(shownRun.contains("(RETRACTED)"))
        try self.run(["log", "island.clock-offset.closed", "--result", "pass", "--run", "2cee86e8"], expect: 64)
        #expect(try self.run(["query", "--format", "csv", "DELETE FROM retractions"], expect: 64).stderr.contains("only reads"))

        // Export and import carry both.
        try self.run(["export", "out"])
        let other = folder.path("other.sqlite")
        try self.run(["init", "--store", other])
        try self.run(["import", "out", "--store", other])
        #expect(try state("island.clock-offset.closed", store: other).state == "untested")
        #expect(try self.run(["claim", "show", "island.clock-offset.closed", "--store", other]).stdout.contains("(RETRACTED)"))
    }

    // MARK: 5. Typos

    @Test func typosInEnvironmentsAreRefusedOrNormalised() throws {
        let environments = try count("environments")
        for (flag, model) in [("--simulator", "iphone duo"), ("--simulator", "iPhone Dou"), ("--device", "iPhone  Duo")] {
            let result = try run(
                ["log", "bars.other-app-activity", "--result", "pass", flag, model, "--os", "iOS 27.1", "--xcode", "27.1"],
                expect: 64)
            #expect(result.stderr.contains("did you mean 'iPhone Duo'?"), "\(model): \(result.stderr)")
            #expect(result.stderr.contains("--new-model"))
        }
        let swapped = try run(
            ["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
             "--os-build", "27A9275", "--xcode", "27.1", "--xcode-build", "27B5070a"], expect: 64)
        #expect(swapped.stderr.contains("swapped"))
        let train = try run(
            ["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
             "--os-build", "27B100", "--xcode", "27.1"], expect: 64)
        #expect(train.stderr.contains("train 27, which is Xcode 27.1's"), "\(train.stderr)")
        #expect(try count("environments") == environments)

        // What is unambiguous is normalised into the recorded environment.
        try run(["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "ios 27.1",
                 "--xcode", "Xcode 27.1", "--xcode-build", "27A9275"])
        #expect(try count("environments") == environments)
        // A new model on purpose.
        try run(["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo 2", "--new-model", "--os",
                 "iOS 27.1", "--xcode", "27.1"])

        let document = try run(
            ["claim", "add", "x.one", "--statement", "s", "--document", "duo-system-surface", "--area", "A", "--label",
             "unverified"], expect: 64)
        #expect(document.stderr.contains("did you mean 'duo-system-surfaces'?"))
        try run(["claim", "add", "x.one", "--statement", "s", "--document", "duo-system-surface", "--area", "A", "--label",
                 "unverified", "--new-document"])
        let listed = try run(["claim", "list", "--document", "DUO-SYSTEM-SURFACES", "--area", "dynamic island", "--format", "csv"])
        #expect(listed.stdout.contains("island.clock-offset.closed,"))
    }

    // MARK: 6. Checklists

    @Test func checklistItemsAreTickedOnlyByWhatProvesThem() throws {
        var checklist = try run(["checklist"]).stdout
        #expect(checklist.contains("- [ ] Live Activities end when the task ends. (no claim is linked to it and nobody has checked it by hand)"))
        let refused = try run(["checklist", "mark", "surfaces.no-action-button", "--checked", "--reason", "read it"], expect: 64)
        #expect(refused.stderr.contains("their evidence decides it"))
        try run(["checklist", "mark", "surfaces.end-activities", "--checked", "--reason", "every path calls end(_:)"])
        checklist = try run(["checklist"]).stdout
        #expect(checklist.contains("- [x] Live Activities end when the task ends. (checked by hand by qa on "))

        // Marked untested, a failing claim still shows first.
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--date", "2026-11-02"] + Self.duo)
        try run(["checklist", "mark", "surfaces.taps-closed-and-open", "--untested", "--reason", "no device"])
        checklist = try run(["checklist"]).stdout
        #expect(checklist.contains("route to state that works closed and open. (failing since run "))
        #expect(checklist.contains("(deep-links.closed-and-open); marked untested by qa on "))
    }

    // MARK: 7. Suspect proof

    @Test func editingTheWordsMakesTheirProofStale() throws {
        let edited = try run(["claim", "edit", "island.clock-offset.closed", "--statement", "The clock moves down 84 pt."])
        #expect(edited.stderr.contains("the passes of run 2cee86e8 proved the earlier words"))
        let (state, reason) = try state("island.clock-offset.closed")
        #expect(state == "stale")
        #expect(reason.hasPrefix("statement changed since run 2cee86e8"))
        #expect(try run(["claim", "show", "island.clock-offset.closed"]).stdout.contains("logged against earlier words"))
    }

    // MARK: 8. Label history

    @Test func aLabelHistoryThatContradictsItselfIsRefusedAndOneResolvedByHandImports() throws {
        try run(["claim", "label", "bars.other-app-activity", "measured", "--reason", "measured it"])
        try run(["claim", "label", "bars.other-app-activity", "sourced", "--reason", "found a page"])
        try run(["export", "out"])
        let file = folder.url.appendingPathComponent("out/label_history/duo-system-surfaces.jsonl")
        let original = try String(contentsOf: file, encoding: .utf8)
        let other = folder.path("other.sqlite")
        try run(["init", "--store", other])

        // The last change claims to start from unverified, not measured.
        let broken = original.replacingOccurrences(
            of: "\"old_label\":\"measured\",\"new_label\":\"sourced\"", with: "\"old_label\":\"unverified\",\"new_label\":\"sourced\"")
        #expect(broken != original)
        try Data(broken.utf8).write(to: file)
        let chain = try run(["import", "out", "--store", other], expect: 65)
        #expect(chain.stderr.contains("label_history/duo-system-surfaces.jsonl:"), "\(chain.stderr)")
        #expect(chain.stderr.contains(": field 'old_label': 'unverified' does not follow change "), "\(chain.stderr)")
        #expect(chain.stderr.contains(", which made it 'measured'"))

        // The history ends at a label the claim does not have.
        let claims = folder.url.appendingPathComponent("out/claims/duo-system-surfaces.jsonl")
        try Data(original.utf8).write(to: file)
        let text = try String(contentsOf: claims, encoding: .utf8).replacingOccurrences(
            of: "\"area\":\"Bars\",\"label\":\"sourced\"", with: "\"area\":\"Bars\",\"label\":\"measured\"")
        try Data(text.utf8).write(to: claims)
        #expect(text.contains("{\"key\":\"bars.other-app-activity\",\"document\":\"duo-system-surfaces\",\"area\":\"Bars\",\"label\":\"measured\""))
        // A history resolved by hand always imports: the claim takes the label of its latest change.
        try run(["import", "out", "--store", other])
        #expect(
            try run(["query", "--store", other, "--format", "csv", "SELECT label FROM claims WHERE key = 'bars.other-app-activity'"]).stdout
                == "label\nsourced\n")
    }

    // MARK: 9. Not-published claims

    @Test func notPublishedClaimsAreCountedApart() throws {
        let untested = try run(["untested", "--format", "csv"]).stdout
        #expect(!untested.contains("not-published."))
        #expect(try run(["untested", "--all", "--format", "csv"]).stdout.contains("not-published.widget-sizes,"))
        #expect(try run(["report"]).stdout.contains(": 44 in all, 38 to check and 6 not published."))
        #expect(try run(["status", "--format", "csv"]).stdout.contains("duo-system-surfaces,no,not-published,untested,6,\n"))
    }

    /// A stale claim's reason names a fail on the identical builds (issue 44,
    /// point 13): a device pass and a simulator fail on the same OS and Xcode
    /// builds, both since passed by newer builds, read "last verified on … device"
    /// and then the simulator's fail, never the pass alone.
    @Test func aStaleReasonNamesAFailOnTheSameBuilds() throws {
        let builds = ["--os", "iOS 27.1", "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275"]
        let newer = ["--os", "iOS 27.2", "--os-build", "24C60", "--xcode", "27.2", "--xcode-build", "27B5040"]
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--simulator", "iPhone Duo", "--date", "2026-11-01"] + builds)
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--device", "iPhone Duo", "--date", "2026-11-01"] + builds)
        for kind in ["--simulator", "--device"] {
            try run(["log", "home-screen.two-pages", "--result", "pass", kind, "iPhone Duo", "--date", "2026-11-02"] + newer)
        }
        let (state, reason) = try state("deep-links.closed-and-open")
        #expect(state == "stale", "\(reason)")
        #expect(reason.hasPrefix("last verified on iPhone Duo device, iOS 27.1 (24B85)"), "\(reason)")
        #expect(reason.contains("; failed on the same builds on iPhone Duo simulator, iOS 27.1 (24B85), Xcode 27.1 (27A9275) on 2026-11-01"), "\(reason)")
    }

    /// The verified line names a device only with what fails there (issue 44,
    /// point 9): one claim passes on the phone, another fails on it.
    @Test func theVerifiedLineSaysWhatFailsOnTheSetupItNames() throws {
        let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275"]
        try run(["log", "island.clock-offset.closed", "--result", "pass", "--date", "2026-11-02"] + device)
        let clean = try run(["verified-line", "--document", "duo-system-surfaces"]).stdout
        #expect(clean.contains("device: iOS 27.1 (24B85)") && !clean.contains("failing"), "\(clean)")
        try run(["log", "deep-links.closed-and-open", "--result", "fail", "--date", "2026-11-02"] + device)
        let line = try run(["verified-line", "--document", "duo-system-surfaces"]).stdout
        #expect(line.contains("device: iOS 27.1 (24B85), 1 claim failing"), "\(line)")
    }

    /// A verdict judged from expected values is derived, never compared
    /// (issue 44, point 12): a clone that re-judged a result after its
    /// expectation changed exports it, and the other clone imports without a
    /// conflict and judges it the same way.
    /// Words that return to an earlier text import on every clone (issue 44,
    /// #12): one clone edits a claim's words and back, in turn with
    /// exports; the export is not refused for leaving out the words that are
    /// current again, and the other clone imports each without a conflict,
    /// ending with the same words and state.
    @Test func wordsThatReturnToAnEarlierTextImportOnEveryClone() throws {
        let key = "island.clock-offset.closed"
        try run(["export", "team"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "team", "--store", "other.sqlite"])
        let original = try run(["query", "--format", "csv", "SELECT statement FROM claims WHERE key = '\(key)'"]).stdout
        let words = String(original.dropFirst("statement\n".count).dropLast())
        for (index, text) in ["The clock moves down by 84 pt.", words, "The clock moves down by 84 pt."].enumerated() {
            try run(["claim", "edit", key, "--statement", text])
            try run(["log", key, "--result", "pass", "--date", "2026-11-0\(index + 2)"] + Self.duo)
            try run(["export", "team"])
            let imported = try run(["import", "team", "--store", "other.sqlite"])
            #expect(!imported.stderr.contains("conflict"), "step \(index): \(imported.stderr)")
        }
        let history = "SELECT s.statement FROM claim_statements AS s JOIN claims AS c ON c.id = s.claim_id WHERE c.key = '\(key)' ORDER BY s.id"
        let here = try run(["query", "--format", "csv", history]).stdout
        #expect(try run(["query", "--format", "csv", "--store", "other.sqlite", history]).stdout == here, "\(here)")
        let state = "SELECT c.statement, s.state FROM claim_state AS s JOIN claims AS c ON c.key = s.key WHERE s.key = '\(key)'"
        #expect(try run(["query", "--format", "csv", "--store", "other.sqlite", state]).stdout
            == (try run(["query", "--format", "csv", state]).stdout))
    }

    /// A metric with a polarity is expected on one side (issue 47): "at most
    /// 0.4 s" passes 0.35 s and 0.4 s and fails 0.41 s; "at least 60 fps"
    /// fails 59 fps. The bound travels through export and import, and a
    /// one-sided value with a tolerance is refused, naming it.
    @Test func oneSidedExpectationsJudgeEachSide() throws {
        let key = "island.clock-offset.closed"
        try run(["claim", "expect", key, "launch time<=0.4s"])
        try run(["claim", "expect", key, "scroll frame rate>=60fps"])
        let refused = try run(["claim", "expect", key, "launch time<=0.4s ±0.1s"], expect: 64)
        #expect(refused.stderr.contains("launch time<=0.4s ±0.1s") && refused.stderr.contains("takes no tolerance"), "\(refused.stderr)")
        func verdict(_ measures: [String], date: String) throws -> String {
            try run(["log", key, "--date", date] + measures.flatMap { ["--measure", $0] } + Self.duo)
            return try run(["query", "--format", "csv", "SELECT result, note FROM results ORDER BY id DESC LIMIT 1"]).stdout
        }
        #expect(try verdict(["launch time=0.35s", "scroll frame rate=120fps"], date: "2026-11-02").hasPrefix("result,note\npass"))
        #expect(try verdict(["launch time=0.4s", "scroll frame rate=60fps"], date: "2026-11-03").hasPrefix("result,note\npass"))
        let late = try verdict(["launch time=0.41s", "scroll frame rate=60fps"], date: "2026-11-04")
        #expect(late.hasPrefix("result,note\nfail") && late.contains("expected at most 0.4 s"), "\(late)")
        let slow = try verdict(["launch time=0.3s", "scroll frame rate=59fps"], date: "2026-11-05")
        #expect(slow.hasPrefix("result,note\nfail") && slow.contains("expected at least 60 fps"), "\(slow)")
        #expect(try run(["claim", "show", key]).stdout.contains("at most 0.4 s"))
        // Exported and imported, the other store judges the same.
        try run(["export", "team"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "team", "--store", "other.sqlite"])
        let bounds = "SELECT name, value, bound FROM claim_expectations ORDER BY name"
        #expect(try run(["query", "--format", "csv", "--store", "other.sqlite", bounds]).stdout
            == "name,value,bound\nlaunch time,0.4,at-most\nscroll frame rate,60,at-least\n")
        let verdicts = "SELECT result FROM results WHERE judged ORDER BY checked_at"
        #expect(try run(["query", "--format", "csv", "--store", "other.sqlite", verdicts]).stdout == "result\npass\npass\nfail\nfail\n")
    }

    @Test func aReJudgedResultImportsWithoutAConflict() throws {
        let key = "island.clock-offset.closed"
        try run(["claim", "expect", key, "status-bar clock y=171pt ±2pt"])
        try run(["log", key, "--measure", "status-bar clock y=173pt from 87pt", "--date", "2026-11-02"] + Self.duo)
        try run(["export", "team"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "team", "--store", "other.sqlite"])
        try run(["claim", "expect", key, "status-bar clock y=171pt ±1pt"])
        try run(["export", "team"])
        let verdict = "SELECT r.result FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE c.key = '\(key)' AND r.judged ORDER BY r.id"
        #expect(try run(["query", "--format", "csv", verdict]).stdout == "result\nfail\n")
        let imported = try run(["import", "team", "--store", "other.sqlite"])
        #expect(!imported.stderr.contains("conflict"), "\(imported.stderr)")
        #expect(try run(["query", "--format", "csv", "--store", "other.sqlite", verdict]).stdout == "result\nfail\n")
    }
}
