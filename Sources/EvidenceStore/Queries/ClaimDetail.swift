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
        /// Who lacks it and who says so: "iPhone Duo simulator (27A9275): Xcode 27.1 Release Notes".
        public var lackedBy: [String]
    }

    public struct ResultEntry: Equatable, Sendable {
        public var resultID: Int64
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
}

extension Store {
    public func claimDetail(key: String) throws -> ClaimDetail {
        let claim = try self.claim(key: key)
        let id = SQLValue.integer(claim.id)
        guard let state = try database.queryFirst("SELECT state, reason FROM claim_state WHERE claim_id = ?", id) else {
            throw EvidenceError.notFound(kind: "claim", value: key, suggestions: [])
        }
        let sources = try database.query(
            """
            SELECT s.url, s.title, s.publisher, s.kind, x.locator
            FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            WHERE x.claim_id = ? ORDER BY s.url, x.locator
            """, id
        ).map {
            ClaimDetail.SourceLink(
                url: $0.text("url"), title: $0.text("title"), publisher: $0.text("publisher"), kind: $0.text("kind"),
                locator: $0.text("locator"))
        }
        let needs = try database.query(
            """
            SELECT k.name,
                   (SELECT group_concat(who, '; ') FROM (
                        SELECT l.model || ' ' || l.kind
                               || CASE WHEN l.tool_build <> '' THEN ' (' || l.tool_build || ')' ELSE '' END
                               || ': ' || coalesce(s.title, 'reported in ' || l.reported_in) AS who
                        FROM environment_lacks AS l LEFT JOIN sources AS s ON s.id = l.source_id
                        WHERE l.capability_id = k.id ORDER BY l.model, l.kind, l.tool_build)) AS lacked_by
            FROM claim_capabilities AS cc JOIN capabilities AS k ON k.id = cc.capability_id
            WHERE cc.claim_id = ? ORDER BY k.name
            """, id
        ).map {
            ClaimDetail.Need(
                capability: $0.text("name"),
                lackedBy: $0.optionalText("lacked_by")?.components(separatedBy: "; ") ?? [])
        }
        let results = try resultEntries(where: "r.claim_id = ?", id)
        let history = try database.query(
            """
            SELECT old_label, new_label, changed_by, changed_at, reason
            FROM label_history WHERE claim_id = ? ORDER BY changed_at, id
            """, id
        ).map {
            ClaimDetail.LabelChange(
                oldLabel: $0.optionalText("old_label"), newLabel: $0.text("new_label"),
                changedBy: $0.text("changed_by"), changedAt: $0.text("changed_at"), reason: $0.text("reason"))
        }
        let items = try database.query(
            """
            SELECT i.key FROM checklist_item_claims AS x JOIN checklist_items AS i ON i.id = x.checklist_item_id
            WHERE x.claim_id = ? ORDER BY i.key
            """, id
        ).map { $0.text("key") }
        return ClaimDetail(
            claim: claim, state: state.text("state"), reason: state.text("reason"), sources: sources, needs: needs,
            results: results, history: history, checklistItems: items)
    }

    /// Results with their run, environment, measurements and attachments, oldest first.
    func resultEntries(where condition: String, _ argument: SQLValue) throws -> [ClaimDetail.ResultEntry] {
        var entries = try database.query(
            """
            SELECT r.id, u.uuid, s.description, u.tester, r.checked_at, r.result, r.posture, r.note,
                   r.test_id, r.duration, r.message
            FROM results AS r
            JOIN runs AS u ON u.id = r.run_id
            JOIN environment_status AS s ON s.environment_id = u.environment_id
            WHERE \(condition)
            ORDER BY r.checked_at, r.id
            """, argument
        ).map {
            ClaimDetail.ResultEntry(
                resultID: Int64($0.int("id")), runUUID: $0.text("uuid"), environment: $0.text("description"),
                tester: $0.text("tester"), checkedAt: $0.optionalText("checked_at"), outcome: $0.text("result"),
                posture: $0.optionalText("posture"), note: $0.text("note"), testID: $0.optionalText("test_id"),
                duration: $0.double("duration"), message: $0.optionalText("message"), measurements: [],
                attachments: [])
        }
        var measurements: [Int64: [String]] = [:]
        for row in try database.query(
            """
            SELECT m.result_id, m.name, m.value, m.unit, m.baseline, m.posture
            FROM measurements AS m JOIN results AS r ON r.id = m.result_id
            WHERE \(condition) ORDER BY m.id
            """, argument)
        {
            var text = row.text("name") + " = "
                + MeasurementDraft.summary(
                    value: row.double("value") ?? 0, unit: row.text("unit"), baseline: row.double("baseline"))
            if let posture = row.optionalText("posture") { text += " at \(posture)" }
            measurements[Int64(row.int("result_id")), default: []].append(text)
        }
        var attachments: [Int64: [String]] = [:]
        for row in try database.query(
            """
            SELECT a.result_id, a.path, a.size, a.sha256
            FROM attachments AS a JOIN results AS r ON r.id = a.result_id
            WHERE \(condition) ORDER BY a.path
            """, argument)
        {
            attachments[Int64(row.int("result_id")), default: []].append(
                "\(row.text("path")) (\(row.int("size")) bytes, sha256 \(row.text("sha256").prefix(12)))")
        }
        for index in entries.indices {
            entries[index].measurements = measurements[entries[index].resultID] ?? []
            entries[index].attachments = attachments[entries[index].resultID] ?? []
        }
        return entries
    }
}
