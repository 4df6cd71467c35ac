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
    /// The latest result, then the result that verifies the claim when that is another one.
    public var evidence: [Evidence]
    public var resultCount: Int
}

public struct ReportRun: Sendable {
    public var uuid: String
    public var startedAt: String?
    public var environment: EnvironmentSpec
    public var tester: String
    public var note: String
    public var sourceFile: String?
    /// Automated results that map to no claim: how many of each outcome.
    public var unmappedCounts: [(String, Int)]
    /// The failures among them: test identifier and message.
    public var unmappedFailures: [(String, String)]
}

/// A run of the run log, with how many results it holds (to share the work out).
public struct RunLogRun: Sendable {
    public var id: Int64
    public var resultCount: Int
    public var header: ReportRun
}

/// What the run log streams.
public enum RunLogEvent {
    case runStart(ReportRun)
    case entry(RunLogEntry)
    case runEnd(ReportRun)
}

/// One result of the run log, read in place from the cursor: valid only during
/// the callback that receives it, and its own fields must be read before its
/// measurements, which move the cursor on. Text comes as bytes, to be escaped
/// straight into the output.
public struct RunLogEntry {
    let cursor: RunLogCursor
    let resultID: Int64
    /// The claim's key, as the reader's `key` function made it.
    public let claimKey: [UInt8]
    private var row: Statement { cursor.statement }

    public func result<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T { try row.withBytes(3, body) }
    public func posture<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T { try row.withBytes(4, body) }
    public var checkedAt: String? { row.optionalText(5) }

    /// When the result was checked, only if that differs from `runStart` (compared as bytes, with no copy).
    public func checkedAt(unlessSameAs runStart: [UInt8]?) -> String? {
        guard !row.isNull(5) else { return nil }
        let same = row.withBytes(5) { bytes in runStart.map { bytes.elementsEqual($0) } ?? false }
        return same ? nil : row.text(5)
    }
    public func note<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T { try row.withBytes(6, body) }
    public var testID: String? { row.optionalText(7) }
    public var duration: Double? { row.optionalDouble(8) }
    public var message: String? { row.optionalText(9) }

    /// Calls `body` for each measurement of the result: name bytes, value, unit, baseline, posture.
    public func forEachMeasurement(
        _ body: (UnsafeBufferPointer<UInt8>, Double, String, Double?, String?) throws -> Void
    ) throws {
        while cursor.left && row.int64(1) == resultID && !row.isNull(10) {
            try row.withBytes(10) { name in
                try body(name, row.double(11), row.text(12), row.optionalDouble(13), row.optionalText(14))
            }
            try cursor.advance()
        }
    }
}

/// The run log's cursor, shared by its results: it only moves forward.
final class RunLogCursor {
    let statement: Statement
    private(set) var left: Bool

    init(statement: Statement, left: Bool) {
        self.statement = statement
        self.left = left
    }

    func advance() throws {
        left = try statement.step()
    }

    /// Moves past whatever rows of a result were not read.
    func skip(_ resultID: Int64) throws {
        while left && statement.int64(1) == resultID { try advance() }
    }
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

    /// Claims grouped by document and area, each with its sources, its latest
    /// result and the result that verifies it (both found by `claim_state`), and
    /// how many results it has.
    public func reportClaims(document: String? = nil) throws -> [ReportClaim] {
        var claims: [(Int64, ReportClaim)] = []
        try database.cachedStatement(
            """
            WITH env AS MATERIALIZED (SELECT environment_id, description FROM environment_status)
            SELECT c.id, c.key, c.statement, c.document, c.area, c.label, c.as_of, s.state, s.reason,
                   latest_env.description, latest.result, latest_run.uuid, latest.checked_at, latest.posture,
                   verified_env.description, verified.result, verified_run.uuid, verified.checked_at, verified.posture,
                   (SELECT count(*) FROM results AS r WHERE r.claim_id = c.id) AS results
            FROM claims AS c
            JOIN claim_state AS s ON s.claim_id = c.id
            LEFT JOIN results AS latest ON latest.id = s.latest_result_id
            LEFT JOIN runs AS latest_run ON latest_run.id = latest.run_id
            LEFT JOIN env AS latest_env ON latest_env.environment_id = latest_run.environment_id
            LEFT JOIN results AS verified ON verified.id = s.verified_result_id AND verified.id <> latest.id
            LEFT JOIN runs AS verified_run ON verified_run.id = verified.run_id
            LEFT JOIN env AS verified_env ON verified_env.environment_id = verified_run.environment_id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY c.document, c.area, c.key
            """
        ).forEachRow([SQLValue(document)]) { row in
            func evidence(_ first: Int) -> ReportClaim.Evidence? {
                guard !row.isNull(first) else { return nil }
                return ReportClaim.Evidence(
                    environment: row.text(first), result: row.text(first + 1), run: String(row.text(first + 2).prefix(8)),
                    checkedAt: row.optionalText(first + 3), posture: row.optionalText(first + 4))
            }
            claims.append((row.int64(0), ReportClaim(
                key: row.text(1), statement: row.text(2), document: row.text(3), area: row.text(4), label: row.text(5),
                asOf: row.optionalText(6), state: row.text(7), reason: row.text(8), sources: [],
                evidence: [evidence(9), evidence(14)].compactMap { $0 }, resultCount: row.int(19))))
        }
        // Every claim's sources in one pass, not one query per claim.
        var sources: [Int64: [ClaimDetail.SourceLink]] = [:]
        try database.cachedStatement(
            """
            SELECT x.claim_id, s.url, s.title, s.publisher, s.kind, x.locator
            FROM claim_sources AS x JOIN sources AS s ON s.id = x.source_id
            JOIN claims AS c ON c.id = x.claim_id
            WHERE ?1 IS NULL OR c.document = ?1
            ORDER BY x.claim_id, s.url, x.locator
            """
        ).forEachRow([SQLValue(document)]) { row in
            sources[row.int64(0), default: []].append(ClaimDetail.SourceLink(
                url: row.text(1), title: row.text(2), publisher: row.text(3), kind: row.text(4), locator: row.text(5)))
        }
        return claims.map { id, claim in
            var claim = claim
            claim.sources = sources[id] ?? []
            return claim
        }
    }

    /// The runs of the run log in date order (with a document, those with its
    /// claims' results), each with how many results it holds.
    public func runLogRuns(document: String? = nil) throws -> [RunLogRun] {
        var runs: [RunLogRun] = []
        try database.cachedStatement(
            """
            SELECT u.id, u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name,
                   e.tool_version, e.tool_build, u.tester, u.note, f.file_name,
                   (SELECT count(*) FROM results AS r WHERE r.run_id = u.id) AS results
            FROM runs AS u JOIN environments AS e ON e.id = u.environment_id
            LEFT JOIN ingested_files AS f ON f.id = u.ingested_file_id
            WHERE ?1 IS NULL OR EXISTS (
                SELECT 1 FROM results AS r JOIN claims AS c ON c.id = r.claim_id
                WHERE r.run_id = u.id AND c.document = ?1)
            ORDER BY u.started_at, u.uuid
            """
        ).forEachRow([SQLValue(document)]) { row in
            runs.append(RunLogRun(id: row.int64(0), resultCount: row.int(14), header: ReportRun(
                uuid: row.text(1), startedAt: row.optionalText(2),
                environment: EnvironmentSpec(
                    kind: EnvironmentKind(rawValue: row.text(3)) ?? .simulator, model: row.text(4), osName: row.text(5),
                    osVersion: row.text(6), osBuild: row.text(7), toolName: row.text(8), toolVersion: row.text(9),
                    toolBuild: row.text(10)),
                tester: row.text(11), note: row.text(12), sourceFile: row.optionalText(13),
                unmappedCounts: [], unmappedFailures: [])))
        }
        return runs
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

/// Reads the run log one run at a time, in whatever order runs are asked for:
/// the claims' keys are read and the statements prepared once per connection.
/// For each run it streams the run, then each of its results that maps to a
/// claim (with a document, only its claims' results) with their measurements,
/// from one indexed pass with nothing sorted, then the end of the run with its
/// automated results that map to no claim.
public final class RunLogReader {
    private let document: String?
    private let claimKeys: ClaimKeyTable
    private let rows: Statement
    private let unmapped: Statement
    private let failures: Statement

    /// `key` turns each claim's key, once, into the bytes entries carry (the
    /// report escapes it there, so that a million rows need not).
    public init(_ store: Store, document: String? = nil, key: (String) -> [UInt8] = { Array($0.utf8) }) throws {
        self.document = document
        let database = store.database
        var keys: [(Int64, [UInt8])] = []
        try database.cachedStatement("SELECT id, key FROM claims WHERE ?1 IS NULL OR document = ?1")
            .forEachRow([SQLValue(document)]) { keys.append(($0.int64(0), key($0.text(1)))) }
        claimKeys = ClaimKeyTable(keys)
        // A result comes once per measurement (once when it has none), in the
        // order of results_by_run and measurements_by_result.
        rows = try database.cachedStatement(
            """
            SELECT r.claim_id, r.id, NULL, r.result, r.posture, r.checked_at, r.note, r.test_id, r.duration, r.message,
                   m.name, m.value, m.unit, m.baseline, m.posture
            FROM results AS r INDEXED BY results_by_run
            LEFT JOIN measurements AS m INDEXED BY measurements_by_result ON m.result_id = r.id
            WHERE r.run_id = ? AND r.claim_id IS NOT NULL
            ORDER BY r.id, m.id
            """)
        unmapped = try database.cachedStatement(
            "SELECT result, count(*) FROM results WHERE run_id = ? AND claim_id IS NULL GROUP BY result ORDER BY result")
        failures = try database.cachedStatement(
            """
            SELECT test_id, coalesce(message, '') FROM results
            WHERE run_id = ? AND claim_id IS NULL AND result = 'fail' ORDER BY test_id, id
            """)
    }

    public func read(_ entry: RunLogRun, _ body: (RunLogEvent) throws -> Void) throws {
        let id = entry.id
        var run = entry.header
        if document == nil {
            try unmapped.forEachRow([.integer(id)]) { run.unmappedCounts.append(($0.text(0), $0.int(1))) }
            try failures.forEachRow([.integer(id)]) { run.unmappedFailures.append(($0.text(0), $0.text(1))) }
        }
        try body(.runStart(run))
        try rows.bind([.integer(id)])
        defer { rows.reset() }
        let cursor = RunLogCursor(statement: rows, left: try rows.step())
        while cursor.left {
            let resultID = rows.int64(1)
            if let key = claimKeys.key(rows.int64(0)) {
                try body(.entry(RunLogEntry(cursor: cursor, resultID: resultID, claimKey: key)))
            }
            try cursor.skip(resultID)
        }
        try body(.runEnd(run))
    }
}

/// Claim keys by claim id: an array indexed by id when ids are dense (as
/// INTEGER PRIMARY KEYs usually are), a dictionary otherwise.
private struct ClaimKeyTable {
    private var dense: [[UInt8]?] = []
    private var sparse: [Int64: [UInt8]] = [:]

    init(_ keys: [(Int64, [UInt8])]) {
        let largest = keys.map(\.0).max() ?? 0
        if keys.allSatisfy({ $0.0 >= 0 }) && largest <= Int64(keys.count) * 4 + 1024 {
            dense = Array(repeating: nil, count: Int(largest) + 1)
            for (id, key) in keys { dense[Int(id)] = key }
        } else {
            sparse = Dictionary(keys, uniquingKeysWith: { first, _ in first })
        }
    }

    func key(_ id: Int64) -> [UInt8]? {
        if !dense.isEmpty { return id >= 0 && id < dense.count ? dense[Int(id)] : nil }
        return sparse[id]
    }
}
