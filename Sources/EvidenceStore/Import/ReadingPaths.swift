#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every way ingest can read a result file, for comparing them: read whole,
/// read in pieces of given sizes (so every tag, UTF-8 sequence, string and
/// number is cut somewhere), and in one pass. ChunkDifferentialTests and the
/// differential fuzz target (Fuzz/DifferentialFuzz.swift) both read through
/// these, and each says what agreement it requires.
enum ReadingPaths {
    /// What each path made of a file: its test cases as lines, or "error: …".
    struct Outcomes {
        var whole: String
        var pieces: String
        /// The one pass's; nil where it handed the file to the two passes
        /// (or never started: the lead sent it there).
        var onePass: String?

        /// What disagrees, nil when nothing does: the pieces must give what
        /// the whole gives, and the one pass the same, or, where it failed,
        /// the whole must have failed too (the two passes say what is wrong).
        var disagreement: String? {
            if pieces != whole { return "in pieces: \(pieces.prefix(300)) where whole: \(whole.prefix(300))" }
            guard let onePass else { return nil }
            if onePass.hasPrefix("error: ") {
                return whole.hasPrefix("error: ") ? nil : "the one pass failed where the two passes read it: \(onePass.prefix(300))"
            }
            return onePass == whole ? nil : "one pass: \(onePass.prefix(300)) where whole: \(whole.prefix(300))"
        }
    }

    /// JUnit's two passes over `data`, whole (no `sizes`) or in pieces of those sizes.
    static func junitTwoPasses(_ data: Data, sizes: [Int]? = nil, path: String) -> String {
        outcome {
            let report = try JUnitReader.read(sizes.map { .pieces(data, sizes: $0) } ?? .data(data), path: path)
            return lines(report.tests, devices: report.devices)
        }
    }

    /// A test case as one line: every field the readers fill.
    static func lines(_ tests: [TestReport.TestCase], devices: [TestReport.Device]) -> [String] {
        tests.map { test in
            let properties = test.properties.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
            let device = devices.indices.contains(test.device) ? "\(devices[test.device])" : "none"
            return "\(test.identifier)|\(test.name)|\(test.outcome)|\(test.duration.map { String($0) } ?? "-")|"
                + "\(test.message ?? "-")|\(test.tags)|\(device)|\(properties)"
        }
    }

    /// The lines `body` gives, or its error as text.
    static func outcome(_ body: () throws -> [String]) -> String {
        do {
            return try body().joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
    }

    /// JUnit: the two passes whole and in pieces of `sizes`, and the one pass in those pieces.
    static func junit(_ data: Data, sizes: [Int], path: String, limit: FutureLimit) -> Outcomes {
        let source = ByteSource.pieces(data, sizes: sizes)
        var outcomes = Outcomes(whole: junitTwoPasses(data, path: path), pieces: junitTwoPasses(data, sizes: sizes, path: path))
        guard let lead = JUnitReader.lead(source, path: path) else { return outcomes }
        let devices = DeviceList()
        var tests: [TestReport.TestCase] = []
        do {
            try JUnitReader.forEachTestInOnePass(
                source, path: path, lead: lead, limit: limit, devices: devices,
                holding: JUnitReader.endsWithProperties(source), maxHeld: JUnitReader.maxHeld
            ) { tests.append($0) }
            outcomes.onePass = lines(tests, devices: devices.all).joined(separator: "\n")
        } catch is IngestSource.NeedsTwoPasses {
            // Handed to the two passes.
        } catch {
            outcomes.onePass = "error: \(error)"
        }
        return outcomes
    }

    /// xcresulttool's tests document, `data`, which the file at `path`
    /// holds: whole as `XCResultReader` reads data, streamed in chunks of
    /// `chunkSize` in two passes (a stream that is no tests document read
    /// whole, as ingest does), and in one pass in chunks of that size.
    static func xcresult(_ data: Data, path: String, chunkSize: Int) -> Outcomes {
        func stream() throws -> JSONStream { try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: chunkSize) }
        func read(_ report: TestReport) -> [String] { lines(report.tests, devices: report.devices) }
        var outcomes = Outcomes(
            whole: outcome { read(try XCResultReader.read(data, path: path)) },
            pieces: outcome {
                guard let outline = try XCResultTests.outline(stream(), file: path) else {
                    return read(try XCResultReader.read(data, path: path))
                }
                var tests: [TestReport.TestCase] = []
                try XCResultTests.forEachTest(stream(), outline: outline, file: path) { tests.append($0) }
                return lines(tests, devices: outline.report.devices)
            })
        do {
            guard let devices = try XCResultOnePass.devices(stream(), file: path) else { return outcomes }
            var tests: [TestReport.TestCase] = []
            try XCResultOnePass.forEachTest(stream(), devices: devices, file: path) { tests.append($0) }
            outcomes.onePass = lines(tests, devices: devices).joined(separator: "\n")
        } catch is IngestSource.NeedsTwoPasses {
            // Handed to the two passes.
        } catch {
            outcomes.onePass = "error: \(error)"
        }
        return outcomes
    }
}
