import Foundation

// libFuzzer target: xcresulttool JSON (all three shapes) must be read or
// refused, never crash, and every result it gives lands on one of the file's devices.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXCResult(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let (facts, results) = try? ResultReading.read(data, path: "fuzz.json", format: .xcresult) {
        FuzzCheck.require(results.allSatisfy { facts.devices.indices.contains($0.deviceIndex ?? -1) }, "a result on no device")
    }
    return 0
}
