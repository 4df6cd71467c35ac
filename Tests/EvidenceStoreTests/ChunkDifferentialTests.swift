import Foundation
import Testing

@testable import EvidenceStore

/// Differential reading: each fixture, and damaged copies of it, read whole
/// and read in small pieces of random sizes (so that every tag, UTF-8
/// sequence, string, number and marker is cut somewhere), through each path:
/// JUnit's two passes and one pass, xcresult's two passes and one pass. The
/// pieces must give the same test cases, or the same error, as the whole.
/// scripts/fuzz.sh runs the same comparison on inputs libFuzzer makes.
@Suite struct ChunkDifferentialTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// A fixed seed: a failure names the sizes that found it, and the run repeats.
    typealias Seeded = SplitMix64

    /// The file as it is, cut short at a few places, and with a byte changed.
    static func variants(of data: Data, random: inout Seeded) -> [(String, Data)] {
        var out: [(String, Data)] = [("whole", data)]
        for _ in 0..<3 {
            let cut = Int.random(in: 0..<max(data.count, 1), using: &random)
            out.append(("cut at \(cut)", data.prefix(cut)))
        }
        if !data.isEmpty {
            var changed = data
            let at = Int.random(in: 0..<data.count, using: &random)
            changed[changed.startIndex + at] = [UInt8(ascii: "<"), UInt8(ascii: "\""), 0xC3, UInt8(ascii: "}")]
                .randomElement(using: &random) ?? 0
            out.append(("byte \(at) changed", changed))
        }
        return out
    }

    static func sizes(_ random: inout Seeded) -> [Int] {
        (0..<16).map { _ in Int.random(in: 1...48, using: &random) }
    }


    static let junit = [
        "junit-fastlane-trainer-1.xml", "junit-fastlane-trainer-3.xml", "junit-swiftpm-1.xml", "junit-xcbeautify-1.xml",
        "junit-xcbeautify-4.xml", "junit-xcresultparser-1.xml",
    ]

    @Test(arguments: junit)
    func junitReadsTheSameInAnyPieces(name: String) throws {
        var random = Seeded(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        let original = try Data(contentsOf: Fixtures.apple(name))
        for (what, data) in Self.variants(of: original, random: &random) {
            for _ in 0..<4 {
                let sizes = Self.sizes(&random)
                // The one pass gives the same cases, or hands the file to the two passes.
                let read = ReadingPaths.junit(data, sizes: sizes, path: name, limit: JUnitOnePassTests.limit)
                #expect(read.disagreement == nil, "\(name), \(what), pieces \(sizes)")
            }
        }
    }

    /// Found by the differential fuzz target: libxml2 goes on after an error
    /// it can recover from (here an undefined namespace prefix) as far as the
    /// chunk it has, so the element named as open at the error depended on
    /// where the file was cut. Now the parser stops at the error, and "never
    /// closed" is said only of a document that ends too soon.
    @Test func anErrorMidwayReadsTheSameInAnyPieces() throws {
        let text = """
            <?xml version='1.0' encoding='UTF-8'?>
            <testsuites tests='2'>
              <testsuite name='A' tests='2' failur:s='1'>
                <testcase classname='A' name='one' time='0.1'/>
                <testcase classname='A' name='two' time='0.2'><failure message='m'/></testcase>
              </testsuite>
            </testsuites>
            """
        let data = Data(text.utf8)
        let whole = ReadingPaths.junitTwoPasses(data, path: "ns.xml")
        #expect(whole.hasPrefix("error: ") && !whole.contains("never closed"), "\(whole)")
        var random = Seeded(state: 5)
        for sizes in [[7, 14, 3, 32]] + (0..<20).map({ _ in Self.sizes(&random) }) {
            #expect(ReadingPaths.junitTwoPasses(data, sizes: sizes, path: "ns.xml") == whole, "pieces \(sizes)")
        }
    }

    /// Found by the differential fuzz target (the first in CI): a character
    /// XML does not allow in a tag, and a malformed attribute in a tag the
    /// file never finishes, on its last line. libxml2 keeps a chunk's
    /// unfinished last tag until more comes, so in some pieces the error came
    /// only when the input ended and was called "never closed", and whole it
    /// did not. "Never closed" is now said of an error that lies at the
    /// input's very end, wherever the file was cut.
    @Test(arguments: [
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites tests="1">
          <testsuite name="A" tests="1">
            <testcase classname="A" name="one\u{01}two" time="0.001"  "architec/>
              ture" : "arm64",
              "<
        """,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites tests="1">
          <testsuite name="A" tests="1">
            <testcase classname="A" name="one" time="0.97"/>
            <skipped messagests" name="two" time='Test &apos;Skipped test wit=
        """,
    ])
    func anErrorBeforeTheEndReadsTheSameInAnyPieces(text: String) throws {
        let data = Data(text.utf8)
        let whole = ReadingPaths.junitTwoPasses(data, path: "tag.xml")
        #expect(whole.hasPrefix("error: ") && !whole.contains("never closed"), "\(whole)")
        var random = Seeded(state: 7)
        for sizes in [[7, 14, 3, 32], [1, 1, 1, 1]] + (0..<20).map({ _ in Self.sizes(&random) }) {
            #expect(ReadingPaths.junitTwoPasses(data, sizes: sizes, path: "tag.xml") == whole, "pieces \(sizes)")
        }
    }

    /// A file cut short is said to be: the error lies at its very end, and
    /// the element open there is named, in any pieces.
    @Test func aFileCutShortNamesItsOpenElementInAnyPieces() throws {
        let good = try String(contentsOf: Fixtures.apple("junit-fastlane-trainer-1.xml"), encoding: .utf8)
        var random = Seeded(state: 11)
        for cut in [good.count / 2, good.count / 3, good.count - 20] {
            let data = Data(good.prefix(cut).utf8)
            let whole = ReadingPaths.junitTwoPasses(data, path: "cut.xml")
            #expect(whole.contains("is never closed"), "cut at \(cut): \(whole)")
            for sizes in (0..<10).map({ _ in Self.sizes(&random) }) {
                #expect(ReadingPaths.junitTwoPasses(data, sizes: sizes, path: "cut.xml") == whole, "cut at \(cut), pieces \(sizes)")
            }
        }
    }

    /// Found by the differential fuzz target: a file with an error of its
    /// reader's (a processing instruction, a node that is not an object) and,
    /// further on, a text problem named either, as the file was cut (the text
    /// of each chunk was checked before the reader read it). A text problem is
    /// now said first wherever it lies, as when the file is read whole.
    @Test func aTextProblemIsSaidBeforeAnyOtherErrorInAnyPieces() throws {
        let junit = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites tests="1">
              <testsuite name="A" tests="1">
                <testcase classname="A" name="one" time="0.1"><?pi not in JUnit?></testcase>
              </testsuite>
            </testsuites>
            <!-- \u{0}
            """.utf8)
        let whole = ReadingPaths.junitTwoPasses(junit, path: "text.xml")
        #expect(whole.contains("a NUL byte"), "\(whole)")
        var random = Seeded(state: 13)
        for sizes in [[7, 14, 3, 32], [1, 1, 1, 1]] + (0..<20).map({ _ in Self.sizes(&random) }) {
            let read = ReadingPaths.junit(junit, sizes: sizes, path: "text.xml", limit: FutureLimit(latest: "9999-12-31T23:59:59Z"))
            #expect(read.pieces == whole, "pieces \(sizes)")
        }
        let json = Data(#"{"devices": [], "testNodes": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], "x": "\#u{0}"}"#.utf8)
        let path = folder.path("text.json")
        try json.write(to: URL(fileURLWithPath: path))
        for size in [1, 2, 5, 16, 64] {
            let read = ReadingPaths.xcresult(json, path: path, chunkSize: size)
            #expect(read.whole.contains("a NUL byte"), "\(read.whole)")
            #expect(read.pieces == read.whole, "chunks of \(size)")
        }
        // Two text problems: the first is said, not the one after it (the
        // differential fuzz target found the second said in chunks of 7).
        let twice = Data("{\"devices\": [],\n \"testNodes\": [\n  \"\u{0}\"\n, \"\u{0}\"]}".utf8)
        try twice.write(to: URL(fileURLWithPath: path))
        for size in [1, 2, 5, 7, 16, 64] {
            let read = ReadingPaths.xcresult(twice, path: path, chunkSize: size)
            #expect(read.whole.hasSuffix(":3: a NUL byte; the file is not JSON text"), "\(read.whole)")
            #expect(read.pieces == read.whole, "chunks of \(size)")
        }
        // Invalid UTF-8, then a NUL: the first in the file's order is said, read whole or in chunks.
        var mixed = Array("{\"devices\": [],\n \"testNodes\": [\n  \"x\"\n, \"\u{0}\"]}".utf8)
        mixed[mixed.firstIndex(of: UInt8(ascii: "x"))!] = 0xFF
        try Data(mixed).write(to: URL(fileURLWithPath: path))
        for size in [1, 2, 5, 7, 16, 64] {
            let read = ReadingPaths.xcresult(Data(mixed), path: path, chunkSize: size)
            #expect(read.whole.hasSuffix(":3: invalid UTF-8"), "\(read.whole)")
            #expect(read.pieces == read.whole, "chunks of \(size)")
        }
    }

    /// Found by the differential fuzz target: a UTF-16 file cut after the
    /// first byte of its byte order mark was said to be invalid UTF-8. It is
    /// said to be UTF-16 however it is cut; 0xFE or 0xFF alone is invalid UTF-8.
    @Test func aByteOrderMarkIsSaidAsSuchInAnyPieces() throws {
        for (bytes, said) in [([0xFF, 0xFE, 0x3C, 0x00], "is UTF-16"), ([0xFE, 0xFF, 0x00, 0x3C], "is UTF-16"), ([0xFE, 0x3C], "invalid UTF-8"), ([0xFF], "invalid UTF-8")] as [([UInt8], String)] {
            let data = Data(bytes)
            for sizes in [[1, 1, 1, 1], [1, 3], [2], [64]] {
                let read = ReadingPaths.junit(data, sizes: sizes, path: "bom.xml", limit: FutureLimit(latest: "9999-12-31T23:59:59Z"))
                #expect(read.whole.contains(said) && read.whole.contains(":1:"), "\(bytes): \(read.whole)")
                #expect(read.pieces == read.whole, "\(bytes) in pieces \(sizes)")
            }
            let path = folder.path("bom.json")
            try data.write(to: URL(fileURLWithPath: path))
            for size in [1, 2, 64] {
                let read = ReadingPaths.xcresult(data, path: path, chunkSize: size)
                #expect(read.whole.contains(said), "\(bytes): \(read.whole)")
                #expect(read.pieces == read.whole, "\(bytes) in chunks of \(size)")
            }
        }
    }

    static let xcresult = ["xcresult-tests-1.json", "xcresult-tests-3.json"]

    @Test(arguments: xcresult)
    func xcresultReadsTheSameInAnyPieces(name: String) throws {
        var random = Seeded(state: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        let original = try Data(contentsOf: Fixtures.apple(name))
        for (index, (what, data)) in Self.variants(of: original, random: &random).enumerated() {
            let path = folder.path("variant-\(index).json")
            try data.write(to: URL(fileURLWithPath: path))
            for _ in 0..<4 {
                let size = Int.random(in: 1...48, using: &random)
                // The one pass, in chunks of that size: the same cases, or the two passes' turn.
                let read = ReadingPaths.xcresult(data, path: path, chunkSize: size)
                #expect(read.disagreement == nil, "\(name), \(what), chunks of \(size)")
            }
        }
    }
}
