/// Writes the store: exactly one insert or upsert per table, shared by the
/// commands, `ingest`, `import` and `seed`, so every writer of a table writes
/// it the same way. A writer exists only inside `Store.write`, one IMMEDIATE
/// transaction; values reach it validated by the Model, and the schema's
/// constraints check them again.
public struct StoreWriter {
    let database: Database
    let clock: Clock

    /// Reads inside this transaction.
    public var reader: StoreReader { StoreReader(database: database, clock: clock) }

    // MARK: - Sources, capabilities, claims

    /// Inserts a source, or updates the one with its URL; returns its id.
    @discardableResult
    func upsertSource(_ source: TextFormat.Source) throws -> Int64 {
        try returningID(
            """
            INSERT INTO sources (url, title, publisher, kind, published, updated, retrieved, changed_at, changed_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (url) DO UPDATE SET title = excluded.title, publisher = excluded.publisher, kind = excluded.kind,
                published = excluded.published, updated = excluded.updated, retrieved = excluded.retrieved,
                changed_at = excluded.changed_at, changed_by = excluded.changed_by
            RETURNING id
            """,
            [
                .text(source.url), .text(source.title), .text(source.publisher), .text(source.kind), SQLValue(source.published),
                SQLValue(source.updated), SQLValue(source.retrieved), SQLValue(source.changed.at), SQLValue(source.changed.by),
            ])
    }

    @discardableResult
    func upsertCapability(_ capability: TextFormat.Capability) throws -> Int64 {
        try returningID(
            """
            INSERT INTO capabilities (name, description, changed_at, changed_by) VALUES (?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET description = excluded.description, changed_at = excluded.changed_at,
                changed_by = excluded.changed_by
            RETURNING id
            """,
            [
                .text(capability.name), .text(capability.description), SQLValue(capability.changed.at),
                SQLValue(capability.changed.by),
            ])
    }

    /// Inserts a claim, or updates the one with its key; returns its id. Its
    /// sources and needs are links of their own (`link`, `unlink`). New words
    /// are kept in the claim's statements, recorded at `statementRecordedAt`
    /// (nil for words whose time is not known).
    @discardableResult
    /// `owner` nil keeps a claim's owner (none for a new claim).
    func upsertClaim(
        key: String, statement: String, document: String, area: String, label: Label, asOf: String?,
        statementRecordedAt: String?, changed: TextFormat.Stamp, owner: String? = nil
    ) throws -> Int64 {
        let existing = try reader.existingClaimID(key: key)
        if let existing, try reader.currentStatement(ofClaim: existing)?.statement != statement {
            // Recorded before the claim changes, so the trigger that keeps the
            // words of other writers finds them and adds nothing.
            try insertStatement(claimID: existing, statement: statement, recordedAt: statementRecordedAt)
        }
        let id = try returningID(
            """
            INSERT INTO claims (key, statement, document, area, label, as_of, changed_at, changed_by, owner)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, coalesce(?9, ''))
            ON CONFLICT (key) DO UPDATE SET statement = excluded.statement, document = excluded.document,
                area = excluded.area, label = excluded.label, as_of = excluded.as_of, changed_at = excluded.changed_at,
                changed_by = excluded.changed_by, owner = coalesce(?9, claims.owner)
            RETURNING id
            """,
            [
                .text(key), .text(statement), .text(document), .text(area), .text(label.rawValue), SQLValue(asOf),
                SQLValue(changed.at), SQLValue(changed.by), SQLValue(owner),
            ])
        if existing == nil {
            // The trigger recorded the first words with SQLite's clock; they take this writer's.
            try database.execute(
                cached: "UPDATE claim_statements SET recorded_at = ? WHERE claim_id = ?",
                [SQLValue(statementRecordedAt), .integer(id)])
        }
        return id
    }

    /// Records that a claim changed (its links, its expected values) at a time, by someone.
    func touchClaim(_ id: Int64, _ changed: TextFormat.Stamp) throws {
        try database.execute(
            cached: "UPDATE claims SET changed_at = ?, changed_by = ? WHERE id = ?",
            [SQLValue(changed.at), SQLValue(changed.by), .integer(id)])
    }

    /// Adds words to a claim's statements (the claim's own column says which are current).
    func insertStatement(claimID: Int64, statement: String, recordedAt: String?) throws {
        try database.execute(
            cached: "INSERT INTO claim_statements (claim_id, statement, recorded_at) VALUES (?, ?, ?)",
            [.integer(claimID), .text(statement), SQLValue(recordedAt)])
    }

    /// Cites a source from a claim, at a locator; citing it twice changes nothing.
    func linkSource(claimID: Int64, sourceID: Int64, locator: String) throws {
        try database.execute(
            cached: """
                INSERT INTO claim_sources (claim_id, source_id, locator) VALUES (?, ?, ?)
                ON CONFLICT (claim_id, source_id, locator) DO NOTHING
                """,
            [.integer(claimID), .integer(sourceID), .text(locator)])
    }

    /// Stops citing a source at a locator (every source with nil); returns how many links went.
    @discardableResult
    func unlinkSources(claimID: Int64, sourceID: Int64? = nil, locator: String? = nil) throws -> Int {
        try database.execute(
            cached: """
                DELETE FROM claim_sources
                WHERE claim_id = ?1 AND (?2 IS NULL OR (source_id = ?2 AND locator = ?3))
                """,
            [.integer(claimID), SQLValue(sourceID), SQLValue(locator)])
        return database.changes
    }

    func linkCapability(claimID: Int64, capabilityID: Int64) throws {
        try database.execute(
            cached: """
                INSERT INTO claim_capabilities (claim_id, capability_id) VALUES (?, ?)
                ON CONFLICT (claim_id, capability_id) DO NOTHING
                """,
            [.integer(claimID), .integer(capabilityID)])
    }

    /// Removes a needed capability (every one with nil); returns how many went.
    @discardableResult
    func unlinkCapabilities(claimID: Int64, capabilityID: Int64? = nil) throws -> Int {
        try database.execute(
            cached: "DELETE FROM claim_capabilities WHERE claim_id = ?1 AND (?2 IS NULL OR capability_id = ?2)",
            [.integer(claimID), SQLValue(capabilityID)])
        return database.changes
    }

    /// Adds a model the claim speaks about; adding it twice changes nothing.
    func linkSubject(claimID: Int64, model: String) throws {
        try database.execute(
            cached: "INSERT INTO claim_subjects (claim_id, model) VALUES (?, ?) ON CONFLICT (claim_id, model) DO NOTHING",
            [.integer(claimID), .text(model)])
    }

    /// Removes a model the claim speaks about (every one with nil); returns how many went.
    @discardableResult
    func unlinkSubjects(claimID: Int64, model: String? = nil) throws -> Int {
        try database.execute(
            cached: "DELETE FROM claim_subjects WHERE claim_id = ?1 AND (?2 IS NULL OR model = ?2)",
            [.integer(claimID), SQLValue(model)])
        return database.changes
    }

    /// Sets a document's default subjects, replacing what they were.
    func setDocumentSubjects(_ record: TextFormat.Document) throws {
        try database.execute(cached: "DELETE FROM document_subjects WHERE document = ?", [.text(record.document)])
        for model in record.models {
            try database.execute(
                cached: "INSERT INTO document_subjects (document, model) VALUES (?, ?)", [.text(record.document), .text(model)])
        }
    }

    /// Sets what a claim's measurement of this name must be, replacing what it was.
    func upsertExpectation(claimID: Int64, _ expected: ExpectedValue) throws {
        try database.execute(
            cached: """
                INSERT INTO claim_expectations (claim_id, name, value, unit, tolerance, bound) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (claim_id, name) DO UPDATE SET value = excluded.value, unit = excluded.unit,
                                                        tolerance = excluded.tolerance, bound = excluded.bound
                """,
            [
                .integer(claimID), .text(expected.name), .real(expected.value), .text(expected.unit.rawValue),
                .real(expected.tolerance), .text(expected.bound.rawValue),
            ])
    }

    /// Drops a claim's expected values (one name, or all); how many went.
    @discardableResult
    func removeExpectations(claimID: Int64, name: String? = nil) throws -> Int {
        try database.execute(
            cached: "DELETE FROM claim_expectations WHERE claim_id = ?1 AND (?2 IS NULL OR name = ?2)",
            [.integer(claimID), SQLValue(name)])
        return database.changes
    }

    /// Appends a label change to a claim's history (which is append-only).
    /// Appends a label change; `follows` is the change it was made after.
    @discardableResult
    func insertLabelChange(
        uuid: String, claimID: Int64, follows: Int64?, from old: String?, to new: String, by author: String,
        at time: String, reason: String
    ) throws -> Int64 {
        try returningID(
            """
            INSERT INTO label_history (uuid, claim_id, follows_id, old_label, new_label, changed_by, changed_at, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING id
            """,
            [
                .text(uuid), .integer(claimID), SQLValue(follows), SQLValue(old), .text(new), .text(author), .text(time),
                .text(reason),
            ])
    }

    // MARK: - Environments and what they lack

    /// The id of the environment with exactly these fields, created when new.
    func environmentID(_ spec: EnvironmentSpec) throws -> Int64 {
        if let id = try reader.existingEnvironmentID(spec) {
            return id
        }
        return try returningID(
            """
            INSERT INTO environments (kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build,
                                      os_version_order, tool_version_order)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            StoreReader.values(spec)
                + [.text(MarketingVersion.order(spec.osVersion)), .text(MarketingVersion.order(spec.toolVersion))])
    }

    /// Records that environments of a kind and model (`*`: every model) lack
    /// or have a capability from an Xcode build on, or updates what the
    /// record of that build says and who says so.
    func upsertLack(
        kind: String, model: String, toolBuild: String, capabilityID: Int64, status: String, sourceID: Int64?,
        reportedIn: String?, note: String, changed: TextFormat.Stamp
    ) throws {
        try database.execute(
            cached: """
                INSERT INTO environment_lacks (kind, model, tool_build, capability_id, status, source_id, reported_in, note,
                                               changed_at, changed_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, model, tool_build, capability_id) DO UPDATE SET
                    status = excluded.status, source_id = excluded.source_id, reported_in = excluded.reported_in,
                    note = excluded.note, changed_at = excluded.changed_at, changed_by = excluded.changed_by
                """,
            [
                .text(kind), .text(model), .text(toolBuild), .integer(capabilityID), .text(status), SQLValue(sourceID),
                SQLValue(reportedIn), .text(note), SQLValue(changed.at), SQLValue(changed.by),
            ])
    }

    // MARK: - Files, runs, results

    @discardableResult
    func upsertIngestedFile(_ file: TextFormat.IngestedFile) throws -> Int64 {
        try returningID(
            """
            INSERT INTO ingested_files (sha256, file_name, format, test_count, ingested_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (sha256) DO UPDATE SET file_name = excluded.file_name, format = excluded.format,
                test_count = excluded.test_count, ingested_at = excluded.ingested_at
            RETURNING id
            """,
            [.text(file.sha256), .text(file.fileName), .text(file.format), .integer(file.testCount), .text(file.ingestedAt)])
    }

    /// Records how many results an ingested file gave, once they are counted.
    func setTestCount(_ count: Int64, ofIngestedFile id: Int64) throws {
        try database.execute("UPDATE ingested_files SET test_count = ? WHERE id = ?", [.integer(count), .integer(id)])
    }

    /// Inserts a run, or updates the one with its UUID; returns its id.
    @discardableResult
    func upsertRun(
        uuid: String, environmentID: Int64, startedAt: String?, tester: String, note: String, ingestedFileID: Int64?
    ) throws -> Int64 {
        try returningID(
            """
            INSERT INTO runs (uuid, environment_id, started_at, tester, note, ingested_file_id) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (uuid) DO UPDATE SET environment_id = excluded.environment_id, started_at = excluded.started_at,
                tester = excluded.tester, note = excluded.note, ingested_file_id = excluded.ingested_file_id
            RETURNING id
            """,
            [
                .text(uuid), .integer(environmentID), SQLValue(startedAt), .text(tester), .text(note),
                SQLValue(ingestedFileID),
            ])
    }

    /// A result as the store keeps it.
    struct ResultRow {
        /// The row to replace, or nil for a new one.
        var id: Int64?
        var uuid: String
        var runID: Int64
        /// The run's environment.
        var environmentID: Int64
        var claimID: Int64?
        /// The words of the claim it proves (`StoreReader.currentStatement`).
        var claimStatementID: Int64?
        var result: String
        var posture: String?
        var note: String
        var checkedAt: String?
        /// When it was recorded: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
        var recordedAt: String
        var testID: String? = nil
        var duration: Double? = nil
        var message: String? = nil
        /// Judged by the claim's expected values, not given by a tester.
        var judged = false
    }

    /// Inserts a result (or replaces the one with its id) and returns its id.
    /// Bound one value at a time: a million of these is the cost of a large import.
    @discardableResult
    func upsertResult(_ row: ResultRow) throws -> Int64 {
        let statement = try database.cached(
            """
            INSERT INTO results (id, uuid, run_id, environment_id, claim_id, claim_statement_id, result, posture, note,
                                 checked_at, recorded_at, test_id, duration, message, judged)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET uuid = excluded.uuid, run_id = excluded.run_id,
                environment_id = excluded.environment_id, claim_id = excluded.claim_id,
                claim_statement_id = excluded.claim_statement_id, result = excluded.result, posture = excluded.posture,
                note = excluded.note, checked_at = excluded.checked_at, recorded_at = excluded.recorded_at,
                test_id = excluded.test_id, duration = excluded.duration, message = excluded.message,
                judged = excluded.judged
            """)
        try statement.bind(1, row.id)
        try statement.bind(2, row.uuid)
        try statement.bind(3, row.runID)
        try statement.bind(4, row.environmentID)
        try statement.bind(5, row.claimID)
        try statement.bind(6, row.claimStatementID)
        try statement.bind(7, row.result)
        try statement.bind(8, row.posture)
        try statement.bind(9, row.note)
        try statement.bind(10, row.checkedAt)
        try statement.bind(11, row.recordedAt)
        try statement.bind(12, row.testID)
        try statement.bind(13, row.duration)
        try statement.bind(14, row.message)
        try statement.bind(15, Int64(row.judged ? 1 : 0))
        try statement.execute()
        return row.id ?? database.lastInsertRowID
    }

    /// Sets what a result's judging gave: its outcome and its note.
    func setJudgement(ofResult id: Int64, result: String, note: String) throws {
        try database.execute(
            cached: "UPDATE results SET result = ?, note = ? WHERE id = ? AND (result <> ? OR note <> ?)",
            [.text(result), .text(note), .integer(id), .text(result), .text(note)])
    }

    /// Retracts a result or a whole run: the retraction is kept (who, when,
    /// why) and what it retracts counts for nothing from then on.
    func insertRetraction(
        uuid: String, resultID: Int64?, runID: Int64?, by author: String, at time: String, reason: String
    ) throws {
        try database.execute(
            cached: """
                INSERT INTO retractions (uuid, result_id, run_id, retracted_by, retracted_at, reason)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            [.text(uuid), SQLValue(resultID), SQLValue(runID), .text(author), .text(time), .text(reason)])
    }

    /// Links a result to the issue that tracks it; false when it is linked to that URL already.
    @discardableResult
    func insertLink(uuid: String, resultID: Int64, url: String, by author: String, at time: String) throws -> Bool {
        try database.execute(
            cached: """
                INSERT INTO result_links (uuid, result_id, url, linked_by, linked_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (result_id, url) DO NOTHING
                """,
            [.text(uuid), .integer(resultID), .text(url), .text(author), .text(time)])
        return database.changes > 0
    }

    /// Removes a link of a result of run `runID`, keeping it as it was and its
    /// removal in `result_unlinks`; false when the run's results hold no link of that UUID.
    func unlink(uuid: String, linkUUID: String, runID: Int64, by author: String, at time: String, reason: String) throws -> Bool {
        try database.execute(
            cached: """
                INSERT INTO result_unlinks (uuid, link_uuid, result_id, url, linked_by, linked_at, unlinked_by, unlinked_at, reason)
                SELECT ?1, l.uuid, l.result_id, l.url, l.linked_by, l.linked_at, ?4, ?5, ?6
                FROM result_links AS l JOIN results AS r ON r.id = l.result_id WHERE l.uuid = ?2 AND r.run_id = ?3
                """,
            [.text(uuid), .text(linkUUID), .integer(runID), .text(author), .text(time), .text(reason)])
        guard database.changes > 0 else { return false }
        try database.execute(cached: "DELETE FROM result_links WHERE uuid = ?", [.text(linkUUID)])
        return true
    }

    /// Records that claim `claimID` was retired or brought back; false when
    /// the store holds that record already.
    @discardableResult
    func insertRetirement(_ retirement: TextFormat.Retirement, claimID: Int64) throws -> Bool {
        try database.execute(
            cached: """
                INSERT INTO claim_retirements (uuid, claim_id, action, changed_by, changed_at, reason)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING
                """,
            [
                .text(retirement.uuid), .integer(claimID), .text(retirement.action.rawValue), .text(retirement.by),
                .text(retirement.at), .text(retirement.reason),
            ])
        return database.changes > 0
    }

    /// Records a rename of claim `claimID` from `from` to `to`; false when
    /// the store holds that rename already.
    @discardableResult
    func insertRename(_ rename: TextFormat.Rename, claimID: Int64) throws -> Bool {
        try database.execute(
            cached: """
                INSERT INTO claim_renames (uuid, claim_id, old_key, new_key, renamed_by, renamed_at, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING
                """,
            [
                .text(rename.uuid), .integer(claimID), .text(rename.from), .text(rename.to), .text(rename.by), .text(rename.at),
                .text(rename.reason),
            ])
        return database.changes > 0
    }

    /// Gives claim `claimID` the key `to`; the base of its next import
    /// follows, so that the folder's record of the old key merges with it.
    func changeClaimKey(claimID: Int64, from: String, to: String) throws {
        try database.execute(cached: "UPDATE claims SET key = ? WHERE id = ?", [.text(to), .integer(claimID)])
        try database.execute(cached: "DELETE FROM exchanged_records WHERE kind = 'claim' AND key = ?", [.text(to)])
        try database.execute(
            cached: "UPDATE exchanged_records SET key = ? WHERE kind = 'claim' AND key = ?", [.text(to), .text(from)])
    }

    /// Records that run `runID` used OS build `osBuild`, whatever its header
    /// (`recorded`) says, then moves the run and its results to the build the
    /// latest correction names.
    func correctRun(
        uuid: String, runID: Int64, recorded: String, osBuild: String, by author: String, at time: String, reason: String
    ) throws {
        try database.execute(
            cached: """
                INSERT INTO run_corrections (uuid, run_id, recorded_os_build, os_build, corrected_by, corrected_at, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            [.text(uuid), .integer(runID), .text(recorded), .text(osBuild), .text(author), .text(time), .text(reason)])
        try settleCorrectedBuild(runID: runID)
    }

    /// Moves a corrected run and its results to the environment of the OS
    /// build its latest correction names (by time, then UUID); nothing to do
    /// for a run never corrected, or one already there.
    func settleCorrectedBuild(runID: Int64) throws {
        guard
            let build = try database.scalar(
                cached: "SELECT os_build FROM run_corrections WHERE run_id = ? ORDER BY corrected_at DESC, uuid DESC LIMIT 1",
                [.integer(runID)]
            ).string
        else { return }
        var spec = try reader.environment(id: try reader.run(id: runID).environmentID)
        guard spec.osBuild != build else { return }
        spec.osBuild = build
        let environment = try environmentID(spec)
        try database.execute(cached: "UPDATE runs SET environment_id = ? WHERE id = ?", [.integer(environment), .integer(runID)])
        try database.execute(
            cached: "UPDATE results SET environment_id = ?1 WHERE run_id = ?2 AND environment_id <> ?1",
            [.integer(environment), .integer(runID)])
    }

    /// Inserts a measurement; with no id, SQLite gives it the next one.
    func insertMeasurement(id: Int64? = nil, resultID: Int64, _ measurement: TextFormat.Measurement) throws {
        let statement = try database.cached(
            """
            INSERT INTO measurements (id, result_id, name, value, unit, baseline, posture, samples, standard_deviation)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.bind(1, id)
        try statement.bind(2, resultID)
        try statement.bind(3, measurement.name)
        try statement.bind(4, measurement.value)
        try statement.bind(5, measurement.unit)
        try statement.bind(6, measurement.baseline)
        try statement.bind(7, measurement.posture)
        try statement.bind(8, measurement.samples)
        try statement.bind(9, measurement.standardDeviation)
        try statement.execute()
    }

    /// Attaches a file to a result; attaching the same path twice changes nothing.
    func insertAttachment(resultID: Int64, path: String, sha256: String, size: Int64, mediaType: String, withFailure: Bool = false)
        throws
    {
        try database.execute(
            cached: """
                INSERT INTO attachments (result_id, path, sha256, size, media_type, with_failure) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (result_id, path) DO UPDATE SET with_failure = max(with_failure, excluded.with_failure)
                """,
            [.integer(resultID), .text(path), .text(sha256), .integer(size), .text(mediaType), .integer(withFailure ? 1 : 0)])
    }

    /// Removes a result's measurements and attachments, before they are written anew.
    func deleteDetails(ofResult resultID: Int64) throws {
        try database.execute(cached: "DELETE FROM measurements WHERE result_id = ?", [.integer(resultID)])
        try database.execute(cached: "DELETE FROM attachments WHERE result_id = ?", [.integer(resultID)])
    }

    // MARK: - Checklists and test mappings

    @discardableResult
    func upsertChecklist(_ checklist: TextFormat.Checklist) throws -> Int64 {
        try returningID(
            """
            INSERT INTO checklists (document, title, changed_at, changed_by) VALUES (?, ?, ?, ?)
            ON CONFLICT (document) DO UPDATE SET title = excluded.title, changed_at = excluded.changed_at,
                changed_by = excluded.changed_by
            RETURNING id
            """,
            [.text(checklist.document), .text(checklist.title), SQLValue(checklist.changed.at), SQLValue(checklist.changed.by)])
    }

    /// Inserts a checklist item, or updates the one with its key; returns its id.
    @discardableResult
    func upsertChecklistItem(
        checklistID: Int64, key: String, position: Int64, text: String, mark: TextFormat.ChecklistMark?,
        changed: TextFormat.Stamp
    ) throws -> Int64 {
        try returningID(
            """
            INSERT INTO checklist_items (checklist_id, key, position, text, mark, mark_reason, marked_by, marked_at,
                                         changed_at, changed_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET checklist_id = excluded.checklist_id, position = excluded.position,
                text = excluded.text, mark = excluded.mark, mark_reason = excluded.mark_reason,
                marked_by = excluded.marked_by, marked_at = excluded.marked_at, changed_at = excluded.changed_at,
                changed_by = excluded.changed_by
            RETURNING id
            """,
            [
                .integer(checklistID), .text(key), .integer(position), .text(text), SQLValue(mark?.kind.rawValue),
                SQLValue(mark?.reason), SQLValue(mark?.by), SQLValue(mark?.at), SQLValue(changed.at), SQLValue(changed.by),
            ])
    }

    func linkChecklistItem(itemID: Int64, claimID: Int64) throws {
        try database.execute(
            cached: """
                INSERT INTO checklist_item_claims (checklist_item_id, claim_id) VALUES (?, ?)
                ON CONFLICT (checklist_item_id, claim_id) DO NOTHING
                """,
            [.integer(itemID), .integer(claimID)])
    }

    func unlinkChecklistItem(itemID: Int64) throws {
        try database.execute(cached: "DELETE FROM checklist_item_claims WHERE checklist_item_id = ?", [.integer(itemID)])
    }

    /// Maps tests matching a pattern to a claim; false when the rule existed.
    @discardableResult
    func insertMapping(pattern: String, claimID: Int64) throws -> Bool {
        try database.execute(
            cached: "INSERT INTO test_mappings (pattern, claim_id) VALUES (?, ?) ON CONFLICT (pattern, claim_id) DO NOTHING",
            [.text(pattern), .integer(claimID)])
        return database.changes > 0
    }

    /// Removes the rule of a pattern and claim, or every rule of the pattern; returns how many went.
    func deleteMappings(pattern: String, claimID: Int64?) throws -> Int {
        try database.execute(
            cached: "DELETE FROM test_mappings WHERE pattern = ?1 AND (?2 IS NULL OR claim_id = ?2)",
            [.text(pattern), SQLValue(claimID)])
        return database.changes
    }

    // MARK: - Bulk loads

    /// The indexes and triggers a bulk load set aside.
    struct BulkLoad {
        fileprivate let definitions: [String]
        /// The store held no results before: every result is this write's.
        fileprivate let storeWasEmpty: Bool
    }

    /// For a write of many results (an ingest, an import): the triggers that
    /// keep latest_decisive_results, which would work a claim's latest
    /// decisive result out again for every row, are set aside; `restore(_:pairs:)`
    /// brings them back and works out the touched pairs once. Into a store with
    /// no results yet, the secondary indexes of results and measurements go
    /// too (with the retraction trigger that probes them) and are built once,
    /// sorted, at the end: what SQLite advises for a bulk load. All inside the
    /// writer's transaction, so a failure leaves the schema as it was.
    func setDecisiveTriggersAside() throws -> BulkLoad {
        let empty = try database.scalar(cached: "SELECT NOT EXISTS (SELECT 1 FROM results)").int64 == 1
        let objects = try database.query(
            cached: """
                SELECT type, name, sql FROM sqlite_schema
                WHERE ((type = 'index' AND tbl_name IN ('results', 'measurements') AND ?1)
                       OR (type = 'trigger' AND name IN ('latest_decisive_after_insert', 'latest_decisive_after_update'))
                       OR (type = 'trigger' AND name = 'latest_decisive_after_retraction' AND ?1))
                  AND sql IS NOT NULL
                ORDER BY type, name
                """, [.integer(empty ? 1 : 0)]
        ).map { (try $0.text("type"), try $0.text("name"), try $0.text("sql")) }
        for (type, name, _) in objects {
            try database.execute("DROP \(type == "index" ? "INDEX" : "TRIGGER") \"\(name)\"")
        }
        return BulkLoad(definitions: objects.map(\.2), storeWasEmpty: empty)
    }

    /// Brings back what `setDecisiveTriggersAside` set aside, and works out the
    /// latest decisive result of each claim and environment given (of every
    /// one, into a store that had no results).
    func restore(_ load: BulkLoad, pairs: Set<ClaimEnvironment>) throws {
        for sql in load.definitions {
            try database.execute(sql)
        }
        if load.storeWasEmpty {
            // Every result is this write's: the whole table, in one statement.
            try database.execute(cached: "DELETE FROM latest_decisive_results")
            try database.execute(
                cached: """
                    INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
                    SELECT claim_id, environment_id, result_id FROM decisive_result_order WHERE result_id IS NOT NULL
                    """)
            return
        }
        for pair in pairs {
            try database.execute(
                cached: "DELETE FROM latest_decisive_results WHERE claim_id = ? AND environment_id = ?",
                [.integer(pair.claimID), .integer(pair.environmentID)])
            try database.execute(
                cached: """
                    INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
                    SELECT claim_id, environment_id, result_id FROM decisive_result_order
                    WHERE claim_id = ? AND environment_id = ? AND result_id IS NOT NULL
                    """,
                [.integer(pair.claimID), .integer(pair.environmentID)])
        }
    }

    /// A claim in an environment: what latest_decisive_results keeps one row for.
    struct ClaimEnvironment: Hashable {
        var claimID: Int64
        var environmentID: Int64
    }

    // MARK: - The base of the next import

    /// Keeps a record as it was just exported or imported.
    func setExchangedLine(kind: String, key: String, line: String) throws {
        try database.execute(
            cached: """
                INSERT INTO exchanged_records (kind, key, line) VALUES (?, ?, ?)
                ON CONFLICT (kind, key) DO UPDATE SET line = excluded.line WHERE line <> excluded.line
                """,
            [.text(kind), .text(key), .text(line)])
    }

    // MARK: - Pieces

    /// Runs an insert that returns the row's id.
    private func returningID(_ sql: StaticString, _ arguments: [SQLValue]) throws -> Int64 {
        guard let id = try database.scalar(cached: sql, arguments).int64 else {
            throw DatabaseError(extendedCode: 1, message: "the insert returned no id", sql: String(describing: sql))
        }
        return id
    }
}
