#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `evidence compare` and `evidence history` read: a side's results and
/// measurements, latest last, retracted ones left out.
extension StoreReader {
    /// A run by number or UUID, or a model's environments whose OS version or
    /// OS build is `version` (on one kind of environment, or both).
    public func resolveSide(_ side: ComparisonSide) throws -> ResolvedSide {
        switch side {
        case .run(let reference):
            let run = try self.run(id: try runID(reference: reference))
            return ResolvedSide(label: run.described, runID: run.id, environmentIDs: [])
        case .build(let model, let kind, let given):
            let version = given.trimmingWhitespace()
            var ids: [Int64] = []
            // The model's versions and builds on the kind asked for, and on any kind (with the kinds that have it).
            var known: [String] = []
            var kindsOf: [String: Set<String>] = [:]
            var models: [String] = []
            try database.cached(
                """
                SELECT id, model, os_version, os_build, kind,
                       model = ?1 COLLATE NOCASE AND (?2 IS NULL OR kind = ?2)
                           AND (os_version = ?3 OR os_build = ?3 OR trim(os_name || ' ' || os_version) = ?3 COLLATE NOCASE)
                           AS asked,
                       (os_version = ?3 OR os_build = ?3 OR trim(os_name || ' ' || os_version) = ?3 COLLATE NOCASE) AS has_build
                FROM environments ORDER BY id
                """
            ).forEachRow([.text(model), SQLValue(kind?.rawValue), .text(version)]) {
                models.append($0.text("model"))
                if $0.int("asked") != 0 { ids.append($0.int64("id")) }
                guard $0.text("model").lowercased() == model.lowercased() else { return }
                if $0.int("has_build") != 0 { kindsOf[version, default: []].insert($0.text("kind")) }
                if kind == nil || $0.text("kind") == kind?.rawValue {
                    known += [$0.text("os_version"), $0.text("os_build")].filter { !$0.isEmpty && $0 != version }
                }
            }
            guard models.contains(where: { $0.lowercased() == model.lowercased() }) else {
                throw EvidenceError.notFound(
                    kind: "model", value: model, suggestions: Suggestions.closest(to: model, in: Array(Set(models)).sorted()))
            }
            guard !ids.isEmpty else {
                if let kind, let others = kindsOf[version], !others.isEmpty {
                    // The version is known, on the other kind of environment: say so, never "did you mean" it.
                    throw EvidenceError.refused(
                        reason: "\(model) has '\(version)' only on \(others.sorted().map { $0 + "s" }.joined(separator: " and ")), "
                            + "not on \(kind.rawValue)s; give --kind \(others.sorted()[0]), or leave --kind out to compare both")
                }
                var seen: Set<String> = []
                let distinct = known.filter { seen.insert($0).inserted }
                let closest = Suggestions.closest(to: version, in: distinct)
                throw EvidenceError.notFound(
                    kind: "OS version or build of \(model)" + (kind.map { " " + $0.rawValue } ?? ""), value: version,
                    suggestions: closest.isEmpty ? distinct : closest)
            }
            return ResolvedSide(label: side.description, runID: nil, environmentIDs: ids)
        }
    }

    /// A condition on a result `r` (of `live_results`, with `s` its
    /// environment's status): it has no claim, or is on a model its claim
    /// speaks about. Results on other models are never compared.
    static let onClaimSubjects = """
        (r.claim_id IS NULL OR NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = r.claim_id)
         OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = r.claim_id AND m.model = s.model))
        """

    private func sideArguments(_ side: ResolvedSide) -> [SQLValue] {
        [SQLValue(side.runID), .text("[" + side.environmentIDs.map(String.init).joined(separator: ",") + "]")]
    }

    /// Each claim's (or test's) latest pass or fail on the side, on each kind
    /// of environment it has: ordered exactly as the state orders results
    /// (`DecisiveOrder`). A claim's results that never count are left out:
    /// on models it does not speak about, and passes where the environment
    /// lacks a capability it needs (never newly covered, never fixed).
    /// A claim's result counts unless it is a pass where the environment
    /// lacks a capability the claim needs.
    static let counts = """
        NOT (r.result = 'pass' AND EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                           WHERE g.claim_id = r.claim_id AND g.environment_id = r.environment_id))
        """

    public func sideOutcomes(_ side: ResolvedSide, subject: ComparisonSubject) throws -> [SideKey: SideOutcome] {
        let name = subject == .claim ? "c.key" : "r.test_id"
        var candidates: [SideKey: [(DecisiveOrder.Candidate, SideOutcome)]] = [:]
        try database.prepare(
            """
            SELECT \(name) AS name, s.kind, r.id, r.result, r.checked_at, r.recorded_at, r.run_id, s.description,
                   substr(u.uuid, 1, 8) AS run
            FROM live_results AS r
            LEFT JOIN live_claims AS c ON c.id = r.claim_id
            JOIN runs AS u ON u.id = r.run_id
            JOIN environment_status AS s ON s.environment_id = r.environment_id
            WHERE \(name) IS NOT NULL AND r.result IN ('pass', 'fail')
              AND (r.run_id = ?1 OR r.environment_id IN (SELECT value FROM json_each(?2)))
              \(subject == .claim ? "AND " + Self.onClaimSubjects + " AND " + Self.counts : "")
            """
        ).forEachRow(sideArguments(side)) {
            let outcome = try Outcome(parsing: $0.text("result"))
            let key = SideKey(name: $0.text("name"), kind: try EnvironmentKind(parsing: $0.text("kind")))
            candidates[key, default: []].append((
                DecisiveOrder.Candidate(
                    id: $0.int64("id"), outcome: outcome, checkedAt: $0.optionalText("checked_at"),
                    recordedAt: $0.text("recorded_at"), runID: $0.int64("run_id")),
                SideOutcome(outcome: outcome, environment: $0.text("description"), run: $0.text("run"))))
        }
        return candidates.compactMapValues { results in
            DecisiveOrder.latest(results.map(\.0)).flatMap { latest in results.first { $0.0.id == latest.id }?.1 }
        }
    }

    /// Each measurement's latest value on the side, by subject, name, posture
    /// and kind of environment: the measurement of the latest result that
    /// carries one of that name, ordered as the state orders results.
    public func sideMeasurements(_ side: ResolvedSide) throws -> [MeasurementKey: SideMeasurement] {
        var candidates: [MeasurementKey: [(DecisiveOrder.Candidate, SideMeasurement)]] = [:]
        try database.prepare(
            """
            SELECT c.key IS NULL AS of_test, coalesce(c.key, r.test_id) AS subject, m.name,
                   coalesce(m.posture, r.posture, '') AS posture, s.kind, m.value, m.unit, s.description, r.id, r.result,
                   r.checked_at, r.recorded_at, r.run_id
            FROM measurements AS m
            JOIN live_results AS r ON r.id = m.result_id
            LEFT JOIN live_claims AS c ON c.id = r.claim_id
            JOIN environment_status AS s ON s.environment_id = r.environment_id
            WHERE (r.run_id = ?1 OR r.environment_id IN (SELECT value FROM json_each(?2))) AND \(Self.onClaimSubjects)
              AND (r.claim_id IS NULL OR c.id IS NOT NULL)
            ORDER BY m.id
            """
        ).forEachRow(sideArguments(side)) {
            let key = MeasurementKey(
                subject: $0.int("of_test") != 0 ? .test : .claim, name: $0.text("subject"), measurement: $0.text("name"),
                posture: $0.text("posture"), kind: try EnvironmentKind(parsing: $0.text("kind")))
            let candidate = DecisiveOrder.Candidate(
                id: $0.int64("id"), outcome: try Outcome(parsing: $0.text("result")), checkedAt: $0.optionalText("checked_at"),
                recordedAt: $0.text("recorded_at"), runID: $0.int64("run_id"))
            // A result's last measurement of a name stands for it.
            candidates[key, default: []].removeAll { $0.0.id == candidate.id }
            candidates[key, default: []].append(
                (candidate, SideMeasurement(value: $0.double("value"), unit: $0.text("unit"), environment: $0.text("description"))))
        }
        return candidates.compactMapValues { results in
            DecisiveOrder.latest(results.map(\.0), failsOutweighPasses: false).flatMap { latest in
                results.first { $0.0.id == latest.id }?.1
            }
        }
    }
}

extension StoreReader {
    /// A claim's results, newest first, retracted ones included and marked.
    /// Days come newest first; within a day, results are ordered by the clock
    /// when every one of them has a time, and by the order they were recorded
    /// in when any has only a date (a date-only result and a timed one on the
    /// same day are not ordered by the clock). Results with no date come last.
    public func history(ofClaim key: String) throws -> [HistoryEntry] {
        let entries = try resultEntries(.claim(try claimID(key: key)))
        let days = Dictionary(grouping: entries) { String(($0.checkedAt ?? "").prefix(10)) }
        var ordered: [ClaimDetail.ResultEntry] = []
        for day in days.keys.sorted(by: >) {
            let results = days[day] ?? []
            let byRecording = results.contains { ($0.checkedAt ?? "").count <= 10 }
            ordered += results.sorted { left, right in
                if !byRecording, left.checkedAt != right.checkedAt { return (left.checkedAt ?? "") > (right.checkedAt ?? "") }
                return (left.recordedAt, left.resultID) > (right.recordedAt, right.resultID)
            }
        }
        return ordered.map(HistoryEntry.init)
    }
}

extension StoreReader {
    /// Claims and automated tests with both a pass and a fail among their last
    /// `window` decisive results (pass or fail) on one environment (one model,
    /// kind and builds), retracted results left out; with `claims`, those
    /// claims only. Flaky never changes a state: a claim whose latest decisive
    /// result failed stays failing. A claim's window is read from the end of
    /// each environment's decisive results, through their index, starting from
    /// the environments where it has a latest decisive result.
    public func flakyList(window: Int = FlakyListing.defaultWindow, claims: [String]? = nil) throws -> [FlakyListing] {
        try flaky(window: window, claims: claims, document: nil, tests: claims == nil)
    }

    /// The flaky claims of one document (nil: of every document), no tests.
    public func flakyClaims(document: String?, window: Int = FlakyListing.defaultWindow) throws -> [FlakyListing] {
        try flaky(window: window, claims: nil, document: document, tests: false)
    }

    private func flaky(window: Int, claims: [String]?, document: String?, tests: Bool) throws -> [FlakyListing] {
        var rows: [FlakyListing] = []
        let keys: SQLValue = claims.map { .text(JSONValue.array($0.map(JSONValue.string)).rendered()) } ?? .null
        var descriptions: [Int64: String] = [:]
        func environmentDescription(id: Int64) throws -> String {
            if let known = descriptions[id] { return known }
            let text = try database.scalar(
                cached: "SELECT description FROM environment_status WHERE environment_id = ?", [.integer(id)]
            ).description
            descriptions[id] = text
            return text
        }
        try database.cached(
            """
            SELECT c.key, l.environment_id,
                   (SELECT sum(w.result = 'pass') || ' ' || sum(w.result = 'fail') || ' ' || count(*) FROM (
                        SELECT r.result FROM results AS r INDEXED BY results_decisive
                        WHERE r.claim_id = l.claim_id AND r.environment_id = l.environment_id
                          AND r.result IN ('pass', 'fail')
                          AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                        ORDER BY r.checked_at DESC, r.recorded_at DESC LIMIT ?1) AS w) AS counts
            FROM latest_decisive_results AS l JOIN live_claims AS c ON c.id = l.claim_id
            WHERE (?2 IS NULL OR c.key IN (SELECT value FROM json_each(?2))) AND (?3 IS NULL OR c.document = ?3)
            ORDER BY c.key, l.environment_id
            """
        ).forEachRow([.integer(Int64(window)), keys, SQLValue(document)]) {
            let counts = $0.text("counts").split(separator: " ").compactMap { Int($0) }
            guard counts.count == 3, counts[0] > 0, counts[1] > 0 else { return }
            rows.append(FlakyListing(
                subject: .claim, name: $0.text("key"), environment: try environmentDescription(id: $0.int64("environment_id")),
                passes: counts[0], fails: counts[1], results: counts[2]))
        }
        guard tests else { return rows }
        try database.cached(
            """
            WITH pairs AS (
                SELECT r.test_id, r.environment_id FROM results AS r
                WHERE r.test_id IS NOT NULL AND r.result IN ('pass', 'fail')
                GROUP BY r.test_id, r.environment_id HAVING min(r.result) <> max(r.result)
            ),
            recent AS (
                SELECT r.test_id, r.environment_id, r.result,
                       row_number() OVER (PARTITION BY r.test_id, r.environment_id
                                          ORDER BY r.checked_at DESC, r.recorded_at DESC, r.id DESC) AS n
                FROM pairs AS p
                JOIN results AS r ON r.test_id = p.test_id AND r.environment_id = p.environment_id
                WHERE r.result IN ('pass', 'fail')
                  AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
            )
            SELECT test_id, environment_id, sum(result = 'pass') AS passes, sum(result = 'fail') AS fails, count(*) AS results
            FROM recent WHERE n <= ?1
            GROUP BY test_id, environment_id
            HAVING sum(result = 'pass') > 0 AND sum(result = 'fail') > 0
            ORDER BY test_id, environment_id
            """
        ).forEachRow([.integer(Int64(window))]) {
            rows.append(FlakyListing(
                subject: .test, name: $0.text("test_id"), environment: try environmentDescription(id: $0.int64("environment_id")),
                passes: $0.int("passes"), fails: $0.int("fails"), results: $0.int("results")))
        }
        return rows
    }

}

extension StoreReader {
    /// A claim's expected values, by name.
    public func expectations(ofClaim id: Int64) throws -> [ExpectedValue] {
        var values: [ExpectedValue] = []
        try database.cached(
            "SELECT name, value, unit, tolerance, bound FROM claim_expectations WHERE claim_id = ? ORDER BY name"
        ).forEachRow([.integer(id)]) { values.append(try Self.expectedValue($0)) }
        return values
    }

    /// An expected value from a row of `claim_expectations`' columns.
    static func expectedValue(_ row: Statement) throws -> ExpectedValue {
        ExpectedValue(
            name: row.text("name"), value: row.double("value"), unit: try MeasurementUnit(parsing: row.text("unit")),
            tolerance: row.double("tolerance"), bound: try ExpectedValue.Bound(parsing: row.text("bound")))
    }

    /// Every expected value with its claim's id: a store holds few.
    func forEachExpectation(_ body: (Int64, ExpectedValue) throws -> Void) throws {
        try database.cached("SELECT claim_id, name, value, unit, tolerance, bound FROM claim_expectations ORDER BY claim_id, name")
            .forEachRow { try body($0.int64("claim_id"), try Self.expectedValue($0)) }
    }
}
