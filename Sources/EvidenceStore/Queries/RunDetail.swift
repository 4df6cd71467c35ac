/// One run, its environment and every result in it: `evidence run show`.
public struct RunDetail: Equatable, Sendable {
    public var run: RunRecord
    public var environment: String
    public var sourceFile: String?
    public var results: [ClaimDetail.ResultEntry]
    /// The claim key of each result, nil for an automated test that maps to no claim.
    public var claimKeys: [Int64: String]
}

/// One source and the claims that cite it: `evidence source show`.
public struct SourceDetail: Equatable, Sendable {
    public var url: String
    public var title: String
    public var publisher: String
    public var kind: String
    public var published: String?
    public var updated: String?
    public var retrieved: String?
    /// (claim key, locator)
    public var citations: [(String, String)]
    public var lacks: [String]

    public static func == (lhs: SourceDetail, rhs: SourceDetail) -> Bool {
        lhs.url == rhs.url && lhs.citations.map { $0.0 + $0.1 } == rhs.citations.map { $0.0 + $0.1 }
            && lhs.title == rhs.title && lhs.lacks == rhs.lacks
    }
}

extension Store {
    public func runDetail(reference: String) throws -> RunDetail {
        let run = try self.run(id: try runID(reference: reference))
        let environment = try database.scalar(
            "SELECT description FROM environment_status WHERE environment_id = ?", .integer(run.environmentID)
        ).description
        let file = try database.scalar(
            """
            SELECT f.file_name || ' (' || f.format || ', sha256 ' || substr(f.sha256, 1, 12) || ')'
            FROM runs AS u JOIN ingested_files AS f ON f.id = u.ingested_file_id WHERE u.id = ?
            """, .integer(run.id)
        ).string
        let results = try resultEntries(where: "r.run_id = ?", .integer(run.id))
        var keys: [Int64: String] = [:]
        for row in try database.query(
            "SELECT r.id, c.key FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE r.run_id = ?",
            .integer(run.id))
        {
            keys[Int64(row.int("id"))] = row.text("key")
        }
        return RunDetail(run: run, environment: environment, sourceFile: file, results: results, claimKeys: keys)
    }

    public func sourceDetail(url: String) throws -> SourceDetail {
        let id = try sourceID(url: url)
        guard let row = try database.queryFirst(
            "SELECT url, title, publisher, kind, published, updated, retrieved FROM sources WHERE id = ?",
            .integer(id))
        else { throw EvidenceError.notFound(kind: "source", value: url, suggestions: []) }
        let citations = try database.query(
            """
            SELECT c.key, x.locator FROM claim_sources AS x JOIN claims AS c ON c.id = x.claim_id
            WHERE x.source_id = ? ORDER BY c.key, x.locator
            """, .integer(id)
        ).map { ($0.text("key"), $0.text("locator")) }
        let lacks = try database.query(
            """
            SELECT l.model || ' ' || l.kind
                   || CASE WHEN l.tool_build <> '' THEN ' (' || l.tool_build || ')' ELSE '' END
                   || ' lacks ' || k.name AS text
            FROM environment_lacks AS l JOIN capabilities AS k ON k.id = l.capability_id
            WHERE l.source_id = ? ORDER BY text
            """, .integer(id)
        ).map { $0.text("text") }
        return SourceDetail(
            url: row.text("url"), title: row.text("title"), publisher: row.text("publisher"), kind: row.text("kind"),
            published: row.optionalText("published"), updated: row.optionalText("updated"),
            retrieved: row.optionalText("retrieved"), citations: citations, lacks: lacks)
    }
}
