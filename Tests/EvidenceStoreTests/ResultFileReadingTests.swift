import Foundation
import Testing

@testable import EvidenceStore

/// Result files read once, on the one path per format: the same results
/// whatever the pieces the bytes come in and whatever the order of the keys;
/// every error said with its place, the same in any pieces.
@Suite struct ResultFileReadingTests {
    static let sizes: [[Int]] = [[1], [2], [3], [7], [64], [4096], [1, 5, 13, 200], []]

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

    @Test(arguments: [("xcresult-tests-1.json", 47, 74), ("xcresult-tests-3.json", 20, 41)])
    func xcresultTestsReadTheSameInAnyPiecesAndAnyKeyOrder(name: String, cases: Int, results: Int) throws {
        let data = try Data(contentsOf: Fixtures.apple(name))
        let (facts, read) = try ResultReading.read(data, path: name)
        #expect(facts.testCases == cases)
        #expect(read.count == results, "each device, repetition and retry is a result")
        let expected = ResultReading.outcome(data, path: name)
        let turned = Data(Self.reversed(try JSONReader.parse(data)).utf8)
        for sizes in Self.sizes {
            #expect(ResultReading.outcome(data, sizes: sizes, path: name) == expected, "\(sizes)")
            #expect(ResultReading.outcome(turned, sizes: sizes, path: name) == expected, "keys reversed, \(sizes)")
        }
    }

    /// A number out of range, cut anywhere, is named whole (a fuzzer found
    /// it named as far as the piece it ended in reached).
    @Test func aNumberOutOfRangeIsNamedWholeInAnyPieces() throws {
        let data = Data(#"{"devices": [], "testNodes": [{"duration": 777777e77777777777777}]}"#.utf8)
        let whole = ResultReading.outcome(data, path: "fuzz.json")
        #expect(whole.contains("777777e77777777777777"), "\(whole)")
        for size in 1...40 {
            #expect(ResultReading.outcome(data, sizes: [size], path: "fuzz.json") == whole, "pieces of \(size)")
        }
        #expect(ResultReading.outcome(data, sizes: [16, 21, 14, 13], path: "fuzz.json") == whole)
    }

    @Test(arguments: [
        "junit-fastlane-trainer-1.xml", "junit-fastlane-trainer-3.xml", "junit-xcbeautify-1.xml", "junit-xcbeautify-4.xml",
        "junit-xcresultparser-1.xml", "junit-swiftpm-1.xml", "xcresult-summary-1.json", "xcresult-legacy-1.json",
    ])
    func everyFixtureReadsTheSameInAnyPieces(name: String) throws {
        let data = try Data(contentsOf: Fixtures.apple(name))
        let expected = ResultReading.outcome(data, path: name)
        #expect(!expected.hasPrefix("error"), "\(expected)")
        for sizes in Self.sizes {
            #expect(ResultReading.outcome(data, sizes: sizes, path: name) == expected, "\(sizes)")
        }
    }

    /// fastlane trainer writes a suite's properties, its device among them,
    /// after its cases: they hold for every case of the suite, however it was cut.
    @Test func propertiesAfterTheCasesGiveThemTheirDevice() throws {
        let document = """
            <testsuites><properties><property name="claim" value="root.claim"/></properties>
            <testsuite name="A"><testcase classname="A" name="a1"/><testsuite name="Inner"><testcase classname="I" name="i1"/>
            <properties><property name="device" value="iPhone Duo (27.1)"/></properties></testsuite>
            <testcase classname="A" name="a2"><properties><property name="tag1" value="fold"/></properties></testcase>
            <properties><property name="device" value="iPhone 17 Pro (27.0)"/></properties></testsuite>
            <testcase classname="Loose" name="l"/></testsuites>
            """
        let (facts, results) = try ResultReading.read(Data(document.utf8))
        let models = results.map { test -> String in
            guard case .device(let index) = test.place else { return "?" }
            return facts.devices[index].model ?? "unnamed"
        }
        #expect(results.map(\.identifier) == ["A/a1", "I/i1", "A/a2", "Loose/l"])
        #expect(models == ["iPhone 17 Pro", "iPhone Duo", "iPhone 17 Pro", "unnamed"])
        #expect(results.allSatisfy { $0.properties.first.map { $0 == ("claim", "root.claim") } == true })
        #expect(results[2].tags == ["fold"])
        for sizes in Self.sizes {
            #expect(ResultReading.outcome(Data(document.utf8), sizes: sizes) == ResultReading.outcome(Data(document.utf8)))
        }
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
        let (facts, results) = try ResultReading.read(Data(document.utf8))
        #expect(results.map(\.identifier) == ["Outer/a()", "Named/b()", "Outer/c()", "Outer/c()", "d()"])
        #expect(results.map(\.outcome) == [.pass, .fail, .pass, .fail, .pass])
        #expect(results.map(\.place) == [.device(0), .device(0), .device(1), .device(0), .device(0)])
        #expect(results[2].duration == 2)
        #expect(results[3].message == "it broke")
        #expect(facts.testCases == 4, "a test case inside a test case is not one")
        for sizes in Self.sizes {
            #expect(ResultReading.outcome(Data(document.utf8), sizes: sizes) == ResultReading.outcome(Data(document.utf8)))
        }
    }

    /// A "Device" node names one of the file's devices exactly: by its
    /// identifier, else by the device's own name or its model, never by a
    /// prefix ("iPhone Duo" is not "iPhone Duo Max"); one that names none or
    /// two is refused, naming it.
    @Test func devicesAreNamedExactly() throws {
        func document(_ devices: String, _ node: String) -> Data {
            Data("""
                {"devices": [\(devices)],
                 "testNodes": [{"children": [\(node)], "name": "t()", "nodeIdentifier": "S/t()", "nodeType": "Test Case", "result": "Failed"}]}
                """.utf8)
        }
        func device(_ data: Data) throws -> String? {
            let (facts, results) = try ResultReading.read(data)
            guard case .device(let index) = try #require(results.first).place else { return nil }
            return facts.devices[index].name ?? facts.devices[index].model
        }
        let two = """
            {"deviceName": "iPhone Duo", "modelName": "iPhone Duo", "deviceId": "A1"},
            {"deviceName": "iPhone Duo Max", "modelName": "iPhone Duo Max", "deviceId": "B2"}
            """
        #expect(try device(document(two, #"{"name": "iPhone Duo Max", "nodeType": "Device", "result": "Passed"}"#)) == "iPhone Duo Max")
        #expect(try device(document(two, #"{"name": "iPhone Duo", "nodeType": "Device", "result": "Passed"}"#)) == "iPhone Duo")
        // Named by the device's own name.
        let own = #"{"deviceName": "Bob's iPhone", "modelName": "iPhone Duo"}, {"deviceName": "Ana's iPhone", "modelName": "iPhone 17"}"#
        #expect(try device(document(own, #"{"name": "Ana's iPhone", "nodeType": "Device", "result": "Passed"}"#)) == "Ana's iPhone")
        // Two of one model, told apart by the identifier.
        let twins = #"{"deviceName": "Duo 1", "modelName": "iPhone Duo", "deviceId": "A1"}, {"deviceName": "Duo 2", "modelName": "iPhone Duo", "deviceId": "B2"}"#
        #expect(
            try device(document(twins, #"{"name": "iPhone Duo", "nodeIdentifier": "B2", "nodeType": "Device", "result": "Passed"}"#))
                == "Duo 2")
        #expect {
            try device(document(twins, #"{"name": "iPhone Duo", "nodeType": "Device", "result": "Passed"}"#))
        } throws: { "\($0)".contains("the device 'iPhone Duo', which names 2 of the devices the file lists") }
        #expect {
            try device(document(two, #"{"name": "iPhone", "nodeType": "Device", "result": "Passed"}"#))
        } throws: { "\($0)".contains("the device 'iPhone', which is none of the devices the file lists (iPhone Duo, iPhone Duo Max)") }
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
            for sizes in Self.sizes {
                #expect(
                    ResultReading.outcome(Data(document.utf8), sizes: sizes, path: "twice.json")
                        .hasPrefix("error: twice.json:\(line): not valid JSON: the key \""), "\(document) in \(sizes)")
            }
        }
    }

    /// An error names its line, however the bytes were cut; a text problem
    /// (a NUL, invalid UTF-8) anywhere is said before anything else wrong.
    @Test func errorsAreTheSameInAnyPieces() throws {
        let cases: [(String, Data, String)] = [
            ("json", Data("{\n\"testNodes\": [\n{\"name\": 5}]}".utf8), "file:testNodes[0].name: expected a string, found a number"),
            ("bad json", Data("{\n\"testNodes\": [\n{\"name\" 5}]}".utf8), "file:3: not valid JSON"),
            ("cut json", Data("{\"testNodes\": [\n{\"children\": [".utf8), "unexpected end of input"),
            ("xml", Data("<testsuites>\n<testsuite>\n</testcase></testsuites>".utf8), "file:3"),
            ("open xml", Data("<testsuites>\n<testsuite name=\"a\">".utf8), "<testsuite> is never closed"),
            ("nul after an error", Data("<testsuites>\n</testsuite>\n\n\u{0}</testsuites>".utf8), "file:4: a NUL byte"),
            ("utf-16", Data([0xFF, 0xFE, 0x3C, 0x00]), "UTF-16"),
            ("invalid utf-8 late", Data("{\"testNodes\": [\n\"x\" 1,\n\"".utf8) + Data([0xC3, 0x28, 0x22, 0x5D, 0x7D]), "file:3: invalid UTF-8"),
        ]
        for (what, data, said) in cases {
            let whole = ResultReading.outcome(data)
            #expect(whole.hasPrefix("error: ") && whole.contains(said), "\(what): \(whole)")
            for sizes in Self.sizes {
                #expect(ResultReading.outcome(data, sizes: sizes) == whole, "\(what) in \(sizes)")
            }
        }
    }

    /// Maven Surefire's reruns, which other tools write too: each failed
    /// attempt is a failure of its own, so a test that failed and then passed
    /// is flaky and proves nothing in that run.
    @Test func rerunsAreFailedAttempts() throws {
        let document = """
            <testsuite name="s"><testcase classname="S" name="flaky"><flakyFailure message="first try">boom</flakyFailure>
            <flakyError message="second"/></testcase><testcase classname="S" name="rerun"><failure message="still"/>
            <rerunFailure message="again"/></testcase><testcase classname="S" name="plain"/></testsuite>
            """
        let (_, results) = try ResultReading.read(Data(document.utf8))
        #expect(results.map(\.identifier) == ["S/flaky", "S/flaky", "S/flaky", "S/rerun", "S/rerun", "S/plain"])
        #expect(results.map(\.outcome) == [.fail, .fail, .pass, .fail, .fail, .pass])
        #expect(results.map(\.message) == ["first try\nboom", "second", nil, "again", "still", nil])
        #expect(results[0].note == "attempt 1 of 3 (<flakyFailure>)")
        #expect(results[2].note == "attempt 3 of 3")
    }

    /// Every ISO 8601 form the producers write is read; anything else stops
    /// the reading with the file, the place and the value, never becoming now.
    @Test func timestampsAreReadOrRefused() throws {
        func started(_ stamp: String) throws -> String? {
            let document = "<testsuites><testsuite name=\"s\" timestamp=\"\(stamp)\"><testcase name=\"t\"/></testsuite></testsuites>"
            return try ResultReading.read(Data(document.utf8), zone: try #require(Zone.named("Europe/Berlin"))).facts.startedAt
        }
        #expect(try started("2026-11-30T10:00:00+01:00") == "2026-11-30T09:00:00Z")
        #expect(try started("2026-11-30T10:00:00+0100") == "2026-11-30T09:00:00Z")
        #expect(try started("2026-11-30T10:00:00.123-0230") == "2026-11-30T12:30:00Z")
        #expect(try started("2026-11-30T10:00Z") == "2026-11-30T10:00:00Z")
        #expect(try started("2026-11-30T10:00") == "2026-11-30T09:00:00Z")
        #expect(try started("2026-11-30") == "2026-11-30")
        for stamp in ["30/11/2026 10:00", "2026-11-30T23:59:60Z", "yesterday", "2026-13-01T00:00:00Z"] {
            #expect {
                try started(stamp)
            } throws: { "\($0)".contains("file:1:") && "\($0)".contains("the timestamp '\(stamp)' is not an ISO 8601") }
        }
    }
}
