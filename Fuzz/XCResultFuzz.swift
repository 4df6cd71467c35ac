import Foundation

// libFuzzer target: xcresulttool JSON (all three shapes) must be read or refused, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXCResult(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let report = try? XCResultReader.read(data, path: "fuzz.json") {
        FuzzCheck.require(report.tests.allSatisfy { $0.device >= 0 && $0.device < report.devices.count }, "a test on no device")
    }
    return 0
}
