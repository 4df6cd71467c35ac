/// What a claim's measurement must be: `status-bar clock y=171pt ±2pt`, or
/// one-sided, as a metric with a polarity is: `launch time<=0.4s` (at most),
/// `scroll frame rate>=60fps` (at least).
public struct ExpectedValue: Equatable, Sendable {
    /// Which side of the value a measurement may fall.
    public enum Bound: String, Vocabulary {
        /// The value, within the tolerance either side.
        case within
        /// The value or less.
        case atMost = "at-most"
        /// The value or more.
        case atLeast = "at-least"

        public static let field = "bound"
    }

    public var name: String
    public var value: Double
    public var unit: MeasurementUnit
    public var tolerance: Double
    public var bound: Bound

    public init(name: String, value: Double, unit: MeasurementUnit, tolerance: Double, bound: Bound = .within) {
        self.name = name
        self.value = value
        self.unit = unit
        self.tolerance = tolerance
        self.bound = bound
    }

    public static let form =
        "NAME=VALUE UNIT [±TOLERANCE], NAME<=VALUE UNIT (at most) or NAME>=VALUE UNIT (at least), such as "
        + "'status-bar clock y=171pt ±2pt' (+- for ±) or 'launch time<=0.4s'"

    /// Parses `NAME=VALUE UNIT ±TOLERANCE` (the tolerance takes the value's
    /// unit, written or not, and is 0 when left out), `NAME<=VALUE UNIT` or
    /// `NAME>=VALUE UNIT` (also written ≤ and ≥), one-sided and without a tolerance.
    public init(parsing text: String) throws {
        func invalid(_ why: String? = nil) -> EvidenceError {
            EvidenceError.invalidValue(field: "expected value", value: text, expected: Self.form + (why.map { "; " + $0 } ?? ""))
        }
        var normalised = text.replacingEvery("+-", with: "±")
        var bound = Bound.within
        // The first comparison sign before the value makes it one-sided: NAME<=VALUE reads as NAME=VALUE, at most.
        if let sign = normalised.firstIndex(where: { "<>≤≥=".contains($0) }), normalised[sign] != "=" {
            let symbol = normalised[sign]
            bound = symbol == "<" || symbol == "≤" ? .atMost : .atLeast
            var after = normalised.index(after: sign)
            if symbol == "<" || symbol == ">" {
                guard after < normalised.endIndex, normalised[after] == "=" else { throw invalid("write <= or >=") }
                after = normalised.index(after: after)
            }
            normalised = String(normalised[..<sign]) + "=" + String(normalised[after...])
        }
        let parts = normalised.split(separator: "±", maxSplits: 1, omittingEmptySubsequences: false)
        let measured = try MeasurementDraft(parsing: String(parts[0]).trimmingWhitespace())
        guard measured.baseline == nil, measured.posture == nil else { throw invalid("no 'from' or 'at' in an expected value") }
        var tolerance = 0.0
        if parts.count == 2 {
            guard bound == .within else { throw invalid("an 'at most' or 'at least' value takes no tolerance") }
            var word = parts[1].trimmingWhitespace()
            if word.hasSuffix(measured.unit.rawValue) { word = String(word.dropLast(measured.unit.rawValue.count)) }
            guard let number = MeasurementDraft.number(word.trimmingWhitespace()), number >= 0 else {
                throw invalid("the tolerance is a number of \(measured.unit.rawValue), 0 or more")
            }
            tolerance = number
        }
        self.init(name: measured.name, value: measured.value, unit: measured.unit, tolerance: tolerance, bound: bound)
    }

    /// Whether a measurement of this name is within what is expected; one in
    /// another unit is not.
    public func accepts(_ measurement: MeasurementDraft) -> Bool {
        accepts(value: measurement.value, unit: measurement.unit.rawValue)
    }

    /// The same for a value and the name of its unit, as the store holds them.
    public func accepts(value measured: Double, unit measuredUnit: String) -> Bool {
        guard measuredUnit == unit.rawValue else { return false }
        // The slack forgives the last bits of a decimal written in binary, never a real difference.
        let slack = tolerance * 1e-12 + 1e-9
        switch bound {
        case .within: return abs(measured - value) <= tolerance + slack
        case .atMost: return measured <= value + slack
        case .atLeast: return measured >= value - slack
        }
    }

    /// "171 ±2 pt", "at most 0.4 s", "at least 60 fps"
    public var summary: String {
        let number = NumberText.format(value) + (tolerance > 0 ? " ±" + NumberText.format(tolerance) : "")
        let amount = number + (unit.isAttached ? "" : " ") + unit.rawValue
        switch bound {
        case .within: return amount
        case .atMost: return "at most " + amount
        case .atLeast: return "at least " + amount
        }
    }

    /// The lowest and highest values it accepts, for a chart's band; an open side is nil.
    public var range: (low: Double?, high: Double?) {
        switch bound {
        case .within: return (value - tolerance, value + tolerance)
        case .atMost: return (nil, value)
        case .atLeast: return (value, nil)
        }
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
