import Foundation

extension StoreReader {
    /// The run log in date order (with a document, only the runs and results of
    /// its claims), read as it is consumed.
    public func runLog(document: String? = nil) throws -> some RunLogSource {
        try RunLogStream(database: database, document: document)
    }
}

/// Streams the run log: a thread of its own steps through the results (one
/// indexed pass per run, nothing sorted) and hands them over in batches while
/// the caller writes the ones it has, so a large report uses both cores and
/// never holds the whole log. The caller must not use the connection until
/// `forEach` returns; this type is the connection's only user meanwhile.
final class RunLogStream: RunLogSource {
    private struct Header {
        var id: Int64
        var run: RunLogRun
    }

    private let database: Database
    private let document: String?
    private let headers: [Header]
    static let batchSize = 256

    init(database: Database, document: String?) throws {
        self.database = database
        self.document = document
        var headers: [Header] = []
        try database.cached(
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
            headers.append(Header(id: row.int64(0), run: RunLogRun(
                uuid: row.text(1), startedAt: row.optionalText(2), environment: try StoreReader.environment(row, from: 3),
                tester: row.text(11), note: row.text(12), sourceFile: row.optionalText(13))))
        }
        self.headers = headers
    }

    var isEmpty: Bool { headers.isEmpty }

    func forEach(_ body: (RunLogEvent) throws -> Void) throws {
        guard !headers.isEmpty else { return }
        let work = ProducerWork(stream: self)
        try Handoff.run(batchSize: Self.batchSize, produce: { try work.stream.produce($0) }, consume: body)
    }

    /// Hands the stream to the producer thread. The connection is used by that
    /// thread alone until `forEach` has waited for it.
    private final class ProducerWork: @unchecked Sendable {
        let stream: RunLogStream
        init(stream: RunLogStream) { self.stream = stream }
    }

    /// Reads every run's events in order, on the producer thread.
    private func produce(_ emit: (RunLogEvent) throws -> Void) throws {
        var keys: [Int64: String] = [:]
        try database.cached("SELECT id, key FROM claims WHERE ?1 IS NULL OR document = ?1")
            .forEachRow([SQLValue(document)]) { keys[$0.int64(0)] = $0.text(1) }
        // A result comes once per measurement (once when it has none), in the
        // order of results_by_run and measurements_by_result.
        let rows = try database.cached(
            """
            SELECT r.claim_id, r.id, r.result, r.posture, r.checked_at, r.note, r.test_id, r.duration, r.message,
                   m.name, m.value, m.unit, m.baseline, m.posture
            FROM results AS r INDEXED BY results_by_run
            LEFT JOIN measurements AS m INDEXED BY measurements_by_result ON m.result_id = r.id
            WHERE r.run_id = ? AND r.claim_id IS NOT NULL
            ORDER BY r.id, m.id
            """)
        let unmapped = try database.cached(
            "SELECT result, count(*) FROM results WHERE run_id = ? AND claim_id IS NULL GROUP BY result ORDER BY result")
        let failures = try database.cached(
            """
            SELECT test_id, coalesce(message, '') FROM results
            WHERE run_id = ? AND claim_id IS NULL AND result = 'fail' ORDER BY test_id, id
            """)
        for header in headers {
            var run = header.run
            if document == nil {
                try unmapped.forEachRow([.integer(header.id)]) { run.unmappedCounts.append(($0.text(0), $0.int(1))) }
                try failures.forEachRow([.integer(header.id)]) { run.unmappedFailures.append(($0.text(0), $0.text(1))) }
            }
            try emit(.runStart(run))
            try rows.bind([.integer(header.id)])
            defer { rows.reset() }
            var more = try rows.step()
            while more {
                let resultID = rows.int64(1)
                guard let key = keys[rows.int64(0)] else {
                    while more && rows.int64(1) == resultID { more = try rows.step() }
                    continue
                }
                var entry = RunLogEntry(
                    claimKey: key, result: rows.text(2), posture: rows.optionalText(3), checkedAt: rows.optionalText(4),
                    note: rows.text(5), testID: rows.optionalText(6), duration: rows.optionalDouble(7),
                    message: rows.optionalText(8), measurements: [])
                while more && rows.int64(1) == resultID {
                    if !rows.isNull(9) {
                        entry.measurements.append(MeasurementValue(
                            name: rows.text(9), value: rows.double(10), unit: rows.text(11),
                            baseline: rows.optionalDouble(12), posture: rows.optionalText(13)))
                    }
                    more = try rows.step()
                }
                try emit(.entry(entry))
            }
            try emit(.runEnd(run))
        }
    }
}
