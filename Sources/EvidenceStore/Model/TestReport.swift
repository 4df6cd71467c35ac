#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a result file from Xcode tooling says, whatever its format: the
/// devices it ran on, when, and each test case with its outcome.
public struct TestReport: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case junit
        case xcresult
    }

    /// A run destination as the file names it; nil fields are not in the file.
    public struct Device: Equatable, Sendable {
        public var kind: EnvironmentKind?
        public var model: String?
        public var osName: String?
        public var osVersion: String?
        public var osBuild: String?
    }

    public struct TestCase: Sendable {
        /// A stable identifier: `Suite/testName()` or `Module.Suite/name`.
        public var identifier: String
        /// The test's own name, without its suite.
        public var name: String
        public var outcome: Outcome
        public var duration: Double?
        public var message: String?
        public var tags: [String] = []
        public var properties: [(String, String)] = []
        /// Which of the report's devices it ran on.
        public var device: Int = 0
        /// Set when the file's outcome needs explaining ("expected failure").
        public var note: String = ""
    }

    public var format: Format
    /// The file's own description of its shape: "JUnit XML", "xcresulttool tests (Xcode 16)".
    public var shape: String
    public var devices: [Device] = [Device()]
    public var startedAt: String?
    /// Every date the file gives, in the store's form, with where it stands
    /// ("12:5" for a line and column, "startTime" for a JSON path): each is
    /// checked against the future, not only the one that dates the run.
    public var dates: [(value: String, location: String)] = []
    public var tests: [TestCase] = []
    /// Facts the file gives beyond its test cases, for the run's note.
    public var notes: [String] = []

    public init(format: Format, shape: String) {
        self.format = format
        self.shape = shape
    }
}

extension TestReport.Device {
    /// Reads "iPhone 16 Pro (18.2)", the device property fastlane trainer writes.
    public init(trainerProperty text: String) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
            let version = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            let model = trimmed[..<open].trimmingWhitespace()
            if !model.isEmpty, version.first?.isNumber == true {
                self.init(model: model, osVersion: String(version))
                return
            }
        }
        self.init(model: trimmed.isEmpty ? nil : trimmed)
    }

    /// Reads "14.4 (18D46)": a version and, in parentheses, a build.
    public static func versionAndBuild(_ text: String) -> (String?, String?) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "(") {
            let build = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            let version = trimmed[..<open].trimmingWhitespace()
            return (version.isEmpty ? nil : version, AppleBuild(build) == nil ? nil : build)
        }
        return (trimmed.isEmpty ? nil : trimmed, nil)
    }

    /// Reads a platform such as "iOS Simulator" or "iOS": the OS name and the kind.
    public mutating func read(platform: String) {
        let trimmed = platform.trimmingWhitespace()
        if trimmed.hasSuffix(" Simulator") {
            kind = .simulator
            osName = String(trimmed.dropLast(" Simulator".count))
        } else if !trimmed.isEmpty {
            kind = .device
            osName = trimmed
        }
    }
}

/// Durations as the tools write them: a number of seconds, `0.014`, or a
/// localised string such as `0,014s`, `5s` or `1m 5s`. Read byte by byte: a
/// large file has a million of them.
enum Duration {
    static func seconds(_ text: String) -> Double? {
        var text = text
        text.makeContiguousUTF8()
        let parsed = text.utf8.withContiguousStorageIfAvailable { bytes -> Double? in
            var total = 0.0
            var any = false
            var start = 0
            while start < bytes.count {
                while start < bytes.count, bytes[start] == 0x20 { start += 1 }
                guard start < bytes.count else { break }
                var end = start
                while end < bytes.count, bytes[end] != 0x20 { end += 1 }
                guard let value = part(bytes, start, end) else { return nil }
                total += value
                any = true
                start = end
            }
            return any ? total : nil
        }
        return parsed ?? nil
    }

    /// One part, "0,014s" or "5m": a number (a decimal comma read as a point) and a unit.
    private static func part(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var last = end
        var scale = 1.0
        if last - start >= 2, bytes[last - 2] == UInt8(ascii: "m"), bytes[last - 1] == UInt8(ascii: "s") {
            last -= 2
            scale = 0.001
        } else if last > start {
            switch bytes[last - 1] {
            case UInt8(ascii: "s"): last -= 1
            case UInt8(ascii: "m"): last -= 1; scale = 60
            case UInt8(ascii: "h"): last -= 1; scale = 3600
            default: break
            }
        }
        guard last > start else { return nil }
        if let value = plainDecimal(bytes, start, last) { return value * scale }
        var number = [UInt8](bytes[start..<last])
        for index in number.indices where number[index] == UInt8(ascii: ",") { number[index] = UInt8(ascii: ".") }
        guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    private static let exactPowersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ]

    /// Digits with at most one point or comma between them and at most 15 in
    /// all, as most files write every time ("0.014"), read without strtod:
    /// the digits and the power of ten are exact doubles, and one division of
    /// exact doubles is rounded correctly, as strtod rounds. Anything else is nil.
    static func plainDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var digits: Int64 = 0
        var count = 0
        var fraction = -1
        for index in start..<end {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 {
                count += 1
                guard count <= 15 else { return nil }
                digits = digits * 10 + Int64(byte - 0x30)
                if fraction >= 0 { fraction += 1 }
            } else if (byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",")) && fraction < 0 {
                fraction = 0
            } else {
                return nil
            }
        }
        guard count > 0, fraction != 0 else { return nil }
        return Double(digits) / exactPowersOfTen[max(fraction, 0)]
    }
}
