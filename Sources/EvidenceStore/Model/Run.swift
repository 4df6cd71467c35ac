#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One sitting on one environment.
public struct RunRecord: Equatable, Sendable {
    public var id: Int64
    public var uuid: String
    public var environmentID: Int64
    /// Nil when the document that reports the run gives no date.
    public var startedAt: String?
    public var tester: String
    public var note: String

    /// The short name reports use: the first 8 characters of the UUID.
    public var shortName: String { ResultIdentity.shortName(uuid) }

    /// "run 1a2b3c4d (local #6)".
    public var described: String { ResultIdentity.described("run", uuid: uuid, local: id) }

    /// What each of the run's results keeps of it.
    public struct IDs: Sendable {
        public var id: Int64
        public var environmentID: Int64
    }

    public var ids: IDs { IDs(id: id, environmentID: environmentID) }
}

public struct RunDraft: Equatable, Sendable {
    public var environment: EnvironmentSpec
    public var tester: String
    /// A date or timestamp; now when nil.
    public var startedAt: String?
    public var note: String
    /// Takes a model close to a recorded one as new, not as a typo.
    public var newModel: Bool

    public init(
        environment: EnvironmentSpec, tester: String = "", startedAt: String? = nil, note: String = "",
        newModel: Bool = false
    ) {
        self.newModel = newModel
        self.environment = environment
        self.tester = tester
        self.startedAt = startedAt
        self.note = note
    }
}
