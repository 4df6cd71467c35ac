import Foundation

/// Result files from Xcode tooling: read within a size limit, then parsed in the
/// format given or the one their first character shows.
public enum ResultFile {
    /// Reads a result file whole, refusing a folder and a file over `maxBytes`.
    public static func read(_ path: String, maxBytes: Int) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw EvidenceError.fileMissing(path: path)
        }
        if (attributes[.type] as? FileAttributeType) == .typeDirectory {
            throw EvidenceError.badFile(
                path: path, location: nil,
                reason: "is a folder; give the JSON of 'xcrun xcresulttool get test-results tests --path …' or a JUnit XML file")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        if size > maxBytes {
            throw EvidenceError.badFile(
                path: path, location: nil, reason: "is \(size) bytes, over the limit of \(maxBytes) bytes (--max-size)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw EvidenceError.fileMissing(path: path) }
        defer { try? handle.close() }
        do {
            // Read at most one byte past the limit, in case the file grew after the check.
            let data = try handle.read(upToCount: maxBytes + 1) ?? Data()
            if data.count > maxBytes {
                throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(maxBytes) bytes")
            }
            return data
        } catch let error as EvidenceError {
            throw error
        } catch {
            throw EvidenceError.io(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    /// Parses a result file in the given format, or the one its first character shows.
    public static func parse(_ data: Data, path: String, format: TestReport.Format?) throws -> TestReport {
        let first = data.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        let detected: TestReport.Format?
        switch first {
        case UInt8(ascii: "<"): detected = .junit
        case UInt8(ascii: "{"), UInt8(ascii: "["): detected = .xcresult
        default: detected = nil
        }
        guard let chosen = format ?? detected else {
            throw EvidenceError.badFile(
                path: path, location: "1",
                reason: data.isEmpty ? "the file is empty" : "neither JUnit XML nor xcresulttool JSON; give --format")
        }
        if let format, let detected, format != detected {
            throw EvidenceError.badFile(
                path: path, location: "1", reason: "--format \(format.rawValue) was given, but the file looks like \(detected.rawValue)")
        }
        switch chosen {
        case .junit: return try JUnitReader.read(data, path: path)
        case .xcresult: return try XCResultReader.read(data, path: path)
        }
    }
}
