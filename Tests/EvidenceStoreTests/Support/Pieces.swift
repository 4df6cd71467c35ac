import Foundation

@testable import EvidenceStore

/// Bytes handed over in pieces of these sizes, in turn, whatever size is
/// asked for: how the tests reach every place where a reader meets the end
/// of a chunk (a tag, a UTF-8 sequence, a string or a number cut in two).
final class Pieces: ChunkReader {
    private let data: [UInt8]
    private let sizes: [Int]
    private var offset = 0
    private var turn = 0

    init(_ data: Data, sizes: [Int]) {
        self.data = [UInt8](data)
        self.sizes = sizes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < data.count else { return 0 }
        let piece = max(1, sizes.isEmpty ? buffer.count : sizes[turn % sizes.count])
        turn += 1
        let count = min(piece, buffer.count, data.count - offset)
        data.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
        offset += count
        return count
    }
}

/// A result file read as ingest reads it, its results completed from what
/// the whole file says, without a store.
enum ResultReading {
    /// The results and what the file says, or the error.
    static func read(
        _ data: Data, sizes: [Int] = [], path: String = "file", format: TestReport.Format? = nil, zone: Zone = .utc
    ) throws -> (facts: ResultFileFacts, results: [TestReport.TestCase]) {
        var tests: [TestReport.TestCase] = []
        var facts = try ResultFile.read(Pieces(data, sizes: sizes), path: path, format: format, zone: zone) { tests.append($0) }
        var results: [TestReport.TestCase] = []
        for var test in tests where try facts.resolve(&test, file: path) { results.append(test) }
        return (facts, results)
    }

    /// Each result as one comparable line: every field ingest writes.
    static func lines(_ results: [TestReport.TestCase], devices: [TestReport.Device]) -> [String] {
        results.map { test in
            let device: String
            if case .device(let index) = test.place, devices.indices.contains(index) { device = "\(devices[index])" } else { device = "?" }
            let properties = test.properties.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
            return "\(test.identifier)|\(test.name)|\(test.outcome)|\(test.duration.map { String($0) } ?? "-")|"
                + "\(test.message ?? "-")|\(test.tags)|\(device)|\(properties)|\(test.note)"
        }
    }

    /// The results as lines, or "error: …".
    static func outcome(_ data: Data, sizes: [Int] = [], path: String = "file") -> String {
        do {
            let (facts, results) = try read(data, sizes: sizes, path: path)
            return lines(results, devices: facts.devices).joined(separator: "\n")
        } catch {
            return "error: \(error)"
        }
    }
}

extension TestReport.TestCase {
    /// The device a resolved result ran on, by its number; nil before it is resolved.
    var deviceIndex: Int? {
        if case .device(let index) = place { return index }
        return nil
    }
}
