#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads, parses and decodes the lines of a file on a second thread while the
/// caller writes the records already decoded, so an import uses both cores.
/// Records arrive in file order, and so do errors: a bad line is reported only
/// after every line before it was written.
enum RecordPipeline {
    static let batchSize = 512

    static func run<T: Sendable>(
        _ reader: LineReader, name: String, decode: @escaping @Sendable (inout FieldReader) throws -> T,
        consume: (T, RecordLocation) throws -> Void
    ) throws {
        try Handoff.run(batchSize: batchSize, produce: { emit in
            try reader.forEachLine { number, bytes in
                if bytes.isEmpty { return }
                var fields = try FieldReader(file: name, line: number, value: try parse(bytes, file: name, line: number))
                let record = try decode(&fields)
                // The parsed fields are freed here, on the reading thread.
                try emit((record, RecordLocation(fields)))
            }
        }, consume: { try consume($0.0, $0.1) })
    }

    /// The same over many small files (a folder of runs): one reading thread
    /// for them all, and each file's records handed over together, in order.
    static func runEach<T: Sendable>(
        _ files: [(reader: LineReader, name: String)], decode: @escaping @Sendable (inout FieldReader) throws -> T,
        consume: (String, [(T, RecordLocation)]) throws -> Void
    ) throws {
        try Handoff.run(batchSize: 8, produce: { emit in
            for file in files {
                var records: [(T, RecordLocation)] = []
                try file.reader.forEachLine { number, bytes in
                    if bytes.isEmpty { return }
                    var fields = try FieldReader(
                        file: file.name, line: number, value: try parse(bytes, file: file.name, line: number))
                    records.append((try decode(&fields), RecordLocation(fields)))
                }
                try emit(FileRecords(name: file.name, records: records))
            }
        }, consume: { try consume($0.name, $0.records) })
    }

    private struct FileRecords<T: Sendable>: Sendable {
        let name: String
        let records: [(T, RecordLocation)]
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, file: String, line: Int) throws -> JSONValue {
        do {
            return try JSONReader.parse(bytes)
        } catch let failure as JSONReader.Failure {
            throw EvidenceError.badFile(
                path: file, location: "\(line):\(failure.offset + 1)", reason: "not valid JSON: \(failure.message)")
        }
    }
}
