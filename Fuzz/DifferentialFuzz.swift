import Foundation

// libFuzzer target: differential reading. The input's first byte picks the
// format (even: JUnit XML, odd: an xcresulttool tests document) and its next
// bytes the sizes of the pieces the file is handed over in (1 to 64 bytes
// each, in turn), so every tag, UTF-8 sequence, string, number and marker is
// cut somewhere; the rest is the file. Read whole and read in those pieces,
// through each path (JUnit's two passes and its one pass, xcresult's two
// passes and its one pass), it must give the same test cases or the same
// error (see `agree`). ChunkDifferentialTests runs the same comparison on the
// fixtures.

/// The test cases as lines, or the error as its text.
private func outcome(_ body: () throws -> [String]) -> String {
    do {
        return try body().joined(separator: "\n")
    } catch {
        return "error: \(error)"
    }
}

private func lines(_ tests: [TestReport.TestCase], devices: [TestReport.Device]) -> [String] {
    tests.map { test in
        let properties = test.properties.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        let device = devices.indices.contains(test.device) ? "\(devices[test.device])" : "none"
        return "\(test.identifier)|\(test.name)|\(test.outcome)|\(test.duration.map { String($0) } ?? "-")|"
            + "\(test.message ?? "-")|\(test.tags)|\(device)|\(properties)"
    }
}

/// Whether two outcomes agree: the same test cases, or the same error. One
/// difference is allowed, and only between two errors: a file with both a
/// text problem (a NUL byte, invalid UTF-8) and a syntax problem may name
/// either first, since the streaming readers check each chunk's text as it
/// is read, ahead of the parser, and a smaller chunk lets the parser meet its
/// problem first. Both refuse the file; neither reads a case from it.
private func agree(_ one: String, _ other: String) -> Bool {
    if one == other { return true }
    guard one.hasPrefix("error: "), other.hasPrefix("error: ") else { return false }
    let textProblems = ["a NUL byte", "invalid UTF-8", "is UTF-16"]
    return textProblems.contains { one.contains($0) } || textProblems.contains { other.contains($0) }
}

/// No date in an input is refused for lying in the future: the comparison is
/// between paths, not against the clock.
private let noLimit = FutureLimit(latest: "9999-12-31T23:59:59Z")

private func junit(_ data: Data, sizes: [Int]) {
    let path = "fuzz.xml"
    let whole = outcome {
        let report = try JUnitReader.read(.data(data), path: path)
        return lines(report.tests, devices: report.devices)
    }
    let source = ByteSource.pieces(data, sizes: sizes)
    let pieces = outcome {
        let report = try JUnitReader.read(source, path: path)
        return lines(report.tests, devices: report.devices)
    }
    FuzzCheck.require(agree(pieces, whole), "JUnit in pieces \(sizes): \(pieces.prefix(300)) where whole: \(whole.prefix(300))")
    guard let lead = JUnitReader.lead(source, path: path) else { return }
    let devices = DeviceList()
    var tests: [TestReport.TestCase] = []
    do {
        try JUnitReader.forEachTestInOnePass(
            source, path: path, lead: lead, limit: noLimit, devices: devices,
            holding: JUnitReader.endsWithProperties(source), maxHeld: JUnitReader.maxHeld
        ) { tests.append($0) }
        let onePass = lines(tests, devices: devices.all).joined(separator: "\n")
        FuzzCheck.require(agree(onePass, whole), "JUnit one pass in pieces \(sizes): \(onePass.prefix(300)) where whole: \(whole.prefix(300))")
    } catch is IngestSource.NeedsTwoPasses {
        // Handed to the two passes, compared above.
    } catch {
        FuzzCheck.require(whole.hasPrefix("error: "), "JUnit one pass failed where the two passes read it: \(error)")
    }
}

/// The lines of a tests document read through a stream, in two passes; a
/// stream that is no tests document is read whole, as ingest does
/// (ResultFile: a summary or a legacy record is small).
private func twoPasses(_ stream: () throws -> JSONStream, data: Data, file: String) throws -> [String] {
    guard let outline = try XCResultTests.outline(stream(), file: file) else {
        let report = try XCResultReader.read(data, path: file)
        return lines(report.tests, devices: report.devices)
    }
    var tests: [TestReport.TestCase] = []
    try XCResultTests.forEachTest(stream(), outline: outline, file: file) { tests.append($0) }
    return lines(tests, devices: outline.report.devices)
}

/// One file per process, rewritten for each input.
private let xcresultPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("evidence-fuzz-\(getpid()).json").path

private func xcresult(_ data: Data, size: Int) {
    let path = xcresultPath
    guard FileManager.default.createFile(atPath: path, contents: data) else {
        FuzzCheck.require(false, "cannot write \(path)")
        return
    }
    // Whole, as XCResultReader reads data: its text checked first, then streamed.
    let whole = outcome {
        let report = try XCResultReader.read(data, path: path)
        return lines(report.tests, devices: report.devices)
    }
    let pieces = outcome {
        try twoPasses({ try JSONStream(path: path, limit: .max, hasher: nil, chunkSize: size) }, data: data, file: path)
    }
    FuzzCheck.require(agree(pieces, whole), "xcresult in chunks of \(size): \(pieces.prefix(300)) where whole: \(whole.prefix(300))")
    do {
        guard let devices = try XCResultOnePass.devices(
            JSONStream(path: path, limit: .max, hasher: nil, chunkSize: size), file: path)
        else { return }
        var tests: [TestReport.TestCase] = []
        try XCResultOnePass.forEachTest(
            JSONStream(path: path, limit: .max, hasher: nil, chunkSize: size), devices: devices, file: path
        ) { tests.append($0) }
        let onePass = lines(tests, devices: devices).joined(separator: "\n")
        FuzzCheck.require(agree(onePass, whole), "xcresult one pass in chunks of \(size): \(onePass.prefix(300)) where whole: \(whole.prefix(300))")
    } catch is IngestSource.NeedsTwoPasses {
        // Handed to the two passes, compared above.
    } catch {
        FuzzCheck.require(whole.hasPrefix("error: "), "xcresult one pass failed where the two passes read it: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 5 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let sizes = bytes[1..<5].map { Int($0 % 64) + 1 }
    let file = Data(bytes[5...])
    if bytes[0] % 2 == 0 {
        junit(file, sizes: sizes)
    } else {
        xcresult(file, size: sizes[0])
    }
    return 0
}
