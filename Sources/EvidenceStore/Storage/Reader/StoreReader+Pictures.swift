/// What the HTML report draws: the coverage matrix, the measurement trends and
/// the attached files. Each is read from indexes that stay small beside the
/// results (the latest decisive results, the results that are not a pass or a
/// fail, the retractions), so a store of a million results is never walked.
extension StoreReader {
    /// Claims (of `document`, or all) × the environments that hold any of
    /// their results, and each measurement's trend by build, read together:
    /// both rest on the latest decisive result of each claim on each
    /// environment, read once with its measurements.
    public func coverageAndTrends(document: String?) throws -> (coverage: CoverageMatrix, trends: [MeasurementTrend]) {
        let scope = [SQLValue(document)]
        var environments: [Int64: (spec: EnvironmentSpec, isCurrent: Bool, order: String)] = [:]
        var environmentOrder: [Int64] = []
        try database.cached(
            """
            SELECT e.id, e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   s.is_current, e.os_version_order || ' ' || e.os_build_order AS build_order
            FROM environments AS e JOIN environment_status AS s ON s.environment_id = e.id
            ORDER BY e.os_version_order DESC, e.os_build_order DESC, e.tool_version_order DESC, e.tool_build_order DESC,
                     e.kind, e.model, e.id
            """
        ).forEachRow { row in
            environments[row.int64("id")] = (try StoreReader.environment(row), row.int("is_current") != 0, row.text("build_order"))
            environmentOrder.append(row.int64("id"))
        }
        var cells: [String: [Int64: CoverageCell]] = [:]
        var trends = TrendGathering()
        var claimKeys: [Int64: String] = [:]
        try database.cached(
            """
            SELECT c.id AS claim_id, c.key, l.environment_id, r.result, u.uuid, r.checked_at,
                   coalesce((SELECT s.statement FROM claim_statements AS s WHERE s.id = r.claim_statement_id)
                            = c.statement, 0) AS of_current_words,
                   r.recorded_at, r.id, r.posture, m.name, m.unit, m.value, m.baseline, m.posture AS measured_posture
            FROM latest_decisive_results AS l
            JOIN live_claims AS c ON c.id = l.claim_id
            JOIN results AS r ON r.id = l.result_id
            JOIN runs AS u ON u.id = r.run_id
            LEFT JOIN measurements AS m INDEXED BY measurements_by_result ON m.result_id = r.id
            WHERE ?1 IS NULL OR c.document = ?1
            """
        ).forEachRow(scope) { row in
            let key = row.text("key")
            let environment = row.int64("environment_id")
            if cells[key]?[environment] == nil {
                cells[key, default: [:]][environment] = CoverageCell(
                    decisive: row.vocabulary("result"), run: row.text("uuid"), checkedAt: row.optionalText("checked_at"),
                    stale: row.int("of_current_words") == 0 || environments[environment]?.isCurrent == false)
            }
            guard !row.isNull("name"), let unit = row.vocabulary("unit", MeasurementUnit.self), let place = environments[environment]
            else { return }
            let spec = place.spec
            let claim = row.int64("claim_id")
            if claimKeys[claim] == nil { claimKeys[claim] = key }
            trends.add(TrendRow(
                name: row.text("name"), unit: unit,
                series: TrendRow.Series(
                    claim: claim, model: spec.model, kind: spec.kind,
                    posture: row.vocabulary("measured_posture") ?? row.vocabulary("posture")),
                build: spec.osBuild.isEmpty ? spec.buildLabel : spec.osBuild,
                buildOrder: place.order,
                latest: TrendRow.Latest(
                    checkedAt: row.optionalText("checked_at"), recordedAt: row.text("recorded_at"), resultID: row.int64("id"),
                    value: row.double("value"), baseline: row.optionalDouble("baseline"),
                    failed: row.textEquals("result", Outcome.fail.rawValue))))
        }
        try database.cached(
            """
            SELECT c.key, r.environment_id
            FROM results AS r INDEXED BY results_not_decisive
            JOIN live_claims AS c ON c.id = r.claim_id
            WHERE r.claim_id IS NOT NULL AND r.result NOT IN ('pass', 'fail') AND (?1 IS NULL OR c.document = ?1)
              AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
            GROUP BY r.claim_id, r.environment_id
            """
        ).forEachRow(scope) { cells[$0.text("key"), default: [:]][$0.int64("environment_id"), default: CoverageCell()].otherOnly = true }
        try database.cached(
            """
            SELECT c.key, r.environment_id
            FROM retractions AS x CROSS JOIN results AS r ON r.id = x.result_id CROSS JOIN live_claims AS c ON c.id = r.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            UNION
            SELECT c.key, r.environment_id
            FROM retractions AS x CROSS JOIN results AS r INDEXED BY results_by_run ON r.run_id = x.run_id
            CROSS JOIN live_claims AS c ON c.id = r.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            """
        ).forEachRow(scope) { row in
            let key = row.text("key")
            let environment = row.int64("environment_id")
            // Only where nothing else is left: a retracted result beside a
            // live one changes nothing.
            var cell = cells[key]?[environment] ?? CoverageCell()
            cell.retractedOnly = cell.decisive == nil && !cell.otherOnly
            cells[key, default: [:]][environment] = cell
        }
        let used = Set(cells.values.flatMap(\.keys))
        let columns = environmentOrder.filter(used.contains)
        var lacking: [String: Set<Int64>] = [:]
        try database.cached(
            """
            SELECT DISTINCT c.key, g.environment_id
            FROM claim_environment_gaps AS g JOIN live_claims AS c ON c.id = g.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            """
        ).forEachRow(scope) { lacking[$0.text("key"), default: []].insert($0.int64("environment_id")) }
        // Each claim's models, where it names any: other models' columns are marked.
        var subjects: [String: Set<String>] = [:]
        try database.cached(
            """
            SELECT c.key, m.model FROM claim_subjects AS m JOIN live_claims AS c ON c.id = m.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            """
        ).forEachRow(scope) { subjects[$0.text("key"), default: []].insert($0.text("model")) }
        var rows: [String: [CoverageCell]] = [:]
        for key in Set(cells.keys).union(lacking.keys) {
            rows[key] = columns.map { column in
                var cell = cells[key]?[column] ?? CoverageCell()
                cell.lacksCapability = lacking[key]?.contains(column) ?? false
                if let models = subjects[key], let model = environments[column]?.spec.model {
                    cell.otherModel = !models.contains(model)
                }
                return cell
            }
        }
        let coverage = CoverageMatrix(
            columns: columns.compactMap { id in
                environments[id].map { CoverageMatrix.Column(environment: $0.spec, isCurrent: $0.isCurrent) }
            },
            cells: rows)
        let expected = try expectedValues(document: document)
        let drawn = try trends.trends(claimKeys: claimKeys, runs: runsOfResults).map { trend in
            var trend = trend
            for index in trend.series.indices {
                let series = trend.series[index]
                trend.series[index].expected = expected[series.claim + "\u{0}" + trend.name + "\u{0}" + trend.unit.rawValue] ?? []
            }
            return trend
        }
        return (coverage, drawn)
    }

    /// The capabilities each claim (of `document`, or all) needs, and the models it speaks about.
    public func claimNeedsAndModels(document: String?) throws -> (needs: [String: [String]], models: [String: [String]]) {
        var needs: [String: [String]] = [:]
        var models: [String: [String]] = [:]
        try database.cached(
            """
            SELECT c.key, k.name FROM claim_capabilities AS x JOIN capabilities AS k ON k.id = x.capability_id
            JOIN live_claims AS c ON c.id = x.claim_id WHERE ?1 IS NULL OR c.document = ?1 ORDER BY c.key, k.name
            """
        ).forEachRow([SQLValue(document)]) { needs[$0.text("key"), default: []].append($0.text("name")) }
        try database.cached(
            """
            SELECT c.key, m.model FROM claim_subjects AS m JOIN live_claims AS c ON c.id = m.claim_id
            WHERE ?1 IS NULL OR c.document = ?1 ORDER BY c.key, m.model
            """
        ).forEachRow([SQLValue(document)]) { models[$0.text("key"), default: []].append($0.text("model")) }
        return (needs, models)
    }

    /// Each document's claims (its QA work) by outcome on each OS build,
    /// oldest build first (see `DocumentTrend`).
    public func documentTrends(document: String?) throws -> [DocumentTrend] {
        var totals: [String: Int] = [:]
        try database.cached(
            """
            SELECT document, count(*) AS claims FROM live_claims WHERE label <> 'not-published' AND (?1 IS NULL OR document = ?1)
            GROUP BY document ORDER BY document
            """
        ).forEachRow([SQLValue(document)]) { totals[$0.text("document")] = $0.int("claims") }
        // Per document and build, each claim's latest pass or fail there.
        struct Key: Hashable { var document: String; var build: String }
        var latest: [Key: [Int64: (String, Bool)]] = [:]
        var builds: [String: (label: String, order: String)] = [:]
        try database.cached(
            """
            -- Whether the environment lacks a capability the claim needs, worked out once a row:
            -- a pass there proves nothing, a fail still counts.
            WITH decided AS (
                SELECT c.document, e.os_name, e.os_version, e.os_build, e.os_version_order || ' ' || e.os_build_order AS build_order,
                       c.id AS claim_id, r.recorded_at || ' ' || printf('%019d', r.id) AS recorded, r.result,
                       EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                               WHERE g.claim_id = c.id AND g.environment_id = e.id) AS lacks
                FROM latest_decisive_results AS l
                JOIN results AS r ON r.id = l.result_id
                JOIN environments AS e ON e.id = l.environment_id
                JOIN live_claims AS c ON c.id = l.claim_id
                WHERE c.label <> 'not-published' AND (?1 IS NULL OR c.document = ?1)
                  AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
                       OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = e.model))
            )
            SELECT document, os_name, os_version, os_build, build_order, claim_id, recorded,
                   result = 'pass' AND NOT lacks AS passes
            FROM decided WHERE result = 'fail' OR NOT lacks
            """
        ).forEachRow([SQLValue(document)]) { row in
            let spec = EnvironmentSpec(kind: .simulator, model: "", osName: row.text("os_name"), osVersion: row.text("os_version"), osBuild: row.text("os_build"))
            let label = spec.buildLabel
            builds[label] = (label, row.text("build_order"))
            let key = Key(document: row.text("document"), build: label)
            let when = row.text("recorded")
            if let known = latest[key]?[row.int64("claim_id")], known.0 >= when { return }
            latest[key, default: [:]][row.int64("claim_id")] = (when, row.int("passes") != 0)
        }
        let ordered = builds.values.sorted { ($0.order, $0.label) < ($1.order, $1.label) }.map(\.label)
        return totals.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
            let total = totals[name] ?? 0
            let rows = ordered.compactMap { label -> DocumentTrend.Build? in
                guard let outcomes = latest[Key(document: name, build: label)] else { return nil }
                let passing = outcomes.values.count { $0.1 }
                let failing = outcomes.count - passing
                return DocumentTrend.Build(label: label, passing: passing, failing: failing, untested: total - outcomes.count)
            }
            return rows.isEmpty ? nil : DocumentTrend(document: name, claims: total, builds: rows)
        }
    }

    /// What each claim (of `document`, or all) expects of each measurement, by claim key, name and unit.
    func expectedValues(document: String?) throws -> [String: [ExpectedValue]] {
        var found: [String: [ExpectedValue]] = [:]
        try database.cached(
            """
            SELECT c.key, x.name, x.value, x.unit, x.tolerance, x.bound FROM claim_expectations AS x
            JOIN live_claims AS c ON c.id = x.claim_id WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY c.key, x.name, x.value, x.tolerance
            """
        ).forEachRow([SQLValue(document)]) { row in
            let expected = try Self.expectedValue(row)
            found[row.text("key") + "\u{0}" + expected.name + "\u{0}" + expected.unit.rawValue, default: []].append(expected)
        }
        return found
    }

    /// Every file attached to a result of a claim (of `document`, or all), in
    /// the order of the claims, then of the results.
    public func resultAttachments(document: String?) throws -> [ResultAttachment] {
        var attachments: [ResultAttachment] = []
        try database.cached(
            """
            SELECT c.key, r.result,
                   EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id) AS retracted,
                   u.uuid, r.checked_at, a.path, a.sha256, a.size, a.media_type, a.with_failure,
                   e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   e.os_version_order || ' ' || e.os_build_order AS build_order
            FROM attachments AS a
            CROSS JOIN results AS r ON r.id = a.result_id
            CROSS JOIN live_claims AS c ON c.id = r.claim_id
            CROSS JOIN runs AS u ON u.id = r.run_id
            CROSS JOIN environments AS e ON e.id = r.environment_id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY c.document, c.area, c.key, coalesce(r.checked_at, ''), r.recorded_at, r.id, a.path
            """
        ).forEachRow([SQLValue(document)]) { row in
            guard let outcome = row.vocabulary("result", Outcome.self) else { return }
            let environment = try StoreReader.environment(row)
            var attachment = ResultAttachment(
                claim: row.text("key"), result: outcome, retracted: row.int("retracted") != 0, run: row.text("uuid"),
                environment: environment.description, checkedAt: row.optionalText("checked_at"),
                path: row.text("path"), sha256: row.text("sha256"), size: row.int64("size"), mediaType: row.text("media_type"))
            attachment.withFailure = row.int("with_failure") != 0
            attachment.build = environment.buildLabel
            attachment.buildOrder = row.text("build_order")
            attachments.append(attachment)
        }
        return attachments
    }
}

/// A measurement of a latest decisive result, on its way into a trend.
private struct TrendRow {
    /// A line: one claim's (by id), on one model and kind, in one posture.
    struct Series: Hashable {
        var claim: Int64
        var model: String
        var kind: EnvironmentKind
        var posture: Posture?
    }

    /// What a point needs while the lines are chosen: its value, whether it
    /// failed, and what orders it (when it was checked and recorded, its
    /// result's id). Its run is read only for the points drawn.
    struct Latest {
        var checkedAt: String?
        var recordedAt: String
        var resultID: Int64
        var value: Double
        var baseline: Double?
        var failed: Bool

        func isNewer(than other: Latest) -> Bool {
            (checkedAt ?? "", recordedAt, resultID) > (other.checkedAt ?? "", other.recordedAt, other.resultID)
        }
    }

    var name: String
    var unit: MeasurementUnit
    var series: Series
    var build: String
    var buildOrder: String
    var latest: Latest
}

/// The trends as the rows come: only the latest row of each name and unit,
/// series and build is kept, so a store of many measurements holds few; and
/// of each only what choosing the lines needs (its trend, series and build
/// are its key; its run is read for the points drawn).
private struct TrendGathering {
    private struct Place: Hashable {
        var series: TrendRow.Series
        var build: String
    }

    private struct Trend {
        var name: String
        var unit: MeasurementUnit
        var order: [String: String] = [:]
        var series: Set<TrendRow.Series> = []
        var latest: [Place: TrendRow.Latest] = [:]
    }

    private var byName: [String: Trend] = [:]

    mutating func add(_ row: TrendRow) {
        let key = row.name + "\u{0}" + row.unit.rawValue
        var trend = byName.removeValue(forKey: key) ?? Trend(name: row.name, unit: row.unit)
        if trend.order[row.build] == nil { trend.order[row.build] = row.buildOrder }
        trend.series.insert(row.series)
        let place = Place(series: row.series, build: row.build)
        if trend.latest[place].map({ row.latest.isNewer(than: $0) }) ?? true {
            trend.latest[place] = row.latest
        }
        byName[key] = trend
    }

    /// One trend per name and unit (by name), one point per build in build
    /// order, and the lines it draws (`MeasurementTrend.drawnLines` at most):
    /// every series with a failed point first, then by claim, model, kind and
    /// posture; only the drawn ones are made, their points' runs read by
    /// `runs` in one call (result id to run UUID and checked time).
    func trends(
        claimKeys: [Int64: String], runs: ([Int64]) throws -> [Int64: (run: String, checkedAt: String?)]
    ) throws -> [MeasurementTrend] {
        func claim(_ series: TrendRow.Series) -> String { claimKeys[series.claim] ?? "" }
        func precedes(_ a: TrendRow.Series, _ b: TrendRow.Series) -> Bool {
            (claim(a), a.model, a.kind.rawValue, a.posture?.rawValue ?? "") < (claim(b), b.model, b.kind.rawValue, b.posture?.rawValue ?? "")
        }
        // The first `count` series by claim, model, kind and posture, kept as they
        // come: a trend of every claim draws a dozen lines, and sorting them all
        // to take a dozen was most of the HTML report's trend work.
        func first(_ count: Int, of candidates: some Sequence<TrendRow.Series>) -> [TrendRow.Series] {
            var kept: [TrendRow.Series] = []
            guard count > 0 else { return kept }
            for series in candidates {
                if kept.count == count, let last = kept.last, !precedes(series, last) { continue }
                let place = kept.firstIndex { precedes(series, $0) } ?? kept.endIndex
                kept.insert(series, at: place)
                if kept.count > count { kept.removeLast() }
            }
            return kept
        }
        let chosen = byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { key -> (Trend, [String], [TrendRow.Series])? in
            guard let trend = byName[key] else { return nil }
            let builds = trend.order.keys.sorted { (trend.order[$0] ?? "", $0) < (trend.order[$1] ?? "", $1) }
            // Every series with a failed point first, then the others.
            let failing = Set(trend.latest.filter(\.value.failed).map(\.key.series))
            let firstFailing = first(MeasurementTrend.drawnLines, of: failing)
            let drawn = (firstFailing
                + first(MeasurementTrend.drawnLines - firstFailing.count, of: trend.series.lazy.filter { !failing.contains($0) }))
                .sorted(by: precedes)
            return (trend, builds, drawn)
        }
        var drawnResults: [Int64] = []
        for (trend, builds, drawn) in chosen {
            for series in drawn {
                for build in builds { if let point = trend.latest[Place(series: series, build: build)] { drawnResults.append(point.resultID) } }
            }
        }
        let found = try runs(drawnResults)
        return chosen.map { trend, builds, drawn in
            MeasurementTrend(
                name: trend.name, unit: trend.unit, builds: builds,
                series: drawn.map { series in
                    MeasurementTrend.Series(
                        claim: claim(series), model: series.model, kind: series.kind, posture: series.posture,
                        points: builds.compactMap { build in
                            guard let point = trend.latest[Place(series: series, build: build)] else { return nil }
                            let run = found[point.resultID]
                            return MeasurementTrend.Point(
                                build: build, value: point.value, baseline: point.baseline, run: run?.run ?? "",
                                checkedAt: run?.checkedAt, failed: point.failed)
                        })
                },
                lineCount: trend.series.count)
        }
    }
}

extension StoreReader {
    /// The run UUID and checked time of each result, by id, read in one query.
    fileprivate func runsOfResults(_ ids: [Int64]) throws -> [Int64: (run: String, checkedAt: String?)] {
        guard !ids.isEmpty else { return [:] }
        var found: [Int64: (run: String, checkedAt: String?)] = [:]
        try database.cached(
            """
            SELECT r.id, u.uuid, r.checked_at FROM results AS r JOIN runs AS u ON u.id = r.run_id
            WHERE r.id IN (SELECT value FROM json_each(?1))
            """
        ).forEachRow([.text("[" + ids.map(String.init).joined(separator: ",") + "]")]) {
            found[$0.int64("id")] = ($0.text("uuid"), $0.optionalText("checked_at"))
        }
        return found
    }
}

extension StoreReader {
    /// Each claim's measurements that a document's numbers are checked
    /// against, by claim key: for each name, the latest measurement of that
    /// name among the claim's results that count (on a current environment
    /// of one of its models, not retracted), whichever result carries it,
    /// ordered as the state orders results (`DecisiveOrder`). A claim none of
    /// whose counting results measured anything falls back on its decisive
    /// result's measurements (its proof on older builds).
    public func decisiveMeasurements(document: String?) throws -> [String: [DecisiveMeasurement]] {
        typealias Found = (candidate: DecisiveOrder.Candidate, measurement: DecisiveMeasurement, order: Int64)
        var counting: [String: [String: [Found]]] = [:]
        try database.cached(
            """
            SELECT c.key, m.name, m.value, m.unit, m.baseline, u.uuid, r.checked_at,
                   e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   r.id, r.result, r.recorded_at, r.run_id, m.id AS measurement_id
            FROM live_claims AS c
            JOIN live_results AS r ON r.claim_id = c.id
            JOIN environment_status AS s ON s.environment_id = r.environment_id
            JOIN environments AS e ON e.id = r.environment_id
            JOIN runs AS u ON u.id = r.run_id
            JOIN measurements AS m ON m.result_id = r.id
            WHERE (?1 IS NULL OR c.document = ?1) AND s.is_current
              -- A pass where the claim needs what the environment lacks never counts, nor do its values.
              AND (r.result <> 'pass' OR NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                                     WHERE g.claim_id = c.id AND g.environment_id = r.environment_id))
              AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS x WHERE x.claim_id = c.id)
                   OR EXISTS (SELECT 1 FROM claim_subjects AS x WHERE x.claim_id = c.id AND x.model = e.model))
            ORDER BY m.id
            """
        ).forEachRow([SQLValue(document)]) { row in
            guard let unit = row.vocabulary("unit", MeasurementUnit.self) else { return }
            let measurement = DecisiveMeasurement(
                name: row.text("name"), value: row.double("value"), unit: unit, baseline: row.optionalDouble("baseline"), run: row.text("uuid"),
                checkedAt: row.optionalText("checked_at"), environment: try StoreReader.environment(row))
            let candidate = DecisiveOrder.Candidate(
                id: row.int64("id"), outcome: try Outcome(parsing: row.text("result")), checkedAt: row.optionalText("checked_at"),
                recordedAt: row.text("recorded_at"), runID: row.int64("run_id"))
            // A result's last measurement of a name stands for it.
            counting[row.text("key"), default: [:]][measurement.name, default: []].removeAll { $0.candidate.id == candidate.id }
            counting[row.text("key"), default: [:]][measurement.name, default: []].append((candidate, measurement, row.int64("measurement_id")))
        }
        var measurements: [String: [DecisiveMeasurement]] = [:]
        for (key, names) in counting {
            measurements[key] = names.values.compactMap { found -> (DecisiveMeasurement, Int64)? in
                guard let latest = DecisiveOrder.latest(found.map(\.candidate), failsOutweighPasses: false),
                    let chosen = found.first(where: { $0.candidate.id == latest.id })
                else { return nil }
                return (chosen.measurement, chosen.order)
            }.sorted { $0.1 < $1.1 }.map(\.0)
        }
        try database.cached(
            """
            SELECT s.key, m.name, m.value, m.unit, m.baseline, u.uuid, r.checked_at,
                   e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build
            FROM claim_state AS s
            CROSS JOIN live_claims AS c ON c.id = s.claim_id
            CROSS JOIN results AS r ON r.id = s.decisive_result_id
            CROSS JOIN runs AS u ON u.id = r.run_id
            CROSS JOIN environments AS e ON e.id = r.environment_id
            CROSS JOIN measurements AS m ON m.result_id = r.id
            WHERE ?1 IS NULL OR s.document = ?1
            ORDER BY s.key, m.id
            """
        ).forEachRow([SQLValue(document)]) { row in
            guard counting[row.text("key")] == nil, let unit = row.vocabulary("unit", MeasurementUnit.self) else { return }
            measurements[row.text("key"), default: []].append(DecisiveMeasurement(
                name: row.text("name"), value: row.double("value"), unit: unit, baseline: row.optionalDouble("baseline"), run: row.text("uuid"),
                checkedAt: row.optionalText("checked_at"), environment: try StoreReader.environment(row)))
        }
        return measurements
    }
}
