#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A closed set of words the store accepts for one column, with the error that
/// lists them when a value is outside the set.
public protocol Vocabulary: CaseIterable, RawRepresentable, Hashable, Sendable where RawValue == String {
    /// How the field is named in errors: "label", "result".
    static var field: String { get }
}

extension Vocabulary {
    /// Parses a value, ignoring case; an unknown one throws with the accepted values.
    public init(parsing text: String) throws {
        let wanted = text.trimmingWhitespace().lowercased()
        guard let value = Self.allCases.first(where: { $0.rawValue.lowercased() == wanted }) else {
            throw EvidenceError.invalidValue(field: Self.field, value: text, expected: Self.acceptedValues)
        }
        self = value
    }

    /// "one of: a, b, c"
    public static var acceptedValues: String {
        "one of: " + allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Every accepted value, in order.
    public static var names: [String] { allCases.map(\.rawValue) }
}

/// What a document says about a claim.
public enum Label: String, Vocabulary {
    case measured
    case unverified
    case notPublished = "not-published"
    case sourced

    public static let field = "label"

    /// What the label means, as the report's legend says it.
    public var meaning: String {
        switch self {
        case .measured: return "We ran it on a simulator or a device; a passing result in this store must back it."
        case .unverified: return "We could not confirm it."
        case .notPublished: return "The vendor had published nothing about it as of the date given."
        case .sourced: return "A vendor page says so; the claim links to it."
        }
    }

    /// Whether QA has something to check: a not-published claim records what
    /// the vendor has not said, and is counted apart.
    public var isQAWork: Bool { self != .notPublished }
}

/// The outcome of checking a claim.
public enum Outcome: String, Vocabulary {
    case pass
    case fail
    case blocked
    case inconclusive
    case skipped

    public static let field = "result"
}

/// What a claim's retirement record does: `claim retire` takes the claim out
/// of every list and report, `claim restore` brings it back.
public enum RetirementAction: String, Vocabulary {
    case retire
    case restore

    public static let field = "action"
}

/// How the device was held or folded.
public enum Posture: String, Vocabulary {
    case closed
    case open
    case openWide = "open-wide"
    case book
    case portrait
    case landscape

    public static let field = "posture"
}

public enum SourceKind: String, Vocabulary {
    case newsroom
    case doc
    case hig
    case video
    case techTalk = "tech-talk"
    case specs
    case releaseNotes = "release-notes"
    case article
    case other

    public static let field = "source kind"

    /// The heading the source list groups sources of this kind under.
    public var title: String {
        switch self {
        case .newsroom: return "Newsroom"
        case .doc: return "Documentation"
        case .hig: return "Human Interface Guidelines"
        case .video: return "Videos"
        case .techTalk: return "Tech Talks"
        case .specs: return "Specifications"
        case .releaseNotes: return "Release notes"
        case .article: return "Articles"
        case .other: return "Other"
        }
    }
}

public enum EnvironmentKind: String, Vocabulary {
    case device
    case simulator

    public static let field = "environment kind"
}

/// The units a measurement may carry; values are never parsed out of prose.
/// Units match exactly, case included: `ms` and `MS` must not be confused.
public enum MeasurementUnit: String, Vocabulary {
    case pt
    case px
    case mm
    case ms
    case s
    case percent = "%"
    case count
    case fps
    case bytes = "B"
    case kilobytes = "KB"
    case megabytes = "MB"
    /// A ratio, written after its number as in 2.5x.
    case ratio = "x"

    public static let field = "unit"

    /// Written right after the number (71%, 2.5x), not after a space.
    public var isAttached: Bool { self == .percent || self == .ratio }
}

/// The derived verification state of a claim (computed by the `claim_state` view).
public enum VerificationState: String, Vocabulary {
    case verifiedOnDevice = "verified-on-device"
    case verifiedInSimulator = "verified-in-simulator"
    case stale
    case needsDevice = "needs-device"
    case failing
    case untested

    public static let field = "state"

    /// What the state means, as the report's legend says it.
    public var meaning: String {
        switch self {
        case .verifiedOnDevice:
            return "Its latest pass or fail on a current device with every capability the claim needs is a pass, of the claim's present words."
        case .verifiedInSimulator:
            return "The same on a current simulator, where no current device has such a pass."
        case .stale:
            return "Its pass or fail is on builds older than the newest recorded for that model, or passed words the claim no longer has."
        case .needsDevice: return "Needs a capability the simulator lacks, and has no pass or fail where it is present."
        case .failing: return "Its latest pass or fail in a current environment is a failure."
        case .untested: return "No pass or fail yet: no result, or only skipped, blocked, inconclusive or retracted ones."
        }
    }

    /// Verified somewhere that counts: a current environment with every capability the claim needs.
    public var isVerified: Bool { self == .verifiedOnDevice || self == .verifiedInSimulator }
}
