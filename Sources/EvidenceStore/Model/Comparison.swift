/// One side of `evidence compare`: a run, or a model's environments at one
/// OS version or build (on simulators, devices, or both).
public enum ComparisonSide: Equatable, Sendable {
    case run(String)
    case build(model: String, kind: EnvironmentKind?, version: String)

    public var description: String {
        switch self {
        case .run(let reference): return "run \(reference)"
        case .build(let model, let kind, let version):
            return model + (kind.map { " " + $0.rawValue } ?? "") + " at " + version
        }
    }
}

/// What a side of a comparison holds, resolved: the environments its results
/// come from, or the run.
public struct ResolvedSide: Equatable, Sendable {
    public var label: String
    public var runID: Int64?
    public var environmentIDs: [Int64]
}

/// A claim or a test on one kind of environment of a side: device and
/// simulator results are compared each with their own kind.
public struct SideKey: Hashable, Sendable, Comparable {
    public var name: String
    public var kind: EnvironmentKind

    public static func < (left: SideKey, right: SideKey) -> Bool {
        (left.name, left.kind.rawValue) < (right.name, right.kind.rawValue)
    }
}

/// The latest decisive result of a claim or a test on one side.
public struct SideOutcome: Equatable, Sendable {
    public var outcome: Outcome
    public var environment: String
    public var run: String
}

/// The latest value of a measurement on one side.
public struct SideMeasurement: Equatable, Sendable {
    public var value: Double
    public var unit: String
    public var environment: String
}

/// What is compared: a claim by key, or an automated test by identifier
/// whether or not it maps to a claim.
public enum ComparisonSubject: String, Sendable, CaseIterable {
    case claim
    case test
}

/// How a claim, a test or a measurement changed from one side to the other.
public enum ComparisonChange: String, Vocabulary {
    case regressed
    case fixed
    case stillFailing = "still-failing"
    case newlyCovered = "newly-covered"
    case noLongerCovered = "no-longer-covered"
    case moved

    public static let field = "change"

    /// From the latest decisive outcome on each side; nil when nothing changed
    /// worth a line (a pass on both sides, or nothing decisive on either).
    public static func between(_ from: Outcome?, _ to: Outcome?) -> ComparisonChange? {
        switch (from, to) {
        case (.pass?, .fail?): return .regressed
        case (.fail?, .pass?): return .fixed
        case (.fail?, .fail?): return .stillFailing
        case (nil, _?): return .newlyCovered
        case (_?, nil): return .noLongerCovered
        default: return nil
        }
    }
}

/// One line of a comparison.
public struct ComparisonRow: TableRow, Equatable, Sendable {
    public var subject: ComparisonSubject
    /// The claim's key or the test's identifier; for a measurement, with its name after " · ".
    public var name: String
    /// The kind of environment both sides' results are on.
    public var kind: EnvironmentKind
    public var change: ComparisonChange
    public var from: String?
    public var to: String?
    public var delta: Double?
    public var unit: String?
    public var fromEnvironment: String?
    public var toEnvironment: String?
    /// For a claim that fails on the later side: the issues known to track its failures.
    public var known: String?

    public static let columns = [
        "subject", "name", "kind", "change", "from", "to", "delta", "unit", "from_environment", "to_environment", "known",
    ]
    public var cells: [TableValue] {
        [
            .text(subject.rawValue), .text(name), .text(kind.rawValue), .text(change.rawValue), TableValue(from),
            TableValue(to), TableValue(delta), TableValue(unit), TableValue(fromEnvironment), TableValue(toEnvironment),
            TableValue(known),
        ]
    }
}

/// A whole comparison: its two sides and its lines, in a fixed order.
public struct Comparison: Equatable, Sendable {
    public var from: String
    public var to: String
    public var rows: [ComparisonRow]

    public func count(_ change: ComparisonChange) -> Int { rows.filter { $0.change == change }.count }
}

/// A measurement compared across sides: whose, which, in what posture.
public struct MeasurementKey: Hashable, Sendable, Comparable {
    public var subject: ComparisonSubject
    public var name: String
    public var measurement: String
    public var posture: String
    public var kind: EnvironmentKind

    public init(subject: ComparisonSubject, name: String, measurement: String, posture: String, kind: EnvironmentKind) {
        self.subject = subject
        self.name = name
        self.measurement = measurement
        self.posture = posture
        self.kind = kind
    }

    public static func < (left: MeasurementKey, right: MeasurementKey) -> Bool {
        (left.subject.rawValue, left.name, left.measurement, left.posture, left.kind.rawValue)
            < (right.subject.rawValue, right.name, right.measurement, right.posture, right.kind.rawValue)
    }

    /// "island.clock-offset.closed · status-bar clock y (closed)"
    public var label: String {
        name + " · " + measurement + (posture.isEmpty ? "" : " (\(posture))")
    }
}

/// One result in a claim's history.
public struct HistoryEntry: TableRow, Equatable, Sendable {
    /// The result's short UUID, the same in every clone.
    public var result: String
    /// This store's number for it.
    public var local: Int64
    public var checkedAt: String?
    public var environment: String
    public var outcome: String
    public var posture: String?
    public var measurements: String
    public var note: String
    public var run: String
    public var retracted: String?
    /// True when it was on a model the claim does not speak about: never counted.
    public var onOtherModel: Bool
    /// For a pass that never counts: the capabilities its environment lacks.
    public var lacks: String?

    public init(_ entry: ClaimDetail.ResultEntry) {
        result = ResultIdentity.shortName(entry.resultUUID)
        local = entry.resultID
        checkedAt = entry.checkedAt
        environment = entry.environment
        outcome = entry.outcome
        posture = entry.posture
        measurements = entry.measurements.joined(separator: "; ")
        note = entry.note
        run = String(entry.runUUID.prefix(8))
        retracted = entry.retraction?.resultSummary
        onOtherModel = entry.onOtherModel
        lacks = entry.lacking
    }

    public static let columns = [
        "result", "local", "checked_at", "environment", "outcome", "posture", "measurements", "note", "run", "retracted",
        "on_other_model", "does_not_count",
    ]
    public var cells: [TableValue] {
        [
            .text(result), .integer(local), TableValue(checkedAt), .text(environment), .text(outcome), TableValue(posture),
            .text(measurements), .text(note), .text(run), TableValue(retracted), .text(onOtherModel ? "yes" : ""),
            .text(lacks.map { "lacks \($0)" } ?? ""),
        ]
    }
}

/// A claim or a test that both passed and failed on one environment within its last results.
public struct FlakyListing: TableRow, Equatable, Sendable {
    /// How many of a subject's latest results on an environment are looked at.
    public static let defaultWindow = 10

    public var subject: ComparisonSubject
    public var name: String
    public var environment: String
    public var passes: Int
    public var fails: Int
    /// The results looked at (at most the window).
    public var results: Int

    public static let columns = ["subject", "name", "environment", "passes", "fails", "results"]
    public var cells: [TableValue] {
        [.text(subject.rawValue), .text(name), .text(environment), TableValue(passes), TableValue(fails), TableValue(results)]
    }

    /// "passed 2 and failed 1 of its last 3 results on iPhone Duo simulator, iOS 27.2"
    public var summary: String {
        "passed \(passes) and failed \(fails) of its last \(results) results on \(environment)"
    }
}
