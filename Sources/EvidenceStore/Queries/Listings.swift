/// The listings behind `claim list`, `source list`, `capability list`,
/// `env list`, `run list` and `measurements`: rows for any output format.
public struct ClaimFilter: Equatable, Sendable {
    public var document: String?
    public var area: String?
    public var label: Label?
    public var state: VerificationState?

    public init(document: String? = nil, area: String? = nil, label: Label? = nil, state: VerificationState? = nil) {
        self.document = document
        self.area = area
        self.label = label
        self.state = state
    }
}

public struct MeasurementFilter: Equatable, Sendable {
    public var name: String?
    public var claimKey: String?
    public var model: String?

    public init(name: String? = nil, claimKey: String? = nil, model: String? = nil) {
        self.name = name
        self.claimKey = claimKey
        self.model = model
    }
}

extension Store {
    public func claimList(_ filter: ClaimFilter = ClaimFilter()) throws -> Tabular {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let document = filter.document {
            conditions.append("s.document = ?")
            arguments.append(.text(document))
        }
        if let area = filter.area {
            conditions.append("s.area = ?")
            arguments.append(.text(area))
        }
        if let label = filter.label {
            conditions.append("s.label = ?")
            arguments.append(.text(label.rawValue))
        }
        if let state = filter.state {
            conditions.append("s.state = ?")
            arguments.append(.text(state.rawValue))
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try tabular(
            """
            SELECT s.key, s.label, s.state, s.document, s.area, c.statement
            FROM claim_state AS s JOIN claims AS c ON c.id = s.claim_id
            \(whereClause)
            ORDER BY s.document, s.area, s.key
            """, arguments)
    }

    public func sourceList() throws -> Tabular {
        try tabular(
            """
            SELECT s.url, s.title, s.publisher, s.kind, s.published, s.updated, s.retrieved,
                   (SELECT count(DISTINCT x.claim_id) FROM claim_sources AS x WHERE x.source_id = s.id) AS claims
            FROM sources AS s
            ORDER BY s.publisher, s.kind, s.title, s.url
            """)
    }

    public func capabilityList() throws -> Tabular {
        try tabular(
            """
            SELECT k.name, k.description,
                   (SELECT count(*) FROM claim_capabilities AS cc WHERE cc.capability_id = k.id) AS needed_by,
                   (SELECT group_concat(who, '; ') FROM (
                        SELECT l.model || ' ' || l.kind
                               || CASE WHEN l.tool_build <> '' THEN ' (' || l.tool_build || ')' ELSE '' END AS who
                        FROM environment_lacks AS l WHERE l.capability_id = k.id
                        ORDER BY l.model, l.kind, l.tool_build)) AS lacked_by
            FROM capabilities AS k
            ORDER BY k.name
            """)
    }

    /// Each environment with what it lacks, then lacks recorded for models no run used yet.
    public func environmentList() throws -> Tabular {
        try tabular(
            """
            SELECT e.id, e.kind, e.model, trim(e.os_name || ' ' || e.os_version) AS os, e.os_build,
                   trim(e.tool_name || ' ' || e.tool_version) AS tool, e.tool_build,
                   CASE s.is_current WHEN 1 THEN 'yes' ELSE 'no' END AS current,
                   (SELECT group_concat(name, ', ') FROM (
                        SELECT DISTINCT k.name FROM environment_lacks AS l
                        JOIN capabilities AS k ON k.id = l.capability_id
                        WHERE l.kind = e.kind AND l.model = e.model AND (l.tool_build = '' OR l.tool_build = e.tool_build)
                        ORDER BY k.name)) AS lacks
            FROM environments AS e JOIN environment_status AS s ON s.environment_id = e.id
            UNION ALL
            SELECT NULL, l.kind, l.model, '', '', '', l.tool_build, '', group_concat(k.name, ', ')
            FROM environment_lacks AS l JOIN capabilities AS k ON k.id = l.capability_id
            WHERE NOT EXISTS (SELECT 1 FROM environments AS e
                              WHERE e.kind = l.kind AND e.model = l.model
                                AND (l.tool_build = '' OR l.tool_build = e.tool_build))
            GROUP BY l.kind, l.model, l.tool_build
            ORDER BY 3, 2, 1
            """)
    }

    public func runList() throws -> Tabular {
        try tabular(
            """
            SELECT u.id, substr(u.uuid, 1, 8) AS run, u.started_at, s.description AS environment, u.tester,
                   (SELECT count(*) FROM results AS r WHERE r.run_id = u.id) AS results, u.note
            FROM runs AS u JOIN environment_status AS s ON s.environment_id = u.environment_id
            ORDER BY u.started_at, u.uuid
            """)
    }

    public func measurementList(_ filter: MeasurementFilter = MeasurementFilter()) throws -> Tabular {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let name = filter.name {
            conditions.append("m.name = ?")
            arguments.append(.text(name))
        }
        if let key = filter.claimKey {
            _ = try claimID(key: key)
            conditions.append("m.claim_key = ?")
            arguments.append(.text(key))
        }
        if let model = filter.model {
            conditions.append("m.model = ?")
            arguments.append(.text(model))
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try tabular(
            """
            SELECT m.claim_key AS claim, m.name, m.value, m.baseline, m.delta, m.unit, m.posture,
                   m.environment, substr(m.run_uuid, 1, 8) AS run, m.checked_at
            FROM measurement_deltas AS m
            \(whereClause)
            ORDER BY m.claim_key, m.name, m.checked_at, m.measurement_id
            """, arguments)
    }

    public func attachmentList() throws -> Tabular {
        try tabular(
            """
            SELECT a.path, a.media_type, a.size, a.sha256, c.key AS claim, substr(u.uuid, 1, 8) AS run
            FROM attachments AS a
            JOIN results AS r ON r.id = a.result_id
            LEFT JOIN claims AS c ON c.id = r.claim_id
            JOIN runs AS u ON u.id = r.run_id
            ORDER BY a.path, u.uuid
            """)
    }

    /// Runs SQL and returns its rows with their column names.
    func tabular(_ sql: String, _ arguments: [SQLValue] = []) throws -> Tabular {
        let statement = try database.cachedStatement(sql)
        var table = Tabular(columns: statement.columnNames)
        try statement.forEachRow(arguments) { row in
            table.rows.append((0..<row.columnCount).map(row.value))
        }
        return table
    }
}
