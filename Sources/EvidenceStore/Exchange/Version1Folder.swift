#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A folder of the text format's version 1, upgraded record by record into
/// the current records as it is read, and applied by the one import session.
///
/// Version 1 kept runs, their results and retractions in three files and
/// named a result by its run and place (`n`, from 1), a label change by its
/// claim and place. The upgrade gives each the UUID and recording time every
/// store gave it when version 1 was current (`ResultIdentity.legacyUUID`,
/// `legacyRecordedAt`, `legacyLabelChangeUUID`), a run its ingested file, and
/// a result the claim's current words. Errors name the version 1 file and line.
struct Version1Folder {
    let files: RecordFiles

    /// Refuses files version 1 does not have, before anything is read.
    static func checkFiles(_ files: RecordFiles) throws {
        if let unknown = try files.topLevelRecordFiles().first(where: { !TextFormat.files.contains($0) }) {
            throw EvidenceError.badFile(
                path: files.displayName(of: unknown), location: nil,
                reason: "not a file of the text format, version 1; expected " + TextFormat.files.joined(separator: ", "))
        }
    }

    /// Each record of one file, decoded.
    func forEach<T>(
        _ file: TextFormat.File, _ decode: (inout FieldReader) throws -> T, _ body: (T, RecordLocation) throws -> Void
    ) throws {
        guard let reader = try files.reader(for: file.rawValue) else { return }
        try reader.forEachRecord(name: files.displayName(of: file.rawValue), decode: decode, body)
    }
}

/// Records numbered 1, 2, 3… within a group (a run's results, a claim's label
/// history): a group's records are listed together, numbered in order.
private struct Numbering {
    var group: String?
    var next: Int64 = 1
    var finished: Set<String> = []

    /// Checks the next record; true when it starts a group.
    @discardableResult
    mutating func check(group: String, n: Int64, _ location: RecordLocation, what: String) throws -> Bool {
        let starts = group != self.group
        if starts {
            if let previous = self.group { finished.insert(previous) }
            if finished.contains(group) { throw location.error("n", "the \(what) of '\(group)' must be listed together") }
            self.group = group
            next = 1
        }
        guard n == next else {
            throw location.error("n", "expected \(next) (the \(what) of '\(group)' are numbered from 1 in order), found \(n)")
        }
        next += 1
        return starts
    }
}

extension ImportSession {
    /// Imports a version 1 folder, file by file in version 1's order.
    func importVersion1() throws {
        let folder = Version1Folder(files: files)
        func counted(_ file: TextFormat.File, _ body: () throws -> Void) throws {
            let before = summary.added
            try body()
            summary.addedByFile[file.rawValue, default: 0] += summary.added - before
        }
        try counted(.sources) { try folder.forEach(.sources, { try $0.source() }, apply) }
        try counted(.capabilities) { try folder.forEach(.capabilities, { try $0.capability() }, apply) }
        try counted(.claims) { try folder.forEach(.claims, { try $0.claim(version: 1) }, apply) }
        try counted(.environmentLacks) { try folder.forEach(.environmentLacks, { try $0.lack() }, apply) }
        try counted(.runs) { try importRunsOfVersion1(folder) }
        try counted(.labelHistory) { try importLabelHistoryOfVersion1(folder) }
        try counted(.checklists) { try folder.forEach(.checklists, { try $0.checklist() }, apply) }
        try counted(.checklistItems) { try folder.forEach(.checklistItems, { try $0.checklistItem() }, apply) }
        try counted(.testMappings) { try folder.forEach(.testMappings, { try $0.testMapping() }, apply) }
        try finish()
    }

    /// A run as version 1 kept it, with the ingested file it names.
    private struct PendingRun {
        var header: TextFormat.RunHeader
        var location: RecordLocation
        var retractions: [(FieldReader.RunFileLine, RecordLocation)] = []
        var applied = false
    }

    /// Runs, results and retractions: each run applied with its results and
    /// retractions as one run's file is, one run's results held at a time.
    private func importRunsOfVersion1(_ folder: Version1Folder) throws {
        var ingested: [String: TextFormat.IngestedFile] = [:]
        var referenced: Set<String> = []
        try folder.forEach(.ingestedFiles, { try $0.ingestedFile() }) { file, _ in ingested[file.sha256] = file }
        var runs: [String: PendingRun] = [:]
        var order: [String] = []
        try folder.forEach(.runs, { try $0.run() }) { run, location in
            var file: TextFormat.IngestedFile?
            if let sha256 = run.ingestedFile {
                file = try ingested[sha256] ?? storedIngestedFile(sha256, location)
                referenced.insert(sha256)
            }
            let header = TextFormat.RunHeader(
                uuid: run.uuid, startedAt: run.startedAt, environment: run.environment, tester: run.tester, note: run.note,
                ingestedFile: file)
            if runs[run.uuid] == nil { order.append(run.uuid) }
            runs[run.uuid] = PendingRun(header: header, location: location)
        }
        // An ingested file no run names is kept as it was.
        for (sha256, file) in ingested.sorted(by: { $0.key < $1.key }) where !referenced.contains(sha256) {
            if try reader.ingestedFileID(sha256: sha256) == nil { summary.added += 1 }
            _ = try applyIngestedFile(file)
        }
        try folder.forEach(.retractions, { try $0.retraction() }) { retraction, location in
            if runs[retraction.run] == nil {
                runs[retraction.run] = try storedRun(retraction.run, location)
                order.append(retraction.run)
            }
            let line = TextFormat.RetractionLine(
                uuid: retraction.uuid, result: retraction.n.map { ResultIdentity.legacyUUID(runUUID: retraction.run, n: $0) },
                by: retraction.by, at: retraction.at, reason: retraction.reason)
            runs[retraction.run]?.retractions.append((.retraction(line), location))
        }

        var numbering = Numbering()
        var group: (uuid: String, results: [(FieldReader.RunFileLine, RecordLocation)])?
        var digests: [String: String] = [:]
        func applyGroup() throws {
            guard let (uuid, results) = group, let run = runs[uuid] else { return }
            try applyRun(
                [(.header(run.header), run.location)] + results + run.retractions, file: run.location.file, uuid: uuid,
                statementsFromStore: true)
            runs[uuid]?.applied = true
            group = nil
        }
        try folder.forEach(.results, { try $0.result() }) { result, location in
            if try numbering.check(group: result.run, n: result.n, location, what: "results") {
                try applyGroup()
                if runs[result.run] == nil {
                    runs[result.run] = try storedRun(result.run, location)
                    order.append(result.run)
                }
                group = (result.run, [])
            }
            let startedAt = runs[result.run]?.header.startedAt
            var statement: String?
            if let key = result.claim {
                if digests[key] == nil {
                    let claim = try ids.claimID(key, location, field: "claim")
                    digests[key] = SHA256.hex(Data((try reader.currentStatement(ofClaim: claim)?.statement ?? "").utf8))
                }
                statement = digests[key]
            }
            let line = TextFormat.ResultLine(
                uuid: ResultIdentity.legacyUUID(runUUID: result.run, n: result.n), claim: result.claim, statement: statement,
                result: result.result, posture: result.posture, checkedAt: result.checkedAt,
                recordedAt: ResultIdentity.legacyRecordedAt(runStartedAt: startedAt, n: result.n), note: result.note,
                testID: result.testID, duration: result.duration, message: result.message,
                measurements: result.measurements, attachments: result.attachments)
            group?.results.append((.result(line), location))
        }
        try applyGroup()
        for uuid in order where runs[uuid]?.applied == false {
            group = (uuid, [])
            try applyGroup()
        }
        try flushResults()
    }

    /// The ingested file a run names that the folder does not hold.
    private func storedIngestedFile(_ sha256: String, _ location: RecordLocation) throws -> TextFormat.IngestedFile {
        var stored: TextFormat.IngestedFile?
        try reader.ingestedFileRecords(sha256: sha256) { stored = $0 }
        guard let stored else {
            throw location.error("ingested_file", "unknown ingested file '\(sha256)' (not in the store, nor in ingested_files.jsonl)")
        }
        return stored
    }

    /// A run the folder's runs file does not hold, as the store holds it.
    private func storedRun(_ uuid: String, _ location: RecordLocation) throws -> PendingRun {
        guard let stored = try reader.runFile(uuid: uuid, digest: { _, text in SHA256.hex(Data(text.utf8)) }) else {
            throw location.error("run", "unknown run '\(uuid)' (not in the store, nor in runs.jsonl)")
        }
        return PendingRun(header: stored.header, location: location)
    }

    /// Label changes, named by claim and place: each follows the one before.
    private func importLabelHistoryOfVersion1(_ folder: Version1Folder) throws {
        var numbering = Numbering()
        var changes: [(TextFormat.Change, RecordLocation)] = []
        try folder.forEach(.labelHistory, { try $0.labelChange() }) { change, location in
            try numbering.check(group: change.claim, n: change.n, location, what: "label changes")
            changes.append((
                TextFormat.Change(
                    uuid: ResultIdentity.legacyLabelChangeUUID(claimKey: change.claim, n: change.n), claim: change.claim,
                    follows: change.n > 1 ? ResultIdentity.legacyLabelChangeUUID(claimKey: change.claim, n: change.n - 1) : nil,
                    oldLabel: change.oldLabel, newLabel: change.newLabel, changedBy: change.changedBy,
                    changedAt: change.changedAt, reason: change.reason),
                location
            ))
        }
        try applyChanges(changes)
    }
}
