import Foundation

// libFuzzer target: JUnit XML must be read or refused with an error, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJUnit(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let report = try? JUnitReader.read(data, path: "fuzz.xml") {
        FuzzCheck.require(report.tests.allSatisfy { $0.device >= 0 && $0.device < report.devices.count }, "a test on no device")
    }
    return 0
}
