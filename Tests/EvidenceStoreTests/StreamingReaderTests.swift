import Foundation
import Testing

@testable import EvidenceStore

/// The tests of `xcresulttool` read as a stream: the same results whatever the
/// key order or the chunk size, and a file that changes between the two passes
/// refused.
@Suite struct XCResultStreamingTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Each result as one comparable line.
    static func lines(_ tests: [TestReport.TestCase]) -> [String] {
        tests.map {
            "\($0.identifier)|\($0.name)|\($0.outcome)|\($0.duration.map { String($0) } ?? "-")|\($0.message ?? "-")|\($0.tags)|\($0.device)|\($0.note)"
        }
    }

    /// Reads a file through the streaming passes, `chunkSize` bytes at a time.
    func streamed(_ path: String, chunkSize: Int) throws -> (XCResultTests.Outline, [TestReport.TestCase]) {
        let stream = try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize)
        let outline = try #require(try XCResultTests.outline(stream, file: path))
        var tests: [TestReport.TestCase] = []
        try XCResultTests.forEachTest(
            JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize), outline: outline, file: path
        ) { tests.append($0) }
        return (outline, tests)
    }

    /// Reads a file in one pass, `chunkSize` bytes at a time: its results, or why it needs two passes.
    func onePass(_ path: String, chunkSize: Int = 4096, maxHeld: Int = XCResultOnePass.maxHeld) throws
        -> Result<[TestReport.TestCase], IngestSource.NeedsTwoPasses>
    {
        var tests: [TestReport.TestCase] = []
        do {
            let devices = try #require(try XCResultOnePass.devices(path: path, maxBytes: .max))
            try XCResultOnePass.forEachTest(
                JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize), devices: devices, file: path,
                maxHeld: maxHeld
            ) { tests.append($0) }
        } catch let needs as IngestSource.NeedsTwoPasses {
            return .failure(needs)
        }
        return .success(tests)
    }

    /// JSON text of a value with the keys of every object in reverse order:
    /// a node's name and type before its children, the devices after the nodes.
    static func reversed(_ value: JSONValue) -> String {
        switch value {
        case .object(let fields):
            return "{" + fields.reversed().map { "\(reversed(.string($0.0))):\(reversed($0.1))" }.joined(separator: ",") + "}"
        case .array(let items):
            return "[" + items.map(reversed).joined(separator: ",\n") + "]"
        case .string(let text):
            let data = try? JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
            return String(decoding: (data ?? Data()).dropFirst().dropLast(), as: UTF8.self)
        case .integer(let number): return String(number)
        case .number(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .null: return "null"
        }
    }

    @Test(arguments: ["xcresult-tests-1.json", "xcresult-tests-3.json"])
    func anyKeyOrderAndAnyChunkSizeReadTheSame(name: String) throws {
        let data = try Data(contentsOf: Fixtures.apple(name))
        let whole = try XCResultReader.read(data, path: name)
        #expect(!whole.tests.isEmpty)
        let expected = Self.lines(whole.tests)
        let turned = folder.path("reversed-" + name)
        try folder.write("reversed-" + name, Self.reversed(try JSONReader.parse(data)))
        for path in [Fixtures.apple(name).path, turned] {
            for chunkSize in [1, 2, 3, 7, 64, 4096] {
                let (outline, tests) = try streamed(path, chunkSize: chunkSize)
                #expect(Self.lines(tests) == expected, "\(path) in chunks of \(chunkSize)")
                #expect(outline.testCount == tests.count)
                #expect(outline.report.devices == whole.devices)
            }
        }
        // In one pass: the file as xcresulttool writes it reads the same; with
        // the devices after the nodes, it cannot be read so.
        for chunkSize in [1, 3, 64, 4096] {
            let tests = try onePass(Fixtures.apple(name).path, chunkSize: chunkSize).get()
            #expect(Self.lines(tests) == expected, "one pass in chunks of \(chunkSize)")
        }
        #expect(try onePass(turned).twoPassesReason == "\"devices\" comes after \"testNodes\"")
    }

    @Test func suitesNameTheirCasesAndCasesWithinCasesAreNotResults() throws {
        // Children before name and type, as xcresulttool writes them.
        let document = """
            {"testNodes": [{"children": [
              {"children": [
                {"name": "a()", "nodeType": "Test Case", "result": "Passed",
                 "children": [{"children": [{"name": "ignored()", "nodeType": "Test Case", "result": "Failed"}],
                               "name": "Inner", "nodeType": "Test Suite"}]},
                {"children": [{"name": "b()", "nodeType": "Test Case", "result": "Failed", "nodeIdentifier": "Named/b()"}],
                 "name": "Nested", "nodeType": "Test Suite"},
                {"name": "c()", "nodeType": "Test Case", "result": "Skipped",
                 "children": [
                   {"name": "iPhone Duo", "nodeType": "Device", "result": "Passed", "durationInSeconds": 2},
                   {"name": "iPhone 17 Pro", "nodeType": "Device", "result": "Failed",
                    "children": [{"name": "it broke", "nodeType": "Failure Message"}]}]},
                17, null
              ], "name": "Outer", "nodeType": "Test Suite"},
              {"name": "d()", "nodeType": "Test Case", "result": "Passed"}
            ], "name": "Plan", "nodeType": "Test Plan"}],
            "devices": [{"modelName": "iPhone 17 Pro"}, {"modelName": "iPhone Duo"}]}
            """
        let path = try folder.write("nested.json", document)
        let (outline, tests) = try streamed(path, chunkSize: 5)
        #expect(tests.map(\.identifier) == ["Outer/a()", "Named/b()", "Outer/c()", "Outer/c()", "d()"])
        #expect(tests.map(\.outcome) == [.pass, .fail, .pass, .fail, .pass])
        #expect(tests.map(\.device) == [0, 0, 1, 0, 0])
        #expect(tests[2].duration == 2)
        #expect(tests[3].message == "it broke")
        #expect(outline.testCount == 5)
        #expect(Self.lines(try XCResultReader.read(Data(document.utf8), path: path).tests) == Self.lines(tests))
    }

    @Test func aKeyTwiceIsRefused() throws {
        for (document, line) in [
            ("{\"testNodes\": [],\n\"testNodes\": []}", "2"),
            ("{\"testNodes\": [{\"name\": \"a\",\n\n \"name\": \"b\"}]}", "3"),
            // Escaped or not, a key is the same key: known keys and others alike.
            ("{\"testNodes\": [{\"name\": \"a\",\n \"n\\u0061me\": \"b\"}]}", "2"),
            ("{\"testNodes\": [{\"children\": [{\"x-key\": 1,\n\"x-k\\u0065y\": 2}]}]}", "2"),
            ("{\"t\\u0065stNodes\": [],\n\n\n\"testNodes\": []}", "4"),
        ] {
            #expect {
                _ = try XCResultReader.read(Data(document.utf8), path: "twice.json")
            } throws: { error in
                (error as? EvidenceError).map { "\($0)" }?.contains("twice.json:\(line): not valid JSON: the key \"") == true
            }
        }
    }

    @Test func aFileThatChangesBetweenThePassesIsRefused() throws {
        let original = try String(contentsOf: Fixtures.apple("xcresult-tests-3.json"), encoding: .utf8)
        let path = try folder.write("changing.json", original)
        // The same shape, another outcome: only the digest tells, in two passes
        // and in one (read once as it was opened, then again).
        let source = try IngestSource.open(path, maxBytes: 1 << 30, format: nil)
        let onePass = try IngestSource.open(path, maxBytes: 1 << 30, format: nil, onePass: true)
        #expect(onePass.testCount == nil)
        var count = 0
        try onePass.forEachTest { _ in count += 1 }
        #expect(count == 41, "each repetition and retry is a result")
        try folder.write("changing.json", original.replacingOccurrences(of: "\"Passed\"", with: "\"Failed\""))
        for source in [source, onePass] {
            #expect {
                try source.forEachTest { _ in }
            } throws: { error in
                "\(error)".contains("changed while it was being read")
            }
        }
        // JUnit's second pass too: a time changed, digit for digit.
        let junit = try String(contentsOf: Fixtures.apple("junit-xcbeautify-1.xml"), encoding: .utf8)
        let junitPath = try folder.write("changing.xml", junit)
        let junitSource = try IngestSource.open(junitPath, maxBytes: 1 << 30, format: nil)
        try folder.write("changing.xml", junit.replacingOccurrences(of: "time=\"0.054\"", with: "time=\"0.055\""))
        #expect {
            try junitSource.forEachTest { _ in }
        } throws: { error in
            "\(error)".contains("changed while it was being read")
        }
        // Another shape: the second pass finds nodes the first did not.
        let stream = try JSONStream(path: path, limit: .max, hasher: nil)
        let outline = try #require(try XCResultTests.outline(stream, file: path))
        let other = try folder.write("other.json", "{\"testNodes\": [{\"nodeType\": \"Test Plan\", \"children\": [{}, {}]}]}")
        #expect {
            try XCResultTests.forEachTest(JSONStream(path: other, limit: .max, hasher: nil), outline: outline, file: other) { _ in }
        } throws: { error in
            "\(error)".contains("changed while it was being read")
        }
    }

    @Test func aLargeFileIsStreamedInFileOrder() throws {
        var text = "{\"devices\": [{\"modelName\": \"iPhone Duo\", \"osVersion\": \"27.1\"}], \"testNodes\": [{\"children\": ["
        let suites = 20, cases = 2_500
        for suite in 0..<suites {
            text += suite == 0 ? "" : ","
            text += "{\"children\": ["
            for test in 0..<cases {
                text += test == 0 ? "" : ","
                text += "{\"durationInSeconds\": 0.5, \"name\": \"test\(test)()\", \"nodeType\": \"Test Case\", \"result\": \"\(test % 7 == 0 ? "Failed" : "Passed")\"}"
            }
            text += "], \"name\": \"Suite\(suite)\", \"nodeType\": \"Test Suite\"}"
        }
        text += "], \"name\": \"Plan\", \"nodeType\": \"Test Plan\"}]}"
        let path = try folder.write("large.json", text)
        // Named after their suites, whose names come after them: read in two passes.
        #expect(try onePass(path).twoPassesReason == "the test case at testNodes[0].children[0].children[0] has no nodeIdentifier")
        let source = try IngestSource.open(path, maxBytes: 1 << 30, format: nil)
        #expect(source.testCount == suites * cases)
        #expect(source.report.devices.first?.model == "iPhone Duo")
        var count = 0
        var failed = 0
        try source.forEachTest { test in
            #expect(test.identifier == "Suite\(count / cases)/test\(count % cases)()")
            if test.outcome == .fail { failed += 1 }
            count += 1
        }
        #expect(count == suites * cases)
        #expect(failed == suites * ((cases + 6) / 7))
        #expect(source.digest == SHA256.hex(Data(text.utf8)))
    }
}

extension XCResultStreamingTests {
    /// Literals, numbers, escapes and characters of several bytes, cut by
    /// chunks of every small size: the same values as the whole read.
    @Test func newlinesAreCountedExactlyWhateverTheirPlace() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in [0x0A, 0x0B, 0x8A, 0x20, 0x00, 0xFF][Int.random(in: 0..<6, using: &generator)] as UInt8 }
            for end in Set([0, length / 3, length]) {
                #expect(JSONStream.newlines(in: bytes, before: end) == bytes[..<end].filter { $0 == 0x0A }.count, "\(bytes) to \(end)")
            }
        }
    }

    @Test func anErrorNamesItsLineWhateverTheChunkSize() throws {
        // Pretty-printed, as xcresulttool writes it, with a bad value on line 203.
        var text = "{\n  \"testNodes\" : [\n"
        for index in 0..<100 { text += "    { \"name\" : \"test\(index)\",\n      \"nodeType\" : \"Test Case\", \"result\" : \"Passed\" },\n" }
        text += "    { \"name\" : tru }\n  ]\n}\n"
        let path = try folder.write("bad.json", text)
        for chunkSize in [1, 5, 8, 64, 4096] {
            #expect(throws: EvidenceError.badFile(path: path, location: "203", reason: "not valid JSON: unexpected character ' '")) {
                _ = try XCResultTests.outline(try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize), file: path)
            }
        }
        // Not counting lines (the one pass, whose errors go to the two passes),
        // it names the byte, from 0, where the bad literal starts.
        let byte = text.utf8.count - "tru }\n  ]\n}\n".utf8.count
        for chunkSize in [1, 5, 8, 64, 4096] {
            #expect(throws: EvidenceError.badFile(path: path, location: "byte \(byte)", reason: "not valid JSON: unexpected character ' '")) {
                _ = try XCResultTests.outline(
                    try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize, countingLines: false), file: path)
            }
        }
    }

    @Test func valuesCutByChunksReadTheSame() throws {
        let document = """
            {"flag": true, "none": null, "no": false, "big": -1.5e3, "count": 12345678901,
             "testNodes": [{"children": [{"name": "caf\\u00e9 \\ud83d\\ude00 ☂️ \\"q\\" \\\\ \\/", "nodeType": "Test Case",
               "result": "Failed", "durationInSeconds": 0.25, "tags": ["a\\tb", "ü"],
               "children": [{"name": "line\\nbreak €", "nodeType": "Failure Message"}]}],
               "name": "Sü", "nodeType": "Test Suite", "extra": [true, false, null, {"x": [1, 2.5e-3]}]}]}
            """
        let path = try folder.write("values.json", document)
        let whole = Self.lines(try XCResultReader.read(Data(document.utf8), path: path).tests)
        #expect(whole == ["Sü/café 😀 ☂️ \"q\" \\ /|café 😀 ☂️ \"q\" \\ /|fail|0.25|line\nbreak €|[\"a\\tb\", \"ü\"]|0|"])
        for chunkSize in 1...20 {
            #expect(Self.lines(try streamed(path, chunkSize: chunkSize).1) == whole, "chunks of \(chunkSize)")
        }
        // A bad value is refused the same way, wherever the chunks cut it.
        let bad = try folder.write("bad.json", "{\"testNodes\": [{\"name\": \"a\", \"nodeType\": \"Test Case\", \"result\": tru}]}")
        for chunkSize in [1, 3, 5, 64] {
            #expect {
                _ = try streamed(bad, chunkSize: chunkSize)
            } throws: { error in
                "\(error)".contains("bad.json:1: not valid JSON: unexpected character '}'")
            }
        }
    }
}

/// The plain reading of a test case node, straight from its bytes, against
/// the general one through `JSONValue`: it may decline any node, but a node
/// it reads it reads as the general reading does, and never one that the
/// general reading refuses.
@Suite struct PlainNodeTests {
    /// Test case nodes: the usual shapes, every kind of value under each key
    /// read, keys twice, escapes, children, and malformed text.
    static let nodes: [String] = {
        var nodes = [
            #"{"duration" : "0,014s", "durationInSeconds" : 0.0141234, "name" : "testA()", "nodeIdentifier" : "S/testA()", "nodeIdentifierURL" : "test://x", "nodeType" : "Test Case", "result" : "Passed"}"#,
            #"{"name":"testB()","nodeType":"Test Case","result":"Failed","durationInSeconds":2}"#,
            #"{"result": "Skipped", "name": "c()"}"#,
            #"{"result": "Expected Failure", "name": null, "nodeIdentifier": null}"#,
            #"{"result": "Mixed", "duration": "1m 2,5s"}"#,
            #"{"result": "Passed", "duration": 0.25}"#,
            #"{"result": "Passed", "duration": "soon"}"#,
            #"{"result": "Passed", "duration": null, "durationInSeconds": null}"#,
            #"{"result": "Passed", "durationInSeconds": "0.5"}"#,
            #"{"result": "Passed", "durationInSeconds": -0.5}"#,
            #"{"result": "Passed", "durationInSeconds": 1e-3}"#,
            #"{"result": "Passed", "durationInSeconds": 1234567890123456789}"#,
            #"{"result": "Passed", "durationInSeconds": 0.5, "duration": true}"#,
            #"{"result": null}"#,
            #"{"name": "no result()"}"#,
            #"{"result": 1}"#,
            #"{"result": "Passed", "name": 7}"#,
            #"{"result": "Passed", "nodeIdentifier": false}"#,
            #"{"result": "Passed", "name": "a()", "name": "b()"}"#,
            #"{"result": "Passed", "extra": 1, "extra": 2}"#,
            #"{"result": "Passed", "extra": 1, "other": "x", "more": [1]}"#,
            #"{"result": "Passed", "name": "caf\u00e9()"}"#,
            #"{"result": "Passed", "n\u0061me": "escaped key()"}"#,
            #"{"result": "Passed", "name": "ünïcödé ☂️()"}"#,
            #"{"result": "Passed", "tags": ["fast"]}"#,
            #"{"result": "Passed", "tags": null, "children": null}"#,
            #"{"result": "Passed", "children": []}"#,
            #"{"result": "Passed", "children": "none"}"#,
            #"{"result": "Failed", "children": [{"nodeType": "Failure Message", "name": "boom"}]}"#,
            #"{"result": "Passed", "details": "x", "nodeType": "Test Case"}"#,
            #"{}"#,
            #"{"result": "Passed",}"#,
            #"{"result": "Passed" "name": "x"}"#,
            #"{"result": "Passed", "name": tru}"#,
            #"{"result": "Passed", "durationInSeconds": 01}"#,
            #"{"result": "Passed", "durationInSeconds": 1.}"#,
            #"{"result": "Passed"} "#,
            #"{"result": "Passed", ]"#,
            "{\"result\": \"Passed\", \"name\": \"tab\there\"}",
        ]
        // Every value under every key the plain reading looks at.
        let values = [#""text""#, #""0,5s""#, "0.5", "3", "-1", "null", "true", "[]", "{}"]
        for key in XCResultTests.NodeKey.allCases {
            for value in values {
                nodes.append(#"{"result": "Passed", "\#(key)": \#(value)}"#)
                nodes.append(#"{"\#(key)": \#(value), "result": "Failed", "name": "n()"}"#)
            }
        }
        return nodes
    }()

    /// The general reading: the node parsed whole and read through `JSONCursor`.
    static func general(_ text: String, suite: [String]) -> Result<[String], Error> {
        Result {
            let value = try JSONReader.parse(Data(text.utf8))
            let cursor = JSONCursor(value: value, path: "testNodes[0]", file: "plain.json")
            return XCResultStreamingTests.lines(try XCResultReader.testCases(cursor, suite: suite, devices: [TestReport.Device()]))
        }
    }

    @Test func itHoldsAValueForEveryKeyItKnows() {
        #expect(XCResultTests.NodeKey.allCases.count == PlainNode.capacity)
        #expect(Array("{\"result\": \"Passed\", \"details\": 1}".utf8).withUnsafeBytes { PlainNode.read($0) { $0.testCase(suite: nil) } } != nil)
    }

    @Test func whatItReadsTheGeneralReadingReadsTheSame() throws {
        var plainlyRead = 0
        for text in Self.nodes {
            for suite in [[], ["Outer", "Inner"]] {
                let plain = Array(text.utf8).withUnsafeBytes { PlainNode.read($0) { $0.testCase(suite: suite.last) }?.value }
                guard let plain else { continue }
                plainlyRead += 1
                switch Self.general(text, suite: suite) {
                case .success(let lines): #expect(XCResultStreamingTests.lines([plain]) == lines, "\(text)")
                case .failure(let error): Issue.record("read plainly, refused generally (\(error)): \(text)")
                }
            }
        }
        // The test would pass by declining everything: it must not.
        #expect(plainlyRead >= 40)
    }

    /// A stream hands the plain reading the bytes from a node's '{' to the
    /// end of what it holds: the node reads the same with more bytes after
    /// it, says where it ends, and reads as nothing when its bytes are cut
    /// short anywhere, so a node is never read before its '}' is in hand.
    @Test func itReadsANodeAmongMoreBytesAndNoneCutShort() {
        var plainlyRead = 0
        for text in Self.nodes {
            let bytes = Array(text.utf8)
            guard let whole = bytes.withUnsafeBytes({ PlainNode.read($0) { $0.testCase(suite: nil) }?.value }) else { continue }
            plainlyRead += 1
            let followed = Array((text + ",\n{\"name\": \"next\"}]}").utf8)
            let read = followed.withUnsafeBytes { PlainNode.read($0) { $0.testCase(suite: nil) } }
            #expect(read.map { XCResultStreamingTests.lines([$0.value]) } == XCResultStreamingTests.lines([whole]), "\(text)")
            // Its '}' is its last byte but white space.
            let object = bytes.count - bytes.reversed().prefix { $0 == 0x20 || $0 == 0x0A }.count
            #expect(read?.length == object, "\(text)")
            for end in 0..<object {
                #expect(bytes[..<end].withUnsafeBytes { PlainNode.read($0) { _ in true } } == nil, "\(text) cut at \(end)")
            }
        }
        #expect(plainlyRead >= 20)
    }

    @Test func aStreamReadsEachNodeAsTheGeneralReadingDoes() throws {
        let folder = try TemporaryFolder()
        for text in Self.nodes {
            let document = #"{"testNodes": [{"children": [\#n\#(text)\#n], "name": "Suite", "nodeType": "Test Suite"}]}"#
            let expected = Self.general(text, suite: ["Suite"])
            let path = try folder.write("node.json", document)
            for chunkSize in [1, 3, 64, 4096] {
                let streamed = Result { () throws -> [String] in
                    let outline = try XCResultTests.outline(try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize), file: path)
                    var tests: [TestReport.TestCase] = []
                    if let outline {
                        try XCResultTests.forEachTest(
                            JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize), outline: outline, file: path
                        ) { tests.append($0) }
                    }
                    return XCResultStreamingTests.lines(tests)
                }
                switch (expected, streamed) {
                case (.success(let lines), .success(let read)):
                    // A node that is not a test case in the outline is no result.
                    #expect(read == lines || read.isEmpty, "\(text) in chunks of \(chunkSize)")
                case (.failure, .failure):
                    break
                case (.success(let lines), .failure(let error)):
                    // The document may be refused where the node alone is not: a key twice, malformed text.
                    #expect(!"\(error)".contains("changed"), "\(text): \(lines) against \(error)")
                case (.failure(let error), .success(let read)):
                    #expect(read.isEmpty, "refused generally (\(error)), streamed as \(read): \(text)")
                }
            }
        }
    }
}

extension Result where Failure == IngestSource.NeedsTwoPasses {
    /// Why the one pass stopped; nil when it read the file.
    var twoPassesReason: String? {
        if case .failure(let needs) = self { return needs.reason }
        return nil
    }
}
