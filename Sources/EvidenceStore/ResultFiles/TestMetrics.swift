#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The performance metrics of a bundle's tests, as `xcrun xcresulttool get
/// test-results metrics` prints them: a list of tests (`testIdentifier`), each
/// with its runs (`testRuns`, one per device and configuration), each with its
/// metrics (`displayName`, `unitOfMeasurement`, the samples in
/// `measurements`, and where Xcode has one, `baselineName` and
/// `baselineAverage`). Each metric becomes a measurement: the mean of its
/// samples, with their count and standard deviation.
public struct TestMetrics: Equatable, Sendable {
    /// One test's metrics on one device.
    public struct Run: Equatable, Sendable {
        public var test: String
        public var deviceID: String?
        public var deviceName: String?
        public var measurements: [MeasurementDraft]
    }

    public private(set) var runs: [Run] = []
    /// Metrics whose unit the store has no word for, as "NAME (UNIT) of TEST".
    public private(set) var leftOut: [String] = []

    /// What the summary says of the metrics left out, if any.
    public var leftOutNote: String? {
        guard !leftOut.isEmpty else { return nil }
        return "\(leftOut.count) \(leftOut.count == 1 ? "metric was" : "metrics were") left out, in units the store has no "
            + "word for: " + leftOut.prefix(3).joined(separator: "; ") + (leftOut.count > 3 ? "; …" : "")
    }

    /// The store's unit for a metric's, or nil: seconds, milliseconds, bytes
    /// (B, KB, MB), percent, frames per second and counts; kilo-instructions,
    /// cycles and the like have none.
    static func unit(_ text: String) -> MeasurementUnit? {
        switch text.trimmingWhitespace().lowercased() {
        case "s", "sec", "second", "seconds": return .s
        case "ms", "millisecond", "milliseconds": return .ms
        case "b", "byte", "bytes": return .bytes
        case "kb", "kilobyte", "kilobytes": return .kilobytes
        case "mb", "megabyte", "megabytes": return .megabytes
        case "%", "percent": return .percent
        case "fps", "frames per second": return .fps
        case "count", "counts": return .count
        default: return nil
        }
    }

    /// Whether a file starts as such a list does: a metrics file given beside
    /// a tests file is told apart from a result file this way.
    public static func looksLikeMetrics(_ path: String) -> Bool {
        guard let file = try? FileSystem.open(path, .read) else { return false }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = (try? bytes.withUnsafeMutableBytes { try file.read(into: $0) }) ?? 0
        let head = String(decoding: bytes[..<count], as: UTF8.self)
        return head.trimmingWhitespaceAndNewlines().hasPrefix("[") && head.contains("\"testRuns\"")
    }

    /// Reads a metrics file; one that is not such a list, or a metric with a
    /// sample that is not a number, is refused naming where.
    public static func read(_ path: String, maxBytes: Int = IngestOptions.defaultMaxBytes) throws -> TestMetrics {
        try ResultFile.check(path, maxBytes: maxBytes)
        return try parse(try InputFile.read(path, maxBytes: maxBytes), path: path)
    }

    static func parse(_ data: Data, path: String) throws -> TestMetrics {
        func bad(_ place: String, _ reason: String) -> EvidenceError {
            EvidenceError.badFile(path: path, location: place, reason: reason)
        }
        let root: JSONValue
        do {
            root = try JSONReader.parse(data)
        } catch {
            throw bad("$", "is not JSON (\(error))")
        }
        guard case .array(let tests) = root else { throw bad("$", "is not a list of tests with their metrics") }
        var metrics = TestMetrics()
        for (t, entry) in tests.enumerated() {
            guard let test = entry["testIdentifier"]?.stringValue, case .array(let runs)? = entry["testRuns"] else {
                throw bad("$[\(t)]", "a test needs 'testIdentifier' and 'testRuns'")
            }
            for (r, run) in runs.enumerated() {
                guard case .array(let list)? = run["metrics"] else { throw bad("$[\(t)].testRuns[\(r)]", "has no 'metrics'") }
                var found = Run(
                    test: test, deviceID: run["device"]?["deviceId"]?.stringValue, deviceName: run["device"]?["deviceName"]?.stringValue,
                    measurements: [])
                for (m, metric) in list.enumerated() {
                    let place = "$[\(t)].testRuns[\(r)].metrics[\(m)]"
                    guard let name = metric["displayName"]?.stringValue, let unitText = metric["unitOfMeasurement"]?.stringValue,
                        case .array(let samples)? = metric["measurements"]
                    else { throw bad(place, "a metric needs 'displayName', 'unitOfMeasurement' and 'measurements'") }
                    let values = try samples.enumerated().map { index, sample in
                        switch sample {
                        case .integer(let number): return Double(number)
                        case .number(let number) where number.isFinite: return number
                        default: throw bad(place + ".measurements[\(index)]", "is not a number")
                        }
                    }
                    guard let unit = Self.unit(unitText) else {
                        metrics.leftOut.append("\(name) (\(unitText)) of \(test)")
                        continue
                    }
                    guard !values.isEmpty else { continue }
                    let mean = values.reduce(0, +) / Double(values.count)
                    var measurement = MeasurementDraft(name: name, value: NumberText.rounded(mean), unit: unit)
                    measurement.samples = Int64(values.count)
                    if values.count > 1 {
                        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
                        measurement.standardDeviation = NumberText.rounded((squares / Double(values.count - 1)).squareRoot())
                    }
                    // Xcode's baseline, where it has one.
                    if let baselineName = metric["baselineName"]?.stringValue, !baselineName.isEmpty {
                        switch metric["baselineAverage"] {
                        case .integer(let number)?: measurement.baseline = Double(number)
                        case .number(let number)? where number.isFinite: measurement.baseline = number
                        default: break
                        }
                    }
                    do {
                        try Validate.measurement(measurement)
                    } catch let error as EvidenceError {
                        throw bad(place, error.description)
                    }
                    found.measurements.append(measurement)
                }
                if !found.measurements.isEmpty { metrics.runs.append(found) }
            }
        }
        return metrics
    }
}
