/// What the published reports read: claims with their derived state, the run
/// log, what needs a device, what went stale. Every state comes from the
/// `claim_state` view; nothing here decides a state on its own.
public struct ReportClaim: Sendable {
    public struct Evidence: Sendable {
        public var environment: String
        public var result: String
        public var run: String
        public var checkedAt: String?
        public var posture: String?
    }

    public var key: String
    public var statement: String
    public var document: String
    public var area: String
    public var label: String
    public var asOf: String?
    public var state: String
    public var reason: String
    public var sources: [ClaimDetail.SourceLink]
    /// The latest result in each environment.
    public var evidence: [Evidence]
    public var resultCount: Int
}

public struct ReportRun: Sendable {
    public struct Entry: Sendable {
        public var claim: String
        public var result: String
        public var posture: String?
        public var checkedAt: String?
        public var note: String
        public var testID: String?
        public var duration: Double?
        public var message: String?
        public var measurements: [String]
    }

    public var uuid: String
    public var startedAt: String?
    public var environment: EnvironmentSpec
    public var tester: String
    public var note: String
    public var sourceFile: String?
    public var entries: [Entry]
    /// Automated results that map to no claim: how many of each outcome.
    public var unmappedCounts: [(String, Int)]
    /// The failures among them: test identifier and message.
    public var unmappedFailures: [(String, String)]
}

public struct DeviceNeed: Sendable, Equatable {
    public var claim: String
    public var capability: String
    public var lackedBy: String
    public var sourceTitle: String?
    public var sourceURL: String?
    public var reportedIn: String?
    public var note: String
}

public struct StateCount: Sendable, Equatable {
    public var document: String
    public var label: String
    public var state: String
    public var count: Int
}

extension Store {
    /// The documents claims belong to, sorted.
    public func documents() throws -> [String] {
        try database.query("SELECT DISTINCT document FROM claims ORDER BY document").map { $0.text("document") }
    }

    /// Refuses a document no claim belongs to, suggesting the closest.
    public func checkDocument(_ document: String?) throws {
        guard let document else { return }
        let known = try documents()
        if !known.contains(document) {
            throw EvidenceError.notFound(
                kind: "document", value: document, suggestions: Suggestions.closest(to: document, in: known))
        }
    }

    public func stateCounts(document: String? = nil) throws -> [StateCount] {
        try database.query(
            """
            SELECT document, label, state, count(*) AS n FROM claim_state
            WHERE ?1 IS NULL OR document = ?1
            GROUP BY document, label, state ORDER BY document, label, state
            """, SQLValue(document)
        ).map { StateCount(document: $0.text("document"), label: $0.text("label"), state: $0.text("state"), count: $0.int("n")) }
    }

    /// Claims grouped by document and area, each with its sources and latest evidence.
    public func reportClaims(document: String? = nil, _ body: (ReportClaim) throws -> Void) throws {
        var claims: [(Int64, ReportClaim)] = []
        try database.cachedStatement(
            """
            SELECT c.id, c.key, c.statement, c.document, c.area, c.label, c.as_of, s.state, s.reason
            FROM claims AS c JOIN claim_state AS s ON s.claim_id = c.id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY c.document, c.area, c.key
            """
        ).forEachRow([SQLValue(document)]) { row in
            claims.append((row.int64(0), ReportClaim(
                key: row.text(1), statement: row.text(2), document: row.text(3), area: row.text(4), label: row.text(5),
                asOf: row.optionalText(6), state: row.text(7), reason: row.text(8), sources: [], evidence: [],
                resultCount: 0)))
        }
        let sources = try database.cachedStatement(
            """
            SELECT s.url, s.title, s.publisher, s.kind, x.locator
            FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            WHERE x.claim_id = ? ORDER BY s.url, x.locator
            """)
        let evidence = try database.cachedStatement(
            """
            SELECT e.description, r.result, u.uuid, r.checked_at, r.posture, u.environment_id
            FROM results AS r JOIN runs AS u ON u.id = r.run_id
            JOIN environment_status AS e ON e.environment_id = u.environment_id
            WHERE r.claim_id = ?
            ORDER BY e.description, u.environment_id, r.checked_at DESC, r.id DESC
            """)
        for (id, var claim) in claims {
            try sources.forEachRow([.integer(id)]) { row in
                claim.sources.append(ClaimDetail.SourceLink(
                    url: row.text(0), title: row.text(1), publisher: row.text(2), kind: row.text(3), locator: row.text(4)))
            }
            var lastEnvironment: Int64 = -1
            try evidence.forEachRow([.integer(id)]) { row in
                claim.resultCount += 1
                let environment = row.int64(5)
                guard environment != lastEnvironment else { return }
                lastEnvironment = environment
                claim.evidence.append(ReportClaim.Evidence(
                    environment: row.text(0), result: row.text(1), run: String(row.text(2).prefix(8)),
                    checkedAt: row.optionalText(3), posture: row.optionalText(4)))
            }
            try body(claim)
        }
    }

    /// Runs in date order with their results. With a document, only runs and
    /// results that concern its claims.
    public func reportRuns(document: String? = nil, _ body: (ReportRun) throws -> Void) throws {
        var runs: [(Int64, ReportRun)] = []
        try database.cachedStatement(
            """
            SELECT u.id, u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name,
                   e.tool_version, e.tool_build, u.tester, u.note, f.file_name
            FROM runs AS u JOIN environments AS e ON e.id = u.environment_id
            LEFT JOIN ingested_files AS f ON f.id = u.ingested_file_id
            WHERE ?1 IS NULL OR EXISTS (
                SELECT 1 FROM results AS r JOIN claims AS c ON c.id = r.claim_id
                WHERE r.run_id = u.id AND c.document = ?1)
            ORDER BY u.started_at, u.uuid
            """
        ).forEachRow([SQLValue(document)]) { row in
            runs.append((row.int64(0), ReportRun(
                uuid: row.text(1), startedAt: row.optionalText(2),
                environment: EnvironmentSpec(
                    kind: EnvironmentKind(rawValue: row.text(3)) ?? .simulator, model: row.text(4), osName: row.text(5),
                    osVersion: row.text(6), osBuild: row.text(7), toolName: row.text(8), toolVersion: row.text(9),
                    toolBuild: row.text(10)),
                tester: row.text(11), note: row.text(12), sourceFile: row.optionalText(13), entries: [],
                unmappedCounts: [], unmappedFailures: [])))
        }
        let entries = try database.cachedStatement(
            """
            SELECT r.id, c.key, r.result, r.posture, r.checked_at, r.note, r.test_id, r.duration, r.message
            FROM results AS r JOIN claims AS c ON c.id = r.claim_id
            WHERE r.run_id = ?1 AND (?2 IS NULL OR c.document = ?2)
            ORDER BY r.id
            """)
        let measurements = try database.cachedStatement(
            """
            SELECT m.result_id, m.name, m.value, m.unit, m.baseline, m.posture
            FROM measurements AS m JOIN results AS r ON r.id = m.result_id
            WHERE r.run_id = ? AND r.claim_id IS NOT NULL
            ORDER BY m.result_id, m.id
            """)
        let unmapped = try database.cachedStatement(
            "SELECT result, count(*) FROM results WHERE run_id = ? AND claim_id IS NULL GROUP BY result ORDER BY result")
        let failures = try database.cachedStatement(
            """
            SELECT test_id, coalesce(message, '') FROM results
            WHERE run_id = ? AND claim_id IS NULL AND result = 'fail' ORDER BY test_id, id
            """)
        for (id, var run) in runs {
            var byResult: [Int64: [String]] = [:]
            try measurements.forEachRow([.integer(id)]) { row in
                var text = row.text(1) + ": "
                    + MeasurementDraft.summary(value: row.double(2), unit: row.text(3), baseline: row.optionalDouble(4))
                if let posture = row.optionalText(5) { text += ", \(posture)" }
                byResult[row.int64(0), default: []].append(text)
            }
            try entries.forEachRow([.integer(id), SQLValue(document)]) { row in
                run.entries.append(ReportRun.Entry(
                    claim: row.text(1), result: row.text(2), posture: row.optionalText(3), checkedAt: row.optionalText(4),
                    note: row.text(5), testID: row.optionalText(6), duration: row.optionalDouble(7),
                    message: row.optionalText(8), measurements: byResult[row.int64(0)] ?? []))
            }
            if document == nil {
                try unmapped.forEachRow([.integer(id)]) { run.unmappedCounts.append(($0.text(0), $0.int(1))) }
                try failures.forEachRow([.integer(id)]) { run.unmappedFailures.append(($0.text(0), $0.text(1))) }
            }
            try body(run)
        }
    }

    /// Claims that need a device: each capability a simulator lacks, and who says so.
    public func deviceNeeds(document: String? = nil) throws -> [DeviceNeed] {
        try database.query(
            """
            SELECT n.claim_key, n.capability,
                   n.model || ' ' || n.kind || CASE WHEN n.tool_build <> '' THEN ' (Xcode ' || n.tool_build || ')' ELSE '' END AS lacked_by,
                   n.source_title, n.source_url, n.reported_in, n.note
            FROM claim_device_needs AS n JOIN claim_state AS s ON s.claim_id = n.claim_id
            WHERE s.state = 'needs-device' AND (?1 IS NULL OR s.document = ?1)
            ORDER BY n.claim_key, n.capability, n.model, n.tool_build
            """, SQLValue(document)
        ).map {
            DeviceNeed(
                claim: $0.text("claim_key"), capability: $0.text("capability"), lackedBy: $0.text("lacked_by"),
                sourceTitle: $0.optionalText("source_title"), sourceURL: $0.optionalText("source_url"),
                reportedIn: $0.optionalText("reported_in"), note: $0.text("note"))
        }
    }

    /// Claims whose label the evidence does not support.
    public func mismatches(document: String? = nil) throws -> [(claim: String, label: String, state: String, problem: String)] {
        try database.query(
            """
            SELECT key, label, state, problem FROM claim_mismatches
            WHERE ?1 IS NULL OR document = ?1 ORDER BY key, problem
            """, SQLValue(document)
        ).map { ($0.text("key"), $0.text("label"), $0.text("state"), $0.text("problem")) }
    }

    /// Claims verified only on builds older than the newest recorded for their model.
    public func staleClaims(document: String? = nil) throws -> [(claim: String, reason: String)] {
        try database.query(
            "SELECT key, reason FROM claim_state WHERE state = 'stale' AND (?1 IS NULL OR document = ?1) ORDER BY key",
            SQLValue(document)
        ).map { ($0.text("key"), $0.text("reason")) }
    }

    /// Claims labelled not published, with the date that holds as of.
    public func notPublished(document: String? = nil) throws -> [(claim: String, asOf: String?, statement: String)] {
        try database.query(
            """
            SELECT key, as_of, statement FROM claims
            WHERE label = 'not-published' AND (?1 IS NULL OR document = ?1) ORDER BY document, key
            """, SQLValue(document)
        ).map { ($0.text("key"), $0.optionalText("as_of"), $0.text("statement")) }
    }
}
