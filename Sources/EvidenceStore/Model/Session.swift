/// Which claims a guided session walks through. With keys, exactly those;
/// otherwise the claims in any of the chosen states (needing a device, with
/// no result, stale), narrowed to a document and an area when given.
/// Not-published claims are not QA work and come only when named.
public struct SessionSelection: Equatable, Sendable {
    public var keys: [String]
    public var states: Set<VerificationState>
    public var document: String?
    public var area: String?
    /// Only claims this person owns.
    public var owner: String?

    public init(
        keys: [String] = [], states: Set<VerificationState> = [], document: String? = nil, area: String? = nil,
        owner: String? = nil
    ) {
        self.owner = owner
        self.keys = keys
        self.states = states
        self.document = document
        self.area = area
    }

    /// With no keys and no states: what needs a device for a device session,
    /// what has no result yet for a simulator session.
    public func withDefaults(for kind: EnvironmentKind) -> SessionSelection {
        guard keys.isEmpty, states.isEmpty else { return self }
        var copy = self
        copy.states = kind == .device ? [.needsDevice] : [.untested]
        return copy
    }
}

/// What a tester answers for one claim.
public enum SessionAnswer: Equatable, Sendable {
    /// A result to log, complete.
    case result(Observation)
    /// On to the next claim without logging.
    case next
    /// Retract the result this session logged last, and ask its claim again.
    case undo
    /// End the session.
    case quit
}

/// A measurement the claim has had before, offered by name and unit with its
/// last baseline: `status-bar clock y [pt], from 87`.
public struct MeasurementPrompt: Equatable, Sendable {
    public var name: String
    public var unit: MeasurementUnit
    public var baseline: Double?
    /// The last value measured, shown for reference.
    public var lastValue: Double

    public init(name: String, unit: MeasurementUnit, baseline: Double?, lastValue: Double) {
        self.name = name
        self.unit = unit
        self.baseline = baseline
        self.lastValue = lastValue
    }

    /// `status-bar clock y [pt], from 87`
    public var label: String {
        "\(name) [\(unit.rawValue)]" + (baseline.map { ", from " + NumberText.format($0) } ?? "")
    }

    /// The measurement an answer gives: a value (`171`), a value and a
    /// baseline (`171 from 90`), each with or without the unit; the prompt's
    /// baseline is kept when none is given.
    public func draft(from answer: String) throws -> MeasurementDraft {
        let words = answer.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func number(_ word: String) -> Double? {
            let digits = word.hasSuffix(unit.rawValue) ? String(word.dropLast(unit.rawValue.count)) : word
            return MeasurementDraft.number(digits)
        }
        let value: Double?
        var baseline = self.baseline
        switch words.count {
        case 1:
            value = number(words[0])
        case 3 where words[1] == "from":
            value = number(words[0])
            baseline = number(words[2])
            if baseline == nil { return try invalid(answer) }
        default:
            value = nil
        }
        guard let value else { return try invalid(answer) }
        if let problem = MeasurementDraft.rangeProblem(value: value, baseline: baseline) {
            throw EvidenceError.invalidValue(field: name, value: answer, expected: problem)
        }
        return MeasurementDraft(name: name, value: value, unit: unit, baseline: baseline)
    }

    private func invalid(_ answer: String) throws -> MeasurementDraft {
        throw EvidenceError.invalidValue(
            field: name, value: answer,
            expected: "a number in \(unit.rawValue), such as '\(NumberText.format(lastValue))', optionally 'from BASELINE'")
    }

    /// A measurement as `--measure` writes it, or a prompt's name with only a
    /// value (`status-bar clock y=171`, `…=171 from 90`), filled in from the prompt.
    public static func measurement(_ text: String, prompts: [MeasurementPrompt]) throws -> MeasurementDraft {
        if let equals = text.firstIndex(of: "=") {
            let name = text[..<equals].trimmingWhitespace()
            if let prompt = prompts.first(where: { $0.name == name }),
                let draft = try? prompt.draft(from: String(text[text.index(after: equals)...]).trimmingWhitespace())
            {
                return draft
            }
        }
        return try MeasurementDraft(parsing: text)
    }
}

/// What a session did, for its closing summary.
public struct SessionSummary: Equatable, Sendable {
    public struct Logged: Equatable, Sendable {
        public var key: String
        public var outcome: Outcome
        public var resultID: Int64
    }

    /// Claims logged, with their result, in order (an undone one is gone).
    public var logged: [Logged] = []
    /// Claims whose result was undone (retracted).
    public var undone: [String] = []
    /// Claims passed over without a result.
    public var passedOver: [String] = []
    /// Claims not reached before the session ended.
    public var notReached: [String] = []
    /// Claims of the session that still need a device afterwards.
    public var stillNeedingDevice: [String] = []
    /// The run the results went to, when any was logged.
    public var run: String?

    public init() {}
}
