import Foundation

// libFuzzer target: a result file read in pieces. The input's first byte
// picks the format (even: JUnit XML, odd: xcresulttool JSON) and its next four
// bytes the sizes of the pieces the file is handed over in (1 to 64 bytes
// each, in turn), so every tag, UTF-8 sequence, string, number and marker is
// cut somewhere; the rest is the file. Read on the one path ingest takes, in
// those pieces and whole, it must give the same results or the same error.
// ResultFileReadingTests reads the fixtures in pieces the same way
// (Tests/EvidenceStoreTests/Support/Pieces.swift, compiled in here).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count >= 5 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let sizes = bytes[1..<5].map { Int($0 % 64) + 1 }
    let file = Data(bytes[5...])
    let path = bytes[0] % 2 == 0 ? "fuzz.xml" : "fuzz.json"
    let whole = ResultReading.outcome(file, path: path)
    let pieces = ResultReading.outcome(file, sizes: sizes, path: path)
    FuzzCheck.require(whole == pieces, "in pieces \(sizes): \(pieces.prefix(300)) where whole: \(whole.prefix(300))")
    return 0
}
