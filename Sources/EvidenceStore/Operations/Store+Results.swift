#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Starting runs and logging results: what QA does.
extension Store {
    @discardableResult
    public func startRun(_ draft: RunDraft) throws -> RunRecord {
        let startedAt = try draft.startedAt.map { try Timestamp.parse($0, field: "date") } ?? clock.timestamp()
        try clock.futureLimit().check(startedAt, field: "date")
        try Self.validate(draft)
        return try write { writer in
            try Self.vet(draft.environment, newModel: draft.newModel, reader: writer.reader)
            return try Self.insertRun(draft, startedAt: startedAt, into: writer)
        }
    }

    /// A run's text, as every writer checks it.
    static func validate(_ draft: RunDraft) throws {
        try Validate.environment(draft.environment)
        _ = try Validate.singleLine(draft.tester, field: "tester")
        _ = try Validate.freeText(draft.note, field: "run note")
    }

    /// Inserts a new run with a fresh UUID.
    static func insertRun(
        _ draft: RunDraft, startedAt: String?, uuid: String? = nil, ingestedFileID: Int64? = nil, into writer: StoreWriter
    ) throws -> RunRecord {
        let environment = try writer.environmentID(draft.environment)
        let uuid = uuid ?? UUID().uuidString.lowercased()
        let id = try writer.upsertRun(
            uuid: uuid, environmentID: environment, startedAt: startedAt, tester: draft.tester, note: draft.note,
            ingestedFileID: ingestedFileID)
        return RunRecord(
            id: id, uuid: uuid, environmentID: environment, startedAt: startedAt, tester: draft.tester, note: draft.note)
    }

    /// Logs one result, with its measurements and attachments, in one transaction.
    @discardableResult
    /// `oncePerRun` refuses a second standing result of the claim in the run
    /// (a guided session answers each claim once in its run).
    public func log(_ observation: Observation, run choice: RunChoice, workingFolder: String? = nil, oncePerRun: Bool = false)
        throws -> LoggedResult
    {
        let checkedAt = try observation.checkedAt.map { try Timestamp.parse($0, field: "date") } ?? clock.timestamp()
        try clock.futureLimit().check(checkedAt, field: "date")
        _ = try Validate.freeText(observation.note, field: "note")
        let issues = try Self.distinct(observation.issues.map { try Validate.url($0, field: "issue URL") })
        for measurement in observation.measurements { try Validate.measurement(measurement) }
        if case .matching(let environment, let tester, _) = choice {
            try Self.validate(RunDraft(environment: environment, tester: tester))
        }
        // Files are read and hashed before the write lock is taken.
        let files = try observation.attachments.map {
            try AttachmentFile.read($0, storeFolder: folder, storePath: path, workingFolder: workingFolder)
        }
        // Files from outside the folder are copied in first: a failed write leaves only a copy named by its content.
        for file in files { try file.keepCopy(in: folder) }
        return try write { writer in
            let reader = writer.reader
            let claim = try reader.claimID(key: observation.claimKey)
            if let retirement = try reader.retiredClaims(claim: claim)[observation.claimKey] {
                throw EvidenceError.refused(
                    reason: "claim '\(observation.claimKey)' is retired (\(retirement.at) by \(retirement.by): "
                        + "\(retirement.reason)); 'evidence claim restore \(observation.claimKey)' brings it back")
            }
            var started = false
            let run: RunRecord
            switch choice {
            case .existing(let reference):
                run = try reader.run(id: try reader.runID(reference: reference))
                if let retraction = try reader.retraction(ofRun: run.id) {
                    throw EvidenceError.refused(
                        reason: "run \(run.shortName) was \(retraction.summary); log to another run")
                }
            case .matching(let environment, let tester, let newModel):
                try Self.vet(environment, newModel: newModel, reader: reader)
                let environmentID = try writer.environmentID(environment)
                if let id = try reader.matchingRun(environmentID: environmentID, tester: tester, day: String(checkedAt.prefix(10))) {
                    run = try reader.run(id: id)
                } else {
                    run = try Self.insertRun(RunDraft(environment: environment, tester: tester), startedAt: checkedAt, into: writer)
                    started = true
                }
            }
            if oncePerRun, try reader.claimsAnswered(inRun: run.id).contains(observation.claimKey) {
                throw EvidenceError.refused(
                    reason: "\(observation.claimKey) has a result in run \(run.shortName) already (another session or a log "
                        + "answered it); retract that result first to answer it again")
            }
            let (outcome, note, misses) = try Self.judge(observation, against: try reader.expectations(ofClaim: claim))
            let uuid = ResultIdentity.newUUID()
            var row = StoreWriter.ResultRow(
                uuid: uuid, runID: run.id, environmentID: run.environmentID, claimID: claim,
                claimStatementID: try reader.currentStatement(ofClaim: claim)?.id, result: outcome.rawValue,
                posture: observation.posture?.rawValue, note: note, checkedAt: checkedAt,
                recordedAt: clock.recordingTime())
            row.judged = !observation.outcomeGiven
            let resultID = try writer.upsertResult(row)
            for measurement in observation.measurements {
                try writer.insertMeasurement(resultID: resultID, measurement.record)
            }
            for url in issues {
                try writer.insertLink(
                    uuid: ResultIdentity.newUUID(), resultID: resultID, url: url,
                    by: Self.author(run.tester.isEmpty ? "unknown" : run.tester), at: clock.timestamp())
            }
            for file in files {
                try writer.insertAttachment(
                    resultID: resultID, path: file.path, sha256: file.sha256, size: file.size, mediaType: file.mediaType)
            }
            var logged = LoggedResult(resultID: resultID, run: run, startedRun: started, outcome: outcome, misses: misses)
            logged.resultUUID = uuid
            logged.notes = try reader.countingNotes(claimID: claim, environmentID: run.environmentID)
            return logged
        }
    }

    /// The result to write and its note. Without a result from the tester, the
    /// expected values give it when every measurement has one: a measurement
    /// outside its tolerance makes it a fail, and the note says which. A
    /// tester's pass that an expected value contradicts stands, and the note
    /// says so.
    static func judge(_ observation: Observation, against expectations: [ExpectedValue]) throws
        -> (Outcome, String, [String])
    {
        if !observation.outcomeGiven,
            ExpectationVerdict(measurements: observation.measurements, expectations: expectations).outcome == nil
        {
            let missing = observation.measurements.map(\.name).filter { name in !expectations.contains { $0.name == name } }
            throw EvidenceError.refused(
                reason: "give --result: "
                    + (observation.measurements.isEmpty
                        ? "without it the result comes from measurements against expected values, and none was given"
                        : "no expected value for " + missing.map { "'\($0)'" }.joined(separator: ", ")
                            + " (set one with 'evidence claim expect \(observation.claimKey) NAME=VALUE UNIT ±TOLERANCE')"))
        }
        let judgement = Judgement(
            outcome: observation.outcome, judged: !observation.outcomeGiven, note: observation.note,
            measurements: observation.measurements, expectations: expectations)
        return (judgement.outcome, judgement.note, judgement.misses)
    }

    /// Judges again every result of a claim that has measurements, by its
    /// expected values as they are now: a judged result takes their outcome,
    /// a tester's verdict stands with the disagreement noted. Called wherever
    /// the expected values change, in that change's transaction.
    static func rejudge(claimID: Int64, writer: StoreWriter) throws {
        let expectations = try writer.reader.expectations(ofClaim: claimID)
        for candidate in try writer.reader.measuredResults(ofClaim: claimID) {
            let judgement = Judgement(
                outcome: candidate.outcome, judged: candidate.judged, note: candidate.note,
                measurements: candidate.measurements, expectations: expectations, ofPassingTest: candidate.fromTest)
            try writer.setJudgement(ofResult: candidate.id, result: judgement.outcome.rawValue, note: judgement.note)
        }
    }
}
