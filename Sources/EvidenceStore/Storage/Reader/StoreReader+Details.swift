/// The `show` commands: a claim, a run or a source with everything about it.
extension StoreReader {
    public func claim(key: String) throws -> Claim {
        try claim(id: try claimID(key: key))
    }

    func claim(id: Int64) throws -> Claim {
        let statement = try database.cached(
            "SELECT id, key, statement, document, area, label, as_of FROM claims WHERE id = ?")
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        guard try statement.step() else {
            throw EvidenceError.notFound(kind: "claim", value: String(id), suggestions: [])
        }
        return Claim(
            id: statement.int64("id"), key: statement.text("key"), statement: statement.text("statement"), document: statement.text("document"),
            area: statement.text("area"), label: try Label(parsing: statement.text("label")), asOf: statement.optionalText("as_of"))
    }

    /// A claim's current words: the last of its statements that says what the
    /// claim now says, and that row's id.
    func currentStatement(ofClaim id: Int64) throws -> (id: Int64, statement: String)? {
        let statement = try database.cached(
            """
            SELECT s.id, s.statement FROM claim_statements AS s JOIN claims AS c ON c.id = s.claim_id
            WHERE s.claim_id = ? AND s.statement = c.statement ORDER BY s.id DESC LIMIT 1
            """)
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        return try statement.step() ? (statement.int64("id"), statement.text("statement")) : nil
    }

    /// A claim's derived state and the reason for it.
    public func state(ofClaim id: Int64) throws -> (state: VerificationState, reason: String) {
        let statement = try database.cached("SELECT state, reason FROM claim_state WHERE claim_id = ?")
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        guard try statement.step() else {
            throw EvidenceError.notFound(kind: "claim", value: String(id), suggestions: [])
        }
        return (try VerificationState(parsing: statement.text("state")), statement.text("reason"))
    }

    public func claimDetail(key: String) throws -> ClaimDetail {
        let claim = try self.claim(key: key)
        let id = SQLValue.integer(claim.id)
        let (state, reason) = try state(ofClaim: claim.id)
        var sources: [ClaimDetail.SourceLink] = []
        try database.cached(
            """
            SELECT s.url, s.title, s.publisher, s.kind, x.locator
            FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            WHERE x.claim_id = ? ORDER BY s.url, x.locator
            """
        ).forEachRow([id]) {
            sources.append(ClaimDetail.SourceLink(
                url: $0.text("url"), title: $0.text("title"), publisher: $0.text("publisher"), kind: $0.text("kind"), locator: $0.text("locator")))
        }
        // For each capability it needs: the simulators of its models that lack
        // it as of the newest record, then each environment of its results
        // that lacks it, each with the record that decides and why.
        var needs: [ClaimDetail.Need] = []
        try database.cached(
            """
            SELECT k.name,
                   (SELECT group_concat(who, '; ') FROM (
                        SELECT DISTINCT n.model || ' simulator, as of the newest record: ' || n.summary AS who
                        FROM claim_device_needs AS n WHERE n.claim_id = cc.claim_id AND n.capability = k.name
                        ORDER BY n.model)) AS simulators,
                   (SELECT group_concat(who, '; ') FROM (
                        SELECT s.description || ': ' || g.why AS who
                        FROM environment_capabilities AS g
                        JOIN environment_status AS s ON s.environment_id = g.environment_id
                        WHERE g.capability_id = k.id AND g.lacks
                          AND g.environment_id IN (SELECT r.environment_id FROM results AS r WHERE r.claim_id = cc.claim_id)
                        ORDER BY s.description)) AS environments
            FROM claim_capabilities AS cc JOIN capabilities AS k ON k.id = cc.capability_id
            WHERE cc.claim_id = ? ORDER BY k.name
            """
        ).forEachRow([id]) {
            let simulators = $0.optionalText("simulators")?.pieces(separatedBy: "; ") ?? []
            let environments = $0.optionalText("environments")?.pieces(separatedBy: "; ") ?? []
            needs.append(ClaimDetail.Need(capability: $0.text("name"), lackedBy: simulators + environments))
        }
        let results = try resultEntries(.claim(claim.id))
        var history: [ClaimDetail.LabelChange] = []
        try database.cached(
            """
            SELECT old_label, new_label, changed_by, changed_at, reason
            FROM label_history WHERE claim_id = ? ORDER BY changed_at, id
            """
        ).forEachRow([id]) {
            history.append(ClaimDetail.LabelChange(
                oldLabel: $0.optionalText("old_label"), newLabel: $0.text("new_label"), changedBy: $0.text("changed_by"), changedAt: $0.text("changed_at"),
                reason: $0.text("reason")))
        }
        var items: [String] = []
        try database.cached(
            """
            SELECT i.key FROM checklist_item_claims AS x JOIN checklist_items AS i ON i.id = x.checklist_item_id
            WHERE x.claim_id = ? ORDER BY i.key
            """
        ).forEachRow([id]) { items.append($0.text("key")) }
        var detail = ClaimDetail(
            claim: claim, state: state.rawValue, reason: reason, sources: sources, needs: needs, results: results,
            history: history, checklistItems: items, flaky: try flakyList(claims: [key]).map(\.summary),
            expectations: try expectations(ofClaim: claim.id), models: try claimSubjects(ofClaim: claim.id),
            owner: try database.query(cached: "SELECT owner FROM claims WHERE id = ?", [id]).first?.text("owner") ?? "")
        try renameRecords(claim: claim.id) { detail.renames.append($0) }
        try retirementRecords(claim: claim.id) { detail.retirements.append($0) }
        return detail
    }

    public func runDetail(reference: String) throws -> RunDetail {
        let run = try self.run(id: try runID(reference: reference))
        let environment = try database.scalar(
            cached: "SELECT description FROM environment_status WHERE environment_id = ?", [.integer(run.environmentID)]
        ).description
        let file = try database.scalar(
            cached: """
                SELECT f.file_name || ' (' || f.format || ', sha256 ' || substr(f.sha256, 1, 12) || ')'
                FROM runs AS u JOIN ingested_files AS f ON f.id = u.ingested_file_id WHERE u.id = ?
                """, [.integer(run.id)]
        ).string
        let results = try resultEntries(.run(run.id))
        var keys: [Int64: String] = [:]
        try database.cached(
            "SELECT r.id, c.key FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE r.run_id = ?"
        ).forEachRow([.integer(run.id)]) { keys[$0.int64("id")] = $0.text("key") }
        var detail = RunDetail(
            run: run, environment: environment, sourceFile: file, retraction: try retraction(ofRun: run.id),
            results: results, claimKeys: keys)
        detail.corrections = try corrections(ofRun: run.id)
        detail.recordedOSBuild = try recordedOSBuild(ofRun: run.id)
        return detail
    }

    public func sourceDetail(url: String) throws -> SourceDetail {
        let id = try sourceID(url: url)
        let statement = try database.cached(
            "SELECT url, title, publisher, kind, published, updated, retrieved FROM sources WHERE id = ?")
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        guard try statement.step() else {
            throw EvidenceError.notFound(kind: "source", value: url, suggestions: [])
        }
        var detail = SourceDetail(
            url: statement.text("url"), title: statement.text("title"), publisher: statement.text("publisher"), kind: statement.text("kind"),
            published: statement.optionalText("published"), updated: statement.optionalText("updated"), retrieved: statement.optionalText("retrieved"),
            citations: [], lacks: [])
        try database.cached(
            """
            SELECT c.key, x.locator FROM claim_sources AS x JOIN claims AS c ON c.id = x.claim_id
            WHERE x.source_id = ? ORDER BY c.key, x.locator
            """
        ).forEachRow([.integer(id)]) { detail.citations.append(($0.text("key"), $0.text("locator"))) }
        try database.cached(
            """
            SELECT statement FROM capability_records WHERE source_id = ? ORDER BY statement
            """
        ).forEachRow([.integer(id)]) { detail.lacks.append($0.text("statement")) }
        return detail
    }

    /// Whose results a listing of results shows.
    enum ResultScope {
        case claim(Int64)
        case run(Int64)
    }

    /// Results with their run, environment, measurements and attachments, oldest first.
    /// One statement serves both scopes: the other id is NULL, which matches no
    /// row, and SQLite's OR optimisation probes each index once.
    func resultEntries(_ scope: ResultScope) throws -> [ClaimDetail.ResultEntry] {
        let arguments: [SQLValue]
        switch scope {
        case .claim(let id): arguments = [.integer(id), .null]
        case .run(let id): arguments = [.null, .integer(id)]
        }
        let results = try database.cached(
            """
            SELECT r.id, u.uuid AS run_uuid, s.description, u.tester, r.checked_at, r.result, r.posture, r.note,
                   r.test_id, r.duration, r.message, r.uuid,
                   coalesce((SELECT t.statement FROM claim_statements AS t WHERE t.id = r.claim_statement_id)
                            <> (SELECT c.statement FROM claims AS c WHERE c.id = r.claim_id), 0) AS of_earlier_words,
                   x.uuid AS retraction_uuid, x.retracted_by, x.retracted_at, x.reason AS retraction_reason,
                   x.run_id IS NOT NULL AS whole_run, r.recorded_at,
                   EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = r.claim_id)
                   AND NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = r.claim_id AND m.model = s.model)
                       AS on_other_model,
                   CASE WHEN r.result = 'pass' THEN
                       (SELECT group_concat(name, ', ') FROM (
                            SELECT DISTINCT k.name FROM claim_environment_gaps AS g
                            JOIN capabilities AS k ON k.id = g.capability_id
                            WHERE g.claim_id = r.claim_id AND g.environment_id = u.environment_id ORDER BY k.name))
                   END AS lacking
            FROM results AS r
            JOIN runs AS u ON u.id = r.run_id
            JOIN environment_status AS s ON s.environment_id = u.environment_id
            LEFT JOIN retractions AS x
                   ON x.id = coalesce((SELECT id FROM retractions WHERE result_id = r.id),
                                      (SELECT id FROM retractions WHERE run_id = r.run_id))
            WHERE r.claim_id = ?1 OR r.run_id = ?2
            ORDER BY r.checked_at, r.recorded_at, r.id
            """)
        let measurements = try database.cached(
            """
            SELECT m.result_id, m.name, m.value, m.unit, m.baseline, m.posture, m.samples, m.standard_deviation
            FROM measurements AS m JOIN results AS r ON r.id = m.result_id
            WHERE r.claim_id = ?1 OR r.run_id = ?2 ORDER BY m.id
            """)
        let attachments = try database.cached(
            """
            SELECT a.result_id, a.path, a.size, a.sha256, a.with_failure
            FROM attachments AS a JOIN results AS r ON r.id = a.result_id
            WHERE r.claim_id = ?1 OR r.run_id = ?2 ORDER BY a.path
            """)
        var entries: [ClaimDetail.ResultEntry] = []
        try results.forEachRow(arguments) {
            entries.append(ClaimDetail.ResultEntry(
                resultID: $0.int64("id"), resultUUID: $0.text("uuid"), runUUID: $0.text("run_uuid"), environment: $0.text("description"),
                tester: $0.text("tester"),
                checkedAt: $0.optionalText("checked_at"), outcome: $0.text("result"), posture: $0.optionalText("posture"), note: $0.text("note"),
                testID: $0.optionalText("test_id"), duration: $0.optionalDouble("duration"), message: $0.optionalText("message"),
                measurements: [], attachments: [],
                retraction: Self.retraction($0), ofEarlierWords: $0.int64("of_earlier_words") != 0, recordedAt: $0.text("recorded_at"),
                onOtherModel: $0.int64("on_other_model") != 0, lacking: $0.optionalText("lacking")))
        }
        var measured: [Int64: [String]] = [:]
        try measurements.forEachRow(arguments) { row in
            var text = row.text("name") + " = "
                + MeasurementDraft.summary(value: row.double("value"), unit: row.text("unit"), baseline: row.optionalDouble("baseline"))
            if let posture = row.optionalText("posture") { text += " at \(posture)" }
            if let samples = row.optionalInt("samples") {
                text += " (mean of \(samples) \(samples == 1 ? "sample" : "samples")"
                    + (row.optionalDouble("standard_deviation").map {
                        ", standard deviation " + MeasurementDraft.summary(value: $0, unit: row.text("unit"), baseline: nil)
                    } ?? "") + ")"
            }
            measured[row.int64("result_id"), default: []].append(text)
        }
        var linked: [Int64: [String]] = [:]
        try database.cached(
            """
            SELECT l.result_id, l.url FROM result_links AS l JOIN results AS r ON r.id = l.result_id
            WHERE r.claim_id = ?1 OR r.run_id = ?2 ORDER BY l.linked_at, l.url
            """
        ).forEachRow(arguments) { linked[$0.int64("result_id"), default: []].append($0.text("url")) }
        var attached: [Int64: [String]] = [:]
        try attachments.forEachRow(arguments) { row in
            attached[row.int64("result_id"), default: []].append(
                "\(row.text("path")) (\(row.int("size")) bytes, sha256 \(row.text("sha256").prefix(12))"
                    + (row.int("with_failure") != 0 ? ", taken at a failure)" : ")"))
        }
        for index in entries.indices {
            entries[index].measurements = measured[entries[index].resultID] ?? []
            entries[index].attachments = attached[entries[index].resultID] ?? []
            entries[index].issues = linked[entries[index].resultID] ?? []
        }
        return entries
    }

    /// The retraction of a whole run, or nil.
    func retraction(ofRun id: Int64) throws -> Retraction? {
        try retraction(run: id, result: nil)
    }

    /// The retraction of a result alone (not of its run), or nil.
    func retraction(ofResult id: Int64) throws -> Retraction? {
        try retraction(run: nil, result: id)
    }

    private func retraction(run: Int64?, result: Int64?) throws -> Retraction? {
        var found: Retraction?
        try database.cached(
            """
            SELECT uuid AS retraction_uuid, retracted_by, retracted_at, reason AS retraction_reason,
                   run_id IS NOT NULL AS whole_run
            FROM retractions
            WHERE run_id = ?1 OR result_id = ?2
            """
        ).forEachRow([SQLValue(run), SQLValue(result)]) { found = Self.retraction($0) }
        return found
    }

    /// A retraction from the current row's columns retraction_uuid,
    /// retracted_by, retracted_at, retraction_reason and whole_run (whether
    /// of a whole run); nil when retraction_uuid is NULL.
    static func retraction(_ row: Statement) -> Retraction? {
        guard let uuid = row.optionalText("retraction_uuid") else { return nil }
        return Retraction(
            uuid: uuid, by: row.text("retracted_by"), at: row.text("retracted_at"), reason: row.text("retraction_reason"),
            wholeRun: row.int64("whole_run") != 0)
    }

    /// The run of a result.
    func runID(ofResult id: Int64) throws -> Int64 {
        guard let run = try database.scalar(cached: "SELECT run_id FROM results WHERE id = ?", [.integer(id)]).int64
        else {
            throw EvidenceError.notFound(kind: "result", value: String(id), suggestions: [])
        }
        return run
    }

    /// The claims a result, or every result of a run, is evidence for; and how
    /// many results that is. One scope's id is given, the other is nil.
    func evidenceOf(result: Int64?, run: Int64?) throws -> (results: Int, claims: [String]) {
        var count = 0
        var claims: Set<String> = []
        try database.cached(
            """
            SELECT c.key FROM results AS r LEFT JOIN claims AS c ON c.id = r.claim_id
            WHERE r.id = ?1 OR r.run_id = ?2
            """
        ).forEachRow([SQLValue(result), SQLValue(run)]) { row in
            count += 1
            if let key = row.optionalText("key") { claims.insert(key) }
        }
        return (count, claims.sorted())
    }

    /// The runs (short names, oldest first) of a claim's latest passes that
    /// count, one per environment.
    func passingRuns(ofClaim id: Int64) throws -> [String] {
        var runs: [String] = []
        try database.cached(
            """
            SELECT DISTINCT substr(u.uuid, 1, 8) AS run, u.started_at
            FROM latest_decisive_results AS l
            JOIN results AS r ON r.id = l.result_id
            JOIN runs AS u ON u.id = r.run_id
            WHERE l.claim_id = ? AND r.result = 'pass'
            ORDER BY u.started_at, run
            """
        ).forEachRow([.integer(id)]) { runs.append($0.text("run")) }
        return runs
    }
}
