import Foundation
import Testing

@testable import EvidenceStore

/// The tests of xcresulttool read in one pass: the same results, and the same
/// errors, as the two passes, and the two passes wherever one cannot be sure.
@Suite struct XCResultOnePassTests {
    /// The streaming suite's helpers (`onePass`, `lines`) and its temporary folder.
    let streaming: XCResultStreamingTests
    var folder: TemporaryFolder { streaming.folder }

    init() throws {
        streaming = try XCResultStreamingTests()
    }

    /// A store of its own with the basics, for an ingest.
    static func store() throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.addBasics()
        return fixture
    }

    static let options = IngestOptions(kind: .simulator, model: "Phone", os: "iOS 27.1")

    /// Suites around test cases, a test case with a device each, a failure
    /// under a device, a test case's repetitions, tags, durations of both
    /// kinds; as xcresulttool writes them, devices first and each node's
    /// children before its name and type.
    static func document(inner: String = "", identified: Bool = true) -> String {
        let a = identified ? #""nodeIdentifier": "Outer/a()", "# : ""
        return """
            {"devices": [{"modelName": "iPhone 17 Pro"}, {"modelName": "iPhone Duo"}],
            "testNodes": [{"children": [
              {"children": [
                {"children": [{"name": "a note", "nodeType": "Failure Message"},
                              {"children": [{"name": "a note", "nodeType": "Failure Message"}, {"name": "and another", "nodeType": "Failure Message"}],
                               "duration": "1s", "name": "Retry 1", "nodeType": "Repetition", "result": "Failed"}\(inner)],
                 "name": "a()", \(a)"nodeType": "Test Case", "result": "Failed"},
                {"children": [{"name": "b()", "nodeType": "Test Case", "result": "Failed", "nodeIdentifier": "Named/b()"}],
                 "name": "Nested", "nodeType": "Test Suite"},
                {"children": [
                   {"durationInSeconds": 2, "name": "iPhone Duo", "nodeType": "Device", "result": "Passed"},
                   {"children": [{"name": "it broke", "nodeType": "Failure Message"}],
                    "name": "iPhone 17 Pro", "nodeType": "Device", "result": "Failed"}],
                 "name": "c()", "nodeIdentifier": "Outer/c()", "nodeType": "Test Case", "result": "Skipped"},
                {"duration": "0,5s", "name": "e()", "nodeIdentifier": "Outer/e()", "nodeType": "Test Case", "result": "Expected Failure",
                 "tags": ["slow"]}
              ], "name": "Outer", "nodeType": "Test Suite"},
              {"name": "d()", "nodeIdentifier": "d()", "nodeType": "Test Case", "result": "Passed"}
            ], "name": "Plan", "nodeType": "Test Plan"}],
            "testPlanConfigurations": [{"configurationId": "1"}]}
            """
    }

    @Test func itReadsWhatTheTwoPassesRead() throws {
        let text = Self.document()
        let path = try folder.write("one.json", text)
        let expected = XCResultStreamingTests.lines(try XCResultReader.read(Data(text.utf8), path: path).tests)
        #expect(expected.count == 6)
        #expect(expected[0].contains("a note\nand another"))
        for chunkSize in [1, 2, 5, 64, 4096] {
            let tests = try streaming.onePass(path, chunkSize: chunkSize).get()
            #expect(XCResultStreamingTests.lines(tests) == expected, "in chunks of \(chunkSize)")
        }
    }

    @Test func whereOnePassCannotBeSureItSaysWhy() throws {
        let unnamed = try folder.write("unnamed.json", Self.document(identified: false))
        #expect(try streaming.onePass(unnamed).twoPassesReason
            == "the test case at testNodes[0].children[0].children[0] has no nodeIdentifier")
        let inner = #", {"children": [{"name": "x()", "nodeIdentifier": "x()", "nodeType": "Test Case", "result": "Failed"}], "nodeType": "Test Suite"}"#
        let nested = try folder.write("nested.json", Self.document(inner: inner))
        #expect(try streaming.onePass(nested).twoPassesReason
            == "a test case inside a test case at testNodes[0].children[0].children[0]")
        // Many nodes before the first test case: held up to the limit, no further.
        let notes = (0..<50).map { #"{"name": "note \#($0)", "nodeType": "Failure Message"}, "# }.joined()
        let first = "{\"children\": [{\"name\": \"a note\""
        let text = Self.document().replacingOccurrences(of: first, with: notes + first)
        #expect(text != Self.document())
        let held = try folder.write("held.json", text)
        #expect(try streaming.onePass(held, maxHeld: 1_000).twoPassesReason
            == "more than 1000 bytes of nodes at testNodes[0].children[0] hold no test case")
        let expected = XCResultStreamingTests.lines(try XCResultReader.read(Data(text.utf8), path: held).tests)
        #expect(XCResultStreamingTests.lines(try streaming.onePass(held, maxHeld: 10_000).get()) == expected)
    }

    @Test(arguments: [
        // A type that is not a string, under a test case and in a container.
        (#""name": "a note", "nodeType": "Failure Message""#, #""name": "a note", "nodeType": 5"#),
        (#""name": "Nested", "nodeType": "Test Suite""#, #""name": ["Nested"], "nodeType": "Test Suite""#),
        // Children that are not an array; a key twice; a duration that is not one; a result missing.
        (#"{"children": [{"name": "b()""#, #"{"children": "b", "x": [{"name": "b()""#),
        (#""name": "c()", "nodeIdentifier""#, #""name": "c()", "name": "c()", "nodeIdentifier""#),
        (#""duration": "0,5s""#, #""duration": "half a second""#),
        (#""nodeType": "Test Case", "result": "Skipped""#, #""nodeType": "Test Case""#),
        (#""tags": ["slow"]"#, #""tags": "slow""#),
        // A device that is not one; a device with no name of its own, then text that is not JSON.
        (#"{"modelName": "iPhone 17 Pro"}"#, #"{"modelName": 17}"#),
        (#"{"modelName": "iPhone 17 Pro"}, {"modelName": "iPhone Duo"}"#, #"{"modelName": "iPhone 17 Pro"}, {"modelName": "iPhone Duo", "x": tru}"#),
        // Cut short; not JSON.
        (#""testPlanConfigurations": [{"configurationId": "1"}]}"#, #""testPlanConfigurations": [{"#),
        (#""name": "Plan""#, #""name": 'Plan'"#),
    ])
    func whatIsWrongStopsTheOnePassAndIngestSaysWhatTheTwoPassesSay(original: String, replacement: String) throws {
        let text = Self.document().replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.document())
        let path = try folder.write("bad.json", text)
        #expect(try streaming.onePass(path, chunkSize: 7).twoPassesReason != nil)
        var twoPasses = ""
        #expect {
            _ = try XCResultReader.read(Data(text.utf8), path: path)
        } throws: { error in
            twoPasses = "\(error)"
            return true
        }
        let fixture = try Self.store()
        let before = try fixture.store.database.scalar("SELECT count(*) FROM results").int
        #expect {
            _ = try fixture.store.ingest(file: path, options: Self.options)
        } throws: { error in
            "\(error)" == twoPasses
        }
        #expect(try fixture.store.database.scalar("SELECT count(*) FROM results").int == before)
    }

    @Test func textThatIsNotUTF8IsRefusedWithItsLineAsTheTwoPassesDo() throws {
        // The one pass leaves checking the text to the hashing before it.
        let text = Self.document()
        let at = try #require(text.utf8.firstIndex(of: UInt8(ascii: "b")))
        for bad: [UInt8] in [[0xFF], [0], [0xC3]] {
            var bytes = Array(text.utf8)
            bytes.replaceSubrange(at.utf16Offset(in: text)..<at.utf16Offset(in: text) + 1, with: bad)
            let path = try folder.write("bad.json", Data(bytes))
            var twoPasses = ""
            #expect {
                _ = try XCResultReader.read(Data(bytes), path: path)
            } throws: { error in
                twoPasses = "\(error)"
                return twoPasses.contains("bad.json:8: ")
            }
            let fixture = try Self.store()
            #expect {
                _ = try fixture.store.ingest(file: path, options: Self.options)
            } throws: { error in
                "\(error)" == twoPasses
            }
        }
    }

    @Test func elementsOfChildrenThatAreNotNodesArePassedOverAsTheTwoPassesDo() throws {
        // Elements of children that are not nodes, which every reading passes
        // over: the one pass reads the file itself (the decoder reads every
        // node's children for each consumer alike).
        let text = Self.document().replacingOccurrences(of: #""nodeType": "Test Suite"},"#, with: #""nodeType": "Test Suite"}, 17, null,"#)
        #expect(text != Self.document())
        let path = try folder.write("odd.json", text)
        let expected = XCResultStreamingTests.lines(try XCResultReader.read(Data(text.utf8), path: path).tests)
        #expect(XCResultStreamingTests.lines(try streaming.onePass(path).get()) == expected)
        let fixture = try Self.store()
        let summary = try fixture.store.ingest(file: path, options: Self.options)
        #expect(summary.read == expected.count)
    }

    @Test func aFileWithTwoThingsWrongIsRefusedForWhatTheTwoPassesFindFirst() throws {
        // No environment for its devices (no --simulator), found before a
        // row is written, and a file cut short, found by the two passes' first.
        let path = try folder.write("cut.json", String(Self.document().dropLast(30)))
        var errors: [String] = []
        for onePass in [true, false] {
            let fixture = try Self.store()
            do {
                _ = try fixture.store.ingest(file: path, options: IngestOptions(), onePass: onePass, progress: nil)
                Issue.record("a cut file was ingested")
            } catch {
                errors.append("\(error)")
            }
            #expect(try fixture.store.database.scalar("SELECT count(*) FROM results").int == 0)
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
        #expect(errors.first?.contains("simulator") == false)
    }

    @Test func ingestReadsInOnePassOrFallsBackToTwo() throws {
        let fixture = try Self.store()
        let options = IngestOptions(kind: .simulator, model: "Fallback Phone", os: "iOS 27.1")
        for (name, text) in [("one.json", Self.document()), ("two.json", Self.document(identified: false))] {
            let path = try folder.write(name, text)
            let summary = try fixture.store.ingest(file: path, options: options)
            // The expected failure is a failure.
            #expect((summary.read, summary.passed, summary.failed, summary.skipped) == (6, 2, 4, 0))
            #expect(try fixture.store.database.scalar("SELECT test_count FROM ingested_files WHERE file_name = ?", .text(name)).int == 6)
            #expect(try fixture.store.database.scalar(
                "SELECT count(*) FROM results JOIN runs ON runs.id = results.run_id JOIN ingested_files f ON f.id = runs.ingested_file_id WHERE f.file_name = ?",
                .text(name)).int == 6)
        }
        // Both files name their test cases alike, whichever way they were read.
        let identifiers = try fixture.store.database.query(
            "SELECT f.file_name AS file, group_concat(test_id, ' ') AS tests FROM (SELECT * FROM results ORDER BY id) r JOIN runs ON runs.id = r.run_id JOIN ingested_files f ON f.id = runs.ingested_file_id GROUP BY f.file_name ORDER BY f.file_name"
        ).map { try $0.text("tests") }
        #expect(identifiers == [
            "Outer/a() Named/b() Outer/c() Outer/c() Outer/e() d()",
            "Outer/a() Named/b() Outer/c() Outer/c() Outer/e() d()",
        ])
    }
}
