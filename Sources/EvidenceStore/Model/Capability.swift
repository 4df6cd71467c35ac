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

    public init(
        kind: EnvironmentKind, model: String, toolBuild: String = "", capability: String, evidence: LackEvidence,
        note: String = ""
    ) {
        self.kind = kind
        self.model = model
        self.toolBuild = toolBuild
        self.capability = capability
        self.evidence = evidence
        self.note = note
    }
}

extension Store {
    public func addCapability(name: String, description: String) throws {
        let name = try Validate.capabilityName(name)
        let description = try Validate.nonEmpty(description, field: "description")
        try database.inTransaction(.immediate) {
            if try database.scalar("SELECT 1 FROM capabilities WHERE name = ?", .text(name)) != .null {
                throw EvidenceError.alreadyExists(kind: "capability", value: name)
            }
            try database.execute(
                "INSERT INTO capabilities (name, description) VALUES (?, ?)", .text(name), .text(description))
        }
    }

    /// Records that environments of a kind and model (and tool build) lack a capability.
    public func addLack(_ draft: LackDraft) throws {
        let model = try Validate.nonEmpty(draft.model, field: "model").trimmingCharacters(in: .whitespaces)
        let toolBuild = try AppleBuild.validated(draft.toolBuild, field: "Xcode build")
        try database.inTransaction(.immediate) {
            let capability = try capabilityID(name: draft.capability)
            var citedSource: Int64?
            var document: String?
            switch draft.evidence {
            case .source(let url): citedSource = try sourceID(url: url)
            case .document(let name): document = try Validate.nonEmpty(name, field: "document")
            }
            if try database.scalar(
                "SELECT 1 FROM environment_lacks WHERE kind = ? AND model = ? AND tool_build = ? AND capability_id = ?",
                .text(draft.kind.rawValue), .text(model), .text(toolBuild), .integer(capability)) != .null
            {
                let scope = toolBuild.isEmpty ? "" : " of build \(toolBuild)"
                throw EvidenceError.alreadyExists(
                    kind: "lack", value: "\(model) \(draft.kind.rawValue)\(scope) lacks \(draft.capability)")
            }
            try database.execute(
                """
                INSERT INTO environment_lacks (kind, model, tool_build, capability_id, source_id, reported_in, note)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .text(draft.kind.rawValue), .text(model), .text(toolBuild), .integer(capability), SQLValue(citedSource),
                SQLValue(document), .text(draft.note))
        }
    }
}
