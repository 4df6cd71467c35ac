/// New results and their measurements, written many rows to a statement: a
/// large import or ingest spends its time in SQLite, not in one statement per
/// row. Ids are given here, from one past the largest in the store, so a
/// result's measurements can follow it in the same batch. Call `flush` before
/// anything reads what was added; nothing else may add results meanwhile (the
/// writer's transaction sees to that).
final class ResultBatch {
    static let rows = 64

    private let writer: StoreWriter
    private var nextResultID: Int64
    private var nextMeasurementID: Int64
    private var results: [StoreWriter.ResultRow] = []
    private var measurements: [(id: Int64, resultID: Int64, measurement: TextFormat.Measurement)] = []
    private var texts = TextArena()

    init(writer: StoreWriter) throws {
        self.writer = writer
        nextResultID = try writer.reader.nextID(of: .results)
        nextMeasurementID = try writer.reader.nextID(of: .measurements)
        results.reserveCapacity(Self.rows)
        measurements.reserveCapacity(Self.rows * 2)
    }

    /// Adds a new result and its measurements; returns the result's id.
    @discardableResult
    func add(_ row: StoreWriter.ResultRow, measurements rowMeasurements: [TextFormat.Measurement] = []) throws -> Int64 {
        var row = row
        let id = nextResultID
        nextResultID += 1
        row.id = id
        results.append(row)
        for measurement in rowMeasurements {
            measurements.append((nextMeasurementID, id, measurement))
            nextMeasurementID += 1
        }
        if results.count == Self.rows || measurements.count >= Self.rows { try flush() }
        return id
    }

    /// Writes what is pending.
    func flush() throws {
        if results.count == Self.rows {
            try writer.insertResults(results, texts: &texts)
        } else {
            for row in results { try writer.upsertResult(row) }
        }
        results.removeAll(keepingCapacity: true)
        var start = 0
        while measurements.count - start >= Self.rows {
            try writer.insertMeasurements(measurements[start..<start + Self.rows])
            start += Self.rows
        }
        for (id, result, measurement) in measurements[start...] {
            try writer.insertMeasurement(
                id: id, resultID: result, name: measurement.name, value: measurement.value, unit: measurement.unit,
                baseline: measurement.baseline, posture: measurement.posture)
        }
        measurements.removeAll(keepingCapacity: true)
    }
}

extension StoreWriter {
    /// Inserts exactly `ResultBatch.rows` results, each with its id set. Their
    /// texts are copied into `texts` and bound from there, in place.
    func insertResults(_ rows: [ResultRow], texts: inout TextArena) throws {
        let statement = try database.cached(
            """
            INSERT INTO results (id, uuid, run_id, environment_id, claim_id, claim_statement_id, result, posture, note,
                                 checked_at, recorded_at, test_id, duration, message) VALUES
            """, repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", times: ResultBatch.rows)
        texts.removeAll()
        // Each row's texts in the order of their columns, as the loop below binds them.
        for row in rows {
            texts.append(row.uuid)
            texts.append(row.result)
            texts.append(row.posture)
            texts.append(row.note)
            texts.append(row.checkedAt)
            texts.append(row.recordedAt)
            texts.append(row.testID)
            texts.append(row.message)
        }
        try texts.withTexts { bytes in
            var index: Int32 = 0
            func next() -> Int32 {
                index += 1
                return index
            }
            var text = 0
            func nextText() -> Int {
                text += 1
                return text - 1
            }
            for row in rows {
                try statement.bind(next(), row.id)
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bind(next(), row.runID)
                try statement.bind(next(), row.environmentID)
                try statement.bind(next(), row.claimID)
                try statement.bind(next(), row.claimStatementID)
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bindInPlace(next(), bytes, nextText())
                try statement.bind(next(), row.duration)
                try statement.bindInPlace(next(), bytes, nextText())
            }
            try statement.executeAndClearBindings()
        }
    }

    /// Inserts exactly `ResultBatch.rows` measurements, each with its id.
    func insertMeasurements(
        _ rows: ArraySlice<(id: Int64, resultID: Int64, measurement: TextFormat.Measurement)>
    ) throws {
        let statement = try database.cached(
            "INSERT INTO measurements (id, result_id, name, value, unit, baseline, posture) VALUES",
            repeating: "(?, ?, ?, ?, ?, ?, ?)", times: ResultBatch.rows)
        var index: Int32 = 0
        func next() -> Int32 {
            index += 1
            return index
        }
        for (id, result, measurement) in rows {
            try statement.bind(next(), id)
            try statement.bind(next(), result)
            try statement.bind(next(), measurement.name)
            try statement.bind(next(), measurement.value)
            try statement.bind(next(), measurement.unit)
            try statement.bind(next(), measurement.baseline)
            try statement.bind(next(), measurement.posture)
        }
        try statement.execute()
    }
}
