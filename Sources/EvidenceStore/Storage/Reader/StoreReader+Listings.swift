/// The listings: typed rows for any output format.
extension StoreReader {
    public func claimList(_ filter: ClaimFilter = ClaimFilter()) throws -> [ClaimListing] {
        var rows: [ClaimListing] = []
        try database.cached(
            """
            SELECT s.key, s.label, s.state, s.document, s.area, c.statement
            FROM claim_state AS s JOIN claims AS c ON c.id = s.claim_id
            WHERE (?1 IS NULL OR s.document = ?1 COLLATE NOCASE) AND (?2 IS NULL OR s.area = ?2 COLLATE NOCASE)
              AND (?3 IS NULL OR s.label = ?3) AND (?4 IS NULL OR s.state = ?4) AND (?5 IS NULL OR c.owner = ?5)
              AND (c.id IN (SELECT claim_id FROM retired_claims)) = ?6
            ORDER BY s.document, s.area, s.key
            """
        ).forEachRow([
            SQLValue(filter.document), SQLValue(filter.area), SQLValue(filter.label?.rawValue), SQLValue(filter.state?.rawValue),
            SQLValue(filter.owner), .integer(filter.retired ? 1 : 0),
        ]) {
            rows.append(ClaimListing(
                key: $0.text("key"), label: try Label(parsing: $0.text("label")), state: try VerificationState(parsing: $0.text("state")),
                document: $0.text("document"), area: $0.text("area"), statement: $0.text("statement")))
        }
        return rows
    }

    public func sourceList() throws -> [SourceListing] {
        var rows: [SourceListing] = []
        try database.cached(
            """
            SELECT s.url, s.title, s.publisher, s.kind, s.published, s.updated, s.retrieved,
                   (SELECT count(DISTINCT x.claim_id) FROM claim_sources AS x WHERE x.source_id = s.id) AS claims
            FROM sources AS s
            ORDER BY s.publisher, s.kind, s.title, s.url
            """
        ).forEachRow {
            rows.append(SourceListing(
                url: $0.text("url"), title: $0.text("title"), publisher: $0.text("publisher"), kind: try SourceKind(parsing: $0.text("kind")),
                published: $0.optionalText("published"), updated: $0.optionalText("updated"), retrieved: $0.optionalText("retrieved"),
                claims: $0.int("claims")))
        }
        return rows
    }

    public func capabilityList() throws -> [CapabilityListing] {
        var rows: [CapabilityListing] = []
        try database.cached(
            """
            SELECT k.name, k.description,
                   (SELECT count(*) FROM claim_capabilities AS cc WHERE cc.capability_id = k.id) AS needed_by,
                   (SELECT group_concat(summary, '; ') FROM (
                        SELECT r.summary FROM capability_records AS r WHERE r.capability_id = k.id
                        ORDER BY r.kind, r.model, r.tool_build_order)) AS records
            FROM capabilities AS k
            ORDER BY k.name
            """
        ).forEachRow {
            rows.append(CapabilityListing(
                name: $0.text("name"), description: $0.text("description"), neededBy: $0.int("needed_by"), records: $0.optionalText("records")))
        }
        return rows
    }

    /// Each environment with what it lacks and which record decides, then
    /// the records of models no environment has yet.
    public func environmentList() throws -> [EnvironmentListing] {
        var rows: [EnvironmentListing] = []
        try database.cached(
            """
            SELECT e.id, e.kind, e.model, trim(e.os_name || ' ' || e.os_version) AS os, e.os_build,
                   trim(e.tool_name || ' ' || e.tool_version) AS tool, e.tool_build,
                   CASE s.is_current WHEN 1 THEN 'yes' ELSE 'no' END AS current,
                   (SELECT group_concat(capability, ', ') FROM (
                        SELECT g.capability FROM environment_capabilities AS g
                        WHERE g.environment_id = e.id AND g.lacks ORDER BY g.capability)) AS lacks,
                   (SELECT group_concat(capability || ': ' || why, '; ') FROM (
                        SELECT g.capability, g.why FROM environment_capabilities AS g
                        WHERE g.environment_id = e.id ORDER BY g.capability)) AS decided_by
            FROM environments AS e JOIN environment_status AS s ON s.environment_id = e.id
            UNION ALL
            SELECT NULL, r.kind, r.model, '', '', '', r.tool_build, '', r.status || ' ' || r.capability, r.summary
            FROM capability_records AS r
            WHERE NOT EXISTS (SELECT 1 FROM environments AS e
                              WHERE e.kind = r.kind AND (e.model = r.model OR r.model = '*'))
            ORDER BY 3, 2, 1, 7
            """
        ).forEachRow {
            rows.append(EnvironmentListing(
                id: $0.isNull("id") ? nil : $0.int64("id"), kind: try EnvironmentKind(parsing: $0.text("kind")), model: $0.text("model"),
                os: $0.text("os"), osBuild: $0.text("os_build"), tool: $0.text("tool"), toolBuild: $0.text("tool_build"), current: $0.text("current"),
                lacks: $0.optionalText("lacks"), decidedBy: $0.optionalText("decided_by")))
        }
        return rows
    }

    /// Every document claims belong to or defaults are set for, with its
    /// claims and the models it and its claims speak about.
    public func documentList() throws -> [DocumentListing] {
        var rows: [DocumentListing] = []
        try database.cached(
            """
            WITH names AS (SELECT document FROM live_claims UNION SELECT document FROM document_subjects)
            SELECT n.document,
                   (SELECT count(*) FROM live_claims AS c WHERE c.document = n.document) AS claims,
                   (SELECT group_concat(model, ', ') FROM (
                        SELECT model FROM document_subjects AS d WHERE d.document = n.document ORDER BY model)) AS default_models,
                   (SELECT group_concat(model, ', ') FROM (
                        SELECT DISTINCT m.model FROM claim_subjects AS m JOIN live_claims AS c ON c.id = m.claim_id
                        WHERE c.document = n.document ORDER BY m.model)) AS models
            FROM names AS n ORDER BY n.document
            """
        ).forEachRow {
            rows.append(DocumentListing(
                document: $0.text("document"), claims: $0.int("claims"), defaultModels: $0.optionalText("default_models"),
                models: $0.optionalText("models")))
        }
        return rows
    }

    public func runList() throws -> [RunListing] {
        var rows: [RunListing] = []
        try database.cached(
            """
            SELECT u.id, substr(u.uuid, 1, 8) AS run, u.started_at, s.description AS environment, u.tester,
                   (SELECT count(*) FROM results AS r WHERE r.run_id = u.id) AS results, u.note,
                   EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = u.id) AS whole,
                   (SELECT count(*) FROM retractions AS x JOIN results AS r ON r.id = x.result_id
                     WHERE r.run_id = u.id) AS some
            FROM runs AS u JOIN environment_status AS s ON s.environment_id = u.environment_id
            ORDER BY u.started_at, u.uuid
            """
        ).forEachRow {
            let some = $0.int("some")
            rows.append(RunListing(
                id: $0.int64("id"), run: $0.text("run"), startedAt: $0.optionalText("started_at"), environment: $0.text("environment"),
                tester: $0.text("tester"), results: $0.int("results"),
                retracted: $0.int("whole") != 0 ? "run" : some > 0 ? NumberText.counted(some, "result") : nil,
                note: $0.text("note")))
        }
        return rows
    }

    public func measurementList(_ filter: MeasurementFilter = MeasurementFilter()) throws -> [MeasurementListing] {
        if let key = filter.claimKey { _ = try claimID(key: key) }
        var rows: [MeasurementListing] = []
        try database.cached(
            """
            SELECT m.claim_key, m.name, m.value, m.baseline, m.unit, m.posture,
                   m.environment, substr(m.run_uuid, 1, 8) AS run, m.checked_at, m.retracted
            FROM measurement_deltas AS m
            WHERE (?1 IS NULL OR m.name = ?1) AND (?2 IS NULL OR m.claim_key = ?2) AND (?3 IS NULL OR m.model = ?3)
            ORDER BY m.claim_key, m.name, m.checked_at, m.measurement_id
            """
        ).forEachRow([SQLValue(filter.name), SQLValue(filter.claimKey), SQLValue(filter.model)]) {
            rows.append(MeasurementListing(
                claim: $0.optionalText("claim_key"), name: $0.text("name"), value: $0.double("value"), baseline: $0.optionalDouble("baseline"),
                unit: $0.text("unit"), posture: $0.optionalText("posture"), environment: $0.text("environment"), run: $0.text("run"),
                checkedAt: $0.optionalText("checked_at"), retracted: $0.int("retracted") != 0))
        }
        return rows
    }

    public func attachmentList() throws -> [AttachmentListing] {
        var rows: [AttachmentListing] = []
        try database.cached(
            """
            SELECT a.path, a.media_type, a.size, a.sha256, c.key AS claim, substr(u.uuid, 1, 8) AS run
            FROM attachments AS a
            JOIN results AS r ON r.id = a.result_id
            LEFT JOIN claims AS c ON c.id = r.claim_id
            JOIN runs AS u ON u.id = r.run_id
            ORDER BY a.path, u.uuid
            """
        ).forEachRow {
            rows.append(AttachmentListing(
                path: $0.text("path"), mediaType: $0.text("media_type"), size: $0.int64("size"), sha256: $0.text("sha256"), claim: $0.optionalText("claim"),
                run: $0.text("run")))
        }
        return rows
    }

    /// Claims still untested or needing a device, with the capabilities a
    /// simulator lacks; not-published claims only with `all`, since they are
    /// not QA work; with `failing`, every failing claim too, whatever its
    /// label, since no label hides a fail (their reason names the issues
    /// known to track them); `owner` keeps one owner's.
    public func untestedList(
        needsDevice: Bool = false, document: String? = nil, all: Bool = false, owner: String? = nil, failing: Bool = false
    ) throws -> [UntestedListing] {
        var rows: [UntestedListing] = []
        try database.cached(
            """
            SELECT u.key, u.state,
                   (SELECT group_concat(capability, ', ') FROM (
                        SELECT DISTINCT n.capability FROM claim_device_needs AS n
                        WHERE n.claim_id = u.claim_id ORDER BY n.capability)) AS needs,
                   u.document, u.area, u.label, u.reason, c.owner
            FROM untested_claims AS u JOIN live_claims AS c ON c.id = u.claim_id
            WHERE (?1 = 0 OR u.state = 'needs-device') AND (?2 IS NULL OR u.document = ?2) AND (?3 = 1 OR u.qa_work)
              AND (?4 IS NULL OR c.owner = ?4)
            UNION ALL
            SELECT u.key, u.state, NULL, u.document, u.area, u.label, u.reason, c.owner
            FROM claim_state AS u JOIN live_claims AS c ON c.id = u.claim_id
            WHERE ?5 AND ?1 = 0 AND u.state = 'failing' AND (?2 IS NULL OR u.document = ?2)
              AND (?4 IS NULL OR c.owner = ?4)
            ORDER BY 4, 2, 5, 1
            """
        ).forEachRow([.integer(needsDevice ? 1 : 0), SQLValue(document), .integer(all ? 1 : 0), SQLValue(owner), .integer(failing ? 1 : 0)]) {
            var row = UntestedListing(
                key: $0.text("key"), state: try VerificationState(parsing: $0.text("state")), needs: $0.optionalText("needs"),
                document: $0.text("document"), area: $0.text("area"), label: try Label(parsing: $0.text("label")), reason: $0.text("reason"))
            row.owner = $0.text("owner")
            rows.append(row)
        }
        let flaky = Set(try flakyList(claims: rows.map(\.key)).map(\.name))
        for index in rows.indices where flaky.contains(rows[index].key) { rows[index].flaky = true }
        return rows
    }

    public func mappingList() throws -> [MappingListing] {
        var rows: [MappingListing] = []
        try database.cached(
            """
            SELECT t.pattern, c.key AS claim FROM test_mappings AS t JOIN claims AS c ON c.id = t.claim_id
            ORDER BY t.pattern, c.key
            """
        ).forEachRow { rows.append(MappingListing(pattern: $0.text("pattern"), claim: $0.text("claim"))) }
        return rows
    }
}
