/// What a claim's measurement must be: `status-bar clock y=171pt ±2pt`.
public struct ExpectedValue: Equatable, Sendable {
    public var name: String
    public var value: Double
    public var unit: MeasurementUnit
    public var tolerance: Double

    public init(name: String, value: Double, unit: MeasurementUnit, tolerance: Double) {
        self.name = name
        self.value = value
        self.unit = unit
        self.tolerance = tolerance
    }

    public static let form = "NAME=VALUE UNIT [±TOLERANCE], such as 'status-bar clock y=171pt ±2pt' (+- for ±)"

    /// Parses `NAME=VALUE UNIT ±TOLERANCE`; the tolerance takes the value's
    /// unit (written or not) and is 0 when left out.
    public init(parsing text: String) throws {
        func invalid(_ why: String? = nil) -> EvidenceError {
            EvidenceError.invalidValue(field: "expected value", value: text, expected: Self.form + (why.map { "; " + $0 } ?? ""))
        }
        let normalised = text.replacingEvery("+-", with: "±")
        let parts = normalised.split(separator: "±", maxSplits: 1, omittingEmptySubsequences: false)
        let measured = try MeasurementDraft(parsing: String(parts[0]).trimmingWhitespace())
        guard measured.baseline == nil, measured.posture == nil else { throw invalid("no 'from' or 'at' in an expected value") }
        var tolerance = 0.0
        if parts.count == 2 {
            var word = parts[1].trimmingWhitespace()
            if word.hasSuffix(measured.unit.rawValue) { word = String(word.dropLast(measured.unit.rawValue.count)) }
            guard let number = MeasurementDraft.number(word.trimmingWhitespace()), number >= 0 else {
                throw invalid("the tolerance is a number of \(measured.unit.rawValue), 0 or more")
            }
            tolerance = number
        }
        self.init(name: measured.name, value: measured.value, unit: measured.unit, tolerance: tolerance)
    }

    /// Whether a measurement of this name is within the tolerance; one in
    /// another unit is not.
    public func accepts(_ measurement: MeasurementDraft) -> Bool {
        accepts(value: measurement.value, unit: measurement.unit.rawValue)
    }

    /// The same for a value and the name of its unit, as the store holds them.
    public func accepts(value measured: Double, unit measuredUnit: String) -> Bool {
        measuredUnit == unit.rawValue && abs(measured - value) <= tolerance * (1 + 1e-12) + 1e-9
    }

    /// "171 ±2 pt"
    public var summary: String {
        let number = NumberText.format(value) + (tolerance > 0 ? " ±" + NumberText.format(tolerance) : "")
        return number + (unit.isAttached ? "" : " ") + unit.rawValue
    }
}

/// A result judged against a claim's expected values.
public struct ExpectationVerdict: Equatable, Sendable {
    /// The outcome the expectations give: pass when every measurement is within
    /// its tolerance, fail otherwise; nil when a measurement has none (or there is none).
    public var outcome: Outcome?
    /// One sentence per measurement outside its tolerance.
    public var misses: [String]

    public init(measurements: [MeasurementDraft], expectations: [ExpectedValue]) {
        var misses: [String] = []
        var complete = !measurements.isEmpty
        for measurement in measurements {
            guard let expected = expectations.first(where: { $0.name == measurement.name }) else {
                complete = false
                continue
            }
            if !expected.accepts(measurement) {
                misses.append(
                    "\(measurement.name): measured \(MeasurementDraft.summary(value: measurement.value, unit: measurement.unit.rawValue, baseline: nil)), "
                        + "expected \(expected.summary)")
            }
        }
        self.misses = misses
        outcome = complete ? (misses.isEmpty ? .pass : .fail) : (misses.isEmpty ? nil : .fail)
    }
}
