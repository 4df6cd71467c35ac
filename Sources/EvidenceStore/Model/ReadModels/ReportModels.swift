/// What the published reports read: claims with their derived state, the run
/// log, what needs a device, what went stale. Every state comes from the
/// store's `claim_state` view; nothing here decides a state on its own.
public struct ReportClaim: Sendable {
    /// A result the report cites as evidence for a claim.
    public struct Evidence: Sendable {
        public var environment: String
        public var result: String
        public var run: String
        public var checkedAt: String?
        public var posture: String?

        public init(environment: String, result: String, run: String, checkedAt: String?, posture: String?) {
            self.environment = environment
            self.result = result
            self.run = run
            self.checkedAt = checkedAt
            self.posture = posture
        }
    }

    public var key: String
    public var statement: String
    public var document: String
    public var area: String
    public var label: Label
    public var asOf: String?
    public var state: VerificationState
    public var reason: String
    public var sources: [ClaimDetail.SourceLink]
    /// The result the state rests on: the failure, the pass that verifies it,
    /// or the stale result; nil for an untested claim.
    public var decidedBy: Evidence?
    /// The last result recorded, when it is not the one above.
    public var lastLogged: Evidence?
    public var resultCount: Int
    /// The latest pass or fail on each environment of a model the claim does
    /// not speak about: shown, never counted.
    public var otherModels: [Evidence] = []
    /// Who answers for it; empty for no one.
    public var owner = ""
    /// The measurements of the result the state rests on, each with the
    /// claim's expected value of that name when it has one.
    public var measured: [MeasurementValue] = []
    /// Expected values no measurement of that result answers.
    public var unmeasured: [ExpectedValue] = []
    /// Whether the reason names the run and environment of `decidedBy`
    /// (claim_state's reason_names_run).
    public var reasonNamesRun = false
    /// The issues the reason ends with ("; known: URL, URL"), from claim_state.
    public var knownIssues: [String] = []
    /// Its mismatches, as claim_state gives them with the state.
    public var mismatches: [Mismatch] = []

    public init(
        key: String, statement: String, document: String, area: String, label: Label, asOf: String?,
        state: VerificationState, reason: String, sources: [ClaimDetail.SourceLink], decidedBy: Evidence?,
        lastLogged: Evidence?, resultCount: Int
    ) {
        self.key = key
        self.statement = statement
        self.document = document
        self.area = area
        self.label = label
        self.asOf = asOf
        self.state = state
        self.reason = reason
        self.sources = sources
        self.decidedBy = decidedBy
        self.lastLogged = lastLogged
        self.resultCount = resultCount
    }
}

// MARK: - The run log

/// A run as the run log opens it.
public struct RunLogRun: Sendable {
    public var uuid: String
    public var startedAt: String?
    public var environment: EnvironmentSpec
    public var tester: String
    public var note: String
    /// The name of the file it was ingested from.
    public var sourceFile: String?
    /// Automated results that map to no claim: how many of each outcome.
    public var unmappedCounts: [(outcome: String, count: Int)]
    /// The failures among them: test identifier and message.
    public var unmappedFailures: [(test: String, message: String)]
    /// Set when the whole run was retracted.
    public var retraction: Retraction?

    public init(
        uuid: String, startedAt: String?, environment: EnvironmentSpec, tester: String, note: String,
        sourceFile: String?, unmappedCounts: [(outcome: String, count: Int)] = [],
        unmappedFailures: [(test: String, message: String)] = [], retraction: Retraction? = nil
    ) {
        self.retraction = retraction
        self.uuid = uuid
        self.startedAt = startedAt
        self.environment = environment
        self.tester = tester
        self.note = note
        self.sourceFile = sourceFile
        self.unmappedCounts = unmappedCounts
        self.unmappedFailures = unmappedFailures
    }
}

/// A measurement as the run log and `claim show` show it.
public struct MeasurementValue: Sendable, Equatable {
    public var name: String
    public var value: Double
    public var unit: MeasurementUnit
    public var baseline: Double?
    /// The posture it was taken in, when it differs from its result's.
    public var posture: Posture?
    /// What the claim expects of it, when it expects anything.
    public var expected: ExpectedValue?

    public init(
        name: String, value: Double, unit: MeasurementUnit, baseline: Double?, posture: Posture?, expected: ExpectedValue? = nil
    ) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.posture = posture
        self.expected = expected
    }

    /// "87 pt → 171 pt (Δ +84 pt)", then what was expected beside it:
    /// "; expected 171 ±2 pt" or "; expected 171 ±2 pt, outside".
    public var summary: String {
        var text = MeasurementDraft.summary(value: value, unit: unit.rawValue, baseline: baseline)
        if let expected {
            let within = expected.accepts(value: value, unit: unit.rawValue)
            text += "; expected " + expected.summary + (within ? "" : ", outside")
        }
        return text
    }
}

/// One result of the run log that maps to a claim.
public struct RunLogEntry: Sendable {
    public var claimKey: String
    public var result: Outcome
    public var posture: Posture?
    public var checkedAt: String?
    public var note: String
    public var testID: String?
    public var duration: Double?
    public var message: String?
    public var measurements: [MeasurementValue]
    /// Set when the result, or its whole run, was retracted.
    public var retraction: Retraction?

    public init(
        claimKey: String, result: Outcome, posture: Posture?, checkedAt: String?, note: String, testID: String?,
        duration: Double?, message: String?, measurements: [MeasurementValue], retraction: Retraction? = nil
    ) {
        self.retraction = retraction
        self.claimKey = claimKey
        self.result = result
        self.posture = posture
        self.checkedAt = checkedAt
        self.note = note
        self.testID = testID
        self.duration = duration
        self.message = message
        self.measurements = measurements
    }
}

/// What the run log holds for a run, in order: it opens, its results follow,
/// then it closes (with its automated results that map to no claim).
public enum RunLogEvent: Sendable {
    case runStart(RunLogRun)
    case entry(RunLogEntry)
    case runEnd(RunLogRun)
}

/// The run log, read as it is written: a store of a million results never
/// holds them all in memory. Its runs can be read in any order, so that two
/// writers can share one log.
public protocol RunLogSource {
    /// How many runs the log holds.
    var runCount: Int { get }
    /// Calls `body` with the events of the run at `index` (from 0), in order:
    /// its start, its results, its end.
    func forEachEvent(ofRun index: Int, _ body: (RunLogEvent) throws -> Void) throws
}

// MARK: - Sections of the report

/// A claim that needs a capability a simulator lacks, and who says so.
public struct DeviceNeed: Sendable, Equatable {
    public var claim: String
    public var capability: String
    public var lackedBy: String
    public var sourceTitle: String?
    public var sourceURL: String?
    public var reportedIn: String?
    public var note: String

    public init(
        claim: String, capability: String, lackedBy: String, sourceTitle: String?, sourceURL: String?,
        reportedIn: String?, note: String
    ) {
        self.claim = claim
        self.capability = capability
        self.lackedBy = lackedBy
        self.sourceTitle = sourceTitle
        self.sourceURL = sourceURL
        self.reportedIn = reportedIn
        self.note = note
    }
}

/// Claims of one document, label and state: a row of `evidence status`.
public struct StateCount: Sendable, Equatable, TableRow {
    /// The document, or with `status --by owner` the owner ("" for none).
    public var document: String
    public var label: Label
    public var state: VerificationState
    public var count: Int
    /// The issues that track the failures of these claims (failing ones only).
    public var known: [String] = []

    public init(document: String, label: Label, state: VerificationState, count: Int, known: [String] = []) {
        self.document = document
        self.label = label
        self.state = state
        self.count = count
        self.known = known
    }

    public static let columns = ["document", "qa_work", "label", "state", "claims", "known"]
    public var cells: [TableValue] {
        [
            .text(document), .text(label.isQAWork ? "yes" : "no"), .text(label.rawValue), .text(state.rawValue),
            .integer(Int64(count)), known.isEmpty ? .null : .text(known.joined(separator: ", ")),
        ]
    }

    /// The counts as a table whose first column names the grouping: document or owner.
    public static func table(_ rows: [StateCount], by grouping: String) -> Tabular {
        var table = Tabular(rows)
        table.columns[0] = grouping
        return table
    }
}

/// A label the evidence does not support, as `claim_mismatches` gives it.
public struct Mismatch: Sendable, Equatable {
    /// What kind of problem: the label's (`measured`, `sourced`,
    /// `unverified`) or the evidence's (`failing`).
    public enum Kind: String, Vocabulary {
        case measured, sourced, failing, unverified

        public static let field = "mismatch kind"
    }

    public var claim: String
    public var label: Label
    public var state: VerificationState
    public var kind: Kind
    /// The problem in words, without the state's reason: "labelled measured
    /// but has no current pass".
    public var problem: String
    /// The claim's state's reason.
    public var reason: String

    /// The whole sentence: the problem, then what the evidence says where the
    /// problem is about it (for a measured label the state, then the reason).
    public var text: String {
        switch kind {
        case .sourced: problem
        case .measured: "\(problem): \(state.rawValue): \(reason)"
        case .failing, .unverified: "\(problem): \(reason)"
        }
    }

    public init(claim: String, label: Label, state: VerificationState, kind: Kind, problem: String, reason: String) {
        self.claim = claim
        self.label = label
        self.state = state
        self.kind = kind
        self.problem = problem
        self.reason = reason
    }
}

/// A claim labelled not published, with the date that holds as of.
public struct NotPublishedClaim: Sendable, Equatable {
    public var claim: String
    public var asOf: String?
    public var statement: String

    public init(claim: String, asOf: String?, statement: String) {
        self.claim = claim
        self.asOf = asOf
        self.statement = statement
    }
}

/// A source of the source list: the same facts `source show` gives.
public typealias CitedSource = SourceDetail
