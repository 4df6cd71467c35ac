#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One observation QA logs: the claim, the outcome, and what was measured and kept.
public struct Observation: Equatable, Sendable {
    public var claimKey: String
    public var outcome: Outcome
    public var posture: Posture?
    public var note: String
    public var measurements: [MeasurementDraft]
    /// Files to attach, as given on the command line.
    public var attachments: [String]
    /// When the check happened (a date or timestamp); now when nil.
    public var checkedAt: String?
    /// False when the tester gave no result: the claim's expected values
    /// judge it from the measurements (and `outcome` is not read).
    public var outcomeGiven = true
    /// Issues (bug URLs) that track what this result shows.
    public var issues: [String] = []

    public init(
        claimKey: String, outcome: Outcome, posture: Posture? = nil, note: String = "",
        measurements: [MeasurementDraft] = [], attachments: [String] = [], checkedAt: String? = nil
    ) {
        self.claimKey = claimKey
        self.outcome = outcome
        self.posture = posture
        self.note = note
        self.measurements = measurements
        self.attachments = attachments
        self.checkedAt = checkedAt
    }
}

/// Which run a logged result joins.
public enum RunChoice: Equatable, Sendable {
    /// A run by number or UUID.
    case existing(String)
    /// The manual run of this environment and tester on the result's day, or a
    /// new one. `newModel` takes a model close to a recorded one as new, not a typo.
    case matching(EnvironmentSpec, tester: String, newModel: Bool = false)
}

public struct LoggedResult: Equatable, Sendable {
    public var resultID: Int64
    public var resultUUID: String = ""
    public var run: RunRecord
    public var startedRun: Bool
    /// The result written: the tester's, or the one the expected values gave.
    public var outcome: Outcome
    /// Measurements outside the claim's expected values, one sentence each.
    public var misses: [String]
    /// Why the result will count for less or for nothing (its environment is
    /// not current, its model is not one the claim speaks about, it lacks a
    /// capability the claim needs), one sentence each.
    public var notes: [String] = []

    public init(resultID: Int64, run: RunRecord, startedRun: Bool, outcome: Outcome = .pass, misses: [String] = []) {
        self.resultID = resultID
        self.run = run
        self.startedRun = startedRun
        self.outcome = outcome
        self.misses = misses
    }
}
