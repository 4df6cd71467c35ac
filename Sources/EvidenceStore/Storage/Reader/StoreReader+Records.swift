/// The store as text-format records, in the order export writes them. Each
/// reader takes an optional key: nil for every record, a key for the one an
/// incoming line must match. The key is applied as a range,
/// `key BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff')`, which the index on
/// the key serves either way: every text sorts after '' and before any blob.
extension StoreReader {
    public func sourceRecords(url: String? = nil, _ body: (TextFormat.Source) throws -> Void) throws {
        try database.cached(
            """
            SELECT url, title, publisher, kind, published, updated, retrieved, changed_at, changed_by FROM sources
            WHERE url BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY url
            """
        ).forEachRow([SQLValue(url)]) { row in
            try body(TextFormat.Source(
                url: row.text("url"), title: row.text("title"), publisher: row.text("publisher"), kind: row.text("kind"),
                published: row.optionalText("published"), updated: row.optionalText("updated"), retrieved: row.optionalText("retrieved"),
                changed: Self.stamp(row)))
        }
    }

    public func capabilityRecords(name: String? = nil, _ body: (TextFormat.Capability) throws -> Void) throws {
        try database.cached(
            """
            SELECT name, description, changed_at, changed_by FROM capabilities
            WHERE name BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY name
            """
        ).forEachRow([SQLValue(name)]) {
            try body(TextFormat.Capability(name: $0.text("name"), description: $0.text("description"), changed: Self.stamp($0)))
        }
    }

    public func claimRecords(key: String? = nil, _ body: (TextFormat.Claim) throws -> Void) throws {
        let sources = try database.cached(
            """
            SELECT s.url, x.locator FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            WHERE x.claim_id = ? ORDER BY s.url, x.locator
            """)
        let needs = try database.cached(
            """
            SELECT k.name FROM claim_capabilities AS cc JOIN capabilities AS k ON k.id = cc.capability_id
            WHERE cc.claim_id = ? ORDER BY k.name
            """)
        let models = try database.cached("SELECT model FROM claim_subjects WHERE claim_id = ? ORDER BY model")
        // Collected first: the link queries run while the claims statement would still be open.
        var claims: [(Int64, TextFormat.Claim)] = []
        try database.cached(
            """
            SELECT c.id, c.key, c.document, c.area, c.label, c.as_of, c.statement,
                   (SELECT max(h.changed_at) FROM label_history AS h WHERE h.claim_id = c.id) AS labelled_at, c.changed_at, c.changed_by,
                   c.owner
            FROM claims AS c
            WHERE c.key BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY c.key
            """
        ).forEachRow([SQLValue(key)]) { row in
            claims.append((row.int64("id"), TextFormat.Claim(
                key: row.text("key"), document: row.text("document"), area: row.text("area"), label: row.text("label"),
                labelledAt: row.optionalText("labelled_at"), asOf: row.optionalText("as_of"), statement: row.text("statement"), sources: [],
                needs: [], owner: row.text("owner"), changed: Self.stamp(row))))
        }
        for (id, var claim) in claims {
            try sources.forEachRow([.integer(id)]) { claim.sources.append(.init(url: $0.text("url"), locator: $0.text("locator"))) }
            try needs.forEachRow([.integer(id)]) { claim.needs.append($0.text("name")) }
            try models.forEachRow([.integer(id)]) { claim.models.append($0.text("model")) }
            claim.expectations = try expectations(ofClaim: id)
            try body(claim)
        }
    }

    /// Every lack; a store holds few, so import looks them up in what this returns.
    public func lackRecords(_ body: (TextFormat.Lack) throws -> Void) throws {
        try database.cached(
            """
            SELECT l.kind, l.model, l.tool_build, k.name, s.url, l.reported_in, l.note, l.status, l.changed_at, l.changed_by
            FROM environment_lacks AS l
            JOIN capabilities AS k ON k.id = l.capability_id
            LEFT JOIN sources AS s ON s.id = l.source_id
            ORDER BY l.kind, l.model, l.tool_build, k.name
            """
        ).forEachRow { row in
            try body(TextFormat.Lack(
                kind: row.text("kind"), model: row.text("model"), toolBuild: row.text("tool_build"), capability: row.text("name"),
                source: row.optionalText("url"), reportedIn: row.optionalText("reported_in"), note: row.text("note"), status: row.text("status"),
                changed: Self.stamp(row)))
        }
    }

    /// Documents with default subjects, by name.
    public func documentRecords(document: String? = nil, _ body: (TextFormat.Document) throws -> Void) throws {
        var records: [TextFormat.Document] = []
        try database.cached(
            """
            SELECT document, model FROM document_subjects
            WHERE document BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY document, model
            """
        ).forEachRow([SQLValue(document)]) { row in
            if records.last?.document == row.text("document") {
                records[records.count - 1].models.append(row.text("model"))
            } else {
                records.append(TextFormat.Document(document: row.text("document"), models: [row.text("model")]))
            }
        }
        for record in records { try body(record) }
    }

    public func ingestedFileRecords(sha256: String? = nil, _ body: (TextFormat.IngestedFile) throws -> Void) throws {
        try database.cached(
            """
            SELECT sha256, file_name, format, test_count, ingested_at FROM ingested_files
            WHERE sha256 BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY sha256
            """
        ).forEachRow([SQLValue(sha256)]) { row in
            try body(TextFormat.IngestedFile(
                sha256: row.text("sha256"), fileName: row.text("file_name"), format: row.text("format"), testCount: row.int64("test_count"),
                ingestedAt: row.text("ingested_at")))
        }
    }

    /// A claim's latest label change: one that no change follows; where two
    /// people changed it apart, the later, then the larger UUID.
    func latestLabelChange(ofClaim id: Int64) throws -> (id: Int64, uuid: String, newLabel: String, changedAt: String)? {
        var found: (Int64, String, String, String)?
        try database.cached(
            """
            SELECT h.id, h.uuid, h.new_label, h.changed_at FROM label_history AS h
            WHERE h.claim_id = ? AND NOT EXISTS (SELECT 1 FROM label_history AS f WHERE f.follows_id = h.id)
            ORDER BY h.changed_at DESC, h.uuid DESC LIMIT 1
            """
        ).forEachRow([.integer(id)]) { found = ($0.int64("id"), $0.text("uuid"), $0.text("new_label"), $0.text("changed_at")) }
        return found
    }

    func labelChangeID(uuid: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM label_history WHERE uuid = ?", [.text(uuid)]).int64
    }

    public func checklistRecords(document: String? = nil, _ body: (TextFormat.Checklist) throws -> Void) throws {
        try database.cached(
            """
            SELECT document, title, changed_at, changed_by FROM checklists
            WHERE document BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY document
            """
        ).forEachRow([SQLValue(document)]) {
            try body(TextFormat.Checklist(document: $0.text("document"), title: $0.text("title"), changed: Self.stamp($0)))
        }
    }

    public func checklistItemRecords(key: String? = nil, _ body: (TextFormat.ChecklistItem) throws -> Void) throws {
        let claims = try database.cached(
            """
            SELECT c.key FROM checklist_item_claims AS x JOIN claims AS c ON c.id = x.claim_id
            WHERE x.checklist_item_id = ? ORDER BY c.key
            """)
        var items: [(Int64, TextFormat.ChecklistItem)] = []
        try database.cached(
            """
            SELECT i.id, l.document, i.position, i.key, i.text, i.mark, i.mark_reason, i.marked_by, i.marked_at,
                   i.changed_at, i.changed_by
            FROM checklist_items AS i JOIN checklists AS l ON l.id = i.checklist_id
            WHERE i.key BETWEEN coalesce(?1, '') AND coalesce(?1, x'ff') ORDER BY l.document, i.position
            """
        ).forEachRow([SQLValue(key)]) { row in
            items.append((row.int64("id"), TextFormat.ChecklistItem(
                checklist: row.text("document"), position: row.int64("position"), key: row.text("key"), text: row.text("text"), claims: [],
                mark: try Self.checklistMark(row), changed: Self.stamp(row))))
        }
        for (id, var item) in items {
            try claims.forEachRow([.integer(id)]) { item.claims.append($0.text("key")) }
            try body(item)
        }
    }

    /// A stamp from the current row's changed_at and changed_by: when, by whom.
    static func stamp(_ row: Statement) -> TextFormat.Stamp {
        TextFormat.Stamp(at: row.optionalText("changed_at"), by: row.optionalText("changed_by"))
    }

    public func testMappingRecords(_ body: (TextFormat.TestMapping) throws -> Void) throws {
        try database.cached(
            """
            SELECT t.pattern, c.key FROM test_mappings AS t JOIN claims AS c ON c.id = t.claim_id
            ORDER BY t.pattern, c.key
            """
        ).forEachRow { try body(TextFormat.TestMapping(pattern: $0.text("pattern"), claim: $0.text("key"))) }
    }

    /// The key of the checklist item at a position of a checklist, other than `key`, or nil.
    func checklistItem(atPosition position: Int64, of checklistID: Int64, otherThan key: String) throws -> String? {
        try database.scalar(
            cached: "SELECT key FROM checklist_items WHERE checklist_id = ? AND position = ? AND key <> ?",
            [.integer(checklistID), .integer(position), .text(key)]
        ).string
    }

    /// The ids of the rows of a table, by a natural key.
    func ingestedFileID(sha256: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM ingested_files WHERE sha256 = ?", [.text(sha256)]).int64
    }

    func checklistID(document: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM checklists WHERE document = ?", [.text(document)]).int64
    }

    /// The mark from the current row's mark, mark_reason, marked_by and
    /// marked_at; nil when unmarked.
    static func checklistMark(_ row: Statement) throws -> TextFormat.ChecklistMark? {
        guard let kind = row.optionalText("mark") else { return nil }
        guard let known = TextFormat.ChecklistMark.Kind(rawValue: kind) else {
            throw EvidenceError.invalidValue(field: "checklist mark", value: kind, expected: "untested or checked")
        }
        return TextFormat.ChecklistMark(
            kind: known, reason: row.text("mark_reason"), by: row.text("marked_by"), at: row.text("marked_at"))
    }
}
