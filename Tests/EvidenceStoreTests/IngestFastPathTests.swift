import Foundation
import Testing

@testable import EvidenceStore

/// What ingest does for every test case, done without Foundation's general
/// routines, must give exactly what those routines give.
@Suite struct IngestFastPathTests {
    /// A test duration as the general path reads it: a unit, then the number
    /// (a decimal comma read as a point) by Swift's own parser.
    static func reference(_ text: String) -> Double? {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        } else if number.hasSuffix("m") {
            number = number.dropLast()
            scale = 60
        }
        guard !number.isEmpty, let value = Double(number.replacingOccurrences(of: ",", with: ".")), value.isFinite,
            value >= 0
        else { return nil }
        return value * scale
    }

    @Test func durationsReadBitForBitAsTheGeneralParserReadsThem() {
        var generator = StateInvariantTests.Generator(state: 20_261_130)
        var texts = [
            "0", "0.000", "0.014", "0,014", ".5", "5.", "1.", ".", "12.5ms", "3m", "0.1s", "99999999999999.9",
            "123456789012345", "1234567890123456", "0.1234567890123456", "9007199254740993", "1e3", "-1", "1.2.3",
            "1,2,3", "", "ms", "0x10", "00000000000000000001.5",
        ]
        for _ in 0..<20_000 {
            let whole = String(generator.next() % 1_000_000_000)
            let digits = Int(generator.next() % 12)
            var fraction = ""
            for _ in 0..<digits { fraction.append(Character(String(generator.next() % 10))) }
            let point = generator.next() % 3 == 0 ? "," : "."
            let unit = ["", "s", "ms", "m"][Int(generator.next() % 4)]
            texts.append(digits == 0 ? whole + unit : whole + point + fraction + unit)
        }
        for text in texts {
            let fast = Duration.seconds(text)
            let general = Self.reference(text)
            #expect(fast?.bitPattern == general?.bitPattern, "\(text): \(String(describing: fast)) against \(String(describing: general))")
        }
    }

    @Test func momentsAreWrittenAsTimestampsWriteThem() {
        // Starts two microseconds before a second ends, so the sequence crosses it.
        let start = Date(timeIntervalSince1970: 1_796_000_000.999_997_5)
        var moments = Timestamp.MicrosecondSequence(from: start)
        let expected = [
            "\(Timestamp.format(secondsSinceEpoch: 1_796_000_000).dropLast()).999998Z",
            "\(Timestamp.format(secondsSinceEpoch: 1_796_000_000).dropLast()).999999Z",
            "\(Timestamp.format(secondsSinceEpoch: 1_796_000_001).dropLast()).000000Z",
            "\(Timestamp.format(secondsSinceEpoch: 1_796_000_001).dropLast()).000001Z",
        ]
        #expect((0..<4).map { _ in moments.next() } == expected)
        #expect(expected[2] == "2026-11-30T00:53:21.000000Z")
    }

    /// An ingested result's UUID: a version 8 UUID whose every part depends
    /// on its place, so the results of one file differ from their first
    /// characters (an 8-character prefix names one), and the same in every clone.
    @Test func ingestedResultUUIDsDifferFromTheirFirstCharacters() {
        let runPart = ResultIdentity.ingestedRunPart("1d1fb0de-0000-8000-8000-000000000001")
        #expect(runPart.count == 16)
        var seen: Set<String> = []
        var prefixes: Set<String> = []
        for test in 0..<20_000 {
            for slot in 0..<3 {
                let uuid = ResultIdentity.ingestedResultUUID(runPart: runPart, test: test, claimSlot: slot)
                #expect(uuid.count == 36 && uuid[uuid.index(uuid.startIndex, offsetBy: 14)] == "8")
                #expect("89ab".contains(uuid[uuid.index(uuid.startIndex, offsetBy: 19)]))
                seen.insert(uuid)
                prefixes.insert(String(uuid.prefix(8)))
            }
        }
        #expect(seen.count == 60_000)
        // Every result, each claim of a test too, has a prefix of its own.
        #expect(prefixes.count == 60_000)
        #expect(ResultIdentity.ingestedResultUUID(runPart: runPart, test: 7, claimSlot: 1)
            == ResultIdentity.ingestedResultUUID(runUUID: "1d1fb0de-0000-8000-8000-000000000001", test: 7, claimSlot: 1))
    }

    /// The names stores already hold: the first and last result of a run of
    /// 100,000 that an earlier binary ingested (the benchmark's JUnit file).
    /// A file ingested again, or merged from a clone, must name them the same.
    @Test func ingestedResultUUIDsAreTheOnesStoresHold() {
        let run = "7444a56f-4a43-8989-9189-8b1283bc6555"
        #expect(ResultIdentity.ingestedResultUUID(runUUID: run, test: 0, claimSlot: 0) == "dacaf48b-9873-8e21-890f-77cdde3941d8")
        #expect(ResultIdentity.ingestedResultUUID(runUUID: run, test: 99_999, claimSlot: 0) == "dad72983-d6c2-81d9-8dd3-1aaf7f018b29")
        // A name-based UUID, as Python's hashlib makes it from the same words.
        #expect(ResultIdentity.legacyUUID(runUUID: run, n: 1) == "eab60f36-4a47-865d-aa7b-4758d0bbbfab")
    }

    @Test func claimKeysAreFoundWhereverTheyStand() {
        let cases: [(String, [String])] = [
            ("claim:island.clock-offset.closed", ["island.clock-offset.closed"]),
            ("Clock moves down claim:a.b and claim:c_d", ["a.b", "c_d"]),
            ("cclaim:x", ["x"]),
            ("claim:", []),
            ("claim", []),
            ("clai", []),
            ("c", []),
            ("", []),
            ("claim:claim:k", ["claim", "k"]),
            ("ends with claim:k", ["k"]),
            ("ccc claim:k! claim:é", ["k"]),
        ]
        for (text, keys) in cases {
            #expect(TestClaimMatcher.conventionKeys(in: text) == keys, "\(text)")
        }
    }

    @Test func printableASCIIIsFoundAsAByteByByteScanFindsIt() {
        var generator = StateInvariantTests.Generator(state: 11)
        // Every edge of the printable range, and bytes of longer UTF-8.
        let alphabet: [UInt8] = [0x20, 0x7E, 0x61, 0x1F, 0x00, 0x7F, 0x80, 0xFF, 0xC3, 0xA9, 0x0A, 0x09, 0x21]
        for length in 0..<40 {
            for _ in 0..<50 {
                // Mostly printable, so a word often holds just one byte outside.
                let bytes = (0..<length).map { _ in
                    generator.next() % 4 == 0 ? alphabet[Int(generator.next() % UInt64(alphabet.count))] : 0x61
                }
                let expected = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                bytes.withUnsafeBytes { buffer in
                    #expect(ByteWords.allPrintableASCII(buffer) == expected, "\(bytes)")
                }
                if let text = String(validatingUTF8Bytes: bytes) {
                    #expect(ControlCharacters.isPrintableASCII(text) == expected, "\(bytes)")
                }
            }
        }
    }

    /// A stream of bytes checked in chunks of any size is refused (for a
    /// NUL or invalid UTF-8, overlong forms and surrogates included) or
    /// passed as a byte-by-byte reading with Swift's own UTF-8 validation
    /// does, at the same line, and ends on the same line.
    @Test func checkedTextKeepsItsLineAsAByteByByteReadingDoes() {
        var generator = StateInvariantTests.Generator(state: 5)
        let alphabet: [[UInt8]] = [
            [0x61], [0x61], [0x61], [0x20], [0x0A], [0x0A], [0xC3, 0xA9], [0xE2, 0x80, 0x94], [0x00], [0xFF], [0xC3],
            [0xF0, 0x9F, 0x98, 0x80], [0xE0, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xC0, 0x80], [0xC3, 0x41], [0x80], [0xF5, 0x80, 0x80, 0x80],
        ]
        func reference(_ bytes: [UInt8]) -> (failure: String?, line: Int, byte: Int) {
            var line = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0 { return ("NUL", line, index) }
                if byte < 0x80 {
                    if byte == 0x0A { line += 1 }
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard (0xC2...0xF4).contains(byte), index + length <= bytes.count,
                    String(validatingUTF8Bytes: bytes[index..<index + length]) != nil
                else { return ("invalid", line, index) }
                index += length
            }
            return (nil, line, index)
        }
        for length in 0..<60 {
            for _ in 0..<40 {
                // Rarely a bad byte, so most texts are long and valid.
                var bytes: [UInt8] = []
                while bytes.count < length {
                    let pick = Int(generator.next() % UInt64(alphabet.count + 20))
                    bytes += pick < alphabet.count ? alphabet[pick] : [0x62]
                }
                let expected = reference(bytes)
                var stream = UTF8Stream(path: "f", what: "text")
                var failure: String?
                var start = 0
                do {
                    while start < bytes.count {
                        // Chunks of 1 to 40 bytes: the 32-byte runs are crossed too.
                        let end = min(bytes.count, start + 1 + Int(generator.next() % 40))
                        try bytes[start..<end].withUnsafeBytes { try stream.check($0) }
                        start = end
                    }
                    try stream.finish()
                } catch let EvidenceError.badFile(_, location, reason) {
                    failure = (reason.hasPrefix("a NUL") ? "NUL" : "invalid") + " at " + (location ?? "")
                } catch {
                    failure = "\(error)"
                }
                if let kind = expected.failure {
                    #expect(failure == "\(kind) at \(expected.line)", "\(bytes)")
                } else {
                    #expect(failure == nil, "\(bytes)")
                    #expect(stream.line == expected.line, "\(bytes)")
                }
            }
        }
    }

    @Test func jsonScansAndLineCountsStopWhereAByteByByteScanStops() {
        var generator = StateInvariantTests.Generator(state: 7)
        // Mostly the bytes that matter, so every word mixes stops and runs.
        let alphabet: [UInt8] = [
            0x20, 0x20, 0x20, 0x0A, 0x09, 0x0D, 0x22, 0x5C, 0x00, 0x1F, 0x7F, 0x80, 0xE2, 0x61, 0x7B, 0x30, 0x7D, 0x5B, 0x5D,
        ]
        for length in 0..<40 {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                bytes.withUnsafeBytes { buffer in
                    for start in 0...length {
                        let space = bytes[start...].firstIndex { ![0x20, 0x0A, 0x09, 0x0D].contains($0) } ?? length
                        let stop = bytes[start...].firstIndex { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 } ?? length
                        #expect(JSONBytes.firstNonSpace(in: buffer, from: start) == space, "\(bytes) from \(start)")
                        #expect(JSONBytes.stringStop(in: buffer, from: start) == stop, "\(bytes) from \(start)")
                        let structure = bytes[start...].firstIndex { [0x22, 0x7B, 0x7D, 0x5B].contains($0) } ?? length
                        #expect(JSONBytes.structureStop(in: buffer, from: start) == structure, "\(bytes) from \(start)")
                        #expect(
                            Newlines.count(in: UnsafeRawBufferPointer(rebasing: buffer[start...]))
                                == bytes[start...].count { $0 == 0x0A }, "\(bytes) from \(start)")
                    }
                }
            }
        }
    }

    /// The number under "a" passed over by a stream (in chunks of 1 to 5
    /// bytes, so it often ends a chunk) is taken or refused as JSONReader,
    /// reading the whole document, takes or refuses it, at the same line.
    @Test func aNumberPassedOverIsTakenOrRefusedAsOneReadWholeIs() throws {
        let numbers = [
            "0", "-0", "12", "0.5", "-12.75", "1e5", "1E-3", "2.5e+10", "01", "-", "1.", ".5", "1e", "1e+", "--1",
            "1.2.3", "1e999", "-1e999", "123456789012345678901234567890", String(repeating: "9", count: 400), "0x1",
        ]
        for number in numbers {
            let text = "{\n\"a\": \(number),\n\"b\": true\n}\n"
            let whole = Result { try JSONReader.parse(Data(text.utf8)) }
            let path = "number.json"
            for chunkSize in 1...5 {
                let pieces = Pieces(Data(text.utf8), sizes: [chunkSize])
                let stream = JSONStream(TextChunks(pieces, first: [], path: path, what: "JSON", size: 8), path: path)
                let streamed = Result { () throws -> [JSONKey] in
                    try stream.open(UInt8(ascii: "{"))
                    var keys: [JSONKey] = []
                    while let key = try stream.nextKey(first: keys.isEmpty, among: JSONKeys(["b"])) {
                        keys.append(key)
                        try stream.skip()
                    }
                    try stream.finish()
                    return keys
                }
                switch (whole, streamed) {
                case (.success, .success(let keys)):
                    #expect(keys == [.other("a"), .known(0)])
                case (.failure, .failure(let error)):
                    #expect("\(error)".contains("number.json:2"), "\(number), chunks of \(chunkSize): \(error)")
                default:
                    Issue.record("\(number), chunks of \(chunkSize): read whole \(whole), streamed \(streamed)")
                }
            }
        }
    }

    /// Keys are found by their length and first and last eight bytes, then
    /// the rest: every known key is found, and no other, whatever byte of it
    /// differs, among keys that share their first and last bytes.
    @Test func knownKeysAreFoundByEveryByte() {
        let names = ["", "a", "ab", "abc", "tags", "abcde", "result", "details", "children", "duration", "nodeIdentifier", "durationInSeconds",
            "nodeIdentifierURL", "nodeIdentifierXRL", "durationInMinutes", "abcdefghijklmnopqrstuvwxyz0123456789"]
        let keys = JSONKeys(names)
        for (index, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBytes { keys.index(of: $0) } == index, "\(name)")
            for position in bytes.indices {
                var other = bytes
                other[position] ^= 0x01
                let found = other.withUnsafeBytes { keys.index(of: $0) }
                #expect(found == names.firstIndex(of: String(decoding: other, as: UTF8.self)), "\(name) changed at \(position)")
            }
            #expect((bytes + [0x61]).withUnsafeBytes { keys.index(of: $0) } == names.firstIndex(of: name + "a"), "\(name) and one more byte")
        }
    }

    /// The indentation of a pretty-printed file, a line feed and a run of
    /// spaces of any length, ending in anything or at the end of the bytes,
    /// is passed to where a byte-by-byte scan stops, from any place in it.
    @Test func indentationIsPassedWhereAByteByByteScanStops() {
        for run in 0..<40 {
            for end: [UInt8] in [[], [0x22], [0x7D], [0x20], [0x09], [0x0D], [0x0A, 0x20, 0x22], [0x0A], [0x01], [0x80]] {
                for lead: [UInt8] in [[0x0A], [0x20], [0x0D, 0x0A], [0x09]] {
                    let bytes = lead + [UInt8](repeating: 0x20, count: run) + end
                    bytes.withUnsafeBytes { buffer in
                        for start in 0...bytes.count {
                            let expected = bytes[start...].firstIndex { ![0x20, 0x0A, 0x09, 0x0D].contains($0) } ?? bytes.count
                            #expect(JSONBytes.firstNonSpace(in: buffer, from: start) == expected, "\(bytes) from \(start)")
                        }
                    }
                }
            }
        }
    }
}
