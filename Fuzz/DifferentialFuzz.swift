import Foundation

// libFuzzer target: differential reading. The input's first byte picks the
// format (even: JUnit XML, odd: an xcresulttool tests document) and its next
// four bytes the sizes of the pieces the file is handed over in (1 to 64
// bytes each, in turn), so every tag, UTF-8 sequence, string, number and
// marker is cut somewhere; the rest is the file. Read through every path
// (`ReadingPaths`: whole, in those pieces, and in one pass), it must give the
// same test cases or the same error (a text problem, such as a NUL byte or
// invalid UTF-8, said before any other, however the file is cut).
// ChunkDifferentialTests reads the fixtures through the same paths.

/// The outcomes agree (`ReadingPaths.Outcomes.disagreement`).
private func requireAgreement(_ read: ReadingPaths.Outcomes, _ what: String) {
    if let disagreement = read.disagreement { FuzzCheck.require(false, "\(what): \(disagreement)") }
}

/// No date in an input is refused for lying in the future: the comparison is
/// between paths, not against the clock.
private let noLimit = FutureLimit(latest: "9999-12-31T23:59:59Z")

/// One file per process, rewritten for each input.
private let xcresultPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("evidence-fuzz-\(getpid()).json").path

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 5 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let sizes = bytes[1..<5].map { Int($0 % 64) + 1 }
    let file = Data(bytes[5...])
    if bytes[0] % 2 == 0 {
        requireAgreement(ReadingPaths.junit(file, sizes: sizes, path: "fuzz.xml", limit: noLimit), "JUnit in pieces \(sizes)")
    } else {
        guard FileManager.default.createFile(atPath: xcresultPath, contents: file) else {
            FuzzCheck.require(false, "cannot write \(xcresultPath)")
            return 0
        }
        requireAgreement(ReadingPaths.xcresult(file, path: xcresultPath, chunkSize: sizes[0]), "xcresult in chunks of \(sizes[0])")
    }
    return 0
}
