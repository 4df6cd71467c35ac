#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One statement a document makes, with its stable key.
public struct Claim: Equatable, Sendable {
    public var id: Int64
    public var key: String
    public var statement: String
    public var document: String
    public var area: String
    public var label: Label
    public var asOf: String?
}

/// What `evidence claim add` needs to create a claim.
public struct ClaimDraft: Equatable, Sendable {
    public var key: String
    public var statement: String
    public var document: String
    public var area: String
    public var label: Label
    public var asOf: String?
    /// Source references, `URL` or `URL#locator` / `URL?time=94`.
    public var sources: [String]
    /// Capability names the claim needs.
    public var needs: [String]
    /// The models it speaks about; empty takes the document's default
    /// subjects (none: any model).
    public var models: [String]
    /// Starts a document whose name is close to an existing one, instead of
    /// taking it for a typo.
    public var newDocument: Bool = false
    /// Takes a model close to a known one as new, not as a typo.
    public var newModel: Bool = false
    /// Who answers for it; empty for no one.
    public var owner: String = ""

    public init(
        key: String, statement: String, document: String, area: String, label: Label, asOf: String? = nil,
        sources: [String] = [], needs: [String] = [], models: [String] = [], newDocument: Bool = false,
        newModel: Bool = false, owner: String = ""
    ) {
        self.owner = owner
        self.newDocument = newDocument
        self.newModel = newModel
        self.models = models
        self.key = key
        self.statement = statement
        self.document = document
        self.area = area
        self.label = label
        self.asOf = asOf
        self.sources = sources
        self.needs = needs
    }
}

/// What `evidence claim edit` changes; nil leaves a field as it is.
public struct ClaimChanges: Equatable, Sendable {
    public var statement: String?
    public var document: String?
    public var area: String?
    /// `.some(nil)` clears the date.
    public var asOf: String??
    public var addSources: [String]
    public var removeSources: [String]
    public var addNeeds: [String]
    public var removeNeeds: [String]
    /// Models it now also speaks about, and models it no longer does.
    public var addModels: [String]
    public var removeModels: [String]
    /// Moves the claim to a document whose name is close to an existing one,
    /// instead of taking it for a typo.
    public var newDocument: Bool = false
    /// Takes a model close to a known one as new, not as a typo.
    public var newModel: Bool = false
    /// The new owner; `.some("")` leaves the claim with none.
    public var owner: String?

    public init(
        statement: String? = nil, document: String? = nil, area: String? = nil, asOf: String?? = nil,
        addSources: [String] = [], removeSources: [String] = [], addNeeds: [String] = [], removeNeeds: [String] = [],
        addModels: [String] = [], removeModels: [String] = [], newDocument: Bool = false, newModel: Bool = false
    ) {
        self.newDocument = newDocument
        self.newModel = newModel
        self.addModels = addModels
        self.removeModels = removeModels
        self.statement = statement
        self.document = document
        self.area = area
        self.asOf = asOf
        self.addSources = addSources
        self.removeSources = removeSources
        self.addNeeds = addNeeds
        self.removeNeeds = removeNeeds
    }

    public var isEmpty: Bool {
        statement == nil && document == nil && area == nil && asOf == nil && addSources.isEmpty
            && removeSources.isEmpty && addNeeds.isEmpty && removeNeeds.isEmpty && addModels.isEmpty
            && removeModels.isEmpty && owner == nil
    }
}

/// Checks the free-text and key fields every writer of claims shares.
public enum Validate {
    /// A key: letters, digits, `.`, `-`, `_`, starting with a letter or digit.
    public static func key(_ text: String, field: String = "claim key") throws -> String {
        let ok = !text.isEmpty && text.count <= 200
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSetASCII.alphanumeric($0) || "._-".unicodeScalars.contains($0)) }
            && text.unicodeScalars.first.map(CharacterSetASCII.alphanumeric) == true
        guard ok else {
            throw EvidenceError.invalidValue(
                field: field, value: text,
                expected: "letters, digits, '.', '-' and '_', starting with a letter or digit (island.clock-offset.closed)")
        }
        return text
    }

    /// A capability name: lower-case letters, digits and '-'.
    public static func capabilityName(_ text: String) throws -> String {
        let ok = !text.isEmpty && text.count <= 100
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            && text.first != "-"
        guard ok else {
            throw EvidenceError.invalidValue(
                field: "capability", value: text, expected: "lower-case letters, digits and '-' (standby, app-extension)")
        }
        return text
    }

    /// A name, a version or a build: one line, no control characters.
    public static func singleLine(_ text: String, field: String) throws -> String {
        try controlFree(text, field: field, allowingLineBreaks: false)
    }

    /// Free text (a statement, a note, a reason): line breaks and tabs, but no
    /// other control characters.
    public static func freeText(_ text: String, field: String) throws -> String {
        try controlFree(text, field: field, allowingLineBreaks: true)
    }

    private static func controlFree(_ text: String, field: String, allowingLineBreaks: Bool) throws -> String {
        if let problem = ControlCharacters.problem(in: text, allowingLineBreaks: allowingLineBreaks) {
            throw EvidenceError.invalidValue(
                field: field, value: problem.shown, expected: "no control character (it holds \(problem.control)); \(problem.rule)")
        }
        return text
    }

    /// A name a person reads on one line (a document, an area, a title):
    /// not empty, no control characters. Every writer of the store checks
    /// its values with these, whatever they came from.
    public static func name(_ text: String, field: String) throws -> String {
        try singleLine(try nonEmpty(text, field: field), field: field)
    }

    /// Free text that must say something (a statement, a reason): not
    /// empty, line breaks and tabs but no other control characters.
    public static func prose(_ text: String, field: String) throws -> String {
        try freeText(try nonEmpty(text, field: field), field: field)
    }

    /// An environment as a run names it: each part one line of text.
    public static func environment(_ spec: EnvironmentSpec) throws {
        for (field, value) in [
            ("model", spec.model), ("OS", spec.osName), ("OS version", spec.osVersion), ("OS build", spec.osBuild),
            ("tool", spec.toolName), ("tool version", spec.toolVersion), ("tool build", spec.toolBuild),
        ] {
            _ = try singleLine(value, field: field)
        }
    }

    /// A measurement as the store keeps it: a one-line name, numbers in range.
    public static func measurement(_ draft: MeasurementDraft) throws {
        _ = try name(draft.name, field: "measurement name")
        if let problem = MeasurementDraft.rangeProblem(value: draft.value, baseline: draft.baseline) {
            throw EvidenceError.invalidValue(field: "measurement '\(draft.name)'", value: draft.summary, expected: problem)
        }
    }

    /// Who answers for a claim: a name on one line, trimmed, not empty.
    public static func owner(_ text: String) throws -> String {
        let owner = try name(text, field: "owner").trimmingWhitespace()
        guard owner.count <= 200 else {
            throw EvidenceError.invalidValue(field: "owner", value: text, expected: "a name of 200 characters or fewer")
        }
        return owner
    }

    /// Text that must say something: not empty, not only spaces.
    public static func nonEmpty(_ text: String, field: String) throws -> String {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw EvidenceError.invalidValue(field: field, value: text, expected: "a non-empty text")
        }
        return text
    }

    /// A device model a claim speaks about or a record names: one line,
    /// trimmed, not empty, and not '*' (which stands for every model).
    public static func model(_ text: String) throws -> String {
        let model = try singleLine(try nonEmpty(text, field: "model"), field: "model").trimmingWhitespace()
        guard model != "*" else {
            throw EvidenceError.invalidValue(field: "model", value: text, expected: "a device model such as \"iPhone Duo\"")
        }
        return model
    }

    /// An http(s) URL without white space.
    public static func url(_ text: String, field: String = "source URL") throws -> String {
        let lower = text.lowercased()
        let ok = (lower.hasPrefix("https://") && text.count > 8 || lower.hasPrefix("http://") && text.count > 7)
            && !text.unicodeScalars.contains { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            && text.hasPrefix("http")
        guard ok else {
            throw EvidenceError.invalidValue(field: field, value: text, expected: "an http:// or https:// URL")
        }
        return text
    }
}

enum CharacterSetASCII {
    static func alphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}

/// What `claim edit` changed that people must know.
public struct ClaimEdit: Equatable, Sendable {
    /// True when the statement's words changed.
    public var statementChanged: Bool
    /// The runs (short names) whose passes proved the earlier words and no
    /// longer prove the claim: it is stale until it is checked again.
    public var earlierProof: [String]

    public init(statementChanged: Bool = false, earlierProof: [String] = []) {
        self.statementChanged = statementChanged
        self.earlierProof = earlierProof
    }
}
