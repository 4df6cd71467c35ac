/// Everything the store knows about one claim: `evidence claim show`.
public struct ClaimDetail: Equatable, Sendable {
    public struct SourceLink: Equatable, Sendable {
        public var url: String
        public var title: String
        public var publisher: String
        public var kind: String
        public var locator: String

        /// The URL with its locator: `https://…/111466/?time=94`.
        public var fullURL: String { url + locator }
    }

    public struct Need: Equatable, Sendable {
        public var capability: String
        /// Who lacks it, the record that decides and why: the simulators of
        /// the claim's models as of the newest record, then the environments
        /// of its results.
        public var lackedBy: [String]
    }

    public struct ResultEntry: Equatable, Sendable {
        public var resultID: Int64
        public var resultUUID: String
        public var runUUID: String
        public var environment: String
        public var tester: String
        public var checkedAt: String?
        public var outcome: String
        public var posture: String?
        public var note: String
        public var testID: String?
        public var duration: Double?
        public var message: String?
        public var measurements: [String]
        public var attachments: [String]
        /// Set when the result, or its whole run, was retracted.
        public var retraction: Retraction?
        /// True when it was logged against words the claim no longer has.
        public var ofEarlierWords: Bool
        /// When it was recorded, to the microsecond: the order results were recorded in.
        public var recordedAt: String = ""
        /// True when it was on a model the claim does not speak about: shown, never counted.
        public var onOtherModel = false
        /// For a pass where the environment lacks capabilities the claim
        /// needs, those capabilities: the pass never counts for the claim.
        public var lacking: String?
        /// The issues it is linked to.
        public var issues: [String] = []
    }

    public struct LabelChange: Equatable, Sendable {
        public var oldLabel: String?
        public var newLabel: String
        public var changedBy: String
        public var changedAt: String
        public var reason: String
    }

    public var claim: Claim
    public var state: String
    public var reason: String
    public var sources: [SourceLink]
    public var needs: [Need]
    public var results: [ResultEntry]
    public var history: [LabelChange]
    public var checklistItems: [String]
    /// Where it both passed and failed within its last results, as sentences.
    public var flaky: [String] = []
    /// What its measurements must be.
    public var expectations: [ExpectedValue] = []
    /// The models it speaks about; empty for any model.
    public var models: [String] = []
    /// Who answers for it; empty for no one.
    public var owner: String = ""
    /// The keys it had before, oldest first (`claim rename`).
    public var renames: [TextFormat.Rename] = []
    /// Its retirements and bringings back, oldest first (`claim retire`, `claim restore`).
    public var retirements: [TextFormat.Retirement] = []

    /// The record that retired it, while it is retired.
    public var retired: TextFormat.Retirement? {
        retirements.last.flatMap { $0.action == .retire ? $0 : nil }
    }
}
