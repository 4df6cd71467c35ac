/// Who says an environment lacks a capability: a source URL, or a document of
/// this store whose own testing found it.
public enum LackEvidence: Equatable, Sendable {
    case source(url: String)
    case document(String)
}

/// "The iPhone Duo simulator of Xcode 27.1 lacks StandBy."
public struct LackDraft: Equatable, Sendable {
    public var kind: EnvironmentKind
    public var model: String
    /// Empty for every build of the tool.
    public var toolBuild: String
    public var capability: String
    public var evidence: LackEvidence
    public var note: String
    /// Takes a model close to a recorded one as new, not as a typo.
    public var newModel: Bool

    public init(
        kind: EnvironmentKind, model: String, toolBuild: String = "", capability: String, evidence: LackEvidence,
        note: String = "", newModel: Bool = false
    ) {
        self.newModel = newModel
        self.kind = kind
        self.model = model
        self.toolBuild = toolBuild
        self.capability = capability
        self.evidence = evidence
        self.note = note
    }
}
