#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a result file from Xcode tooling says, whatever its format: the
/// devices it ran on, when, and each result with its outcome.
public enum TestReport {
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
        /// xcresulttool's `deviceId` and `deviceName` ("Bob's iPhone"), by
        /// which a test's "Device" node names it.
        public var identifier: String?
        public var name: String?
    }

    /// Where a result's device (and, in JUnit, what it inherits) comes from:
    /// often only known once the whole file is read.
    public enum Place: Equatable, Sendable {
        /// One of the file's devices, by its number.
        case device(Int)
        /// JUnit: the innermost suite around the test case (by the order
        /// suites start, from 0), or -1 for none; the device is the one the
        /// properties of that suite, a suite around it or the root name.
        case suite(Int)
        /// xcresulttool: the node holding the test case (by the order nodes
        /// start, from 0; -1 for none), and the "Device" node it ran on, if
        /// any (its name and identifier), else the file's first device.
        case node(parent: Int, deviceName: String?, deviceIdentifier: String?)
    }

    /// One result as a file gives it: a test case, on one device, in one
    /// repetition.
    public struct TestCase: Sendable {
        /// A stable identifier: `Suite/testName()` or `Module.Suite/name`.
        public var identifier: String
        /// The test's own name, without its suite.
        public var name: String
        public var outcome: Outcome
        public var duration: Double?
        public var message: String?
        public var tags: [String] = []
        /// Its own properties (JUnit), and once completed those it inherits.
        public var properties: [(String, String)] = []
        public var place: Place = .device(0)
        /// Set when the file's outcome needs explaining ("expected failure",
        /// "repetition 2 of 3 (Retry 1)").
        public var note: String = ""
        /// Whether the identifier is still to be made from the suite around it (xcresulttool).
        public var namedAfterSuite = false

        public init(
            identifier: String, name: String, outcome: Outcome, duration: Double?, message: String? = nil,
            place: Place = .device(0)
        ) {
            self.identifier = identifier
            self.name = name
            self.outcome = outcome
            self.duration = duration
            self.message = message
            self.place = place
        }
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

// MARK: - A result as bytes, while its file is read

extension TestReport.TestCase {
    /// Appends the result to `bytes`, every field in turn, for `init(decoding:)`.
    func encode(into bytes: inout [UInt8]) {
        func integer(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) } }
        func text(_ value: String?) {
            guard let value else { return integer(-1) }
            integer(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }
        switch place {
        case .device(let index):
            bytes.append(0)
            integer(index)
        case .suite(let suite):
            bytes.append(1)
            integer(suite)
        case .node(let parent, let name, let identifier):
            bytes.append(2)
            integer(parent)
            text(name)
            text(identifier)
        }
        text(identifier)
        bytes.append(namedAfterSuite ? 1 : 0)
        text(name)
        bytes.append(UInt8(Outcome.allCases.firstIndex(of: outcome) ?? 0))
        integer(duration.map { Int(bitPattern: UInt($0.bitPattern)) } ?? 0)
        bytes.append(duration == nil ? 0 : 1)
        text(message)
        text(note)
        integer(tags.count)
        for tag in tags { text(tag) }
        integer(properties.count)
        for (key, value) in properties {
            text(key)
            text(value)
        }
    }

    /// A result from the bytes `encode(into:)` wrote.
    init(decoding bytes: UnsafeRawBufferPointer) {
        var at = 0
        func byte() -> UInt8 {
            defer { at += 1 }
            return bytes[at]
        }
        func integer() -> Int {
            defer { at += 8 }
            return Int(Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: Int64.self)))
        }
        func text() -> String? {
            let count = integer()
            guard count >= 0 else { return nil }
            defer { at += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<at + count]), as: UTF8.self)
        }
        switch byte() {
        case 0: place = .device(integer())
        case 1: place = .suite(integer())
        default: place = .node(parent: integer(), deviceName: text(), deviceIdentifier: text())
        }
        identifier = text() ?? ""
        namedAfterSuite = byte() == 1
        name = text() ?? ""
        outcome = Outcome.allCases[Int(byte()) % Outcome.allCases.count]
        let bits = integer()
        duration = byte() == 1 ? Double(bitPattern: UInt64(UInt(bitPattern: bits))) : nil
        message = text()
        note = text() ?? ""
        tags = (0..<integer()).map { _ in text() ?? "" }
        properties = (0..<integer()).map { _ in (text() ?? "", text() ?? "") }
    }
}
