import Foundation
import Testing

@testable import EvidenceStore

/// JUnit read in one pass: the same test cases, rows and errors as the two
/// passes, and the two passes wherever the file gives what its test cases
/// need after them.
@Suite struct JUnitOnePassTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static let limit = FutureLimit(latest: "2026-12-02T00:00:00Z")
    static let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z

    /// Each test case as one comparable line, with its device and properties
    /// (which claims are matched by), from the list its number points into.
    static func lines(_ tests: [TestReport.TestCase], devices: [TestReport.Device]) -> [String] {
        ReadingPaths.lines(tests, devices: devices)
    }

    /// A file read in one pass, its cases held until their top-level suites
    /// end or not (by default as ingest chooses, by the end of the file): its
    /// test cases, or why it needs two passes; nil when the start of the file
    /// sends it to two passes at once.
    func onePass(
        _ path: String, holding: Bool? = nil, limit: FutureLimit = Self.limit, maxHeld: Int = JUnitReader.maxHeld
    ) throws -> Result<[String], IngestSource.NeedsTwoPasses>? {
        let source = ByteSource.file(path, limit: .max)
        guard let lead = JUnitReader.lead(source, path: path) else { return nil }
        var tests: [TestReport.TestCase] = []
        let devices = DeviceList()
        do {
            try JUnitReader.forEachTestInOnePass(
                source, path: path, lead: lead, limit: limit, devices: devices,
                holding: holding ?? JUnitReader.endsWithProperties(source), maxHeld: maxHeld
            ) { test in
                // Its device is known before it comes.
                #expect(devices.all.indices.contains(test.device))
                tests.append(test)
            }
        } catch let needs as IngestSource.NeedsTwoPasses {
            return .failure(needs)
        }
        return .success(Self.lines(tests, devices: devices.all))
    }

    /// The test cases of the two passes.
    func twoPasses(_ path: String) throws -> [String] {
        let report = try JUnitReader.read(Data(contentsOf: URL(fileURLWithPath: path)), path: path)
        return Self.lines(report.tests, devices: report.devices)
    }

    @Test(arguments: [
        "junit-fastlane-trainer-1.xml", "junit-fastlane-trainer-3.xml", "junit-swiftpm-1.xml", "junit-xcbeautify-1.xml",
        "junit-xcbeautify-4.xml", "junit-xcresultparser-1.xml",
    ])
    func everyFixtureReadsTheSameInOnePass(name: String) throws {
        let path = Fixtures.apple(name).path
        let expected = try twoPasses(path)
        #expect(!expected.isEmpty)
        #expect(try #require(try onePass(path)).get() == expected)
        #expect(try #require(try onePass(path, holding: true)).get() == expected)
        // fastlane trainer's newer files end with their last target's
        // properties; the older one and the others give none after a case.
        #expect(JUnitReader.endsWithProperties(.file(path, limit: .max)) == (name == "junit-fastlane-trainer-3.xml"))
        if name == "junit-fastlane-trainer-3.xml" {
            #expect(try #require(try onePass(path, holding: false)).twoPassesReason
                == "a suite's properties come after test cases in it")
        } else {
            #expect(try #require(try onePass(path, holding: false)).get() == expected)
        }
    }

    /// Properties and dates before the test cases they hold for; a suite with
    /// its device and properties after its cases, as fastlane trainer writes
    /// them, and one nested in it with a device of its own; cases outside
    /// every suite and in suites naming no device, on the unnamed device.
    static let suites = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites timestamp="2026-11-30T08:00:00">
          <properties><property name="build" value="42"/></properties>
          <testsuite name="Outer" timestamp="2026-11-30T08:00:00">
            <properties><property name="claim" value="claim:island.clock-offset.closed"/></properties>
            <testsuite name="Inner" timestamp="2026-11-30T09:00:00">
              <properties><property name="area" value="surfaces"/></properties>
              <testcase classname="Inner" name="testA" time="0.5"/>
              <testcase classname="Inner" name="testB" time="1"><failure message="broke">at line 3</failure></testcase>
            </testsuite>
            <testcase classname="Outer" name="testC"><skipped/></testcase>
          </testsuite>
          <testcase classname="Loose" name="testL"/>
          <testsuite name="Trainer" timestamp="2026-11-30T10:00:00">
            <testsuite name="Nested">
              <testcase classname="Nested" name="testN"/>
              <properties><property name="device" value="iPhone 17 Pro (26.1)"/></properties>
            </testsuite>
            <testcase classname="Trainer" name="testD">
              <properties><property name="tag" value="slow"/></properties>
            </testcase>
            <testcase classname="Trainer" name="testE"/>
            <properties><property name="device" value="iPhone Duo (27.1)"/><property name="late" value="yes"/></properties>
          </testsuite>
        </testsuites>
        """

    @Test func suitesAreHeldUntilTheyEndAndReadTheSameInOnePass() throws {
        let path = try folder.write("suites.xml", Self.suites)
        #expect(JUnitReader.endsWithProperties(.file(path, limit: .max)))
        // Not held, the cases of "Trainer" would miss its device.
        #expect(try #require(try onePass(path, holding: false)).twoPassesReason
            == "a suite's properties come after test cases in it")
        let expected = try twoPasses(path)
        #expect(expected.count == 7)
        #expect(expected.filter { $0.contains("model: Optional(\"iPhone Duo\")") }.count == 2)
        #expect(expected.filter { $0.contains("model: Optional(\"iPhone 17 Pro\")") }.count == 1)
        #expect(expected.filter { $0.contains("model: nil") }.count == 4)
        #expect(expected.filter { $0.contains("late=yes") }.count == 3)
        #expect(try #require(try onePass(path)).get() == expected)
        let lead = try #require(JUnitReader.lead(.file(path, limit: .max), path: path))
        #expect(lead.report.startedAt == "2026-11-30T08:00:00Z")
    }

    /// Each suite's properties, devices among them, before its cases, as
    /// SwiftPM, xcbeautify and xcresultparser (which write none) and fastlane
    /// trainer's older files write them: handed over case by case.
    static let streamed = """
        <testsuites>
          <properties><property name="build" value="42"/></properties>
          <testsuite name="Outer">
            <properties><property name="device" value="iPhone Duo (27.1)"/></properties>
            <testsuite name="Inner">
              <properties><property name="device" value="iPhone 17 Pro (26.1)"/><property name="area" value="x"/></properties>
              <properties><property name="device" value="iPad (26.1)"/></properties>
              <testcase classname="Inner" name="testA"/>
            </testsuite>
            <testcase classname="Outer" name="testB"/>
          </testsuite>
          <testsuite name="Plain"><testcase classname="Plain" name="testC"/></testsuite>
          <testcase classname="Loose" name="testL"/>
        </testsuites>
        """

    @Test func propertiesBeforeTheirCasesAreReadCaseByCase() throws {
        let path = try folder.write("streamed.xml", Self.streamed)
        #expect(JUnitReader.endsWithProperties(.file(path, limit: .max)) == false)
        let expected = try twoPasses(path)
        #expect(expected.count == 4)
        #expect(expected[0].contains("model: Optional(\"iPhone 17 Pro\")"))
        #expect(expected[1].contains("model: Optional(\"iPhone Duo\")"))
        #expect(expected[2].contains("model: nil") && expected[3].contains("model: nil"))
        #expect(try #require(try onePass(path, holding: false)).get() == expected)
        #expect(try #require(try onePass(path, holding: true)).get() == expected)
        // A suite's properties after a case in it, handed over already: two passes.
        let late = try folder.write(
            "late.xml",
            Self.streamed.replacingOccurrences(
                of: "<testcase classname=\"Outer\" name=\"testB\"/>",
                with: "<testcase classname=\"Outer\" name=\"testB\"/><properties><property name=\"tag\" value=\"late\"/></properties>"))
        #expect(try #require(try onePass(late, holding: false)).twoPassesReason
            == "a suite's properties come after test cases in it")
        #expect(try #require(try onePass(late, holding: true)).get() == (try twoPasses(late)))
    }

    @Test(arguments: [
        // The root's properties after cases, which they hold for.
        ("<testcase classname=\"Loose\" name=\"testL\"/>",
         "<testcase classname=\"Loose\" name=\"testL\"/><properties><property name=\"device\" value=\"iPad\"/></properties>",
         "the root's properties come after test cases"),
        // A date earlier than the run's, which dates every row.
        ("name=\"Trainer\" timestamp=\"2026-11-30T10:00:00\"", "name=\"Trainer\" timestamp=\"2026-11-30T07:00:00\"",
         "the date at 14:60 is earlier than the dates before the first test case"),
        // A date in the future, which the two passes refuse.
        ("name=\"Trainer\" timestamp=\"2026-11-30T10:00:00\"", "name=\"Trainer\" timestamp=\"2027-01-01T10:00:00\"",
         "the date at 14:60 is in the future"),
    ])
    func whatTheCasesBeforeItCannotTakeNeedsTwoPasses(original: String, replacement: String, reason: String) throws {
        #expect(Self.suites.contains(original))
        let path = try folder.write("late.xml", Self.suites.replacingOccurrences(of: original, with: replacement))
        #expect(try #require(try onePass(path, holding: true)).twoPassesReason == reason)
    }

    @Test func aDateOnlyAfterTheFirstCaseNeedsTwoPasses() throws {
        let text = Self.suites.replacingOccurrences(of: " timestamp=\"2026-11-30T08:00:00\"", with: "")
            .replacingOccurrences(of: " timestamp=\"2026-11-30T09:00:00\"", with: "")
        let path = try folder.write("undated.xml", text)
        #expect(try #require(JUnitReader.lead(.file(path, limit: .max), path: path)).report.startedAt == nil)
        #expect(try #require(try onePass(path, holding: true)).twoPassesReason
            == "the date at 14:60 is earlier than the dates before the first test case")
    }

    @Test func aSuiteTooLargeToHoldNeedsTwoPasses() throws {
        let path = try folder.write("suites.xml", Self.suites)
        #expect(try #require(try onePass(path, holding: true, maxHeld: 400)).twoPassesReason
            == "more than 400 bytes of test cases wait for their suite to end")
        #expect(try #require(try onePass(path, holding: true, maxHeld: 1_000)).get() == (try twoPasses(path)))
    }

    @Test func aFileWithNoCaseOrSomethingWrongBeforeItIsLeftToTheTwoPasses() throws {
        for (name, text) in [
            ("empty.xml", "<testsuites><testsuite name=\"S\"/></testsuites>"),
            ("doctype.xml", "<!DOCTYPE x><testsuites><testsuite name=\"S\"><testcase name=\"a\"/></testsuite></testsuites>"),
            ("html.xml", "<html><testcase name=\"a\"/></html>"),
        ] {
            let path = try folder.write(name, text)
            #expect(try onePass(path) == nil, "\(name)")
        }
        // Something wrong after the first case stops the one pass.
        let path = try folder.write("cut.xml", String(Self.suites.dropLast(40)))
        guard case .failure(let needs) = try #require(try onePass(path)) else {
            Issue.record("a cut file was read in one pass")
            return
        }
        #expect(needs.reason.contains("not well-formed XML"))
    }

    /// A JUnit document made at random from `seed`: nested suites, cases
    /// inside and outside them, properties (devices among them) before,
    /// between and after cases, timestamps in and out of order.
    static func randomDocument(seed: UInt64) -> String {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var caseNumber = 0
        func properties() -> String {
            var text = "<properties>"
            for _ in 0..<(1 + next(2)) {
                switch next(4) {
                case 0: text += "<property name=\"device\" value=\"\(["iPhone Duo (27.1)", "iPad (26.1)", "iPhone 17 Pro"][next(3)])\"/>"
                case 1: text += "<property name=\"claim\" value=\"claim:x.\(next(3))\"/>"
                default: text += "<property name=\"p\(next(5))\" value=\"v\(next(5))\"/>"
                }
            }
            return text + "</properties>\n"
        }
        func testCase() -> String {
            caseNumber += 1
            var text = "<testcase classname=\"C\(next(3))\" name=\"test\(caseNumber)\" time=\"0.\(next(10))\">"
            switch next(5) {
            case 0: text += "<failure message=\"m\(next(3))\">body</failure>"
            case 1: text += "<skipped/>"
            default: break
            }
            if next(4) == 0 { text += properties() }
            return text + "</testcase>\n"
        }
        func timestamp() -> String {
            next(3) == 0 ? "" : " timestamp=\"\(next(8) == 0 ? "2027" : "2026")-11-30T\(10 + next(10)):00:00\""
        }
        func suite(depth: Int) -> String {
            var parts: [String] = []
            for _ in 0..<next(4) { parts.append(testCase()) }
            if depth < 2 { for _ in 0..<next(3) { parts.append(suite(depth: depth + 1)) } }
            if next(2) == 0 { parts.insert(properties(), at: next(parts.count + 1)) }
            return "<testsuite name=\"S\(next(100))\"\(timestamp())>\n" + parts.joined() + "</testsuite>\n"
        }
        if next(8) == 0 { return "<?xml version=\"1.0\"?>\n" + suite(depth: 0) }
        var parts: [String] = []
        for _ in 0..<(1 + next(4)) { parts.append(next(5) == 0 ? testCase() : suite(depth: 1)) }
        if next(2) == 0 { parts.insert(properties(), at: next(3) == 0 ? parts.count : 0) }
        return "<?xml version=\"1.0\"?>\n<testsuites\(timestamp())>\n" + parts.joined() + "</testsuites>\n"
    }

    @Test func randomFilesReadInOnePassAsInTwoOrGoToTwo() throws {
        var read = [false: 0, true: 0]
        for seed in 0..<400 {
            let path = try folder.write("random-\(seed).xml", Self.randomDocument(seed: UInt64(seed)))
            let expected = try twoPasses(path)
            for holding in [false, true] {
                switch try onePass(path, holding: holding) {
                case .success(let lines)?:
                    #expect(lines == expected, "seed \(seed), holding \(holding)")
                    read[holding, default: 0] += 1
                case .failure, nil:
                    break
                }
            }
        }
        // Each way reads a good share of them in one pass; holding, more.
        #expect(read[false, default: 0] >= 50)
        #expect(read[true, default: 0] > read[false, default: 0])
    }

    // MARK: - Ingest

    /// What an ingest wrote, row by row, in every column but the store's own ids.
    static func rows(_ store: Store) throws -> [String] {
        let results = try store.database.query(
            """
            SELECT r.uuid, r.result, r.checked_at, r.recorded_at, r.test_id, r.duration, r.message, c.key,
                   u.uuid AS run, u.started_at, u.note, e.model, f.sha256, f.test_count
            FROM results r JOIN runs u ON u.id = r.run_id JOIN environments e ON e.id = r.environment_id
            JOIN ingested_files f ON f.id = u.ingested_file_id LEFT JOIN claims c ON c.id = r.claim_id
            ORDER BY r.id
            """)
        return results.map { row in
            (0..<14).map { row[$0].description }.joined(separator: "|")
        }
    }

    @Test func ingestInOnePassWritesWhatTwoPassesWrite() throws {
        let options = IngestOptions(kind: .simulator, model: "Fallback Phone", os: "iOS 27.1")
        var files = [
            "junit-fastlane-trainer-1.xml", "junit-fastlane-trainer-3.xml", "junit-swiftpm-1.xml",
            "junit-xcbeautify-4.xml", "junit-xcresultparser-1.xml",
        ].map { Fixtures.apple($0).path }
        files.append(try folder.write("suites.xml", Self.suites))
        files.append(try folder.write("streamed.xml", Self.streamed))
        // Properties after a case, in a file that does not end with them:
        // handed over case by case, then read in two passes.
        files.append(try folder.write(
            "turn.xml", Self.streamed.replacingOccurrences(
                of: "<testcase classname=\"Outer\" name=\"testB\"/>",
                with: "<testcase classname=\"Outer\" name=\"testB\"/><properties><property name=\"device\" value=\"iPad (26.1)\"/></properties>")))
        // Read in two passes after a one pass that wrote some of it.
        files.append(try folder.write(
            "late.xml", Self.suites.replacingOccurrences(of: "2026-11-30T10:00:00", with: "2026-11-30T07:00:00")))
        // A root device for every case, given before them.
        files.append(try folder.write(
            "root.xml", Self.suites.replacingOccurrences(
                of: "<property name=\"build\" value=\"42\"/>", with: "<property name=\"device\" value=\"iPad Pro (26.1)\"/>")))
        for file in files {
            var written: [[String]] = []
            for onePass in [true, false] {
                let fixture = try StoreFixture(clock: .fixed(Self.now))
                try fixture.addBasics()
                let summary = try fixture.store.ingest(file: file, options: options, onePass: onePass, progress: nil)
                #expect(summary.read > 0)
                written.append(try Self.rows(fixture.store))
            }
            #expect(written[0] == written[1], "\(file)")
            #expect(written[0].count > 0)
        }
    }

    /// Ingests a file in one pass and in two, into stores of their own: both
    /// must refuse it, with the same error, and write nothing.
    func refusedAlike(_ path: String) throws -> String? {
        let options = IngestOptions(kind: .simulator, model: "Fallback Phone", os: "iOS 27.1")
        var errors: [String] = []
        for onePass in [true, false] {
            let fixture = try StoreFixture(clock: .fixed(Self.now))
            try fixture.addBasics()
            do {
                _ = try fixture.store.ingest(file: path, options: options, onePass: onePass, progress: nil)
                Issue.record("\(path) was ingested")
            } catch {
                errors.append("\(error)")
            }
            #expect(try fixture.store.database.scalar("SELECT count(*) FROM results").int == 0)
            #expect(try fixture.store.database.scalar("SELECT count(*) FROM runs").int == 0)
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last, "\(path)")
        return errors.first
    }

    @Test func aBadFileIsRefusedForWhatTheTwoPassesFindFirst() throws {
        // A control character in a test's name, found as its case is written,
        // and a file cut short after it: the two passes find the cut first.
        let cut = try folder.write(
            "both.xml",
            String(Self.suites.replacingOccurrences(of: "name=\"testA\"", with: "name=\"test&#10;A\"").dropLast(40)))
        #expect(try refusedAlike(cut)?.contains("not well-formed XML") == true)
        // A device no environment can be made of, in a suite with no case:
        // the two passes refuse it before writing, the one pass at its end.
        let device = try folder.write(
            "device.xml",
            Self.suites.replacingOccurrences(
                of: "</testsuites>",
                with: "<testsuite name=\"Idle\"><properties><property name=\"device\" value=\"iPhone&#10;Duo (27.1)\"/></properties></testsuite></testsuites>"))
        #expect(try refusedAlike(device)?.contains("the device it names") == true)
    }
}
