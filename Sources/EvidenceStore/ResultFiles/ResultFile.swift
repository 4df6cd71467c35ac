#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Result files from Xcode tooling, read once, start to end, on one path per
/// format: JUnit XML through libxml2's SAX events (`JUnitReader`), the JSON
/// of xcresulttool through one streaming reader (`XCResultReader`). Each
/// result is handed on as the file gives it; what the file says beside its
/// results, and what a result's place resolves to, comes with the end.
public enum ResultFile {
    /// Refuses a folder, a FIFO or device, a missing file and a file over
    /// `maxBytes`; the file's size otherwise.
    @discardableResult
    static func check(_ path: String, maxBytes: Int) throws -> Int {
        // What cannot be stat'ed gets InputFile's error (missing, unreadable).
        guard let info = try? FileSystem.status(path) else {
            try InputFile.check(path)
            return 0
        }
        if info.kind == .folder {
            throw EvidenceError.badFile(
                path: path, location: nil,
                reason: "is a folder; give the JSON of 'xcrun xcresulttool get test-results tests --path …' or a JUnit XML file")
        }
        if let kind = info.kindPhrase { throw InputFile.notRegular(path, kind) }
        if info.size > maxBytes {
            throw EvidenceError.badFile(
                path: path, location: nil, reason: "is \(info.size) bytes, over the limit of \(maxBytes) bytes (--max-size)")
        }
        return Int(info.size)
    }

    /// White space, or a byte of a UTF-8 byte order mark: what may come before the first character.
    private static func leads(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: return true
        default: return false
        }
    }

    /// Reads the bytes `reader` gives, in the format given or the one its
    /// first character shows, handing each result to `body` in the file's
    /// order. Timestamps without a zone are read in `zone`.
    static func read(
        _ reader: ChunkReader, path: String, format: TestReport.Format?, zone: Zone,
        _ body: (TestReport.TestCase) throws -> Void
    ) throws -> ResultFileFacts {
        // The format is told by the first byte that is not white space (or a byte order mark).
        var head: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 4096)
        var first: UInt8?
        // A UTF-16 byte order mark is told by its second byte: read at least two.
        while first == nil || (head.count < 2 && (head[0] == 0xFE || head[0] == 0xFF)) {
            let count = try scratch.withUnsafeMutableBytes { try reader.read(into: $0) }
            guard count > 0 else { break }
            head += scratch[..<count]
            first = head.first { !Self.leads($0) }
        }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) {
            throw EvidenceError.badFile(path: path, location: "1", reason: "the file is UTF-16; only UTF-8 is read")
        }
        let detected: TestReport.Format? =
            switch first {
            case UInt8(ascii: "<"): .junit
            case UInt8(ascii: "{"), UInt8(ascii: "["): .xcresult
            default: nil
            }
        guard let chosen = format ?? detected else {
            throw EvidenceError.badFile(
                path: path, location: "1",
                reason: head.isEmpty ? "the file is empty" : "neither JUnit XML nor xcresulttool JSON; give --format")
        }
        if let format, let detected, format != detected {
            throw EvidenceError.badFile(
                path: path, location: "1", reason: "--format \(format.rawValue) was given, but the file looks like \(detected.rawValue)")
        }
        switch chosen {
        case .junit:
            return try JUnitReader.read(TextChunks(reader, first: head, path: path, what: "XML"), path: path, zone: zone, body)
        case .xcresult:
            return try XCResultReader.read(TextChunks(reader, first: head, path: path, what: "JSON"), path: path, body)
        }
    }
}

/// What a result file says beside its results, known once it is read to its
/// end: its devices, dates and notes, and what each result's place resolves to.
struct ResultFileFacts {
    var format: TestReport.Format
    /// The file's own description of its shape: "JUnit XML", "xcresulttool test-results tests".
    var shape: String
    var devices: [TestReport.Device] = []
    /// Every date the file gives, in the store's form, with where it stands
    /// ("12:5" for a line and column, "startTime" for a JSON path): each is
    /// checked against the future, and the earliest dates the run.
    var dates: [(value: String, location: String)] = []
    /// Facts the file gives beyond its results, for the run's note.
    var notes: [String] = []
    /// How many test cases gave the results.
    var testCases = 0
    /// JUnit: the suites, which give their cases devices and properties.
    var junit: JUnitReader.Suites?
    /// xcresulttool: the nodes that held test cases.
    var containers: [Int: XCResultReader.Container] = [:]

    init(format: TestReport.Format, shape: String) {
        self.format = format
        self.shape = shape
    }

    /// The moment the run started: the earliest date the file gives.
    var startedAt: String? { dates.map(\.value).min() }

    /// Completes a result from what the whole file said: its device (`place`
    /// becomes `.device`), the properties it inherits, its name after its
    /// suite. False for a result that is none: a test case inside a test case.
    mutating func resolve(_ test: inout TestReport.TestCase, file: String) throws -> Bool {
        switch test.place {
        case .device:
            return true
        case .suite(let suite):
            // Changed in place: a copy of the suites for each result would cost as many as there are suites.
            guard let inherited = junit?.properties(ofCaseIn: suite), let device = junit?.device(ofCaseIn: suite) else { return true }
            test.properties = test.properties.isEmpty ? inherited : inherited + test.properties
            test.place = .device(device)
            if let suites = junit, suites.devices.count != devices.count { devices = suites.devices }
            return true
        case .node(let parent, let deviceName, let deviceIdentifier):
            var suite: String?
            var current = parent
            while let container = containers[current] {
                if container.type == "Test Case" { return false }
                if suite == nil, container.type == "Test Suite" { suite = container.name ?? "" }
                current = container.parent
            }
            if test.namedAfterSuite {
                test.identifier = suite.map { "\($0)/\(test.name)" } ?? test.name
                test.namedAfterSuite = false
            }
            guard let deviceName else {
                test.place = .device(0)
                return true
            }
            test.place = .device(try device(named: deviceName, identifier: deviceIdentifier, file: file))
            return true
        }
    }

    /// Which of the file's devices a test's "Device" node names: by its
    /// identifier where the file gives one, else by its exact name (the
    /// device's own name or its model's), never by a prefix. A node that
    /// names none of them, or two, is refused.
    private func device(named name: String, identifier: String?, file: String) throws -> Int {
        if let identifier, let index = devices.firstIndex(where: { $0.identifier == identifier }) { return index }
        let named = devices.indices.filter { devices[$0].name == name || devices[$0].model == name }
        if named.count == 1 { return named[0] }
        let listed = devices.map { [$0.name, $0.model].compactMap { $0 }.first ?? "unnamed" }.joined(separator: ", ")
        let shown = ControlCharacters.escaped(name, keepingLineBreaks: false)
        throw EvidenceError.badFile(
            path: file, location: nil,
            reason: named.isEmpty
                ? "a test ran on the device '\(shown)', which is none of the devices the file lists (\(listed))"
                : "a test ran on the device '\(shown)', which names \(named.count) of the devices the file lists (\(listed)); "
                    + "their identifiers tell them apart only where the file gives them")
    }
}
