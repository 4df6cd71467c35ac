import Foundation
import Testing

/// The work of a tester on a Mac with Xcode, on this Linux machine: fake
/// `xcrun` and `xcodebuild` scripts on PATH (Fixtures/fake-xcode) print real
/// outputs of Apple's tools and record how they were called.
@Suite struct MacWorkflowEndToEndTests {
    let folder: TemporaryFolder
    let store: String
    /// What the fakes print, and where they record their calls.
    let fixtures: String
    let calls: String
    static let fakes = Fixtures.folder.appendingPathComponent("fake-xcode").path

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        fixtures = folder.path("xcode-outputs")
        calls = folder.path("calls.log")
        try FileManager.default.createDirectory(atPath: fixtures, withIntermediateDirectories: true)
        try evidence(["init"])
        try evidence(["seed"])
        _ = try folder.write("Build.xcresult/Info.plist", "<plist/>\n")
    }

    /// Gives the fakes a real output to print under the name they look for.
    private func fake(_ name: String, from fixture: String) throws {
        let target = fixtures + "/" + name
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: Fixtures.apple(fixture).path, toPath: target)
    }

    /// Runs the binary with the fakes first on PATH (or without them).
    @discardableResult
    func evidence(
        _ arguments: [String], fakes: Bool = true, expect status: Int32 = 0, environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let path = (fakes ? Self.fakes + ":" : "") + "/usr/bin:/bin"
        var environment = [
            "EVIDENCE_STORE": store, "USER": "qa", "PATH": path, "FAKE_XCODE_FIXTURES": fixtures, "FAKE_XCODE_LOG": calls,
        ]
        for (key, value) in extra { environment[key] = value }
        let result = try EvidenceBinary.run(arguments, environment: environment, in: folder.url)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    private func rows(_ store: String) throws -> String {
        try evidence([
            "query", "--store", store, "--format", "csv",
            """
            SELECT r.test_id, r.result, r.duration, r.message, e.kind, e.model, e.os_name, e.os_version, e.os_build,
                   e.tool_version, e.tool_build
            FROM results AS r JOIN environments AS e ON e.id = r.environment_id ORDER BY r.test_id, r.result
            """,
        ]).stdout
    }

    private func loggedCalls() throws -> [String] {
        ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: - xcresult bundles

    @Test func aBundleIngestsAsItsJSONDoes() throws {
        try fake("tests.json", from: "xcresult-tests-3.json")
        try fake("xcodebuild-version.txt", from: "xcodebuild-version-1.txt")
        try evidence(["init", "--store", "json.sqlite"])
        try evidence(["seed", "--store", "json.sqlite"])
        try evidence(["ingest", Fixtures.apple("xcresult-tests-3.json").path, "--store", "json.sqlite", "--no-detect"])
        let temporary = folder.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        // What a killed ingest of a bundle left (issue 45, point 5) goes with the next; a person's folder stays.
        try FileManager.default.createDirectory(atPath: temporary + "/evidence-xcresult-99999999-1", withIntermediateDirectories: true)
        _ = try folder.write("tmp/evidence-xcresult-99999999-1/Build.xcresult.json", "{}")
        try FileManager.default.createDirectory(atPath: temporary + "/evidence-xcresult-notes", withIntermediateDirectories: true)
        let bundle = try evidence(["ingest", "Build.xcresult", "--no-detect"], environment: ["TMPDIR": temporary])
        #expect(bundle.stderr.contains("Read Build.xcresult with 'xcrun xcresulttool get test-results tests'"), "\(bundle.stderr)")
        #expect(bundle.stdout.contains(folder.path("Build.xcresult") + ": 20 test cases, 41 results"), "\(bundle.stdout)")
        #expect(try rows(store) == rows(folder.path("json.sqlite")))
        #expect(!(try rows(store)).split(separator: "\n").dropFirst().isEmpty)
        let absolute = folder.url.appendingPathComponent("Build.xcresult").path
        let called = try loggedCalls()
        #expect(called.contains("xcrun xcresulttool get test-results tests --path \(absolute)"), "\(called)")
        // The run names the bundle it was read from.
        let note = try evidence(["query", "--format", "csv", "SELECT note FROM runs WHERE note LIKE '%xcresult%'"]).stdout
        #expect(note.contains("from \(absolute)"), "\(note)")
        // Nothing is left in the temporary folder (its own, so other tests running at once do not count).
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == ["evidence-xcresult-notes"])
    }

    @Test func anOlderBundleIsReadAsTheLegacyRecordAndTheSummaryGivesTheOSBuild() throws {
        // No test-results: Xcode before 16 or a bundle it cannot read that way.
        try fake("legacy.json", from: "xcresult-legacy-1.json")
        let legacy = try evidence(["ingest", "Build.xcresult", "--no-detect"])
        #expect(legacy.stderr.contains("'xcrun xcresulttool get --legacy --format json'"), "\(legacy.stderr)")
        #expect(legacy.stdout.contains("iPhone 11 simulator, iOS 14.4 (18D46)"), "\(legacy.stdout)")

        // Tests that leave the OS build out (Xcode 16.2) take it from the summary of the same device.
        try FileManager.default.removeItem(atPath: fixtures + "/legacy.json")
        try fake("tests.json", from: "xcresult-tests-1.json")
        let summary = try String(contentsOf: Fixtures.apple("xcresult-summary-1.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"iPhone 17 Pro\"", with: "\"iPhone 16 Pro\"").replacingOccurrences(of: "\"26.2\"", with: "\"18.2\"")
        try summary.write(toFile: fixtures + "/summary.json", atomically: true, encoding: .utf8)
        _ = try folder.write("Second.xcresult/Info.plist", "<plist/>\n")
        let read = try evidence(["ingest", "Second.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(read.stdout.contains("iPhone 16 Pro simulator, iOS 18.2 (23C54), Xcode 16.2"), "\(read.stdout)")
    }

    /// The screenshots a UI test took travel from the bundle to its results
    /// (by test, device and repetition), into the store's folder, through
    /// export to a teammate, and a second ingest changes nothing (issue 46).
    @Test func aBundlesScreenshotsAttachToTheirResults() throws {
        try fake("tests.json", from: "xcresult-tests-1.json")
        try fake("attachments", from: "xcresult-attachments-1")
        try evidence(["map", "add", "FastlaneTrainerExampleUITests/testAlertHandling*", "bars.other-app-activity"])
        try evidence(["map", "add", "FastlaneTrainerExampleUITests/testAccessibility*", "widgets.sizes-vary-by-device"])
        let ingested = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(ingested.stdout.contains("note: attached 4 images the tests took to their results"), "\(ingested.stdout)")
        #expect(ingested.stdout.contains("note: 1 attached files that are not images were left out"), "\(ingested.stdout)")
        let output = folder.path("out")
        #expect(try loggedCalls().contains { $0.hasPrefix("xcrun xcresulttool export attachments --path ") && $0.contains("--output-path ") })

        func attached(_ store: String) throws -> String {
            try evidence([
                "query", "--store", store, "--format", "csv",
                """
                SELECT r.test_id, r.note, a.size FROM attachments AS a JOIN results AS r ON r.id = a.result_id
                ORDER BY r.test_id, r.recorded_at, a.size, a.path
                """,
            ]).stdout
        }
        let rows = try attached(store)
        #expect(rows == """
            test_id,note,size
            FastlaneTrainerExampleUITests/testAccessibilityAndScreenshots(),repetition 1 of 2 (Retry 1),74
            FastlaneTrainerExampleUITests/testAccessibilityAndScreenshots(),repetition 1 of 2 (Retry 1),74
            FastlaneTrainerExampleUITests/testAccessibilityAndScreenshots(),repetition 2 of 2 (Retry 2),74
            FastlaneTrainerExampleUITests/testAlertHandling(),,71

            """, "\(rows)")
        // Kept in the store's folder by content, where every report and a teammate find them.
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path("attachments")).sorted()
        #expect(kept.count == 4 && kept.allSatisfy { $0.hasSuffix(".png") && $0.count == 68 }, "\(kept)")
        try evidence(["attachments", "verify"])
        #expect(try evidence(["claim", "show", "bars.other-app-activity"]).stdout.contains("attachments/"))
        // The screenshot taken at the test's failure is marked so, in claim show and the report.
        let failed = try evidence(["query", "--format", "csv", "SELECT count(*) AS n FROM attachments WHERE with_failure = 1"]).stdout
        #expect(failed == "n\n1\n", "\(failed)")
        #expect(try evidence(["claim", "show", "widgets.sizes-vary-by-device"]).stdout.contains(", taken at a failure)"))
        try evidence(["report", "--format", "html", "--output", "report.html"])
        #expect(try String(contentsOfFile: folder.path("report.html"), encoding: .utf8).contains("<strong>taken at a failure</strong>"))

        // Again: the same tests, nothing changes.
        let again = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(again.stdout.contains("already ingested"), "\(again.stdout)")
        #expect(try attached(store) == rows)

        // A teammate's clone imports them with their files.
        let other = folder.path("other/evidence.sqlite")
        try FileManager.default.createDirectory(atPath: folder.path("other"), withIntermediateDirectories: true)
        try evidence(["export", output])
        try evidence(["init", "--store", other])
        try evidence(["import", output, "--store", other])
        #expect(try attached(other) == rows)
        #expect(try evidence(["query", "--store", other, "--format", "csv", "SELECT count(*) AS n FROM attachments WHERE with_failure = 1"]).stdout == "n\n1\n")
        try evidence(["attachments", "verify", "--store", other])

        // A manifest naming a file outside what was exported stops the ingest, naming it; nothing is written.
        try fake("tests.json", from: "xcresult-tests-3.json")
        _ = try folder.write(
            "xcode-outputs/attachments/manifest.json",
            #"[{"testIdentifier": "T/t()", "attachments": [{"exportedFileName": "../../evidence.sqlite"}]}]"#)
        let before = try fileDigest(store)
        let outside = try evidence(["ingest", "Build.xcresult", "--no-detect"], expect: 65)
        #expect(outside.stderr.contains("names a file that is not one it exported, for T/t(): ../../evidence.sqlite"), "\(outside.stderr)")
        #expect(try fileDigest(store) == before)

        // An xcresulttool that cannot export attachments: the results come in, and the summary says why none did.
        try FileManager.default.removeItem(atPath: fixtures + "/attachments")
        let without = try evidence(["ingest", "Build.xcresult", "--no-detect"])
        #expect(without.stdout.contains("its attachments were not read"), "\(without.stdout)")
    }

    /// A UI test attaches what it measured as `evidence-measurements`: the
    /// values become its result's measurements, and the claim's expected
    /// values judge them, as a value logged without a verdict (issue 47).
    @Test func measurementsATestAttachesAreJudgedByTheClaim() throws {
        try fake("tests.json", from: "xcresult-tests-1.json")
        try fake("attachments", from: "xcresult-attachments-1")
        let key = "ui.clock-offset.closed"
        try evidence([
            "claim", "add", key, "--statement", "The status bar's clock moves down to 171 pt closed.", "--document",
            "duo-system-surfaces", "--area", "Dynamic Island", "--label", "measured", "--model", "none",
        ])
        try evidence(["claim", "expect", key, "status-bar clock y=171pt ±2pt"])
        try evidence(["claim", "expect", key, "island width=126pt ±1pt"])
        try evidence(["map", "add", "FastlaneTrainerExampleUITests/testAlertHandling*", key])
        let ingested = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(ingested.stdout.contains("note: 1 result has what its test measured"), "\(ingested.stdout)")

        func shown() throws -> [String: Any] {
            let text = try evidence(["claim", "show", key, "--format", "json"]).stdout
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        }
        var claim = try shown()
        #expect(claim["state"] as? String == "verified-in-simulator", "\(claim)")
        let text = try evidence(["claim", "show", key]).stdout
        #expect(text.contains("status-bar clock y = 87 pt → 171 pt (Δ +84 pt)") && text.contains("island width = 126 pt"), "\(text)")
        let measured = """
            SELECT m.name, m.value, m.unit, m.baseline, m.posture FROM measurements AS m JOIN results AS r ON r.id = m.result_id
            WHERE r.test_id IS NOT NULL ORDER BY m.name
            """
        let rows = try evidence(["query", "--format", "csv", measured]).stdout
        #expect(rows == "name,value,unit,baseline,posture\nisland width,126,pt,,\nstatus-bar clock y,171,pt,87,closed\n", "\(rows)")

        // The same attached value against another expected value reads failing, and says why.
        try evidence(["claim", "expect", key, "status-bar clock y=150pt ±2pt"])
        claim = try shown()
        #expect(claim["state"] as? String == "failing", "\(claim)")
        #expect(try evidence(["claim", "show", key]).stdout.contains("Outside the expected values: status-bar clock y"))

        // Again: nothing changes.
        let again = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(again.stdout.contains("already ingested"), "\(again.stdout)")
        #expect(try evidence(["query", "--format", "csv", measured]).stdout == rows)

        // A line that is not a measurement stops the ingest, naming the test, the attachment and the line.
        try fake("tests.json", from: "xcresult-tests-3.json")
        _ = try folder.write(
            "xcode-outputs/attachments/A1B2C3D4-0006-4000-8000-000000000006.txt", "status-bar clock y=171pt\nclock moved a lot\n")
        let before = try fileDigest(store)
        let bad = try evidence(["ingest", "Build.xcresult", "--no-detect"], expect: 65)
        #expect(
            bad.stderr.contains(
                "the attachment 'evidence-measurements_0_A25D6B7F-BE8F-4AC1-82D3-5F6071829304.txt' of "
                    + "FastlaneTrainerExampleUITests/testAlertHandling() has a line that is not a measurement, line 2: "
                    + "'clock moved a lot'"), "\(bad.stderr)")
        #expect(try fileDigest(store) == before)
    }

    /// A performance test's XCTest metrics become measurements of its result
    /// (the mean of the samples, with their count, spread and Xcode's
    /// baseline), from the bundle or from the metrics JSON beside the tests
    /// JSON, and a claim that expects at most a time is judged by them (issue 47).
    @Test func aPerformanceTestsMetricsJudgeAClaimThatExpectsAtMostATime() throws {
        try fake("tests.json", from: "xcresult-tests-1.json")
        try fake("metrics.json", from: "xcresult-metrics-1.json")
        let key = "app.scroll-time"
        try evidence([
            "claim", "add", key, "--statement", "Scrolling the list takes at most 0.4 s.", "--document", "duo-system-surfaces",
            "--area", "Performance", "--label", "measured", "--model", "none",
        ])
        try evidence(["claim", "expect", key, "Time<=0.4s"])
        try evidence(["map", "add", "FastlaneTrainerExampleXCTests/testPerformance()", key])
        let ingested = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(try loggedCalls().contains { $0.hasPrefix("xcrun xcresulttool get test-results metrics --path ") })
        #expect(
            ingested.stdout.contains(
                "note: 1 metric was left out, in units the store has no word for: CPU Instructions Retired (kI) of "
                    + "FastlaneTrainerExampleXCTests/testPerformanceWithMetrics()"), "\(ingested.stdout)")
        let measured = """
            SELECT r.test_id, m.name, round(m.value, 6) AS value, m.unit, m.baseline, m.samples,
                   round(m.standard_deviation, 6) AS sd
            FROM measurements AS m JOIN results AS r ON r.id = m.result_id WHERE r.test_id IS NOT NULL ORDER BY r.test_id, m.name
            """
        let rows = try evidence(["query", "--format", "csv", measured]).stdout
        #expect(rows == """
            test_id,name,value,unit,baseline,samples,sd
            FastlaneTrainerExampleXCTests/testPerformance(),Time,0.252,s,0.3,10,0.005416
            FastlaneTrainerExampleXCTests/testPerformanceWithMetrics(),Clock Monotonic Time,0.0012,s,,5,0.000071
            FastlaneTrainerExampleXCTests/testPerformanceWithMetrics(),Memory Physical,6.5536,KB,,5,8.973886

            """, "\(rows)")
        func state() throws -> String {
            let text = try evidence(["claim", "show", key, "--format", "json"]).stdout
            return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["state"] as? String ?? ""
        }
        #expect(try state() == "verified-in-simulator")
        let shown = try evidence(["claim", "show", key]).stdout
        #expect(shown.contains("Time = 0.3 s → 0.252 s (Δ -0.048 s) (mean of 10 samples, standard deviation 0.005416025603 s)"), "\(shown)")
        try evidence(["claim", "expect", key, "Time<=0.2s"])
        #expect(try state() == "failing")
        let again = try evidence(["ingest", "Build.xcresult", "--no-detect", "--xcode", "16.2"])
        #expect(again.stdout.contains("already ingested"), "\(again.stdout)")
        #expect(try evidence(["query", "--format", "csv", measured]).stdout == rows)

        // The JSON of both, given side by side (or with --metrics), reads the same.
        let other = folder.path("other.sqlite")
        try evidence(["init", "--store", other])
        try evidence([
            "ingest", Fixtures.apple("xcresult-tests-1.json").path, Fixtures.apple("xcresult-metrics-1.json").path, "--store", other,
            "--no-detect", "--xcode", "16.2",
        ])
        #expect(try evidence(["query", "--store", other, "--format", "csv", measured]).stdout == rows)
        // The samples and their spread travel through export and import.
        let third = folder.path("third.sqlite")
        try evidence(["export", folder.path("shared")])
        try evidence(["init", "--store", third])
        try evidence(["import", folder.path("shared"), "--store", third])
        #expect(try evidence(["query", "--store", third, "--format", "csv", measured]).stdout == rows)
        let two = try evidence(
            ["ingest", "a.json", "b.json", "--metrics", Fixtures.apple("xcresult-metrics-1.json").path, "--store", other], expect: 64)
        #expect(two.stderr.contains("--metrics goes with one tests file"), "\(two.stderr)")
    }

    @Test func withoutXcrunABundleIsRefusedSayingHowToPassTheJSON() throws {
        let before = try fileDigest(store)
        let refused = try evidence(["ingest", "Build.xcresult"], fakes: false, expect: 64)
        #expect(refused.stderr.contains("there is no xcrun on this machine"), "\(refused.stderr)")
        #expect(refused.stderr.contains("xcrun xcresulttool get test-results tests --path Build.xcresult > tests.json"))
        #expect(try fileDigest(store) == before)
        // EVIDENCE_XCRUN names another one.
        try fake("tests.json", from: "xcresult-tests-3.json")
        try evidence(["ingest", "Build.xcresult", "--no-detect"], fakes: false, environment: ["EVIDENCE_XCRUN": Self.fakes + "/xcrun"])
        // A bundle xcresulttool cannot read: what it said, and nothing written.
        _ = try folder.write("Broken.xcresult/Info.plist", "<plist/>\n")
        try FileManager.default.removeItem(atPath: fixtures + "/tests.json")
        let after = try fileDigest(store)
        let broken = try evidence(["ingest", "Broken.xcresult", "--no-detect"], expect: 65)
        #expect(broken.stderr.contains("xcresulttool could not read it"), "\(broken.stderr)")
        #expect(try fileDigest(store) == after)
    }

    // MARK: - Builds read from the machine

    @Test func logReadsXcodeAndTheSimulatorRuntimeFromTheMachineAndSaysSo() throws {
        try fake("xcodebuild-version.txt", from: "xcodebuild-version-1.txt")
        try fake("simctl.json", from: "simctl-1.json")
        let logged = try evidence(["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 17.2"])
        #expect(logged.stderr.contains("Xcode 13.2.1 (13C100), from xcodebuild -version."), "\(logged.stderr)")
        #expect(logged.stderr.contains("OS build 21C5046b of the iOS 17.2 simulator runtime, from xcrun simctl list runtimes."))
        let environments = try evidence(["query", "--format", "csv", "SELECT os_build, tool_version, tool_build FROM environments WHERE os_version = '17.2'"]).stdout
        #expect(environments == "os_build,tool_version,tool_build\n21C5046b,13.2.1,13C100\n", "\(environments)")
        #expect(try loggedCalls() == ["xcodebuild -version", "xcrun simctl list runtimes -j"])

        // Two runtimes answer to iOS 17.0 with two builds: none is taken, and it says why.
        let ambiguous = try evidence(["run", "start", "--simulator", "iPhone Duo", "--os", "iOS 17.0"])
        #expect(ambiguous.stderr.contains("Several simulator runtimes answer to iOS 17.0 (21A328, 21A342): no OS build read; give --os-build"), "\(ambiguous.stderr)")
        // A version given that is not the installed Xcode's takes no build from it.
        let other = try evidence(["run", "start", "--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1"])
        #expect(other.stderr.contains("xcodebuild -version says Xcode 13.2.1, not the 27.1 given: no Xcode build read"), "\(other.stderr)")
        #expect(!other.stderr.contains("simctl"))

        // --no-detect reads nothing, and the rules are as they were.
        let calledBefore = try loggedCalls().count
        let refused = try evidence(["log", "bars.other-app-activity", "--simulator", "iPhone Duo", "--os", "iOS 17.2", "--no-detect"], expect: 64)
        #expect(refused.stderr.contains("Missing expected argument '--xcode <version>' (--no-detect reads nothing from this machine)"), "\(refused.stderr)")
        try evidence(["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 17.2", "--xcode", "13.2.1", "--no-detect"])
        #expect(try loggedCalls().count == calledBefore)
        let plain = try evidence(["query", "--format", "csv", "SELECT count(*) AS n FROM environments WHERE os_version = '17.2' AND os_build = '' AND tool_build = ''"]).stdout
        #expect(plain == "n\n1\n")
    }

    @Test func withoutXcodeTheRulesStayAndTheErrorNamesTheOptions() throws {
        let refused = try evidence(["log", "bars.other-app-activity", "--simulator", "iPhone Duo", "--os", "iOS 27.1"], fakes: false, expect: 64)
        #expect(refused.stderr.contains("Missing expected argument '--xcode <version>' (no xcodebuild on this machine to read it from)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("an environment is named by --device or --simulator, --os and --xcode"))
        let noOS = try evidence(["run", "start", "--simulator", "iPhone Duo", "--xcode", "27.1"], fakes: false, expect: 64)
        #expect(noOS.stderr.contains("Missing expected argument '--os <os>'"), "\(noOS.stderr)")
    }

    @Test func ingestAndTheSessionReadTheMachineToo() throws {
        try fake("xcodebuild-version.txt", from: "xcodebuild-version-1.txt")
        try fake("simctl.json", from: "simctl-1.json")
        // A JUnit file names no build: Xcode from xcodebuild, the simulator's OS build from its runtime.
        let ingested = try evidence([
            "ingest", Fixtures.apple("junit-xcresultparser-1.xml").path, "--simulator", "iPhone Duo", "--os", "iOS 16.1",
        ])
        #expect(ingested.stderr.contains("Xcode 13.2.1 (13C100), from xcodebuild -version on this machine"), "\(ingested.stderr)")
        #expect(ingested.stdout.contains("iPhone Duo simulator, iOS 16.1 (20B72), Xcode 13.2.1 (13C100)"), "\(ingested.stdout)")
        #expect(ingested.stdout.contains("note: OS build 20B72 of the iOS 16.1 simulator runtime"), "\(ingested.stdout)")
        _ = try folder.write("empty.txt", "")
        let session = try evidence(["session", "--simulator", "iPhone Duo", "--os", "iOS 16.1", "--answers", "empty.txt"])
        #expect(session.stdout.contains("iPhone Duo simulator, iOS 16.1 (20B72), Xcode 13.2.1 (13C100)"), "\(session.stdout)")
    }
}
