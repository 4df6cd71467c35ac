/// Who says an environment lacks (or has) a capability: a source URL, or a
/// document of this store whose own testing found it.
public enum LackEvidence: Equatable, Sendable {
    case source(url: String)
    case document(String)
}

/// What a capability record says of the environments it covers.
public enum CapabilityStatus: String, Vocabulary {
    /// The capability is missing: a simulator without StandBy.
    case lacks
    /// The capability is there, from this record's build on.
    case has

    public static let field = "status"
}

/// "The iPhone Duo simulator lacks StandBy from Xcode build 27A9275 on", or
/// "… has it from 27C5 on". A record holds for its kind and model (or every
/// model of the kind) from its Xcode build onward, until a later record says
/// otherwise.
public struct LackDraft: Equatable, Sendable {
    /// The model that stands for every model of a kind.
    public static let everyModel = "*"

    public var kind: EnvironmentKind
    /// A model, or `everyModel`.
    public var model: String
    /// The Xcode build it holds from; empty for from the first.
    public var toolBuild: String
    public var capability: String
    public var evidence: LackEvidence
    public var note: String
    public var status: CapabilityStatus
    /// Takes a model close to a recorded one as new, not as a typo.
    public var newModel: Bool

    public init(
        kind: EnvironmentKind, model: String, toolBuild: String = "", capability: String, evidence: LackEvidence,
        note: String = "", status: CapabilityStatus = .lacks, newModel: Bool = false
    ) {
        self.newModel = newModel
        self.kind = kind
        self.model = model
        self.toolBuild = toolBuild
        self.capability = capability
        self.evidence = evidence
        self.note = note
        self.status = status
    }

    /// "the iPhone Duo simulator", "every simulator model".
    public var subject: String {
        model == Self.everyModel ? "every \(kind.rawValue) model" : "the \(model) \(kind.rawValue)"
    }
}
