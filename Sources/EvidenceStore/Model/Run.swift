import Foundation

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
    public var shortName: String { String(uuid.prefix(8)) }
}

public struct RunDraft: Equatable, Sendable {
    public var environment: EnvironmentSpec
    public var tester: String
    /// A date or timestamp; now when nil.
    public var startedAt: String?
    public var note: String

    public init(environment: EnvironmentSpec, tester: String = "", startedAt: String? = nil, note: String = "") {
        self.environment = environment
        self.tester = tester
        self.startedAt = startedAt
        self.note = note
    }
}

extension Store {
    @discardableResult
    public func startRun(_ draft: RunDraft) throws -> RunRecord {
        let startedAt = try draft.startedAt.map { try Timestamp.parse($0, field: "date") } ?? Timestamp.now()
        return try database.inTransaction(.immediate) {
            try insertRun(draft, startedAt: startedAt)
        }
    }

    func insertRun(_ draft: RunDraft, startedAt: String?, uuid: String? = nil, ingestedFileID: Int64? = nil) throws
        -> RunRecord
    {
        let environment = try environmentID(draft.environment)
        let uuid = uuid ?? UUID().uuidString.lowercased()
        try database.execute(
            "INSERT INTO runs (uuid, environment_id, started_at, tester, note, ingested_file_id) VALUES (?, ?, ?, ?, ?, ?)",
            .text(uuid), .integer(environment), SQLValue(startedAt), .text(draft.tester), .text(draft.note),
            SQLValue(ingestedFileID))
        return RunRecord(
            id: database.lastInsertRowID, uuid: uuid, environmentID: environment, startedAt: startedAt,
            tester: draft.tester, note: draft.note)
    }

    public func run(id: Int64) throws -> RunRecord {
        guard let row = try database.queryFirst(
            "SELECT id, uuid, environment_id, started_at, tester, note FROM runs WHERE id = ?", .integer(id))
        else { throw EvidenceError.notFound(kind: "run", value: String(id), suggestions: []) }
        return RunRecord(
            id: Int64(row.int("id")), uuid: row.text("uuid"), environmentID: Int64(row.int("environment_id")),
            startedAt: row.optionalText("started_at"), tester: row.text("tester"), note: row.text("note"))
    }
}
