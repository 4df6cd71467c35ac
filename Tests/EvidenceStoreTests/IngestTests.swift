import Foundation
import Testing

@testable import EvidenceStore

@Suite struct IngestFixtureTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try fixture.addBasics()
    }

    func ingest(_ name: String, _ options: IngestOptions = IngestOptions(kind: .simulator, model: "Fallback Phone", os: "iOS 27.1"))
        throws -> IngestSummary
    {
        try store.ingest(file: Fixtures.apple(name).path, options: options)
    }

    /// The single environment the file's run landed on.
    func environment(_ summary: IngestSummary) throws -> EnvironmentSpec {
        let run = try #require(summary.runs.first?.run)
        return try store.reader.environment(id: run.environmentID)
    }

    func storedCounts(_ summary: IngestSummary) throws -> [String] {
        let run = try #require(summary.runs.first?.run)
        return try store.database.query(
            "SELECT result, count(*) AS n FROM results WHERE run_id = ? GROUP BY result ORDER BY result", .integer(run.id)
        ).map { "\(try $0.text("result")) \(try $0.int("n"))" }
    }

    // MARK: - Every fixture, against its content

    @Test func fastlaneTrainerLegacy() throws {
        let summary = try ingest("junit-fastlane-trainer-1.xml")
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (7, 5, 2, 0))
        #expect(try storedCounts(summary) == ["fail 2", "pass 5"])
        #expect(try environment(summary).model == "Fallback Phone")
        let failure = try store.database.query(
            "SELECT test_id, duration, message FROM results WHERE result = 'fail' ORDER BY test_id").first
        #expect(try failure?.text("test_id") == "TestTests/testFailureJosh1()")
        #expect(try failure?.double("duration") == 0.006072044372558594)
        #expect(try failure?.text("message").hasPrefix("XCTAssertTrue failed (/Users/josh/") == true)
    }

    @Test func fastlaneTrainerWithNestedSuitesAndTheDeviceProperty() throws {
        let summary = try ingest("junit-fastlane-trainer-3.xml")
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (192, 165, 20, 7))
        let environment = try environment(summary)
        #expect(environment.model == "iPhone 16 Pro")
        #expect(environment.osName == "iOS")
        #expect(environment.osVersion == "18.2")
        #expect(environment.kind == .simulator)
        #expect(summary.runs.count == 1)
        // A case with two <failure> elements keeps both messages.
        let messages = try store.database.scalar(
            "SELECT count(*) FROM results WHERE message LIKE '%' || char(10) || '%'").int ?? 0
        #expect(messages >= 1)
    }

    @Test func swiftPMXunitOutput() throws {
        let summary = try ingest("junit-swiftpm-1.xml")
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (1, 0, 1, 0))
        let message = try store.database.scalar("SELECT message FROM results").description
        #expect(message == "Expectation failed: (greeting → \"hello, world!\") == \"hello, worldz!\"")
    }

    @Test func xcbeautifyReports() throws {
        let first = try ingest("junit-xcbeautify-1.xml")
        #expect((first.read, first.passed, first.failed, first.skipped) == (85, 81, 3, 1))
        let second = try ingest("junit-xcbeautify-4.xml")
        #expect((second.read, second.passed, second.failed, second.skipped) == (464, 460, 2, 2))
        // Swift Testing names written as quoted display names are kept as they are.
        #expect(try store.database.scalar(
            "SELECT count(*) FROM results WHERE test_id = 'SwiftTesting/\"An unthrown error has no backtrace\"'").int == 1)
    }

    @Test func xcresultparserReportWithAFailureBody() throws {
        let summary = try ingest("junit-xcresultparser-1.xml")
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (7, 6, 1, 0))
        let message = try store.database.scalar("SELECT message FROM results WHERE result = 'fail'").description
        #expect(message.hasPrefix("Uncategorized: XcresultparserTests.testCoverageConverter()\nfailed - Unable to create CoverageConverter"))
        #expect(try store.database.scalar("SELECT duration FROM results WHERE test_id = 'XcresultparserTests/testCoverageConverter()'") == .real(2.818))
    }

    @Test func xcresultTestsOfXcode16WithoutAnOSBuild() throws {
        let summary = try ingest("xcresult-tests-1.json")
        // Every repetition and retry is a result of its own.
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (74, 39, 22, 13))
        let environment = try environment(summary)
        #expect(environment.model == "iPhone 16 Pro")
        #expect(environment.osVersion == "18.2")
        #expect(environment.osBuild == "")
        #expect(environment.kind == .simulator)
        // Localised durations: "0,0091s".
        // Each retry its own result, with its own duration.
        #expect(try store.database.query(
            "SELECT duration, note FROM results WHERE test_id = 'FastlaneTrainerTests/UserTests/RegistrationTests/testBasicRegistration()' ORDER BY id")
            .map { "\(try $0.value("duration")) \(try $0.value("note"))" } == ["0.0052 repetition 1 of 2 (Retry 1)", "0.013 repetition 2 of 2 (Retry 2)"])
        #expect(try store.database.scalar(
            "SELECT message FROM results WHERE test_id = 'FastlaneTrainerExampleUITests/testAccessibilityAndScreenshots()'")
            == .text("FastlaneTrainerExampleUITests.swift:129: XCTAssertTrue failed"))
    }

    @Test func xcresultTestsWithExpectedFailuresAndABuild() throws {
        let summary = try ingest("xcresult-tests-3.json")
        // Every repetition and retry is a result of its own, and an expected failure is a failure.
        #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (41, 18, 19, 4))
        #expect(try store.database.scalar("SELECT count(*) FROM results WHERE note LIKE 'expected failure%' AND result = 'fail'").int == 4)
        let environment = try environment(summary)
        #expect(environment.model == "iPhone 15")
        #expect(environment.osVersion == "26.1")
        #expect(environment.osBuild == "23B86")
    }

    /// Each result of an ingested file is named by its run and its place in
    /// the file, from 0, in the order recorded: the numbering a release build
    /// once took from whatever the stack held (024b3c2). `.ci/run` runs this
    /// suite built in release too, where it would fail.
    @Test(arguments: ["xcresult-tests-1.json", "xcresult-tests-3.json", "junit-fastlane-trainer-3.xml", "junit-xcbeautify-4.xml"])
    func ingestedResultsAreNamedByTheirPlaceInTheFile(name: String) throws {
        let summary = try ingest(name)
        #expect(summary.read > 1)
        let rows = try store.database.query(
            """
            SELECT r.uuid AS uuid, u.uuid AS run FROM results AS r JOIN runs AS u ON u.id = r.run_id
            WHERE u.ingested_file_id IS NOT NULL ORDER BY r.recorded_at
            """)
        #expect(rows.count == summary.read)
        for (place, row) in rows.enumerated() {
            let expected = ResultIdentity.ingestedResultUUID(runUUID: try row.text("run"), test: place, claimSlot: 0)
            #expect(try row.text("uuid") == expected, "\(name): result \(place)")
        }
    }

    @Test func xcresultSummaryOfXcode26() throws {
        let summary = try ingest("xcresult-summary-1.json")
        #expect((summary.read, summary.failed) == (2, 2))
        #expect(summary.notes == ["xcresulttool summary of 7 tests (3 passed, 2 failed, 1 skipped, 1 expected failures); a summary lists only the failures one by one"])
        let environment = try environment(summary)
        #expect(environment.description == "iPhone 17 Pro simulator, iOS 26.2 (23C54)")
        let run = try #require(summary.runs.first?.run)
        #expect(run.startedAt == "2026-01-11T12:12:06Z")
        #expect(try store.database.scalar("SELECT count(*) FROM results WHERE test_id = 'RandomStuffTests/testFoo()'").int == 1)
    }

    @Test func legacyActionsInvocationRecord() throws {
        let summary = try ingest("xcresult-legacy-1.json")
        #expect((summary.read, summary.failed) == (2, 2))
        let environment = try environment(summary)
        #expect(environment.description == "iPhone 11 simulator, iOS 14.4 (18D46)")
        #expect(summary.runs.first?.run.startedAt == "2021-04-23T04:13:02Z")
        #expect(try store.database.scalar(
            "SELECT count(*) FROM results WHERE test_id = 'AuthorizationTests/test_guest_can_login_in_russia_with_lithuania_phone()'").int == 1)
    }

    @Test func theXcodeVersionFileGivesTheToolBuild() throws {
        var options = IngestOptions(kind: .device, model: "iPhone Duo", os: "iOS 27.1", osBuild: "23B85")
        options.xcodeVersionFile = Fixtures.apple("xcodebuild-version-2.txt").path
        let summary = try ingest("junit-swiftpm-1.xml", options)
        #expect(try environment(summary).description == "iPhone Duo device, iOS 27.1 (23B85), Xcode 16 beta6 (16A5230g)")
    }

    // MARK: - Mapping to claims

    @Test func rulesAndTheClaimConventionMapTestsToClaims() throws {
        try store.addMapping(pattern: "TestThisDude/testFailureJosh2()", claimKey: "bars.overflow")
        try store.addMapping(pattern: "TestTests/testPerformance*", claimKey: "island.clock-offset.closed")
        let summary = try ingest("junit-fastlane-trainer-1.xml")
        #expect(summary.mapped == 2)
        #expect(summary.unmapped.count == 5)
        #expect(try fixture.state("bars.overflow") == "failing")
        #expect(try fixture.state("island.clock-offset.closed") == "verified-in-simulator")
        let test = try store.database.scalar("SELECT test_id FROM results WHERE claim_id IS NOT NULL AND result = 'fail'")
        #expect(test == .text("TestThisDude/testFailureJosh2()"))
    }

    @Test func rulesMatchWithoutTheModuleOrTheParentheses() throws {
        try store.addMapping(pattern: "OutputHandlerTests/testEarlyReturnIfEmptyString()", claimKey: "bars.overflow")
        let summary = try ingest("junit-xcbeautify-1.xml")
        #expect(summary.mapped == 1)
        #expect(try fixture.state("bars.overflow") == "verified-in-simulator")
    }

    @Test func rulesSeeEveryFormOfAnIdentifier() {
        func forms(_ identifier: String, _ name: String) -> [String] {
            TestClaimMatcher.Forms(TestReport.TestCase(identifier: identifier, name: name, outcome: .pass, duration: nil)).texts
        }
        #expect(forms("App.Outer.SuiteTests/testA()", "testA()") == [
            "App.Outer.SuiteTests/testA()", "testA()", "Outer.SuiteTests/testA()", "SuiteTests/testA()",
            "App.Outer.SuiteTests/testA", "testA", "Outer.SuiteTests/testA", "SuiteTests/testA",
        ])
        #expect(forms("SuiteTests/test_b", "test_b") == ["SuiteTests/test_b", "test_b", "SuiteTests/test_b()", "test_b()"])
        // Empty parts of the suite are passed over; a case with arguments keeps them.
        #expect(forms(".A..B/c(x:)", "c(x:)") == [".A..B/c(x:)", "c(x:)", "B/c(x:)"])
        #expect(forms("", "") == ["", "", "()", "()"])
    }

    @Test func theConventionReadsIdentifiersTagsAndProperties() throws {
        let file = try fixture.folder.write(
            "claims.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="Duo">
                <testcase classname="DuoTests" name="Clock moves down claim:island.clock-offset.closed" time="0.5"/>
                <testcase classname="DuoTests" name="testOverflow()" time="0.1">
                  <properties><property name="claim" value="bars.overflow"/></properties>
                </testcase>
                <testcase classname="DuoTests" name="testStandBy()">
                  <skipped/>
                  <properties><property name="tag1" value="claim:standby.either-display"/></properties>
                </testcase>
                <testcase classname="DuoTests" name="testTypo()">
                  <properties><property name="tag1" value="claim:bars.overflw"/></properties>
                </testcase>
              </testsuite>
            </testsuites>
            """)
        let summary = try store.ingest(file: file, options: IngestOptions(kind: .device, model: "iPhone Duo", os: "iOS 27.1"))
        #expect(summary.mapped == 3)
        #expect(summary.unknownClaims.map(\.key) == ["bars.overflw"])
        #expect(try fixture.state("island.clock-offset.closed") == "verified-on-device")
        #expect(try fixture.state("bars.overflow") == "verified-on-device")
        #expect(try fixture.state("standby.either-display") == "needs-device")
    }

    @Test func mappingRulesAreListedAndRemoved() throws {
        try store.addMapping(pattern: "A/*", claimKey: "bars.overflow")
        #expect(throws: EvidenceError.self) { try store.addMapping(pattern: "A/*", claimKey: "bars.overflow") }
        #expect(throws: EvidenceError.self) { try store.addMapping(pattern: "A/*", claimKey: "bars.overflw") }
        #expect(try Tabular(store.reader.mappingList()).rows == [[.text("A/*"), .text("bars.overflow")]])
        try store.removeMapping(pattern: "A/*", claimKey: nil)
        #expect(try Tabular(store.reader.mappingList()).rows.isEmpty)
        #expect(throws: EvidenceError.self) { try store.removeMapping(pattern: "A/*", claimKey: nil) }
        #expect(Glob.matches("Live*/test?()", "LiveActivityTests/testA()"))
        #expect(!Glob.matches("Live*/test?()", "LiveActivityTests/testAB()"))
    }

    @Test func globsMatchWholeCharactersAndBacktrack() {
        #expect(Glob.matches("*", ""))
        #expect(!Glob.matches("?", ""))
        #expect(Glob.matches("test?()", "testé()"), "? is one character, not one byte")
        #expect(!Glob.matches("test?()", "testéé()"))
        #expect(Glob.matches("*é*b", "aéaéb"))
        #expect(Glob.matches("a*b*c", "axxbyybzzc"))
        #expect(!Glob.matches("a*b*c", "axxbyybzz"))
        #expect(Glob.matches("*?", "🦊"))
        #expect(Glob.matches("Suite/*", "Suite/"))
        #expect(!Glob.matches("Suite/*", "suite/x"), "case matters")
        #expect(Glob.matches("**/x", "a/b/x"))
    }

    // MARK: - Once, and all or nothing

    @Test func theSameFileTwiceChangesNothing() throws {
        let first = try ingest("junit-xcbeautify-1.xml")
        #expect(first.alreadyIngestedAt == nil)
        let counts = try ["results", "runs", "ingested_files", "environments"].map { try fixture.count($0) }
        let second = try ingest("junit-xcbeautify-1.xml")
        #expect(second.alreadyIngestedAt != nil)
        #expect(try ["results", "runs", "ingested_files", "environments"].map { try fixture.count($0) } == counts)
        #expect(try fixture.count("runs") == 1)
    }

    @Test func aFileWithoutAnEnvironmentNeedsTheOptions() throws {
        #expect(throws: EvidenceError.self) {
            _ = try ingest("junit-xcbeautify-1.xml", IngestOptions())
        }
        #expect(try fixture.count("ingested_files") == 0)
    }
}

@Suite struct IngestBadInputTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    func expectRejected(
        _ name: String, _ content: String, saying fragment: String, maxBytes: Int = IngestOptions.defaultMaxBytes,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let path = try fixture.folder.write(name, content)
        try expectRejected(path: path, saying: fragment, maxBytes: maxBytes, sourceLocation: sourceLocation)
    }

    func expectRejected(path: String, saying fragment: String, maxBytes: Int = IngestOptions.defaultMaxBytes,
        sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        do {
            _ = try store.ingest(
                file: path, options: IngestOptions(kind: .simulator, model: "iPhone Duo", os: "iOS 27.1", maxBytes: maxBytes))
            Issue.record("\(path) must be rejected", sourceLocation: sourceLocation)
        } catch let error as EvidenceError {
            #expect(error.description.contains(path), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
        for table in ["ingested_files", "runs", "results", "environments"] {
            #expect(try fixture.count(table) == 0, "\(table)", sourceLocation: sourceLocation)
        }
    }

    @Test func aDoctypeIsRefused() throws {
        try expectRejected(
            "doctype.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuites>\n<testsuites/>\n", saying: ":2: the file has a <!DOCTYPE")
        try expectRejected(
            "laughs.xml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n <!ENTITY lol2 \"&lol;&lol;&lol;\">\n]>\n<testsuites>&lol2;</testsuites>\n",
            saying: "DOCTYPE")
        try expectRejected(
            "external.xml",
            "<?xml version=\"1.0\"?>\n<!doctype t [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><testsuites name=\"&x;\"/>",
            saying: "DOCTYPE")
    }

    /// A failure message that holds an HTML page (a 502 from a server) is
    /// text: a DOCTYPE inside CDATA or a comment is no declaration.
    @Test func aDoctypeInsideCDATAOrACommentIsText() throws {
        // After a section ends, a declaration is one again (refused first: a refusal leaves the store empty).
        try expectRejected(
            "after.xml", "<testsuites><![CDATA[]]>\n<!DOCTYPE x></testsuites>", saying: ":2: the file has a <!DOCTYPE")
        let page = "<!DOCTYPE html><html><body>502 Bad Gateway <!ENTITY x></body></html>"
        let file = try fixture.folder.write(
            "cdata.xml",
            """
            <?xml version="1.0"?>
            <!-- <!DOCTYPE a comment's words -->
            <testsuites><testsuite name="Gateway" tests="1" failures="1">
            <testcase classname="Gateway" name="testFetch"><failure message="bad gateway"><![CDATA[\(page)]]></failure></testcase>
            </testsuite></testsuites>

            """)
        let summary = try store.ingest(file: file, options: IngestOptions(kind: .simulator, model: "iPhone Duo", os: "iOS 27.1"))
        #expect(summary.runs.count == 1)
        let message = try store.database.scalar("SELECT message FROM results").description
        #expect(message.contains("<!DOCTYPE html>"), "\(message)")
    }

    /// The scanner keeps its place across chunks split at every byte.
    @Test func theDeclarationScannerReadsTheSameAtEverySplit() throws {
        let cases: [(String, Int?)] = [
            ("<a><![CDATA[<!DOCTYPE html>]]></a>", nil), ("<a><!-- <!doctype --></a>", nil), ("<a>\n<!doctype x></a>", 2),
            ("<a><![CDATA[]]]]><!ENTITY y></a>", 1), ("<a><!-- -- --><!DOCTYPE z></a>", 1), ("<a><![CDATA[x]]></a>\n\n<!Doctype q>", 3),
        ]
        for (text, line) in cases {
            let bytes = Array(text.utf8)
            for split in 0...bytes.count {
                var scanner = DeclarationScanner(path: "t.xml")
                var found: Int?
                do {
                    let first = Array(bytes[..<split]), second = Array(bytes[split...])
                    try first.withUnsafeBytes { try scanner.check($0, firstLine: 1) }
                    try second.withUnsafeBytes { try scanner.check($0, firstLine: 1 + first.filter { $0 == 10 }.count) }
                } catch EvidenceError.badFile(_, let location, _) {
                    found = location.flatMap { Int($0) }
                }
                #expect(found == line, "\(text) split at \(split)")
            }
        }
    }

    @Test func truncatedAndMisNestedXMLIsRefused() throws {
        let good = try String(contentsOf: Fixtures.apple("junit-fastlane-trainer-1.xml"), encoding: .utf8)
        try expectRejected("truncated.xml", String(good.prefix(good.count / 2)), saying: "never closed")
        try expectRejected(
            "misnested.xml", "<testsuites><testsuite name=\"a\"><testcase name=\"b\"></testsuite></testcase></testsuites>",
            saying: "not well-formed XML")
        try expectRejected("not-junit.xml", "<html><body/></html>", saying: "not a JUnit report")
        try expectRejected("empty.xml", "", saying: "the file is empty")
        try expectRejected("text.xml", "hello", saying: "neither JUnit XML nor xcresulttool JSON")
    }

    /// Found by the fuzzer: FoundationXML crashed on a processing instruction without data.
    @Test func processingInstructionsAreRefused() throws {
        try expectRejected("pi.xml", "<?xF-8x?>\n<testsnfz62 tests=\"7\" failur\" class<name?x", saying: "pi.xml:1:10: the file has a processing instruction")
        try expectRejected("stylesheet.xml", "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a\"?>\n<testsuites/>", saying: "stylesheet.xml:2:28: the file has a processing instruction")
        try expectRejected("after.xml", "<testsuites><![CDATA[x]]>\n<?pi?></testsuites>", saying: "after.xml:2:7: the file has a processing instruction")
        let path = try fixture.folder.write("declared.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites><testsuite name=\"s\"><testcase name=\"t\"/></testsuite></testsuites>")
        let summary = try store.ingest(file: path, options: IngestOptions(kind: .simulator, model: "iPhone Duo"))
        #expect(summary.read == 1)
        // Test output that prints XML, in CDATA or a comment, is text, not an instruction.
        let printed = try fixture.folder.write(
            "printed.xml",
            "<?xml version=\"1.0\"?>\n<!-- <?php ?> -->\n<testsuites><testsuite name=\"s\"><testcase name=\"t\">"
                + "<system-out><![CDATA[<?xml version=\"1.0\"?><plist/>]]></system-out></testcase></testsuite></testsuites>")
        #expect(try store.ingest(file: printed, options: IngestOptions(kind: .simulator, model: "iPhone Duo")).read == 1)
    }

    @Test func timestampsWithoutAZoneAreUTCAndOffsetsAreApplied() throws {
        for (stamp, expected) in [
            ("2026-10-20T14:03:00", "2026-10-20T14:03:00Z"), ("2026-10-20T14:03:00-05:00", "2026-10-20T19:03:00Z"),
            ("2026-10-20T14:03:00+02:00", "2026-10-20T12:03:00Z"),
        ] {
            let path = try fixture.folder.write(
                "stamp-\(expected).xml",
                "<testsuites><testsuite name=\"s\" timestamp=\"\(stamp)\"><testcase name=\"t\"/></testsuite></testsuites>")
            let summary = try store.ingest(file: path, options: IngestOptions(kind: .simulator, model: "iPhone Duo"))
            #expect(summary.runs.first?.run.startedAt == expected, "\(stamp)")
        }
    }

    @Test func hostileBytesAreRefused() throws {
        try expectRejected("nul.xml", "<testsuites>\n<testsuite name=\"a\u{0}\"/></testsuites>", saying: ":2: a NUL byte")
        let invalid = fixture.folder.path("utf8.xml")
        try Data([0x3C, 0x74, 0x65, 0x73, 0x74, 0x73, 0x75, 0x69, 0x74, 0x65, 0x73, 0x3E, 0x0A, 0xC3, 0x28, 0x3C, 0x2F, 0x74, 0x3E])
            .write(to: URL(fileURLWithPath: invalid))
        try expectRejected(path: invalid, saying: ":2: invalid UTF-8")
        let deep = String(repeating: "<testsuite>", count: 100_000) + String(repeating: "</testsuite>", count: 100_000)
        try expectRejected("deep.xml", "<testsuites>" + deep + "</testsuites>", saying: "nested deeper than")
        let long = "<testsuites><testsuite name=\"" + String(repeating: "x", count: 10 << 20) + "\"/></testsuites>"
        try expectRejected("long.xml", long, saying: "longer than")
        try expectRejected("big.xml", String(repeating: " ", count: 2000) + "<testsuites/>", saying: "over the limit of 1000 bytes", maxBytes: 1000)
    }

    @Test func wrongJSONTypesAreRefusedWithThePath() throws {
        try expectRejected("types.json", "{\"devices\": [], \"testNodes\": [{\"nodeType\": \"Test Case\", \"name\": 5}]}",
            saying: "testNodes[0].name: expected a string, found a number")
        try expectRejected("duration.json",
            "{\"testNodes\": [{\"nodeType\": \"Test Plan\", \"children\": [{\"nodeType\": \"Test Case\", \"name\": \"t\", \"result\": \"Passed\", \"duration\": [1]}]}]}",
            saying: "testNodes[0].children[0].duration: expected a number, found an array")
        try expectRejected("shape.json", "{\"hello\": 1}", saying: "not xcresulttool output")
        try expectRejected("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            saying: "nested deeper than")
        try expectRejected("broken.json", "{\"testNodes\": [", saying: "not valid JSON")
    }

    /// Found by the xcresult fuzzer: a start time past Int64 crashed the conversion.
    @Test func startTimesOutsideTheCalendarAreRefused() throws {
        for start in ["1e300", "-1e300", "253402300800"] {
            try expectRejected(
                "start-\(start).json", "{\"totalTestCount\": 1, \"startTime\": \(start), \"testFailures\": []}",
                saying: "startTime: expected seconds since 1970 within the years 0001 to 9999")
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -.infinity)) == "0001-01-01T00:00:00Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
    }
}
