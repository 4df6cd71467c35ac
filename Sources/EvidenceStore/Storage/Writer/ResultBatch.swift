/// New results and their measurements, written many rows to a statement: a
/// large import or ingest spends its time in SQLite, not in one statement per
/// row. Ids are given here, from one past the largest in the store, so a
/// result's measurements can follow it in the same batch. Call `flush` before
/// anything reads what was added; nothing else may add results meanwhile (the
/// writer's transaction sees to that).
final class ResultBatch {
    static let rows = 256

    private let writer: StoreWriter
    private var nextResultID: Int64
    private var nextMeasurementID: Int64
    /// The pending rows: what each binds besides its texts, which are copied
    /// into `texts` as the row is added (the row's `TextColumn`s, in their
    /// order), so that a row's strings are neither kept nor copied again.
    private var results: [Numbers] = []
    private var texts = TextArena()
    private var measurements: [(id: Int64, resultID: Int64, measurement: TextFormat.Measurement)] = []

    /// A result's text columns: the one place that says in which order the
    /// arena holds them, for `add` to append and `insertResults` to bind.
    enum TextColumn: Int, CaseIterable {
        case uuid, result, posture, note, checkedAt, recordedAt, testID, message

        func value(of row: StoreWriter.ResultRow) -> String? {
            switch self {
            case .uuid: row.uuid
            case .result: row.result
            case .posture: row.posture
            case .note: row.note
            case .checkedAt: row.checkedAt
            case .recordedAt: row.recordedAt
            case .testID: row.testID
            case .message: row.message
            }
        }

        /// Where the text of row `row` of the batch (counting from 0) lies in the arena.
        func index(inRow row: Int) -> Int { row * Self.allCases.count + rawValue }
    }

    struct Numbers {
        var id: Int64
        var runID: Int64
        var environmentID: Int64
        var claimID: Int64?
        var claimStatementID: Int64?
        var duration: Double?
    }

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
        let id = nextResultID
        nextResultID += 1
        if row.judged {
            // Few results are judged: they are written one at a time, which writes the flag.
            try flush()
            var single = row
            single.id = id
            try writer.upsertResult(single)
            for measurement in rowMeasurements {
                measurements.append((nextMeasurementID, id, measurement))
                nextMeasurementID += 1
            }
            return id
        }
        results.append(Numbers(
            id: id, runID: row.runID, environmentID: row.environmentID, claimID: row.claimID,
            claimStatementID: row.claimStatementID, duration: row.duration))
        for column in TextColumn.allCases { texts.append(column.value(of: row)) }
        for measurement in rowMeasurements {
            measurements.append((nextMeasurementID, id, measurement))
            nextMeasurementID += 1
        }
        if results.count == Self.rows || measurements.count >= Self.rows { try flush() }
        return id
    }

    /// Writes what is pending.
    func flush() throws {
        try writer.insertResults(results, texts: texts)
        results.removeAll(keepingCapacity: true)
        texts.removeAll()
        var start = 0
        while measurements.count - start >= Self.rows {
            try writer.insertMeasurements(measurements[start..<start + Self.rows])
            start += Self.rows
        }
        for (id, result, measurement) in measurements[start...] {
            try writer.insertMeasurement(id: id, resultID: result, measurement)
        }
        measurements.removeAll(keepingCapacity: true)
    }
}

extension StoreWriter {
    /// Inserts new results, their texts bound in place from `texts` (each
    /// row's `ResultBatch.TextColumn`s): a full batch in one statement, fewer
    /// rows (the last of a load) one statement each, so that neither statement
    /// is prepared again.
    func insertResults(_ rows: [ResultBatch.Numbers], texts: TextArena) throws {
        typealias Column = ResultBatch.TextColumn
        try texts.withTexts { bytes in
            /// Binds the fourteen values of row `number` of the batch from parameter `first` on.
            func bind(_ row: ResultBatch.Numbers, number: Int, into statement: Statement, from first: Int32) throws {
                var index = first - 1
                func next() -> Int32 {
                    index += 1
                    return index
                }
                func text(_ column: Column) throws {
                    try statement.bindInPlace(next(), bytes, column.index(inRow: number))
                }
                try statement.bind(next(), row.id)
                try text(.uuid)
                try statement.bind(next(), row.runID)
                try statement.bind(next(), row.environmentID)
                try statement.bind(next(), row.claimID)
                try statement.bind(next(), row.claimStatementID)
                try text(.result)
                try text(.posture)
                try text(.note)
                try text(.checkedAt)
                try text(.recordedAt)
                try text(.testID)
                try statement.bind(next(), row.duration)
                try text(.message)
            }
            if rows.count == ResultBatch.rows {
                let statement = try database.cached(
                    """
                    INSERT INTO results (id, uuid, run_id, environment_id, claim_id, claim_statement_id, result, posture,
                                         note, checked_at, recorded_at, test_id, duration, message) VALUES
                    """, repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", times: ResultBatch.rows)
                for (number, row) in rows.enumerated() { try bind(row, number: number, into: statement, from: Int32(number * 14 + 1)) }
                try statement.executeAndClearBindings()
            } else {
                let statement = try database.cached(
                    """
                    INSERT INTO results (id, uuid, run_id, environment_id, claim_id, claim_statement_id, result, posture,
                                         note, checked_at, recorded_at, test_id, duration, message)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for (number, row) in rows.enumerated() {
                    try bind(row, number: number, into: statement, from: 1)
                    try statement.executeAndClearBindings()
                }
            }
        }
    }

    /// Inserts exactly `ResultBatch.rows` measurements, each with its id.
    func insertMeasurements(
        _ rows: ArraySlice<(id: Int64, resultID: Int64, measurement: TextFormat.Measurement)>
    ) throws {
        let statement = try database.cached(
            "INSERT INTO measurements (id, result_id, name, value, unit, baseline, posture, samples, standard_deviation) VALUES",
            repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", times: ResultBatch.rows)
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
            try statement.bind(next(), measurement.samples)
            try statement.bind(next(), measurement.standardDeviation)
        }
        try statement.execute()
    }
}
