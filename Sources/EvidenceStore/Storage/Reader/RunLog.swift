/// The run log in date order (with a document, only the runs and results of
/// its claims), read as it is written: one run at a time, each from one
/// indexed pass over its results with nothing sorted, so a store of a million
/// results is never held in memory. Any run can be read in any order, which
/// lets two connections on one snapshot write one log from both ends.
public final class RunLog: RunLogSource {
    private struct Header {
        var id: Int64
        var run: RunLogRun
    }

    private let database: Database
    private let document: String?
    private let headers: [Header]
    /// How many of the oldest runs are left out (`keepNewest`).
    private var offset = 0
    private var keys: ClaimKeys?
    /// Every claim's expected values, by claim id and name: few, read once.
    private let expectations: [Int64: [String: ExpectedValue]]
    /// Texts that repeat from row to row (a measurement's name, a time shared
    /// by results) are made once and shared, not once per row.
    private var names = RecentTexts(capacity: 8)
    private var times = RecentTexts(capacity: 1)

    init(database: Database, document: String?, expectations: [Int64: [String: ExpectedValue]]) throws {
        self.database = database
        self.document = document
        var headers: [Header] = []
        try database.cached(
            """
            SELECT u.id, u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name,
                   e.tool_version, e.tool_build, u.tester, u.note, f.file_name,
                   x.uuid AS retraction_uuid, x.retracted_by, x.retracted_at, x.reason AS retraction_reason,
                   1 AS whole_run
            FROM runs AS u JOIN environments AS e ON e.id = u.environment_id
            LEFT JOIN ingested_files AS f ON f.id = u.ingested_file_id
            LEFT JOIN retractions AS x ON x.run_id = u.id
            WHERE ?1 IS NULL OR EXISTS (
                SELECT 1 FROM results AS r JOIN live_claims AS c ON c.id = r.claim_id
                WHERE r.run_id = u.id AND c.document = ?1)
            ORDER BY u.started_at, u.uuid
            """
        ).forEachRow([SQLValue(document)]) { row in
            headers.append(Header(id: row.int64("id"), run: RunLogRun(
                uuid: row.text("uuid"), startedAt: row.optionalText("started_at"), environment: try StoreReader.environment(row),
                tester: row.text("tester"), note: row.text("note"), sourceFile: row.optionalText("file_name"),
                retraction: StoreReader.retraction(row))))
        }
        self.headers = headers
        self.expectations = expectations
    }

    public var runCount: Int { headers.count - offset }

    /// Every run of the log, those left out included.
    public var totalRunCount: Int { headers.count }

    /// The UUIDs of the runs it shows.
    public var shownRunUUIDs: Set<String> { Set(headers[offset...].map(\.run.uuid)) }

    /// Shows only the newest `count` runs (all when nil or more than there are).
    public func keepNewest(_ count: Int?) {
        offset = count.map { max(0, headers.count - $0) } ?? 0
    }

    public func forEachEvent(ofRun index: Int, _ body: (RunLogEvent) throws -> Void) throws {
        let header = headers[offset + index]
        if keys == nil {
            var pairs: [(Int64, String)] = []
            try database.cached("SELECT id, key FROM live_claims WHERE ?1 IS NULL OR document = ?1")
                .forEachRow([SQLValue(document)]) { pairs.append(($0.int64("id"), $0.text("key"))) }
            keys = ClaimKeys(pairs)
        }
        guard let keys else { return }
        var run = header.run
        if document == nil {
            try database.cached(
                "SELECT result, count(*) AS results FROM results WHERE run_id = ? AND claim_id IS NULL GROUP BY result ORDER BY result"
            ).forEachRow([.integer(header.id)]) { run.unmappedCounts.append(($0.text("result"), $0.int("results"))) }
            try database.cached(
                """
                SELECT test_id, coalesce(message, '') AS message FROM results
                WHERE run_id = ? AND claim_id IS NULL AND result = 'fail' ORDER BY test_id, id
                """
            ).forEachRow([.integer(header.id)]) { run.unmappedFailures.append(($0.text("test_id"), $0.text("message"))) }
        }
        try body(.runStart(run))
        // Retracted results of the run, usually none: read apart, so that the
        // million rows of a large log need no join for them.
        var retracted: [Int64: Retraction] = [:]
        try database.cached(
            """
            SELECT x.result_id, x.uuid AS retraction_uuid, x.retracted_by, x.retracted_at, x.reason AS retraction_reason,
                   0 AS whole_run
            FROM retractions AS x JOIN results AS r ON r.id = x.result_id WHERE r.run_id = ?
            """
        ).forEachRow([.integer(header.id)]) { row in
            retracted[row.int64("result_id")] = StoreReader.retraction(row)
        }
        // A result comes once per measurement (once when it has none), in the
        // order of results_by_run and measurements_by_result.
        let rows = try database.cached(
            """
            SELECT r.claim_id, r.id, r.result, r.posture, r.checked_at, r.note, r.test_id, r.duration, r.message,
                   m.name, m.value, m.unit, m.baseline, m.posture AS measured_posture
            FROM results AS r INDEXED BY results_by_run
            LEFT JOIN measurements AS m INDEXED BY measurements_by_result ON m.result_id = r.id
            WHERE r.run_id = ? AND r.claim_id IS NOT NULL
            ORDER BY r.id, m.id
            """)
        try rows.bind([.integer(header.id)])
        defer { rows.reset() }
        var more = try rows.step()
        while more {
            let resultID = rows.int64("id")
            guard let key = keys.key(rows.int64("claim_id")), let outcome = rows.vocabulary("result", Outcome.self) else {
                while more && rows.int64("id") == resultID { more = try rows.step() }
                continue
            }
            var entry = RunLogEntry(
                claimKey: key, result: outcome, posture: rows.vocabulary("posture"), checkedAt: times.text(rows, "checked_at"),
                note: rows.text("note"), testID: rows.optionalText("test_id"), duration: rows.optionalDouble("duration"),
                message: rows.optionalText("message"), measurements: [],
                retraction: retracted.isEmpty ? run.retraction : retracted[resultID] ?? run.retraction)
            let expected = expectations.isEmpty ? nil : expectations[rows.int64("claim_id")]
            while more && rows.int64("id") == resultID {
                if !rows.isNull("name"), let unit = rows.vocabulary("unit", MeasurementUnit.self), let name = names.text(rows, "name") {
                    entry.measurements.append(MeasurementValue(
                        name: name, value: rows.double("value"), unit: unit, baseline: rows.optionalDouble("baseline"),
                        posture: rows.vocabulary("measured_posture"), expected: expected?[name]))
                }
                more = try rows.step()
            }
            try body(.entry(entry))
        }
        try body(.runEnd(run))
    }
}

extension StoreReader {
    /// The run log in date order (with a document, only the runs and results
    /// of its claims), read run by run on this reader's connection.
    public func runLog(document: String? = nil) throws -> RunLog {
        var expectations: [Int64: [String: ExpectedValue]] = [:]
        try forEachExpectation { claim, expected in expectations[claim, default: [:]][expected.name] = expected }
        return try RunLog(database: database, document: document, expectations: expectations)
    }

    /// One more than the largest result id: how many results a store has
    /// written, told without counting them.
    public func resultIDBound() throws -> Int64 {
        try database.scalar(cached: "SELECT coalesce(max(id), 0) + 1 FROM results").int64 ?? 1
    }
}

/// The last few distinct texts read from a column, so that a text met again
/// is shared instead of made anew.
private struct RecentTexts {
    private let capacity: Int
    private var texts: [String] = []
    private var next = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The column's text, or nil for NULL.
    mutating func text(_ row: Statement, _ column: StaticString) -> String? {
        guard !row.isNull(column) else { return nil }
        if let known = texts.first(where: { row.textEquals(column, $0) }) { return known }
        let text = row.text(column)
        if texts.count < capacity {
            texts.append(text)
        } else {
            texts[next] = text
            next = (next + 1) % capacity
        }
        return text
    }
}

/// Claim keys by claim id: an array indexed by id when ids are dense (as
/// INTEGER PRIMARY KEYs usually are), a dictionary otherwise.
private struct ClaimKeys {
    private var dense: [String?] = []
    private var sparse: [Int64: String] = [:]

    init(_ keys: [(Int64, String)]) {
        let largest = keys.map(\.0).max() ?? 0
        if keys.allSatisfy({ $0.0 >= 0 }) && largest <= Int64(keys.count) * 4 + 1024 {
            dense = Array(repeating: nil, count: Int(largest) + 1)
            for (id, key) in keys { dense[Int(id)] = key }
        } else {
            sparse = Dictionary(keys, uniquingKeysWith: { first, _ in first })
        }
    }

    func key(_ id: Int64) -> String? {
        if !dense.isEmpty { return id >= 0 && id < dense.count ? dense[Int(id)] : nil }
        return sparse[id]
    }
}
