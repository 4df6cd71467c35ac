/// What the published documents read: claims with their states, the sections
/// of the evidence report, checklists and the source list.
extension StoreReader {
    /// The documents claims belong to, sorted.
    public func documents() throws -> [String] {
        var documents: [String] = []
        try database.cached("SELECT DISTINCT document FROM live_claims ORDER BY document").forEachRow {
            documents.append($0.text("document"))
        }
        return documents
    }

    /// Refuses a document no claim belongs to, suggesting the closest.
    /// A document as the store spells it, for one given in any case; nil for
    /// nil. Throws for a document no claim belongs to.
    public func resolveDocument(_ document: String?) throws -> String? {
        guard let document else { return nil }
        let known = try documents()
        if known.contains(document) { return document }
        if let same = known.first(where: { $0.lowercased() == document.lowercased() }) { return same }
        throw EvidenceError.notFound(
            kind: "document", value: document, suggestions: Suggestions.closest(to: document, in: known))
    }

    /// Claims counted by document (or owner), label and state, with the
    /// issues known to track the failing ones; `owner` keeps one owner's.
    /// The issues linked to each claim's standing failures since its newest
    /// standing pass (the view failure_links), by claim key.
    public func failureLinks() throws -> [String: [String]] {
        var links: [String: [String]] = [:]
        try database.cached("SELECT claim, url FROM failure_links ORDER BY claim, url").forEachRow {
            links[$0.text("claim"), default: []].append($0.text("url"))
        }
        return links
    }

    /// The owners claims have, sorted.
    public func owners() throws -> [String] {
        var owners: [String] = []
        try database.cached("SELECT DISTINCT owner FROM live_claims WHERE owner <> '' ORDER BY owner").forEachRow {
            owners.append($0.text("owner"))
        }
        return owners
    }

    /// An owner as the store spells it, for one given in any case; nil for
    /// nil. Throws for an owner no claim has, suggesting the closest.
    public func resolveOwner(_ owner: String?) throws -> String? {
        guard let owner else { return nil }
        let known = try owners()
        if known.contains(owner) { return owner }
        if let same = known.first(where: { $0.lowercased() == owner.lowercased() }) { return same }
        throw EvidenceError.notFound(kind: "owner", value: owner, suggestions: Suggestions.closest(to: owner, in: known))
    }

    public func stateCounts(document: String? = nil, byOwner: Bool = false, owner: String? = nil) throws -> [StateCount] {
        var counts: [StateCount] = []
        var index: [String: Int] = [:]
        try database.cached(
            """
            SELECT CASE WHEN ?2 THEN c.owner ELSE s.document END AS grouping, s.label, s.state,
                   CASE WHEN s.state = 'failing'
                        THEN (SELECT group_concat(url, char(10)) FROM failure_links AS f WHERE f.claim_id = s.claim_id)
                   END AS known
            FROM claim_state AS s JOIN live_claims AS c ON c.id = s.claim_id
            WHERE (?1 IS NULL OR s.document = ?1) AND (?3 IS NULL OR c.owner = ?3)
            ORDER BY grouping, s.label = 'not-published', s.label, s.state
            """
        ).forEachRow([SQLValue(document), .integer(byOwner ? 1 : 0), SQLValue(owner)]) {
            let key = $0.text("grouping") + "\n" + $0.text("label") + "\n" + $0.text("state")
            let known = $0.optionalText("known")?.split(separator: "\n").map(String.init) ?? []
            if let at = index[key] {
                counts[at].count += 1
                counts[at].known = Array(Set(counts[at].known + known)).sorted()
            } else {
                index[key] = counts.count
                counts.append(StateCount(
                    document: $0.text("grouping"), label: try Label(parsing: $0.text("label")),
                    state: try VerificationState(parsing: $0.text("state")), count: 1, known: Array(Set(known)).sorted()))
            }
        }
        return counts
    }

    /// How many results each claim has, by key (claims with none left out).
    public func resultCounts(document: String? = nil) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try database.cached(
            """
            SELECT c.key, count(*) AS results FROM live_claims AS c JOIN results AS r ON r.claim_id = c.id
            WHERE ?1 IS NULL OR c.document = ?1 GROUP BY c.id
            """
        ).forEachRow([SQLValue(document)]) { counts[$0.text("key")] = $0.int("results") }
        return counts
    }

    /// Claims grouped by document and area, each with its sources, its latest
    /// result and the result that verifies it (both found by `claim_state`),
    /// and its mismatches (claim_state's too); `resultCount` is left 0 here
    /// (`resultCounts` gives it).
    public func reportClaims(document: String? = nil) throws -> [ReportClaim] {
        var claims: [(Int64, ReportClaim)] = []
        var decisive: [Int64: Int64] = [:]
        try database.cached(
            """
            WITH env AS MATERIALIZED (SELECT environment_id, description FROM environment_status),
            -- The state once per claim (a view flattened into the joins below would work out its ids for each of them).
            s AS MATERIALIZED (
                SELECT claim_id, state, reason, decisive_result_id, last_result_id, reason_names_run, known_issues,
                       label_problem, evidence_problem
                FROM claim_state
                WHERE ?1 IS NULL OR document = ?1)
            SELECT c.id, c.key, c.statement, c.document, c.area, c.label, c.as_of, s.state, s.reason,
                   decisive_env.description AS decisive_environment, decisive.result AS decisive_result,
                   decisive_run.uuid AS decisive_run, decisive.checked_at AS decisive_checked_at,
                   decisive.posture AS decisive_posture,
                   last_env.description AS last_environment, last.result AS last_result, last_run.uuid AS last_run,
                   last.checked_at AS last_checked_at, last.posture AS last_posture,
                   c.owner, s.decisive_result_id, s.reason_names_run, s.known_issues,
                   s.label_problem, s.evidence_problem
            FROM s
            JOIN live_claims AS c ON c.id = s.claim_id
            LEFT JOIN results AS decisive ON decisive.id = s.decisive_result_id
            LEFT JOIN runs AS decisive_run ON decisive_run.id = decisive.run_id
            LEFT JOIN env AS decisive_env ON decisive_env.environment_id = decisive.environment_id
            LEFT JOIN results AS last ON last.id = s.last_result_id AND last.id IS NOT decisive.id
            LEFT JOIN runs AS last_run ON last_run.id = last.run_id
            LEFT JOIN env AS last_env ON last_env.environment_id = last.environment_id
            ORDER BY c.document, c.area, c.key
            """
        ).forEachRow([SQLValue(document)]) { row in
            let decidedBy = row.isNull("decisive_environment") ? nil : ReportClaim.Evidence(
                environment: row.text("decisive_environment"), result: row.text("decisive_result"),
                run: String(row.text("decisive_run").prefix(8)), checkedAt: row.optionalText("decisive_checked_at"),
                posture: row.optionalText("decisive_posture"))
            let lastLogged = row.isNull("last_environment") ? nil : ReportClaim.Evidence(
                environment: row.text("last_environment"), result: row.text("last_result"),
                run: String(row.text("last_run").prefix(8)), checkedAt: row.optionalText("last_checked_at"),
                posture: row.optionalText("last_posture"))
            var claim = ReportClaim(
                key: row.text("key"), statement: row.text("statement"), document: row.text("document"), area: row.text("area"),
                label: try row.word("label"), asOf: row.optionalText("as_of"), state: try row.word("state"), reason: row.text("reason"), sources: [],
                decidedBy: decidedBy, lastLogged: lastLogged, resultCount: 0)
            claim.owner = row.text("owner")
            claim.reasonNamesRun = row.int("reason_names_run") != 0
            claim.knownIssues = row.optionalText("known_issues")?.pieces(separatedBy: ", ") ?? []
            if let problem = row.optionalText("label_problem") {
                claim.mismatches.append(Mismatch(
                    claim: claim.key, label: claim.label, state: claim.state, kind: try Mismatch.Kind(parsing: claim.label.rawValue),
                    problem: problem, reason: claim.reason))
            }
            if let problem = row.optionalText("evidence_problem") {
                claim.mismatches.append(Mismatch(
                    claim: claim.key, label: claim.label, state: claim.state, kind: .failing, problem: problem, reason: claim.reason))
            }
            if !row.isNull("decisive_result_id") { decisive[row.int64("id")] = row.int64("decisive_result_id") }
            claims.append((row.int64("id"), claim))
        }
        // Every claim's sources in one pass, not one query per claim.
        var sources: [Int64: [ClaimDetail.SourceLink]] = [:]
        try database.cached(
            """
            SELECT x.claim_id, s.url, s.title, s.publisher, s.kind, x.locator
            FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            JOIN live_claims AS c ON c.id = x.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY x.claim_id, s.url, x.locator
            """
        ).forEachRow([SQLValue(document)]) { row in
            sources[row.int64("claim_id"), default: []].append(ClaimDetail.SourceLink(
                url: row.text("url"), title: row.text("title"), publisher: row.text("publisher"), kind: row.text("kind"), locator: row.text("locator")))
        }
        // The latest decisive results on models the claims do not speak about.
        var others: [Int64: [ReportClaim.Evidence]] = [:]
        try database.cached(
            """
            SELECT l.claim_id, s.description, r.result, u.uuid, r.checked_at, r.posture
            FROM latest_decisive_results AS l
            JOIN live_claims AS c ON c.id = l.claim_id
            JOIN results AS r ON r.id = l.result_id
            JOIN runs AS u ON u.id = r.run_id
            JOIN environment_status AS s ON s.environment_id = l.environment_id
            WHERE (?1 IS NULL OR c.document = ?1)
              AND EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = l.claim_id)
              AND NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = l.claim_id AND m.model = s.model)
            ORDER BY l.claim_id, s.description
            """
        ).forEachRow([SQLValue(document)]) { row in
            others[row.int64("claim_id"), default: []].append(ReportClaim.Evidence(
                environment: row.text("description"), result: row.text("result"), run: String(row.text("uuid").prefix(8)),
                checkedAt: row.optionalText("checked_at"), posture: row.optionalText("posture")))
        }
        // What the claims expect, and what the result each state rests on measured.
        var expected: [Int64: [ExpectedValue]] = [:]
        try forEachExpectation { expected[$0, default: []].append($1) }
        // The measurements of every deciding result in one query, by result.
        var measuredBy: [Int64: [(name: String, value: Double, unit: MeasurementUnit, baseline: Double?, posture: Posture?)]] = [:]
        let results = "[" + decisive.values.sorted().map(String.init).joined(separator: ",") + "]"
        try database.cached(
            """
            SELECT m.result_id, m.name, m.value, m.unit, m.baseline, m.posture
            FROM json_each(?1) AS j JOIN measurements AS m INDEXED BY measurements_by_result ON m.result_id = j.value
            ORDER BY m.result_id, m.id
            """
        ).forEachRow([.text(results)]) { row in
            guard let unit = row.vocabulary("unit", MeasurementUnit.self) else { return }
            measuredBy[row.int64("result_id"), default: []].append(
                (row.text("name"), row.double("value"), unit, row.optionalDouble("baseline"), row.vocabulary("posture")))
        }
        return claims.map { id, claim in
            var claim = claim
            claim.sources = sources[id] ?? []
            claim.otherModels = others[id] ?? []
            let expectations = expected[id] ?? []
            for measured in decisive[id].flatMap({ measuredBy[$0] }) ?? [] {
                claim.measured.append(MeasurementValue(
                    name: measured.name, value: measured.value, unit: measured.unit, baseline: measured.baseline,
                    posture: measured.posture, expected: expectations.first { $0.name == measured.name }))
            }
            claim.unmeasured = expectations.filter { value in !claim.measured.contains { $0.name == value.name } }
            return claim
        }
    }

    /// What each claim in use needs that a simulator lacks: each capability, the model that lacks it, and who says so.
    public func deviceNeeds(document: String? = nil) throws -> [DeviceNeed] {
        var needs: [DeviceNeed] = []
        try database.cached(
            """
            SELECT n.claim_key, n.capability,
                   n.model || ' ' || n.kind
                       || CASE WHEN n.tool_build <> '' THEN ' from Xcode build ' || n.tool_build || ' on' ELSE '' END
                       || CASE WHEN n.record_model = '*' THEN ' (a record for every ' || n.kind || ' model)' ELSE '' END
                       AS lacked_by,
                   n.source_title, n.source_url, n.reported_in, n.note
            FROM claim_device_needs AS n JOIN live_claims AS c ON c.id = n.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY n.claim_key, n.capability, n.model, n.tool_build
            """
        ).forEachRow([SQLValue(document)]) {
            needs.append(DeviceNeed(
                claim: $0.text("claim_key"), capability: $0.text("capability"), lackedBy: $0.text("lacked_by"),
                sourceTitle: $0.optionalText("source_title"),
                sourceURL: $0.optionalText("source_url"), reportedIn: $0.optionalText("reported_in"), note: $0.text("note")))
        }
        return needs
    }

    /// Claims whose label the evidence does not support.
    public func mismatches(document: String? = nil) throws -> [Mismatch] {
        var mismatches: [Mismatch] = []
        try database.cached(
            """
            SELECT key, label, state, kind, problem, reason FROM claim_mismatches
            WHERE ?1 IS NULL OR document = ?1 ORDER BY key, problem
            """
        ).forEachRow([SQLValue(document)]) {
            mismatches.append(Mismatch(
                claim: $0.text("key"), label: try Label(parsing: $0.text("label")), state: try VerificationState(parsing: $0.text("state")),
                kind: try Mismatch.Kind(parsing: $0.text("kind")), problem: $0.text("problem"), reason: $0.text("reason")))
        }
        return mismatches
    }

    /// The keys of stale claims whose proof is only old: their decisive
    /// result passed, for the words they have now, in an environment with
    /// newer builds recorded since.
    public func provenOnOlderBuilds(document: String? = nil) throws -> Set<String> {
        var keys: Set<String> = []
        try database.cached(
            """
            SELECT st.key FROM claim_state AS st
            JOIN live_claims AS c ON c.id = st.claim_id
            JOIN results AS r ON r.id = st.decisive_result_id
            JOIN claim_statements AS s ON s.id = r.claim_statement_id
            WHERE st.state = 'stale' AND r.result = 'pass' AND s.statement = c.statement
              AND (?1 IS NULL OR st.document = ?1)
            """
        ).forEachRow([SQLValue(document)]) { keys.insert($0.text("key")) }
        return keys
    }

    /// Claims labelled not published, with the date that holds as of.
    public func notPublished(document: String? = nil) throws -> [NotPublishedClaim] {
        var claims: [NotPublishedClaim] = []
        try database.cached(
            """
            SELECT key, as_of, statement FROM live_claims
            WHERE label = 'not-published' AND (?1 IS NULL OR document = ?1) ORDER BY document, key
            """
        ).forEachRow([SQLValue(document)]) {
            claims.append(NotPublishedClaim(claim: $0.text("key"), asOf: $0.optionalText("as_of"), statement: $0.text("statement")))
        }
        return claims
    }

    /// The environments that verify claims (verified-on-device or -in-simulator),
    /// with how many claims each verifies, the most first (the newest builds on a tie).
    public func verifyingEnvironments(document: String? = nil) throws -> [(environment: EnvironmentSpec, claims: Int)] {
        var rows: [(EnvironmentSpec, Int)] = []
        try database.cached(
            """
            SELECT e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   count(DISTINCT s.claim_id) AS claims
            FROM claim_state AS s
            JOIN live_claims AS c ON c.id = s.claim_id
            JOIN environments AS e ON e.id = s.decisive_environment_id
            WHERE s.state IN ('verified-on-device', 'verified-in-simulator') AND (?1 IS NULL OR s.document = ?1)
            GROUP BY e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build
            ORDER BY claims DESC, max(e.tool_build_order) DESC, max(e.os_build_order) DESC, e.tool_version DESC,
                     e.os_version DESC
            """
        ).forEachRow([SQLValue(document)]) { rows.append((try StoreReader.environment($0), $0.int("claims"))) }
        return rows
    }

    /// How many claims fail in each environment where their latest decisive
    /// result failed: the verified line names them beside the setup.
    public func failingEnvironments(document: String? = nil) throws -> [EnvironmentSpec: Int] {
        var failing: [EnvironmentSpec: Int] = [:]
        try database.cached(
            """
            SELECT e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   count(DISTINCT s.claim_id) AS claims
            FROM claim_state AS s
            JOIN live_claims AS c ON c.id = s.claim_id
            JOIN environments AS e ON e.id = s.decisive_environment_id
            WHERE s.state = 'failing' AND (?1 IS NULL OR s.document = ?1)
            GROUP BY e.id
            """
        ).forEachRow([SQLValue(document)]) { failing[try StoreReader.environment($0), default: 0] += $0.int("claims") }
        return failing
    }

    /// Sources with the claims that cite them, sorted by publisher, kind and title.
    public func citedSources(document: String? = nil) throws -> [CitedSource] {
        var sources: [(Int64, CitedSource)] = []
        try database.cached(
            """
            SELECT s.id, s.url, s.title, s.publisher, s.kind, s.published, s.updated, s.retrieved
            FROM sources AS s
            WHERE ?1 IS NULL OR EXISTS (
                SELECT 1 FROM claim_sources AS x JOIN live_claims AS c ON c.id = x.claim_id
                WHERE x.source_id = s.id AND c.document = ?1)
            ORDER BY s.publisher, s.kind, s.title COLLATE NOCASE, s.url
            """
        ).forEachRow([SQLValue(document)]) { row in
            sources.append((row.int64("id"), CitedSource(
                url: row.text("url"), title: row.text("title"), publisher: row.text("publisher"), kind: row.text("kind"),
                published: row.optionalText("published"), updated: row.optionalText("updated"), retrieved: row.optionalText("retrieved"),
                citations: [], lacks: [])))
        }
        let citations = try database.cached(
            """
            SELECT c.key, x.locator FROM claim_sources AS x JOIN live_claims AS c ON c.id = x.claim_id
            WHERE x.source_id = ?1 AND (?2 IS NULL OR c.document = ?2) ORDER BY c.key, x.locator
            """)
        let lacks = try database.cached(
            """
            SELECT statement FROM capability_records WHERE source_id = ?
            ORDER BY model, kind, tool_build_order, capability
            """)
        return try sources.map { id, source in
            var source = source
            try citations.forEachRow([.integer(id), SQLValue(document)]) { source.citations.append(($0.text("key"), $0.text("locator"))) }
            try lacks.forEachRow([.integer(id)]) { source.lacks.append($0.text("statement")) }
            return source
        }
    }

    // MARK: - Checklists

    public func checklists(document: String? = nil) throws -> [ChecklistReport] {
        var lists: [(id: Int64, document: String, title: String)] = []
        try database.cached(
            "SELECT id, document, title FROM checklists WHERE ?1 IS NULL OR document = ?1 COLLATE NOCASE ORDER BY document")
            .forEachRow([SQLValue(document)]) { lists.append(($0.int64("id"), $0.text("document"), $0.text("title"))) }
        if let document, lists.isEmpty {
            var known: [String] = []
            try database.cached("SELECT document FROM checklists").forEachRow { known.append($0.text("document")) }
            throw EvidenceError.notFound(
                kind: "checklist", value: document, suggestions: Suggestions.closest(to: document, in: known))
        }
        // Every linked claim's state in one pass over the links, not one query
        // (and one claim_state set-up) per item.
        var linked: [Int64: [(id: Int64, key: String, state: VerificationState, run: String?)]] = [:]
        try database.cached(
            """
            SELECT x.checklist_item_id, s.claim_id, s.key, s.state,
                   (SELECT substr(u.uuid, 1, 8) FROM results AS r JOIN runs AS u ON u.id = r.run_id
                     WHERE r.id = s.decisive_result_id) AS run
            FROM checklist_item_claims AS x
            JOIN checklist_items AS i ON i.id = x.checklist_item_id
            JOIN checklists AS l ON l.id = i.checklist_id
            JOIN claim_state AS s ON s.claim_id = x.claim_id
            JOIN live_claims AS c ON c.id = x.claim_id
            WHERE ?1 IS NULL OR l.document = ?1 COLLATE NOCASE
            ORDER BY x.checklist_item_id, s.key
            """
        ).forEachRow([SQLValue(document)]) { row in
            linked[row.int64("checklist_item_id"), default: []].append(
                (row.int64("claim_id"), row.text("key"), try VerificationState(parsing: row.text("state")), row.optionalText("run")))
        }
        let items = try database.cached(
            """
            SELECT id, key, position, text, mark, mark_reason, marked_by, marked_at
            FROM checklist_items WHERE checklist_id = ? ORDER BY position
            """)
        return try lists.map { list in
            var reportItems: [ChecklistReport.Item] = []
            try items.forEachRow([.integer(list.id)]) { row in
                let (key, position, text) = (row.text("key"), row.int("position"), row.text("text"))
                let mark = try Self.checklistMark(row)
                let claims = try (linked[row.int64("id")] ?? []).map { claim in
                    ChecklistReport.LinkedClaim(
                        key: claim.key, state: claim.state,
                        deviceNeeds: claim.state == .needsDevice ? try deviceCapabilities(ofClaim: claim.id) : [],
                        failingSince: claim.state == .failing ? claim.run : nil)
                }
                reportItems.append(
                    ChecklistReport.Item(key: key, position: position, text: text, claims: claims, mark: mark))
            }
            return ChecklistReport(document: list.document, title: list.title, items: reportItems)
        }
    }

    /// The capabilities a claim needs that a simulator lacks, sorted.
    func deviceCapabilities(ofClaim id: Int64) throws -> [String] {
        var names: [String] = []
        try database.cached("SELECT DISTINCT capability FROM claim_device_needs WHERE claim_id = ? ORDER BY capability")
            .forEachRow([.integer(id)]) { names.append($0.text("capability")) }
        return names
    }
}
