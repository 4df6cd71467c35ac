/// The records of the text format, as values. Export writes them (Render's
/// `TextFormatEncoding` makes each one JSON line); import reads them back and
/// compares them with `==`.
extension TextFormat {
    /// When and by whom a record people edit last changed; nil where not
    /// known (changed before stores kept it): older than any known time.
    public struct Stamp: Equatable, Sendable {
        public var at: String?
        public var by: String?

        public init(at: String? = nil, by: String? = nil) {
            self.at = at
            self.by = by
        }

        public static let unknown = Stamp()
    }

    public struct Source: Equatable, Sendable {
        public var url, title, publisher, kind: String
        public var published, updated, retrieved: String?
        public var changed = Stamp.unknown
    }

    public struct Capability: Equatable, Sendable {
        public var name, description: String
        public var changed = Stamp.unknown
    }

    public struct SourceReference: Equatable, Comparable, Sendable {
        public var url: String
        public var locator: String

        public static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.url, lhs.locator) < (rhs.url, rhs.locator)
        }
    }

    public struct Claim: Equatable, Sendable {
        public var key, document, area, label: String
        /// When the label was last changed (its history's latest change);
        /// written by version 2 for merging, never compared on import.
        public var labelledAt: String?
        public var asOf: String?
        public var statement: String
        /// Sorted by URL, then locator.
        public var sources: [SourceReference]
        /// Sorted by name.
        public var needs: [String]
        /// What its measurements must be, sorted by name; written only when there are any.
        public var expectations: [ExpectedValue] = []
        /// The models it speaks about, sorted; empty for any model.
        public var models: [String] = []
        /// Who answers for it (version 4); empty for no one.
        public var owner: String = ""
        public var changed = Stamp.unknown
    }

    /// What environments of a kind and model (`*`: every model) lack or
    /// have from an Xcode build on.
    public struct Lack: Equatable, Sendable {
        public var kind, model, toolBuild, capability: String
        public var source, reportedIn: String?
        public var note: String
        /// "lacks" or "has".
        public var status: String = CapabilityStatus.lacks.rawValue
        public var changed = Stamp.unknown
    }

    /// A document's default subjects: the models its new claims speak about.
    public struct Document: Equatable, Sendable {
        public var document: String
        /// Sorted.
        public var models: [String]
    }

    public struct IngestedFile: Equatable, Sendable {
        public var sha256, fileName, format: String
        public var testCount: Int64
        public var ingestedAt: String
    }

    public struct Run: Equatable, Sendable {
        public var uuid: String
        public var startedAt: String?
        public var environment: EnvironmentSpec
        public var tester, note: String
        public var ingestedFile: String?
    }

    public struct Measurement: Equatable, Sendable {
        public var name: String
        public var value: Double
        public var unit: String
        public var baseline: Double?
        public var posture: String?
        /// For the mean of a metric's samples: how many, and their standard deviation.
        public var samples: Int64? = nil
        public var standardDeviation: Double? = nil
    }

    public struct Attachment: Equatable, Sendable {
        public var path, sha256: String
        public var size: Int64
        public var mediaType: String
        /// Attached by a test when it failed.
        public var withFailure = false
    }

    /// A result is the n-th (from 1) of its run, in the order it was recorded.
    public struct Result: Equatable, Sendable {
        public var run: String
        public var n: Int64
        public var claim: String?
        public var result: String
        public var posture: String?
        public var checkedAt: String?
        public var note: String
        public var testID: String?
        public var duration: Double?
        public var message: String?
        public var measurements: [Measurement]
        public var attachments: [Attachment]
    }

    /// A retraction of a whole run (`n` nil) or of its n-th result (from 1).
    public struct Retraction: Equatable, Sendable {
        public var uuid: String
        public var run: String
        public var n: Int64?
        public var by, at, reason: String
    }

    // MARK: Version 2

    /// A claim's key changed (`claim rename`): only ever added, so that
    /// records naming the old key still find the claim.
    public struct Rename: Equatable, Sendable {
        public var uuid, from, to, by, at, reason: String
    }

    /// A claim retired or brought back (`claim retire`, `claim restore`):
    /// only ever added; the latest of a claim's says whether it is retired.
    public struct Retirement: Equatable, Sendable {
        public var uuid, claim: String
        public var action: RetirementAction
        public var by, at, reason: String
    }

    /// Words a claim has had that some result proved, named by their SHA-256.
    public struct ProvedStatement: Equatable, Sendable {
        public var claim, sha256, statement: String
    }

    /// A label change, named by its UUID, with the change it followed.
    public struct Change: Equatable, Sendable {
        public var uuid, claim: String
        /// The UUID of the change made before it, on the label it changed from.
        public var follows: String?
        public var oldLabel: String?
        public var newLabel, changedBy, changedAt, reason: String
    }

    /// The first line of a run's file: the run, and the file it was ingested from.
    public struct RunHeader: Equatable, Sendable {
        public var uuid: String
        public var startedAt: String?
        public var environment: EnvironmentSpec
        public var tester, note: String
        public var ingestedFile: IngestedFile?
    }

    /// A result in its run's file, named by its UUID.
    public struct ResultLine: Equatable, Sendable {
        public var uuid: String
        public var claim: String?
        /// The SHA-256 of the claim's words the result proved.
        public var statement: String?
        public var result: String
        public var posture: String?
        public var checkedAt: String?
        /// When it was recorded, to the microsecond: it orders results the
        /// rules cannot order by when they were checked.
        public var recordedAt: String
        public var note: String
        public var testID: String?
        public var duration: Double?
        public var message: String?
        public var measurements: [Measurement]
        public var attachments: [Attachment]
        /// Logged without a verdict, judged by the claim's expected values
        /// (and judged again when they change).
        public var judged = false
    }

    /// A retraction in its run's file: of one result (by UUID) or, with none,
    /// of the whole run.
    public struct RetractionLine: Equatable, Sendable {
        public var uuid: String
        public var result: String?
        public var by, at, reason: String
    }

    /// Everything a run's file holds, in file order.
    public struct RunFile: Equatable, Sendable {
        public var header: RunHeader
        /// By recording time, then UUID.
        public var results: [ResultLine]
        /// By time, then UUID.
        public var retractions: [RetractionLine]
        /// Issues linked to its results (version 4), by time, then UUID;
        /// a link removed since among them, as it was.
        public var links: [LinkLine] = []
        /// Links removed, by time, then UUID.
        public var unlinks: [UnlinkLine] = []
        /// Corrections of the run's OS build, by time, then UUID; the header
        /// keeps the build as recorded.
        public var corrections: [CorrectionLine] = []
    }

    /// Which OS build the run used, said after the fact (`run correct`): who,
    /// when and why. Only ever added; the latest decides the run's build.
    public struct CorrectionLine: Equatable, Sendable {
        public var uuid, osBuild, by, at, reason: String
    }

    /// A link removed (`result unlink`): who, when and why. Only ever added;
    /// the link it removes stays in the run's file, as it was.
    public struct UnlinkLine: Equatable, Sendable {
        public var uuid, link, by, at, reason: String
    }

    /// A result tied to the issue that tracks it: only ever added, like a retraction.
    public struct LinkLine: Equatable, Sendable {
        public var uuid, result, url, by, at: String
    }

    // MARK: Version 1

    /// A label change is the n-th (from 1) of its claim's history.
    public struct LabelChange: Equatable, Sendable {
        public var claim: String
        public var n: Int64
        public var oldLabel: String?
        public var newLabel, changedBy, changedAt, reason: String
    }

    public struct Checklist: Equatable, Sendable {
        public var document, title: String
        public var changed = Stamp.unknown
    }

    /// A checklist item judged by hand: kept untested on purpose, or checked
    /// where no claim can prove it. Either way with who, when and why.
    public struct ChecklistMark: Equatable, Sendable {
        public enum Kind: String, Equatable, Sendable, CaseIterable {
            /// Kept untested on purpose: never ticked, and never hides a failure.
            case untested
            /// Checked by hand: ticks an item no claim is linked to, and only that.
            case checked
        }

        public var kind: Kind
        public var reason, by, at: String

        public init(kind: Kind, reason: String, by: String, at: String) {
            self.kind = kind
            self.reason = reason
            self.by = by
            self.at = at
        }
    }

    public struct ChecklistItem: Equatable, Sendable {
        public var checklist: String
        public var position: Int64
        public var key, text: String
        /// Sorted claim keys.
        public var claims: [String]
        public var mark: ChecklistMark?
        public var changed = Stamp.unknown
    }

    public struct TestMapping: Equatable, Sendable {
        public var pattern, claim: String
    }
}
