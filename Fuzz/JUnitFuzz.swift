import Foundation

// libFuzzer target: JUnit XML must be read or refused with an error, never
// crash, and every result it gives lands on one of the file's devices.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJUnit(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let (facts, results) = try? ResultReading.read(data, path: "fuzz.xml", format: .junit) {
        FuzzCheck.require(results.allSatisfy { facts.devices.indices.contains($0.deviceIndex ?? -1) }, "a result on no device")
    }
    return 0
}
