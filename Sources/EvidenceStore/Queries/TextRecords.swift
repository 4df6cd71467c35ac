/// Reads the store as text-format records, in the order export writes them.
/// Each reader takes an optional condition, so import can fetch the one record
/// an incoming line must match.
extension Store {
    public func textSources(where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Source) throws -> Void)
        throws
    {
        try database.cachedStatement(
            """
            SELECT url, title, publisher, kind, published, updated, retrieved
            FROM sources AS s WHERE \(condition) ORDER BY url
            """
        ).forEachRow(arguments) { row in
            try body(TextFormat.Source(
                url: row.text(0), title: row.text(1), publisher: row.text(2), kind: row.text(3),
                published: row.optionalText(4), updated: row.optionalText(5), retrieved: row.optionalText(6)))
        }
    }

    public func textCapabilities(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Capability) throws -> Void
    ) throws {
        try database.cachedStatement("SELECT name, description FROM capabilities AS k WHERE \(condition) ORDER BY name")
            .forEachRow(arguments) { row in
                try body(TextFormat.Capability(name: row.text(0), description: row.text(1)))
            }
    }

    public func textClaims(where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Claim) throws -> Void)
        throws
    {
        let sources = try database.cachedStatement(
            """
            SELECT s.url, x.locator FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            WHERE x.claim_id = ? ORDER BY s.url, x.locator
            """)
        let needs = try database.cachedStatement(
            """
            SELECT k.name FROM claim_capabilities AS cc JOIN capabilities AS k ON k.id = cc.capability_id
            WHERE cc.claim_id = ? ORDER BY k.name
            """)
        // Collected first: the link queries run while the claims statement would still be open.
        var claims: [(Int64, TextFormat.Claim)] = []
        try database.cachedStatement(
            "SELECT id, key, document, area, label, as_of, statement FROM claims AS c WHERE \(condition) ORDER BY key"
        ).forEachRow(arguments) { row in
            claims.append((row.int64(0), TextFormat.Claim(
                key: row.text(1), document: row.text(2), area: row.text(3), label: row.text(4), asOf: row.optionalText(5),
                statement: row.text(6), sources: [], needs: [])))
        }
        for (id, var claim) in claims {
            try sources.forEachRow([.integer(id)]) { claim.sources.append(.init(url: $0.text(0), locator: $0.text(1))) }
            try needs.forEachRow([.integer(id)]) { claim.needs.append($0.text(0)) }
            try body(claim)
        }
    }

    public func textLacks(where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Lack) throws -> Void)
        throws
    {
        try database.cachedStatement(
            """
            SELECT l.kind, l.model, l.tool_build, k.name, s.url, l.reported_in, l.note
            FROM environment_lacks AS l
            JOIN capabilities AS k ON k.id = l.capability_id
            LEFT JOIN sources AS s ON s.id = l.source_id
            WHERE \(condition) ORDER BY l.kind, l.model, l.tool_build, k.name
            """
        ).forEachRow(arguments) { row in
            try body(TextFormat.Lack(
                kind: row.text(0), model: row.text(1), toolBuild: row.text(2), capability: row.text(3),
                source: row.optionalText(4), reportedIn: row.optionalText(5), note: row.text(6)))
        }
    }

    public func textIngestedFiles(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.IngestedFile) throws -> Void
    ) throws {
        try database.cachedStatement(
            """
            SELECT sha256, file_name, format, test_count, ingested_at FROM ingested_files AS f
            WHERE \(condition) ORDER BY sha256
            """
        ).forEachRow(arguments) { row in
            try body(TextFormat.IngestedFile(
                sha256: row.text(0), fileName: row.text(1), format: row.text(2), testCount: row.int64(3),
                ingestedAt: row.text(4)))
        }
    }

    public func textRuns(where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Run) throws -> Void)
        throws
    {
        try database.cachedStatement(
            """
            SELECT u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version, e.os_build,
                   e.tool_name, e.tool_version, e.tool_build, u.tester, u.note, f.sha256
            FROM runs AS u
            JOIN environments AS e ON e.id = u.environment_id
            LEFT JOIN ingested_files AS f ON f.id = u.ingested_file_id
            WHERE \(condition) ORDER BY u.started_at, u.uuid
            """
        ).forEachRow(arguments) { row in
            try body(TextFormat.Run(
                uuid: row.text(0), startedAt: row.optionalText(1),
                environment: EnvironmentSpec(
                    kind: EnvironmentKind(rawValue: row.text(2)) ?? .simulator, model: row.text(3), osName: row.text(4),
                    osVersion: row.text(5), osBuild: row.text(6), toolName: row.text(7), toolVersion: row.text(8),
                    toolBuild: row.text(9)),
                tester: row.text(10), note: row.text(11), ingestedFile: row.optionalText(12)))
        }
    }

    /// Results in run order (start, then UUID) and, within a run, in the order
    /// recorded; each numbered from 1 within its run. Measurements and
    /// attachments are read by cursors that walk in the same order, so the whole
    /// store streams through without a query per result.
    public func textResults(where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Result) throws -> Void)
        throws
    {
        let order = "ORDER BY u.started_at, u.uuid, r.id"
        let results = try database.prepare(
            """
            SELECT r.id, u.uuid, c.key, r.result, r.posture, r.checked_at, r.note, r.test_id, r.duration, r.message
            FROM runs AS u JOIN results AS r ON r.run_id = u.id LEFT JOIN claims AS c ON c.id = r.claim_id
            WHERE \(condition) \(order)
            """)
        let measurements = try database.prepare(
            """
            SELECT r.id, m.name, m.value, m.unit, m.baseline, m.posture
            FROM runs AS u JOIN results AS r ON r.run_id = u.id JOIN measurements AS m ON m.result_id = r.id
            WHERE \(condition) \(order), m.id
            """)
        let attachments = try database.prepare(
            """
            SELECT r.id, a.path, a.sha256, a.size, a.media_type
            FROM runs AS u JOIN results AS r ON r.run_id = u.id JOIN attachments AS a ON a.result_id = r.id
            WHERE \(condition) \(order), a.path
            """)
        try measurements.bind(arguments)
        try attachments.bind(arguments)
        defer {
            measurements.reset()
            attachments.reset()
        }
        var measurementsLeft = try measurements.step()
        var attachmentsLeft = try attachments.step()
        var currentRun = ""
        var n: Int64 = 0
        try results.forEachRow(arguments) { row in
            let id = row.int64(0)
            let run = row.text(1)
            if run != currentRun {
                currentRun = run
                n = 0
            }
            n += 1
            var record = TextFormat.Result(
                run: run, n: n, claim: row.optionalText(2), result: row.text(3), posture: row.optionalText(4),
                checkedAt: row.optionalText(5), note: row.text(6), testID: row.optionalText(7), duration: row.optionalDouble(8),
                message: row.optionalText(9), measurements: [], attachments: [])
            while measurementsLeft && measurements.int64(0) == id {
                record.measurements.append(TextFormat.Measurement(
                    name: measurements.text(1), value: measurements.double(2), unit: measurements.text(3),
                    baseline: measurements.optionalDouble(4), posture: measurements.optionalText(5)))
                measurementsLeft = try measurements.step()
            }
            while attachmentsLeft && attachments.int64(0) == id {
                record.attachments.append(TextFormat.Attachment(
                    path: attachments.text(1), sha256: attachments.text(2), size: attachments.int64(3),
                    mediaType: attachments.text(4)))
                attachmentsLeft = try attachments.step()
            }
            try body(record)
        }
    }

    public func textLabelChanges(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.LabelChange) throws -> Void
    ) throws {
        var currentClaim = ""
        var n: Int64 = 0
        try database.cachedStatement(
            """
            SELECT c.key, h.old_label, h.new_label, h.changed_by, h.changed_at, h.reason
            FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id
            WHERE \(condition) ORDER BY c.key, h.id
            """
        ).forEachRow(arguments) { row in
            let claim = row.text(0)
            if claim != currentClaim {
                currentClaim = claim
                n = 0
            }
            n += 1
            try body(TextFormat.LabelChange(
                claim: claim, n: n, oldLabel: row.optionalText(1), newLabel: row.text(2), changedBy: row.text(3),
                changedAt: row.text(4), reason: row.text(5)))
        }
    }

    public func textChecklists(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.Checklist) throws -> Void
    ) throws {
        try database.cachedStatement("SELECT document, title FROM checklists AS l WHERE \(condition) ORDER BY document")
            .forEachRow(arguments) { row in
                try body(TextFormat.Checklist(document: row.text(0), title: row.text(1)))
            }
    }

    public func textChecklistItems(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.ChecklistItem) throws -> Void
    ) throws {
        let claims = try database.cachedStatement(
            """
            SELECT c.key FROM checklist_item_claims AS x JOIN claims AS c ON c.id = x.claim_id
            WHERE x.checklist_item_id = ? ORDER BY c.key
            """)
        var items: [(Int64, TextFormat.ChecklistItem)] = []
        try database.cachedStatement(
            """
            SELECT i.id, l.document, i.position, i.key, i.text, i.untested_reason, i.marked_by, i.marked_at
            FROM checklist_items AS i JOIN checklists AS l ON l.id = i.checklist_id
            WHERE \(condition) ORDER BY l.document, i.position
            """
        ).forEachRow(arguments) { row in
            var mark: TextFormat.UntestedMark?
            if let reason = row.optionalText(5) {
                mark = TextFormat.UntestedMark(reason: reason, by: row.text(6), at: row.text(7))
            }
            items.append((row.int64(0), TextFormat.ChecklistItem(
                checklist: row.text(1), position: row.int64(2), key: row.text(3), text: row.text(4), claims: [],
                untested: mark)))
        }
        for (id, var item) in items {
            try claims.forEachRow([.integer(id)]) { item.claims.append($0.text(0)) }
            try body(item)
        }
    }

    public func textTestMappings(
        where condition: String = "1", _ arguments: [SQLValue] = [], _ body: (TextFormat.TestMapping) throws -> Void
    ) throws {
        try database.cachedStatement(
            """
            SELECT t.pattern, c.key FROM test_mappings AS t JOIN claims AS c ON c.id = t.claim_id
            WHERE \(condition) ORDER BY t.pattern, c.key
            """
        ).forEachRow(arguments) { row in
            try body(TextFormat.TestMapping(pattern: row.text(0), claim: row.text(1)))
        }
    }
}
