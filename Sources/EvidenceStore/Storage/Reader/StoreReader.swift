#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the store and returns typed read models: no caller sees SQL, a
/// statement or a row. Every query of the library lives in this folder and in
/// `StoreWriter`. A reader made inside `Store.read` or `Store.write` reads
/// that transaction's snapshot.
public struct StoreReader {
    let database: Database
    let clock: Clock

    // MARK: - Finding rows by the natural keys people type

    /// The id of a claim; a miss names the key and suggests the closest.
    public func claimID(key: String) throws -> Int64 {
        if let id = try database.scalar(cached: "SELECT id FROM claims WHERE key = ?", [.text(key)]).int64 {
            return id
        }
        if let renamed = try claimRenames()[key] {
            throw EvidenceError.refused(reason: "claim '\(key)' was renamed; it is '\(renamed)' now")
        }
        throw EvidenceError.notFound(kind: "claim", value: key, suggestions: Suggestions.closest(to: key, in: try claimKeys()))
    }

    /// The id of a claim, or nil.
    func existingClaimID(key: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM claims WHERE key = ?", [.text(key)]).int64
    }

    /// Every claim's document, by key.
    public func claimDocuments() throws -> [String: String] {
        var documents: [String: String] = [:]
        try database.cached("SELECT key, document FROM claims").forEachRow { documents[$0.text("key")] = $0.text("document") }
        return documents
    }

    /// Every claim's key.
    public func claimKeys() throws -> [String] {
        var keys: [String] = []
        try database.cached("SELECT key FROM claims ORDER BY key").forEachRow { keys.append($0.text("key")) }
        return keys
    }

    public func capabilityID(name: String) throws -> Int64 {
        if let id = try existingCapabilityID(name: name) {
            return id
        }
        var names: [String] = []
        try database.cached("SELECT name FROM capabilities").forEachRow { names.append($0.text("name")) }
        throw EvidenceError.notFound(kind: "capability", value: name, suggestions: Suggestions.closest(to: name, in: names))
    }

    func existingCapabilityID(name: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM capabilities WHERE name = ?", [.text(name)]).int64
    }

    public func sourceID(url: String) throws -> Int64 {
        if let id = try existingSourceID(url: url) {
            return id
        }
        throw try unknownSource(url)
    }

    func existingSourceID(url: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM sources WHERE url = ?", [.text(url)]).int64
    }

    /// Resolves `URL`, `URL#locator` or `URL?query` to a registered source and the
    /// locator within it: the registered URL that the reference starts with, cut
    /// at `#` or `?`.
    public func resolveSourceReference(_ reference: String) throws -> (sourceID: Int64, locator: String) {
        var candidates: [(String, String)] = [(reference, "")]
        if let hash = reference.firstIndex(of: "#") {
            candidates.append((String(reference[..<hash]), String(reference[hash...])))
        }
        if let question = reference.firstIndex(of: "?") {
            candidates.append((String(reference[..<question]), String(reference[question...])))
        }
        for (url, locator) in candidates {
            if let id = try existingSourceID(url: url) {
                return (id, locator)
            }
        }
        throw try unknownSource(reference)
    }

    private func unknownSource(_ url: String) throws -> EvidenceError {
        var urls: [String] = []
        try database.cached("SELECT url FROM sources").forEachRow { urls.append($0.text("url")) }
        let bare = String(url.prefix { $0 != "#" && $0 != "?" })
        var suggestions = urls.filter { bare.hasPrefix($0) || $0.hasPrefix(bare) }.sorted()
        if suggestions.isEmpty {
            suggestions = Suggestions.closest(to: bare, in: urls)
        }
        return EvidenceError.notFound(
            kind: "source (add it with 'evidence source add')", value: url, suggestions: Array(suggestions.prefix(3)))
    }

    /// A run by its UUID, a unique prefix of it (6 characters or more), or its
    /// local number (`#6` when it could be read as a prefix too).
    public func runID(reference: String) throws -> Int64 {
        try resolve(
            reference, kind: "run", byID: "SELECT id FROM runs WHERE id = ?",
            byUUID: "SELECT id, uuid FROM runs WHERE uuid >= ? AND uuid < ? ORDER BY uuid LIMIT 6")
    }

    /// A result named by its UUID, a unique prefix of it (6 characters or
    /// more), or its local number (as `claim show` and `run show` print it).
    public func resultID(reference: String) throws -> Int64 {
        try resolve(
            reference, kind: "result", byID: "SELECT id FROM results WHERE id = ?",
            byUUID: "SELECT id, uuid FROM results WHERE uuid >= ? AND uuid < ? ORDER BY uuid LIMIT 6")
    }

    /// A row named by a UUID prefix of at least 6 characters that only it
    /// has, or by its local number (written `#N` to mean the number alone).
    /// A text that is both is refused: the prefix is the same in every
    /// clone, the number is this store's own.
    private func resolve(_ reference: String, kind: String, byID: StaticString, byUUID: StaticString) throws -> Int64 {
        let text = reference.trimmingWhitespace().lowercased()
        let local = text.hasPrefix("#")
        let number = Int64(local ? String(text.dropFirst()) : text)
        let byNumber = try number.flatMap { try database.scalar(cached: byID, [.integer($0)]).int64 }
        if !local, text.count >= ResultIdentity.shortestPrefix, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            var matches: [(id: Int64, uuid: String)] = []
            try database.cached(byUUID).forEachRow([.text(text), .text(text + "g")]) { matches.append(($0.int64("id"), $0.text("uuid"))) }
            if matches.count > 1 {
                // Each with the shortest prefix that tells it from the others shown, and its local number.
                let named = matches.prefix(5).map { match in
                    let length = matches.filter { $0.id != match.id }.map { Self.commonPrefixLength(match.uuid, $0.uuid) }.max() ?? 0
                    return "\(match.uuid.prefix(max(length + 1, text.count + 1))) (#\(match.id))"
                }
                throw EvidenceError.invalidValue(
                    field: kind, value: reference,
                    expected: "a longer UUID prefix; several \(kind)s start with it: " + named.joined(separator: ", ")
                        + (matches.count > 5 ? " and more" : ""))
            }
            if let match = matches.first?.id {
                guard byNumber == nil || byNumber == match else {
                    throw EvidenceError.invalidValue(
                        field: kind, value: reference,
                        expected: "a longer UUID prefix, or '#\(text)' for the local number: it is both")
                }
                return match
            }
        }
        if let byNumber { return byNumber }
        // No suggestion: numbers and UUIDs close to a mistyped one name other rows.
        throw EvidenceError.notFound(kind: kind, value: reference, suggestions: [])
    }

    private static func commonPrefixLength(_ a: String, _ b: String) -> Int {
        zip(a.utf8, b.utf8).prefix { $0 == $1 }.count
    }

    /// A result's UUID.
    func resultUUID(id: Int64) throws -> String {
        try database.scalar(cached: "SELECT uuid FROM results WHERE id = ?", [.integer(id)]).string ?? ""
    }

    /// The run of a UUID, or nil.
    func existingRunID(uuid: String) throws -> Int64? {
        try database.scalar(cached: "SELECT id FROM runs WHERE uuid = ?", [.text(uuid)]).int64
    }

    public func run(id: Int64) throws -> RunRecord {
        let statement = try database.cached(
            "SELECT id, uuid, environment_id, started_at, tester, note FROM runs WHERE id = ?")
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        guard try statement.step() else {
            throw EvidenceError.notFound(kind: "run", value: String(id), suggestions: [])
        }
        return RunRecord(
            id: statement.int64("id"), uuid: statement.text("uuid"), environmentID: statement.int64("environment_id"),
            startedAt: statement.optionalText("started_at"), tester: statement.text("tester"), note: statement.text("note"))
    }

    /// The latest manual run (not from an ingested file, not retracted) of an
    /// environment and tester on a day.
    func matchingRun(environmentID: Int64, tester: String, day: String) throws -> Int64? {
        try database.scalar(
            cached: """
                SELECT id FROM runs
                WHERE environment_id = ? AND tester = ? AND started_at >= ? AND started_at < ?
                  AND ingested_file_id IS NULL
                  AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = runs.id)
                ORDER BY started_at DESC, id DESC LIMIT 1
                """,
            [.integer(environmentID), .text(tester), .text(day), .text(day + "U")]
        ).int64
    }

    /// The id of the environment with exactly these fields, or nil.
    func existingEnvironmentID(_ spec: EnvironmentSpec) throws -> Int64? {
        try database.scalar(
            cached: """
                SELECT id FROM environments
                WHERE kind = ? AND model = ? AND os_name = ? AND os_version = ? AND os_build = ?
                  AND tool_name = ? AND tool_version = ? AND tool_build = ?
                """, Self.values(spec)
        ).int64
    }

    static func values(_ spec: EnvironmentSpec) -> [SQLValue] {
        [
            .text(spec.kind.rawValue), .text(spec.model), .text(spec.osName), .text(spec.osVersion), .text(spec.osBuild),
            .text(spec.toolName), .text(spec.toolVersion), .text(spec.toolBuild),
        ]
    }

    public func environment(id: Int64) throws -> EnvironmentSpec {
        let statement = try database.cached(
            """
            SELECT kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build
            FROM environments WHERE id = ?
            """)
        try statement.bind([.integer(id)])
        defer { statement.reset() }
        guard try statement.step() else {
            throw EvidenceError.notFound(kind: "environment", value: String(id), suggestions: [])
        }
        return try Self.environment(statement)
    }

    /// What a new environment is checked against: every recorded environment,
    /// and every model named by an environment or a lack.
    public func environmentVetting() throws -> EnvironmentVetting {
        var environments: [EnvironmentSpec] = []
        try database.cached(
            """
            SELECT kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build
            FROM environments ORDER BY id
            """
        ).forEachRow { environments.append(try Self.environment($0)) }
        var models: [String] = []
        try database.cached(
            """
            SELECT model FROM environments UNION SELECT model FROM environment_lacks WHERE model <> '*'
            UNION SELECT model FROM claim_subjects UNION SELECT model FROM document_subjects ORDER BY 1
            """
        ).forEachRow { models.append($0.text("model")) }
        return EnvironmentVetting(knownModels: models, environments: environments)
    }

    /// An environment read from the current row's columns named as the
    /// environments table names them: kind, model, os_name … tool_build.
    static func environment(_ row: Statement) throws -> EnvironmentSpec {
        EnvironmentSpec(
            kind: try EnvironmentKind(parsing: row.text("kind")), model: row.text("model"), osName: row.text("os_name"),
            osVersion: row.text("os_version"), osBuild: row.text("os_build"), toolName: row.text("tool_name"),
            toolVersion: row.text("tool_version"), toolBuild: row.text("tool_build"))
    }

    /// The time an ingested file (by SHA-256) was ingested, or nil when it never was.
    public func ingestedAt(sha256: String) throws -> String? {
        try database.scalar(cached: "SELECT ingested_at FROM ingested_files WHERE sha256 = ?", [.text(sha256)]).string
    }

    /// The rules that map test identifiers to claims, in the order they were added.
    public func mappingRules() throws -> [(pattern: String, claim: String)] {
        var rules: [(String, String)] = []
        try database.cached(
            "SELECT t.pattern, c.key FROM test_mappings AS t JOIN claims AS c ON c.id = t.claim_id ORDER BY t.id"
        ).forEachRow { rules.append(($0.text("pattern"), $0.text("key"))) }
        return rules
    }

    /// The patterns of the mapping rules, for "did you mean".
    func mappingPatterns() throws -> [String] {
        var patterns: [String] = []
        try database.cached("SELECT DISTINCT pattern FROM test_mappings").forEachRow { patterns.append($0.text("pattern")) }
        return patterns
    }

    /// Checklist item keys, for "did you mean".
    func checklistItemKeys() throws -> [String] {
        var keys: [String] = []
        try database.cached("SELECT key FROM checklist_items").forEachRow { keys.append($0.text("key")) }
        return keys
    }

    /// What the record for this kind, model, tool build and capability says
    /// ("lacks" or "has"), or nil when there is none.
    func lackStatus(kind: EnvironmentKind, model: String, toolBuild: String, capabilityID: Int64) throws -> String? {
        try database.scalar(
            cached: "SELECT status FROM environment_lacks WHERE kind = ? AND model = ? AND tool_build = ? AND capability_id = ?",
            [.text(kind.rawValue), .text(model), .text(toolBuild), .integer(capabilityID)]
        ).string
    }

    /// The keys of the claims that speak about a model: those that name it,
    /// and those that name none.
    public func claimKeys(speakingAbout model: String) throws -> Set<String> {
        var keys: Set<String> = []
        try database.cached(
            """
            SELECT c.key FROM claims AS c
            WHERE NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
               OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = ?)
            """
        ).forEachRow([.text(model)]) { keys.insert($0.text("key")) }
        return keys
    }

    /// The models a claim speaks about, sorted; empty for any model.
    public func claimSubjects(ofClaim id: Int64) throws -> [String] {
        var models: [String] = []
        try database.cached("SELECT model FROM claim_subjects WHERE claim_id = ? ORDER BY model")
            .forEachRow([.integer(id)]) { models.append($0.text("model")) }
        return models
    }

    /// The models a document's new claims speak about when none are given, sorted.
    public func documentSubjects(_ document: String) throws -> [String] {
        var models: [String] = []
        try database.cached("SELECT model FROM document_subjects WHERE document = ? ORDER BY model")
            .forEachRow([.text(document)]) { models.append($0.text("model")) }
        return models
    }
}

// MARK: - Guided sessions

extension StoreReader {
    /// The manual run a guided session resumes: this environment's and
    /// tester's on `day`, when the environment and such a run exist. Nil
    /// otherwise; nothing is written.
    public func resumableRun(_ spec: EnvironmentSpec, tester: String, day: String) throws -> RunRecord? {
        guard let environment = try existingEnvironmentID(spec),
            let id = try matchingRun(environmentID: environment, tester: tester, day: day)
        else { return nil }
        return try run(id: id)
    }

    /// The claims with a result in the run that is not retracted, for the
    /// claim's words as they are now: a claim whose words changed since its
    /// answer is checked again (issue 46), as `log` can.
    public func claimsAnswered(inRun id: Int64) throws -> Set<String> {
        var keys: Set<String> = []
        try database.cached(
            """
            SELECT DISTINCT c.key FROM results AS r JOIN claims AS c ON c.id = r.claim_id
            JOIN claim_statements AS s ON s.id = r.claim_statement_id
            WHERE r.run_id = ? AND s.statement = c.statement
              AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id)
            """
        ).forEachRow([.integer(id)]) { keys.insert($0.text("key")) }
        return keys
    }
}
