import Foundation

/// One observation QA logs: the claim, the outcome, and what was measured and kept.
public struct Observation: Equatable, Sendable {
    public var claimKey: String
    public var outcome: Outcome
    public var posture: Posture?
    public var note: String
    public var measurements: [MeasurementDraft]
    /// Files to attach, as given on the command line.
    public var attachments: [String]
    /// When the check happened (a date or timestamp); now when nil.
    public var checkedAt: String?

    public init(
        claimKey: String, outcome: Outcome, posture: Posture? = nil, note: String = "",
        measurements: [MeasurementDraft] = [], attachments: [String] = [], checkedAt: String? = nil
    ) {
        self.claimKey = claimKey
        self.outcome = outcome
        self.posture = posture
        self.note = note
        self.measurements = measurements
        self.attachments = attachments
        self.checkedAt = checkedAt
    }
}

/// Which run a logged result joins.
public enum RunChoice: Equatable, Sendable {
    /// A run by number or UUID.
    case existing(String)
    /// The manual run of this environment and tester on the result's day, or a new one.
    case matching(EnvironmentSpec, tester: String)
}

public struct LoggedResult: Equatable, Sendable {
    public var resultID: Int64
    public var run: RunRecord
    public var startedRun: Bool
}

extension Store {
    /// Logs one result, with its measurements and attachments, in one transaction.
    @discardableResult
    public func log(_ observation: Observation, run choice: RunChoice, workingFolder: String? = nil) throws
        -> LoggedResult
    {
        let checkedAt = try observation.checkedAt.map { try Timestamp.parse($0, field: "date") } ?? Timestamp.now()
        // Files are read and hashed before the write lock is taken.
        let files = try observation.attachments.map {
            try AttachmentFile.read($0, storeFolder: folder, workingFolder: workingFolder)
        }
        return try database.inTransaction(.immediate) {
            let claim = try claimID(key: observation.claimKey)
            var started = false
            let run: RunRecord
            switch choice {
            case .existing(let reference):
                run = try self.run(id: try runID(reference: reference))
            case .matching(let environment, let tester):
                if let id = try matchingRun(environment, tester: tester, day: String(checkedAt.prefix(10))) {
                    run = try self.run(id: id)
                } else {
                    run = try insertRun(RunDraft(environment: environment, tester: tester), startedAt: checkedAt)
                    started = true
                }
            }
            let resultID = try insertResult(
                runID: run.id, claimID: claim, outcome: observation.outcome, posture: observation.posture,
                note: observation.note, checkedAt: checkedAt)
            for measurement in observation.measurements {
                try insertMeasurement(measurement, resultID: resultID)
            }
            for file in files {
                try database.execute(
                    "INSERT OR IGNORE INTO attachments (result_id, path, sha256, size, media_type) VALUES (?, ?, ?, ?, ?)",
                    .integer(resultID), .text(file.path), .text(file.sha256), .integer(file.size), .text(file.mediaType))
            }
            return LoggedResult(resultID: resultID, run: run, startedRun: started)
        }
    }

    /// The latest manual run (not from an ingested file) of an environment and tester on a day.
    private func matchingRun(_ environment: EnvironmentSpec, tester: String, day: String) throws -> Int64? {
        let environmentID = try environmentID(environment)
        return try database.scalar(
            """
            SELECT id FROM runs
            WHERE environment_id = ? AND tester = ? AND started_at >= ? AND started_at < ?
              AND ingested_file_id IS NULL
            ORDER BY started_at DESC, id DESC LIMIT 1
            """, .integer(environmentID), .text(tester), .text(day), .text(day + "U")
        ).int64
    }

    func insertResult(
        runID: Int64, claimID: Int64?, outcome: Outcome, posture: Posture?, note: String, checkedAt: String,
        testID: String? = nil, duration: Double? = nil, message: String? = nil
    ) throws -> Int64 {
        try database.execute(
            """
            INSERT INTO results (run_id, claim_id, result, posture, note, checked_at, test_id, duration, message)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            .integer(runID), SQLValue(claimID), .text(outcome.rawValue), SQLValue(posture?.rawValue), .text(note),
            .text(checkedAt), SQLValue(testID), SQLValue(duration), SQLValue(message))
        return database.lastInsertRowID
    }

    func insertMeasurement(_ measurement: MeasurementDraft, resultID: Int64) throws {
        try database.execute(
            "INSERT INTO measurements (result_id, name, value, unit, baseline, posture) VALUES (?, ?, ?, ?, ?, ?)",
            .integer(resultID), .text(measurement.name), .real(measurement.value), .text(measurement.unit.rawValue),
            SQLValue(measurement.baseline), SQLValue(measurement.posture?.rawValue))
    }
}
