#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The records of text format version 2 that version 1 did not have, as the
/// store holds them: runs with their results and retractions, label changes
/// with their UUIDs, the words results proved, and the base of the next import.
extension StoreReader {
    // MARK: - Runs

    /// The UUIDs of every run, sorted.
    public func runUUIDs() throws -> [String] {
        var uuids: [String] = []
        try database.cached("SELECT uuid FROM runs ORDER BY uuid").forEachRow { uuids.append($0.text("uuid")) }
        return uuids
    }

    /// A run's file: its header, its results by recording time then UUID,
    /// and the retractions of it or its results by time then UUID. `digest`
    /// names the words a result proved, from the statement's row id and text.
    public func runFile(uuid: String, digest: (Int64, String) -> String) throws -> TextFormat.RunFile? {
        guard let id = try existingRunID(uuid: uuid) else { return nil }
        let header = try database.cached(
            """
            SELECT u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version,
                   coalesce((SELECT recorded_os_build FROM run_corrections WHERE run_id = u.id LIMIT 1), e.os_build) AS os_build,
                   e.tool_name,
                   e.tool_version, e.tool_build, u.tester, u.note,
                   f.sha256, f.file_name, f.format, f.test_count, f.ingested_at
            FROM runs AS u JOIN environments AS e ON e.id = u.environment_id
            LEFT JOIN ingested_files AS f ON f.id = u.ingested_file_id
            WHERE u.id = ?
            """)
        var run: TextFormat.RunHeader?
        try header.forEachRow([.integer(id)]) { row in
            var file: TextFormat.IngestedFile?
            if let sha256 = row.optionalText("sha256") {
                file = TextFormat.IngestedFile(
                    sha256: sha256, fileName: row.text("file_name"), format: row.text("format"), testCount: row.int64("test_count"),
                    ingestedAt: row.text("ingested_at"))
            }
            run = TextFormat.RunHeader(
                uuid: row.text("uuid"), startedAt: row.optionalText("started_at"), environment: try Self.environment(row),
                tester: row.text("tester"), note: row.text("note"), ingestedFile: file)
        }
        guard let run else { return nil }
        var file = TextFormat.RunFile(header: run, results: [], retractions: [])
        file.results = try resultLines(runID: id, digest: digest)
        try database.cached(
            """
            SELECT x.uuid, r.uuid AS result_uuid, x.retracted_by, x.retracted_at, x.reason
            FROM retractions AS x LEFT JOIN results AS r ON r.id = x.result_id
            WHERE x.run_id = ?1 OR r.run_id = ?1
            ORDER BY x.retracted_at, x.uuid
            """
        ).forEachRow([.integer(id)]) { row in
            file.retractions.append(TextFormat.RetractionLine(
                uuid: row.text("uuid"), result: row.optionalText("result_uuid"), by: row.text("retracted_by"), at: row.text("retracted_at"),
                reason: row.text("reason")))
        }
        // The links, and those removed since as they were: the run's file only ever grows.
        try database.cached(
            """
            SELECT l.uuid, r.uuid AS result_uuid, l.url, l.linked_by, l.linked_at
            FROM result_links AS l JOIN results AS r ON r.id = l.result_id WHERE r.run_id = ?1
            UNION ALL
            SELECT u.link_uuid AS uuid, r.uuid AS result_uuid, u.url, u.linked_by, u.linked_at
            FROM result_unlinks AS u JOIN results AS r ON r.id = u.result_id WHERE r.run_id = ?1
            ORDER BY linked_at, uuid
            """
        ).forEachRow([.integer(id)]) { row in
            file.links.append(TextFormat.LinkLine(
                uuid: row.text("uuid"), result: row.text("result_uuid"), url: row.text("url"), by: row.text("linked_by"),
                at: row.text("linked_at")))
        }
        try database.cached(
            """
            SELECT u.uuid, u.link_uuid, u.unlinked_by, u.unlinked_at, u.reason
            FROM result_unlinks AS u JOIN results AS r ON r.id = u.result_id WHERE r.run_id = ? ORDER BY u.unlinked_at, u.uuid
            """
        ).forEachRow([.integer(id)]) { file.unlinks.append(Self.unlinkLine($0)) }
        file.corrections = try corrections(ofRun: id)
        return file
    }

    /// A run's corrections of its OS build, by time then UUID.
    func corrections(ofRun id: Int64) throws -> [TextFormat.CorrectionLine] {
        var corrections: [TextFormat.CorrectionLine] = []
        try database.cached(
            "SELECT uuid, os_build, corrected_by, corrected_at, reason FROM run_corrections WHERE run_id = ? ORDER BY corrected_at, uuid"
        ).forEachRow([.integer(id)]) { corrections.append(Self.correctionLine($0)) }
        return corrections
    }

    /// Every rename of a claim, or the one with this UUID, or a claim's
    /// renames, by time then UUID, as `renames.jsonl` writes them.
    func renameRecords(uuid: String? = nil, claim: Int64? = nil, _ body: (TextFormat.Rename) throws -> Void) throws {
        let statement =
            if uuid != nil {
                try database.cached("SELECT uuid, old_key, new_key, renamed_by, renamed_at, reason FROM claim_renames WHERE uuid = ?")
            } else if claim != nil {
                try database.cached(
                    "SELECT uuid, old_key, new_key, renamed_by, renamed_at, reason FROM claim_renames WHERE claim_id = ? ORDER BY renamed_at, uuid")
            } else {
                try database.cached("SELECT uuid, old_key, new_key, renamed_by, renamed_at, reason FROM claim_renames ORDER BY renamed_at, uuid")
            }
        let arguments: [SQLValue] = uuid.map { [.text($0)] } ?? claim.map { [.integer($0)] } ?? []
        try statement.forEachRow(arguments) {
            try body(TextFormat.Rename(
                uuid: $0.text("uuid"), from: $0.text("old_key"), to: $0.text("new_key"), by: $0.text("renamed_by"),
                at: $0.text("renamed_at"), reason: $0.text("reason")))
        }
    }

    /// Every key a claim was renamed from, to the claim's key now; a key
    /// some claim has now is never among them.
    public func claimRenames() throws -> [String: String] {
        var keys: [String: String] = [:]
        try database.cached(
            """
            SELECT r.old_key, c.key FROM claim_renames AS r JOIN claims AS c ON c.id = r.claim_id
            WHERE NOT EXISTS (SELECT 1 FROM claims AS o WHERE o.key = r.old_key)
            ORDER BY r.renamed_at, r.uuid
            """
        ).forEachRow { keys[$0.text("old_key")] = $0.text("key") }
        return keys
    }

    /// Every retirement of a claim (and bringing back), or the one with this
    /// UUID, or a claim's, by time then UUID, as `retirements.jsonl` writes them.
    func retirementRecords(uuid: String? = nil, claim: Int64? = nil, _ body: (TextFormat.Retirement) throws -> Void) throws {
        let statement =
            if uuid != nil {
                try database.cached(
                    """
                    SELECT x.uuid, c.key, x.action, x.changed_by, x.changed_at, x.reason
                    FROM claim_retirements AS x JOIN claims AS c ON c.id = x.claim_id WHERE x.uuid = ?
                    """)
            } else if claim != nil {
                try database.cached(
                    """
                    SELECT x.uuid, c.key, x.action, x.changed_by, x.changed_at, x.reason
                    FROM claim_retirements AS x JOIN claims AS c ON c.id = x.claim_id WHERE x.claim_id = ?
                    ORDER BY x.changed_at, x.uuid
                    """)
            } else {
                try database.cached(
                    """
                    SELECT x.uuid, c.key, x.action, x.changed_by, x.changed_at, x.reason
                    FROM claim_retirements AS x JOIN claims AS c ON c.id = x.claim_id ORDER BY x.changed_at, x.uuid
                    """)
            }
        let arguments: [SQLValue] = uuid.map { [.text($0)] } ?? claim.map { [.integer($0)] } ?? []
        try statement.forEachRow(arguments) {
            try body(TextFormat.Retirement(
                uuid: $0.text("uuid"), claim: $0.text("key"), action: try RetirementAction(parsing: $0.text("action")),
                by: $0.text("changed_by"), at: $0.text("changed_at"), reason: $0.text("reason")))
        }
    }

    /// The claims retired now, by key, with the record that retired each;
    /// with `claim`, only that claim's, if it is retired.
    public func retiredClaims(claim: Int64? = nil) throws -> [String: TextFormat.Retirement] {
        var retired: [String: TextFormat.Retirement] = [:]
        try database.cached(
            "SELECT uuid, key, retired_by, retired_at, reason FROM retired_claims WHERE ?1 IS NULL OR claim_id = ?1"
        ).forEachRow([SQLValue(claim)]) {
            retired[$0.text("key")] = TextFormat.Retirement(
                uuid: $0.text("uuid"), claim: $0.text("key"), action: .retire, by: $0.text("retired_by"), at: $0.text("retired_at"),
                reason: $0.text("reason"))
        }
        return retired
    }

    /// The OS build a run recorded when it was logged, before any correction.
    func recordedOSBuild(ofRun id: Int64) throws -> String {
        try database.scalar(
            cached: """
                SELECT coalesce((SELECT recorded_os_build FROM run_corrections WHERE run_id = u.id LIMIT 1), e.os_build)
                FROM runs AS u JOIN environments AS e ON e.id = u.environment_id WHERE u.id = ?
                """, [.integer(id)]
        ).string ?? ""
    }

    /// Another version of the OS that environments recorded with this build
    /// ran, or nil.
    func osVersion(ofBuild build: String, osName: String, besides version: String) throws -> String? {
        try database.scalar(
            cached: "SELECT min(os_version) FROM environments WHERE os_build = ? AND os_name = ? AND os_version <> ?",
            [.text(build), .text(osName), .text(version)]
        ).string
    }

    /// The correction with this UUID, as its run's file writes it, or nil.
    func correctionLine(uuid: String) throws -> TextFormat.CorrectionLine? {
        var found: TextFormat.CorrectionLine?
        try database.cached("SELECT uuid, os_build, corrected_by, corrected_at, reason FROM run_corrections WHERE uuid = ?")
            .forEachRow([.text(uuid)]) { found = Self.correctionLine($0) }
        return found
    }

    private static func correctionLine(_ row: Statement) -> TextFormat.CorrectionLine {
        TextFormat.CorrectionLine(
            uuid: row.text("uuid"), osBuild: row.text("os_build"), by: row.text("corrected_by"), at: row.text("corrected_at"),
            reason: row.text("reason"))
    }

    /// The unlink with this UUID, as its run's file writes it, or nil.
    func unlinkLine(uuid: String) throws -> TextFormat.UnlinkLine? {
        var found: TextFormat.UnlinkLine?
        try database.cached("SELECT uuid, link_uuid, unlinked_by, unlinked_at, reason FROM result_unlinks WHERE uuid = ?")
            .forEachRow([.text(uuid)]) { found = Self.unlinkLine($0) }
        return found
    }

    /// An unlink from a row of `result_unlinks`' columns uuid … reason.
    private static func unlinkLine(_ row: Statement) -> TextFormat.UnlinkLine {
        TextFormat.UnlinkLine(
            uuid: row.text("uuid"), link: row.text("link_uuid"), by: row.text("unlinked_by"), at: row.text("unlinked_at"),
            reason: row.text("reason"))
    }

    /// A result's links to issues, oldest first.
    func links(ofResult id: Int64) throws -> [(uuid: String, url: String)] {
        var links: [(String, String)] = []
        try database.cached("SELECT uuid, url FROM result_links WHERE result_id = ? ORDER BY linked_at, uuid")
            .forEachRow([.integer(id)]) { links.append(($0.text("uuid"), $0.text("url"))) }
        return links
    }

    /// Whether the link with this UUID was removed.
    func isUnlinked(linkUUID: String) throws -> Bool {
        try database.scalar("SELECT count(*) FROM result_unlinks WHERE link_uuid = ?", [.text(linkUUID)]).int64 ?? 0 > 0
    }

    /// The link with this UUID, as its run's file writes it (a removed one as
    /// it was), or nil.
    func linkLine(uuid: String) throws -> TextFormat.LinkLine? {
        var found: TextFormat.LinkLine?
        try database.cached(
            """
            SELECT l.uuid, r.uuid AS result_uuid, l.url, l.linked_by, l.linked_at
            FROM result_links AS l JOIN results AS r ON r.id = l.result_id WHERE l.uuid = ?1
            UNION ALL
            SELECT u.link_uuid AS uuid, r.uuid AS result_uuid, u.url, u.linked_by, u.linked_at
            FROM result_unlinks AS u JOIN results AS r ON r.id = u.result_id WHERE u.link_uuid = ?1
            """
        ).forEachRow([.text(uuid)]) { row in
            found = TextFormat.LinkLine(uuid: row.text("uuid"), result: row.text("result_uuid"), url: row.text("url"), by: row.text("linked_by"),
                at: row.text("linked_at"))
        }
        return found
    }

    /// A run's results by recording time, then UUID, with their measurements and attachments.
    private func resultLines(runID: Int64, digest: (Int64, String) -> String) throws -> [TextFormat.ResultLine] {
        var lines: [TextFormat.ResultLine] = []
        var indexByID: [Int64: Int] = [:]
        try database.cached(
            """
            SELECT r.id, r.uuid, c.key, r.claim_statement_id, s.statement, r.result, r.posture, r.checked_at,
                   r.recorded_at, r.note, r.test_id, r.duration, r.message, r.judged
            FROM results AS r
            LEFT JOIN claims AS c ON c.id = r.claim_id
            LEFT JOIN claim_statements AS s ON s.id = r.claim_statement_id
            WHERE r.run_id = ? ORDER BY r.recorded_at, r.uuid
            """
        ).forEachRow([.integer(runID)]) { row in
            indexByID[row.int64("id")] = lines.count
            lines.append(TextFormat.ResultLine(
                uuid: row.text("uuid"), claim: row.optionalText("key"),
                statement: row.isNull("claim_statement_id") ? nil : digest(row.int64("claim_statement_id"), row.text("statement")), result: row.text("result"),
                posture: row.optionalText("posture"), checkedAt: row.optionalText("checked_at"), recordedAt: row.text("recorded_at"), note: row.text("note"),
                testID: row.optionalText("test_id"), duration: row.optionalDouble("duration"), message: row.optionalText("message"),
                measurements: [], attachments: [], judged: row.int64("judged") != 0))
        }
        try database.cached(
            """
            SELECT m.result_id, m.name, m.value, m.unit, m.baseline, m.posture, m.samples, m.standard_deviation
            FROM results AS r JOIN measurements AS m ON m.result_id = r.id
            WHERE r.run_id = ? ORDER BY m.id
            """
        ).forEachRow([.integer(runID)]) { row in
            guard let index = indexByID[row.int64("result_id")] else { return }
            lines[index].measurements.append(TextFormat.Measurement(
                name: row.text("name"), value: row.double("value"), unit: row.text("unit"), baseline: row.optionalDouble("baseline"),
                posture: row.optionalText("posture"), samples: row.isNull("samples") ? nil : row.int64("samples"),
                standardDeviation: row.optionalDouble("standard_deviation")))
        }
        try database.cached(
            """
            SELECT a.result_id, a.path, a.sha256, a.size, a.media_type, a.with_failure
            FROM results AS r JOIN attachments AS a ON a.result_id = r.id
            WHERE r.run_id = ? ORDER BY a.path
            """
        ).forEachRow([.integer(runID)]) { row in
            guard let index = indexByID[row.int64("result_id")] else { return }
            lines[index].attachments.append(TextFormat.Attachment(
                path: row.text("path"), sha256: row.text("sha256"), size: row.int64("size"), mediaType: row.text("media_type"),
                withFailure: row.int64("with_failure") != 0))
        }
        return lines
    }

    /// The id of the result with this UUID, and its run's.
    func result(uuid: String) throws -> (id: Int64, runID: Int64)? {
        var found: (Int64, Int64)?
        try database.cached("SELECT id, run_id FROM results WHERE uuid = ?").forEachRow([.text(uuid)]) {
            found = ($0.int64("id"), $0.int64("run_id"))
        }
        return found
    }

    /// The retraction with this UUID, as its run's file writes it, or nil.
    func retractionLine(uuid: String) throws -> TextFormat.RetractionLine? {
        var found: TextFormat.RetractionLine?
        try database.cached(
            """
            SELECT x.uuid, r.uuid AS result_uuid, x.retracted_by, x.retracted_at, x.reason
            FROM retractions AS x LEFT JOIN results AS r ON r.id = x.result_id WHERE x.uuid = ?
            """
        ).forEachRow([.text(uuid)]) { row in
            found = TextFormat.RetractionLine(
                uuid: row.text("uuid"), result: row.optionalText("result_uuid"), by: row.text("retracted_by"), at: row.text("retracted_at"),
                reason: row.text("reason"))
        }
        return found
    }

    // MARK: - Claims' words and label changes

    /// Every statement a claim has had, oldest first: (row id, text).
    func statements(ofClaim id: Int64) throws -> [(id: Int64, statement: String)] {
        var rows: [(Int64, String)] = []
        try database.cached("SELECT id, statement FROM claim_statements WHERE claim_id = ? ORDER BY id")
            .forEachRow([.integer(id)]) { rows.append(($0.int64("id"), $0.text("statement"))) }
        return rows
    }

    /// Every claim's words the store holds, earlier and current, as "KEY\nSHA256".
    func heldStatements() throws -> Set<String> {
        var held: Set<String> = []
        try database.cached("SELECT c.key, s.statement FROM claim_statements AS s JOIN claims AS c ON c.id = s.claim_id")
            .forEachRow { held.insert($0.text("key") + "\n" + SHA256.hex(Data($0.text("statement").utf8))) }
        return held
    }

    /// Earlier words of claims that results proved: for each of the statement
    /// rows `ids` that no longer says what its claim says, the claim's
    /// document and key, and the words.
    public func provedStatements(ids: Set<Int64>) throws -> [(document: String, claim: String, statement: String)] {
        var rows: [(String, String, String)] = []
        try database.cached(
            """
            SELECT s.id, c.document, c.key, s.statement
            FROM claim_statements AS s JOIN claims AS c ON c.id = s.claim_id
            WHERE s.statement <> c.statement
            """
        ).forEachRow { row in
            if ids.contains(row.int64("id")) { rows.append((row.text("document"), row.text("key"), row.text("statement"))) }
        }
        return rows
    }

    /// Every label change with its UUID and the UUID of the change it
    /// follows, by document, claim, time and UUID; with a claim id, that
    /// claim's only.
    public func changeRecords(claimID: Int64? = nil, _ body: (_ document: String, TextFormat.Change) throws -> Void)
        throws
    {
        try database.cached(
            """
            SELECT c.document, h.uuid, c.key, f.uuid AS follows, h.old_label, h.new_label, h.changed_by, h.changed_at, h.reason
            FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id
            LEFT JOIN label_history AS f ON f.id = h.follows_id
            WHERE h.claim_id BETWEEN coalesce(?1, -9223372036854775808) AND coalesce(?1, 9223372036854775807)
            ORDER BY c.document, c.key, h.changed_at, h.uuid
            """
        ).forEachRow([SQLValue(claimID)]) { row in
            try body(row.text("document"), TextFormat.Change(
                uuid: row.text("uuid"), claim: row.text("key"), follows: row.optionalText("follows"), oldLabel: row.optionalText("old_label"),
                newLabel: row.text("new_label"), changedBy: row.text("changed_by"), changedAt: row.text("changed_at"), reason: row.text("reason")))
        }
    }

    /// The label change with this UUID, or nil.
    func change(uuid: String) throws -> TextFormat.Change? {
        var found: TextFormat.Change?
        try database.cached(
            """
            SELECT h.uuid, c.key, f.uuid AS follows, h.old_label, h.new_label, h.changed_by, h.changed_at, h.reason
            FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id
            LEFT JOIN label_history AS f ON f.id = h.follows_id WHERE h.uuid = ?
            """
        ).forEachRow([.text(uuid)]) { row in
            found = TextFormat.Change(
                uuid: row.text("uuid"), claim: row.text("key"), follows: row.optionalText("follows"), oldLabel: row.optionalText("old_label"),
                newLabel: row.text("new_label"), changedBy: row.text("changed_by"), changedAt: row.text("changed_at"), reason: row.text("reason"))
        }
        return found
    }

    /// The tables whose rows a batch numbers itself.
    enum NumberedTable {
        case results, measurements
    }

    /// One more than the largest id of a table.
    func nextID(of table: NumberedTable) throws -> Int64 {
        switch table {
        case .results: return try database.scalar(cached: "SELECT coalesce(max(id), 0) + 1 FROM results").int64 ?? 1
        case .measurements:
            return try database.scalar(cached: "SELECT coalesce(max(id), 0) + 1 FROM measurements").int64 ?? 1
        }
    }

    // MARK: - The base of the next import

    /// The record of a kind and key as last exported or imported, or nil.
    /// Every line the store last exported or imported of a record people edit.
    func exchangedLines() throws -> Set<String> {
        Set(try database.query(cached: "SELECT line FROM exchanged_records").map { try $0.text("line") })
    }

    func exchangedLine(kind: String, key: String) throws -> String? {
        try database.scalar(
            cached: "SELECT line FROM exchanged_records WHERE kind = ? AND key = ?", [.text(kind), .text(key)]
        ).string
    }
}
