#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The results of a result file while it is read, kept in a temporary file
/// until what names and places them is known at the file's end: its SHA-256,
/// its devices, its suites' properties. Memory stays bounded however many
/// results a file gives. The file is removed from its folder as soon as it
/// is open, so nothing is left behind however the process ends.
final class StagedResults {
    private let file: OpenFile
    private let path: String
    private var buffer: [UInt8] = []
    private(set) var count = 0
    private static let bufferSize = 1 << 20

    init() throws {
        let folder = FileManager.default.temporaryDirectory.path
        path = folder + "/evidence-ingest-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            file = try FileSystem.open(path, [.readWrite, .create, .exclusive], permissions: 0o600)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be created for the results being read (\(error))")
        }
        FileSystem.remove(path)
        buffer.reserveCapacity(Self.bufferSize + 4096)
    }

    /// Adds a result.
    func append(_ test: TestReport.TestCase) throws {
        let start = buffer.count
        buffer.append(contentsOf: [0, 0, 0, 0])
        test.encode(into: &buffer)
        let length = UInt32(buffer.count - start - 4)
        for index in 0..<4 { buffer[start + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index))) }
        count += 1
        if buffer.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws {
        do {
            try file.write(buffer)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be written (\(error)); the results being read are kept there")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Ends the adding: every result is in the file.
    func finishAdding() throws {
        try flush()
    }

    /// Each result, in the order added, for `body` to complete where it needs to.
    func forEach(_ body: (inout TestReport.TestCase) throws -> Void) throws {
        do {
            try file.seek(to: 0)
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be read (\(error))")
        }
        var pending: [UInt8] = []
        try RegularFile.forEachChunk(of: file, size: Self.bufferSize) { chunk in
            pending.append(contentsOf: chunk)
            var start = 0
            try pending.withUnsafeBytes { bytes in
                while start + 4 <= bytes.count {
                    let length = (0..<4).reduce(0) { $0 | Int(bytes[start + $1]) << (8 * $1) }
                    guard start + 4 + length <= bytes.count else { break }
                    var test = TestReport.TestCase(decoding: UnsafeRawBufferPointer(rebasing: bytes[start + 4..<start + 4 + length]))
                    try body(&test)
                    start += 4 + length
                }
            }
            pending.removeFirst(start)
        }
    }
}
