/// Whether a result just written will count: its environment may not be
/// current, its model not one its claim speaks about, or its environment may
/// lack a capability its claim needs. Nothing is refused; people are told.
extension StoreReader {
    /// Why a result of a claim on an environment will count for less or for
    /// nothing, one sentence each; empty when it counts.
    public func countingNotes(claimID: Int64, environmentID: Int64) throws -> [String] {
        var notes = try environmentNotes(environmentID)
        try database.cached(
            """
            SELECT c.key, s.model || ' ' || s.kind AS setup,
                   (SELECT group_concat(model, ', ') FROM (
                        SELECT model FROM claim_subjects WHERE claim_id = c.id ORDER BY model)) AS subjects
            FROM claims AS c, environment_status AS s
            WHERE c.id = ?1 AND s.environment_id = ?2
              AND EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
              AND NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = s.model)
            """
        ).forEachRow([.integer(claimID), .integer(environmentID)]) {
            notes.append(
                "\($0.text("key")) speaks about \($0.text("subjects")), not the \($0.text("setup")): this result is shown as on other "
                    + "models and never counted")
        }
        try database.cached(
            """
            SELECT c.key, g.capability, g.why
            FROM claim_capabilities AS cc
            JOIN claims AS c ON c.id = cc.claim_id
            JOIN environment_capabilities AS g ON g.capability_id = cc.capability_id AND g.environment_id = ?2
            WHERE cc.claim_id = ?1 AND g.lacks
            ORDER BY g.capability
            """
        ).forEachRow([.integer(claimID), .integer(environmentID)]) {
            notes.append(
                "this environment lacks \($0.text("capability")), which \($0.text("key")) needs (\($0.text("why"))): a pass here never counts "
                    + "for it (a fail does)")
        }
        return notes
    }

    /// Why the results of a run (an ingested file's) will count for less or
    /// for nothing: its environment, and how many of its results are on
    /// models their claims do not speak about or lack a capability they need.
    /// `withClaims` false says none of its results is a claim's: they are not
    /// read to count those that will not count.
    public func countingNotes(runID: Int64, withClaims: Bool = true) throws -> [String] {
        let run = try self.run(id: runID)
        var notes = try environmentNotes(run.environmentID)
        guard withClaims else { return notes }
        let counts = try database.cached(
            """
            SELECT
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = r.claim_id)
                                 AND NOT EXISTS (SELECT 1 FROM claim_subjects AS m
                                                 WHERE m.claim_id = r.claim_id AND m.model = e.model)) AS on_other_models,
                count(*) FILTER (WHERE r.result = 'pass'
                                 AND EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                             WHERE g.claim_id = r.claim_id AND g.environment_id = r.environment_id))
                    AS passes_lacking
            FROM results AS r JOIN environments AS e ON e.id = r.environment_id
            WHERE r.run_id = ? AND r.claim_id IS NOT NULL
            """)
        try counts.forEachRow([.integer(runID)]) { row in
            if row.int("on_other_models") > 0 {
                notes.append(
                    "run \(run.shortName): " + NumberText.counted(row.int("on_other_models"), "result") + " on a model its claim does "
                        + "not speak about: shown as on other models, never counted")
            }
            if row.int("passes_lacking") > 0 {
                notes.append(
                    "run \(run.shortName): " + NumberText.counted(row.int("passes_lacking"), "pass", plural: "passes")
                        + " where the environment lacks a capability the claim needs: they verify nothing")
            }
        }
        return notes
    }

    /// "not current" when newer builds are recorded for the environment's kind
    /// and model, naming them.
    private func environmentNotes(_ environmentID: Int64) throws -> [String] {
        var notes: [String] = []
        try database.cached(
            """
            SELECT description, model || ' ' || kind AS setup, newer_builds FROM environment_status
            WHERE environment_id = ? AND NOT is_current
            """
        ).forEachRow([.integer(environmentID)]) {
            notes.append(
                "\($0.text("description")) is not current: newer builds are recorded for the \($0.text("setup")) (\($0.text("newer_builds"))); "
                    + "the result is kept, but only a current environment can verify a claim")
        }
        // Devices of the same OS version and Xcode logged without an OS build:
        // stale now only because this run records one.
        try database.cached(
            """
            SELECT count(DISTINCT l.claim_id) AS claims, n.os_build,
                   (SELECT group_concat(description, '; ') FROM (
                        SELECT DISTINCT s.description FROM environment_status AS s
                        JOIN environments AS e ON e.id = s.environment_id
                        WHERE e.kind = n.kind AND e.model = n.model AND e.os_version = n.os_version AND e.os_build = ''
                          AND e.tool_version = n.tool_version AND e.tool_build = n.tool_build AND NOT s.is_current
                        ORDER BY s.description)) AS unbuilt
            FROM environments AS n
            JOIN environments AS e
                 ON e.kind = n.kind AND e.model = n.model AND e.os_version = n.os_version AND e.os_build = ''
                AND e.tool_version = n.tool_version AND e.tool_build = n.tool_build AND e.id <> n.id
            JOIN environment_status AS s ON s.environment_id = e.id AND NOT s.is_current
            JOIN latest_decisive_results AS l ON l.environment_id = e.id
            WHERE n.id = ? AND n.kind = 'device' AND n.os_build <> ''
            """
        ).forEachRow([.integer(environmentID)]) {
            guard $0.int64("claims") > 0 else { return }
            let claims = $0.int64("claims") == 1 ? "1 claim's" : "\($0.int64("claims")) claims'"
            notes.append(
                "\(claims) evidence on \($0.text("unbuilt")) is stale now only because those runs recorded no OS build and this one "
                    + "records \($0.text("os_build")); if they ran \($0.text("os_build")) too, say so for each with "
                    + "'evidence run correct RUN --os-build \($0.text("os_build")) --reason TEXT' ('evidence run list' names them)")
        }
        return notes
    }
}

/// A result with measurements, as judging it again needs it.
public struct MeasuredResult: Sendable {
    public var id: Int64
    public var outcome: Outcome
    public var judged: Bool
    /// Ingested from a test (its measurements attached by the test).
    public var fromTest: Bool
    public var note: String
    public var measurements: [MeasurementDraft]
}

extension StoreReader {
    /// A claim's results that have measurements, with them, oldest first.
    public func measuredResults(ofClaim id: Int64) throws -> [MeasuredResult] {
        var results: [MeasuredResult] = []
        var index: [Int64: Int] = [:]
        try database.cached(
            """
            SELECT r.id, r.result, r.judged, r.test_id IS NOT NULL AS from_test, r.note, m.name, m.value, m.unit, m.baseline,
                   m.posture
            FROM results AS r JOIN measurements AS m ON m.result_id = r.id
            WHERE r.claim_id = ? ORDER BY r.id, m.id
            """
        ).forEachRow([.integer(id)]) { row in
            let resultID = row.int64("id")
            if index[resultID] == nil {
                index[resultID] = results.count
                results.append(MeasuredResult(
                    id: resultID, outcome: try Outcome(parsing: row.text("result")), judged: row.int64("judged") != 0,
                    fromTest: row.int64("from_test") != 0, note: row.text("note"), measurements: []))
            }
            guard let unit = row.vocabulary("unit", MeasurementUnit.self), let at = index[resultID] else { return }
            results[at].measurements.append(MeasurementDraft(
                name: row.text("name"), value: row.double("value"), unit: unit, baseline: row.optionalDouble("baseline"),
                posture: row.vocabulary("posture")))
        }
        return results
    }
}
