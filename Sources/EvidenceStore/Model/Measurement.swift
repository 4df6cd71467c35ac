#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A named number with an explicit unit, and the baseline it moved from:
/// `status-bar clock y=171pt from 87pt` is 171 pt from 87 pt, so +84 pt.
public struct MeasurementDraft: Equatable, Sendable {
    public var name: String
    public var value: Double
    public var unit: MeasurementUnit
    public var baseline: Double?
    /// The posture it was taken in, when it differs from its result's.
    public var posture: Posture?
    /// For the mean of a metric's samples (an XCTest metric): how many, and their standard deviation.
    public var samples: Int64?
    public var standardDeviation: Double?

    public init(name: String, value: Double, unit: MeasurementUnit, baseline: Double? = nil, posture: Posture? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.posture = posture
    }

    /// As the store and the text format keep it.
    public var record: TextFormat.Measurement {
        TextFormat.Measurement(
            name: name, value: value, unit: unit.rawValue, baseline: baseline, posture: posture?.rawValue, samples: samples,
            standardDeviation: standardDeviation)
    }

    public var delta: Double? { baseline.map { value - $0 } }

    public static let form = "NAME=VALUE UNIT [from BASELINE] [at POSTURE], such as 'status-bar clock y=171pt from 87pt'"

    /// Parses the command line's form of a measurement.
    public init(parsing text: String) throws {
        func invalid() -> EvidenceError {
            EvidenceError.invalidValue(field: "measurement", value: text, expected: Self.form)
        }
        guard let equals = text.firstIndex(of: "=") else { throw invalid() }
        let name = text[..<equals].trimmingWhitespace()
        guard !name.isEmpty else { throw invalid() }
        var words = text[text.index(after: equals)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]

        // VALUE UNIT, written together (171pt) or apart (171 pt).
        func quantity(unitRequired: Bool) throws -> (Double, MeasurementUnit?) {
            guard let word = words.popFirst() else { throw invalid() }
            let numberEnd = word.firstIndex { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") } ?? word.endIndex
            guard let number = Self.number(String(word[..<numberEnd])) else { throw invalid() }
            var unitText = String(word[numberEnd...])
            if unitText.isEmpty, let next = words.first, next != "from", next != "at" {
                unitText = next
                words = words.dropFirst()
            }
            if unitText.isEmpty {
                if unitRequired { throw invalid() }
                return (number, nil)
            }
            guard let unit = MeasurementUnit(rawValue: unitText) else {
                throw EvidenceError.invalidValue(
                    field: "measurement", value: text,
                    expected: Self.form + "; the unit '\(unitText)' is not one of "
                        + MeasurementUnit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return (number, unit)
        }

        let (value, parsedUnit) = try quantity(unitRequired: true)
        guard let unit = parsedUnit else { throw invalid() }
        var baseline: Double?
        var posture: Posture?
        while let word = words.popFirst() {
            switch word {
            case "from" where baseline == nil:
                let (number, baselineUnit) = try quantity(unitRequired: false)
                if let baselineUnit, baselineUnit != unit {
                    throw EvidenceError.invalidValue(
                        field: "measurement", value: text,
                        expected: "the baseline in the value's unit (\(unit.rawValue)), not \(baselineUnit.rawValue)")
                }
                baseline = number
            case "at" where posture == nil:
                guard let name = words.popFirst() else { throw invalid() }
                guard let parsed = try? Posture(parsing: name) else {
                    throw EvidenceError.invalidValue(
                        field: "measurement", value: text,
                        expected: Self.form + "; the posture '\(name)' is not " + Posture.acceptedValues)
                }
                posture = parsed
            default:
                throw invalid()
            }
        }
        if let problem = Self.rangeProblem(value: value, baseline: baseline) {
            throw EvidenceError.invalidValue(field: "measurement", value: text, expected: problem)
        }
        self.init(name: name, value: value, unit: unit, baseline: baseline, posture: posture)
    }

    /// The largest size a measured number may have: every table prints it
    /// in plain digits, exactly (it is below 2^53), every chart draws it, and
    /// a value's change from its baseline is as exact.
    public static let largest = 1e15
    /// The smallest size other than zero: nine decimal places.
    public static let smallest = 1e-9
    /// The range as people read it in errors and README.
    public static let range = "a number from -1000000000000000 to 1000000000000000, zero or at least 0.000000001 in size"

    /// Whether a number is one a measurement may hold.
    public static func inRange(_ number: Double) -> Bool {
        number.isFinite && abs(number) <= largest && (number == 0 || abs(number) >= smallest)
    }

    /// Why a value or its baseline cannot be kept, naming it; nil when both can.
    public static func rangeProblem(value: Double, baseline: Double?) -> String? {
        for (what, number) in [("value", value), ("baseline", baseline)] {
            guard let number, !inRange(number) else { continue }
            return "\(what) \(NumberText.format(number)) is outside the range a measurement may hold: \(range)"
        }
        return nil
    }

    /// A plain decimal number: `171`, `-84`, `0.5`. No exponents, no separators.
    static func number(_ text: String) -> Double? {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !body.isEmpty, parts.count <= 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts.contains(where: { !$0.isEmpty })
        else { return nil }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// "171 pt from 87 pt (+84 pt)"
    public var summary: String {
        Self.summary(value: value, unit: unit.rawValue, baseline: baseline)
    }

    public static func summary(value: Double, unit: String, baseline: Double?) -> String {
        var out: [UInt8] = []
        appendSummary(value: value, unit: unit, baseline: baseline, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same summary, written as UTF-8 into a buffer (reports write millions).
    public static func appendSummary(value: Double, unit: String, baseline: Double?, into out: inout [UInt8]) {
        func quantity(_ number: Double) {
            NumberText.append(number, into: &out)
            if MeasurementUnit(rawValue: unit)?.isAttached != true { out.append(UInt8(ascii: " ")) }
            out.append(contentsOf: unit.utf8)
        }
        if let baseline {
            quantity(baseline)
            out.append(contentsOf: " → ".utf8)
        }
        quantity(value)
        guard let baseline else { return }
        let delta = NumberText.rounded(value - baseline)
        out.append(contentsOf: " (Δ ".utf8)
        if delta > 0 { out.append(UInt8(ascii: "+")) } else if delta < 0 { out.append(UInt8(ascii: "-")) }
        quantity(abs(delta))
        out.append(UInt8(ascii: ")"))
    }
}
