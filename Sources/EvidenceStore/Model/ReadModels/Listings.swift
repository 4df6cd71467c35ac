/// The typed rows of the listings: `claim list`, `source list`, `capability
/// list`, `env list`, `run list`, `measurements`, `attachments list`,
/// `untested`, `map list` and `migrate --list`. Column names are those of the
/// JSON and CSV outputs.

public struct ClaimFilter: Equatable, Sendable {
    public var document: String?
    public var area: String?
    public var label: Label?
    public var state: VerificationState?
    /// Only claims this person owns.
    public var owner: String?
    /// The retired claims instead of those in use.
    public var retired: Bool

    public init(
        document: String? = nil, area: String? = nil, label: Label? = nil, state: VerificationState? = nil, owner: String? = nil,
        retired: Bool = false
    ) {
        self.owner = owner
        self.retired = retired
        self.document = document
        self.area = area
        self.label = label
        self.state = state
    }
}

public struct MeasurementFilter: Equatable, Sendable {
    public var name: String?
    public var claimKey: String?
    public var model: String?

    public init(name: String? = nil, claimKey: String? = nil, model: String? = nil) {
        self.name = name
        self.claimKey = claimKey
        self.model = model
    }
}

public struct ClaimListing: TableRow, Sendable, Equatable {
    public var key: String
    public var label: Label
    public var state: VerificationState
    public var document: String
    public var area: String
    public var statement: String

    public static let columns = ["key", "label", "state", "document", "area", "statement"]
    public var cells: [TableValue] {
        [.text(key), .text(label.rawValue), .text(state.rawValue), .text(document), .text(area), .text(statement)]
    }
}

public struct SourceListing: TableRow, Sendable, Equatable {
    public var url: String
    public var title: String
    public var publisher: String
    public var kind: SourceKind
    public var published: String?
    public var updated: String?
    public var retrieved: String?
    public var claims: Int

    public static let columns = ["url", "title", "publisher", "kind", "published", "updated", "retrieved", "claims"]
    public var cells: [TableValue] {
        [
            .text(url), .text(title), .text(publisher), .text(kind.rawValue), TableValue(published), TableValue(updated),
            TableValue(retrieved), .integer(Int64(claims)),
        ]
    }
}

public struct CapabilityListing: TableRow, Sendable, Equatable {
    public var name: String
    public var description: String
    public var neededBy: Int
    /// Its records, oldest build first: "iPhone Duo simulator from Xcode
    /// build 27A9275: lacks standby (Xcode 27.1 Release Notes); …"; nil when
    /// none speaks of it.
    public var records: String?

    public static let columns = ["name", "description", "needed_by", "records"]
    public var cells: [TableValue] { [.text(name), .text(description), .integer(Int64(neededBy)), TableValue(records)] }
}

public struct DocumentListing: TableRow, Sendable, Equatable {
    public var document: String
    public var claims: Int
    /// The models its new claims speak about, ", "-joined; nil for any model.
    public var defaultModels: String?
    /// The models its claims speak about, ", "-joined; nil when none names one.
    public var models: String?

    public static let columns = ["document", "claims", "default_models", "models"]
    public var cells: [TableValue] {
        [.text(document), .integer(Int64(claims)), TableValue(defaultModels), TableValue(models)]
    }
}

public struct EnvironmentListing: TableRow, Sendable, Equatable {
    /// Nil for a lack recorded for a model no run used yet.
    public var id: Int64?
    public var kind: EnvironmentKind
    public var model: String
    public var os: String
    public var osBuild: String
    public var tool: String
    public var toolBuild: String
    /// "yes", "no", or "" for a record with no environment.
    public var current: String
    /// The capabilities it lacks, ", "-joined; for a record with no
    /// environment, what the record says ("lacks standby").
    public var lacks: String?
    /// For each capability a record speaks of, which record decides and why.
    public var decidedBy: String?

    public static let columns = ["id", "kind", "model", "os", "os_build", "tool", "tool_build", "current", "lacks", "decided_by"]
    public var cells: [TableValue] {
        [
            id.map(TableValue.integer) ?? .null, .text(kind.rawValue), .text(model), .text(os), .text(osBuild), .text(tool),
            .text(toolBuild), .text(current), TableValue(lacks), TableValue(decidedBy),
        ]
    }
}

public struct RunListing: TableRow, Sendable, Equatable {
    public var id: Int64
    public var run: String
    public var startedAt: String?
    public var environment: String
    public var tester: String
    public var results: Int
    /// "run" when the whole run was retracted, "3 results" when some of its results were, else nil.
    public var retracted: String?
    public var note: String

    public static let columns = ["id", "run", "started_at", "environment", "tester", "results", "retracted", "note"]
    public var cells: [TableValue] {
        [
            .integer(id), .text(run), TableValue(startedAt), .text(environment), .text(tester), .integer(Int64(results)),
            TableValue(retracted), .text(note),
        ]
    }
}

public struct MeasurementListing: TableRow, Sendable, Equatable {
    public var claim: String?
    public var name: String
    public var value: Double
    public var baseline: Double?
    public var unit: String
    public var posture: String?
    public var environment: String
    public var run: String
    public var checkedAt: String?
    /// True when its result, or the result's run, was retracted.
    public var retracted: Bool

    public var delta: Double? { baseline.map { value - $0 } }

    public static let columns = [
        "claim", "name", "value", "baseline", "delta", "unit", "posture", "environment", "run", "checked_at", "retracted",
    ]
    public var cells: [TableValue] {
        [
            TableValue(claim), .text(name), .real(value), TableValue(baseline), TableValue(delta), .text(unit),
            TableValue(posture), .text(environment), .text(run), TableValue(checkedAt), .text(retracted ? "yes" : ""),
        ]
    }
}

public struct AttachmentListing: TableRow, Sendable, Equatable {
    public var path: String
    public var mediaType: String
    public var size: Int64
    public var sha256: String
    public var claim: String?
    public var run: String

    public static let columns = ["path", "media_type", "size", "sha256", "claim", "run"]
    public var cells: [TableValue] {
        [.text(path), .text(mediaType), .integer(size), .text(sha256), TableValue(claim), .text(run)]
    }
}

public struct UntestedListing: TableRow, Sendable, Equatable {
    public var key: String
    public var state: VerificationState
    /// The capabilities a simulator lacks that it needs, nil when none.
    public var needs: String?
    public var document: String
    public var area: String
    public var label: Label
    public var reason: String
    /// True when it both passed and failed on one environment within its last results.
    public var flaky = false
    /// Who answers for it; empty for no one.
    public var owner = ""

    public static let columns = ["key", "state", "needs", "document", "area", "label", "reason", "flaky", "owner"]
    public var cells: [TableValue] {
        [
            .text(key), .text(state.rawValue), TableValue(needs), .text(document), .text(area), .text(label.rawValue),
            .text(reason), .text(flaky ? "yes" : ""), .text(owner),
        ]
    }
}

public struct MappingListing: TableRow, Sendable, Equatable {
    public var pattern: String
    public var claim: String

    public static let columns = ["pattern", "claim"]
    public var cells: [TableValue] { [.text(pattern), .text(claim)] }
}

/// A migration this binary knows (or one the store lists that it does not),
/// and whether and when the store applied it.
public struct MigrationStatus: TableRow, Sendable, Equatable {
    public var version: Int
    public var name: String
    public var appliedAt: String?
    /// The digest recorded when it was applied; nil when pending, or applied
    /// before digests were kept.
    public var recordedSHA256: String?
    /// The digest of this binary's text; nil for a version it does not know.
    public var bundledSHA256: String?

    /// Applied, and its text has changed since.
    public var changedSinceApplied: Bool {
        guard let recorded = recordedSHA256, let bundled = bundledSHA256 else { return false }
        return recorded != bundled
    }

    public static let columns = ["version", "name", "status", "applied_at"]
    public var cells: [TableValue] {
        [.integer(Int64(version)), .text(name), .text(appliedAt == nil ? "pending" : "applied"), TableValue(appliedAt)]
    }
}
