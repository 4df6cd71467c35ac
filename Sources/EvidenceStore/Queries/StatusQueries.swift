/// The lead's questions: what is untested, how the counts stand, and the
/// one-line summary a document's front matter carries.
/// A source of the source list: the same facts `source show` gives.
public typealias CitedSource = SourceDetail

extension Store {
    /// Claims still untested or needing a device, with the capabilities a simulator lacks.
    public func untestedList(needsDevice: Bool = false, document: String? = nil) throws -> Tabular {
        try tabular(
            """
            SELECT u.key, u.state,
                   (SELECT group_concat(capability, ', ') FROM (
                        SELECT DISTINCT n.capability FROM claim_device_needs AS n
                        WHERE n.claim_id = u.claim_id ORDER BY n.capability)) AS needs,
                   u.document, u.area, u.label, u.reason
            FROM untested_claims AS u
            WHERE (?1 = 0 OR u.state = 'needs-device') AND (?2 IS NULL OR u.document = ?2)
            ORDER BY u.document, u.state, u.area, u.key
            """, [.integer(needsDevice ? 1 : 0), SQLValue(document)])
    }

    /// Claim counts by document, label and state.
    public func statusTable(document: String? = nil) throws -> Tabular {
        Tabular(
            columns: ["document", "label", "state", "claims"],
            rows: try stateCounts(document: document).map {
                [.text($0.document), .text($0.label), .text($0.state), .integer(Int64($0.count))]
            })
    }

    /// "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no": the simulator
    /// setup that verified the most claims (the newest builds on a tie), and
    /// the device setups, if any claim passed on one.
    public func verifiedLine(document: String? = nil) throws -> String {
        let rows = try database.query(
            """
            SELECT e.kind, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
                   count(DISTINCT s.claim_id) AS claims
            FROM claim_state AS s
            JOIN results AS r ON r.id = s.verified_result_id
            JOIN runs AS u ON u.id = r.run_id
            JOIN environments AS e ON e.id = u.environment_id
            WHERE s.state IN ('verified-on-device', 'verified-in-simulator') AND (?1 IS NULL OR s.document = ?1)
            GROUP BY e.kind, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build
            ORDER BY claims DESC, max(e.tool_build_order) DESC, max(e.os_build_order) DESC, e.tool_version DESC,
                     e.os_version DESC
            """, SQLValue(document))
        func os(_ row: Row) -> String {
            var text = [row.text("os_name"), row.text("os_version")].filter { !$0.isEmpty }.joined(separator: " ")
            if !row.text("os_build").isEmpty { text += " (\(row.text("os_build")))" }
            return text
        }
        func tool(_ row: Row) -> String {
            var text = [row.text("tool_name"), row.text("tool_version")].filter { !$0.isEmpty }.joined(separator: " ")
            if !row.text("tool_build").isEmpty { text += " (\(row.text("tool_build")))" }
            return text
        }
        var parts: [String] = []
        if let simulator = rows.first(where: { $0.text("kind") == "simulator" }) {
            let osText = os(simulator)
            parts += [tool(simulator), (osText.isEmpty ? "" : osText + " ") + "simulator"].filter { !$0.isEmpty }
        } else {
            parts.append("simulator: no")
        }
        let devices = rows.filter { $0.text("kind") == "device" }.map { os($0) }
        var seen: Set<String> = []
        let distinctDevices = devices.filter { seen.insert($0).inserted }
        parts.append("device: " + (distinctDevices.isEmpty ? "no" : distinctDevices.joined(separator: ", ")))
        return parts.joined(separator: ", ")
    }

    /// Sources with the claims that cite them, sorted by publisher, kind and title.
    public func citedSources(document: String? = nil) throws -> [CitedSource] {
        var sources: [(Int64, CitedSource)] = []
        try database.cachedStatement(
            """
            SELECT s.id, s.url, s.title, s.publisher, s.kind, s.published, s.updated, s.retrieved
            FROM sources AS s
            WHERE ?1 IS NULL OR EXISTS (
                SELECT 1 FROM claim_sources AS x JOIN claims AS c ON c.id = x.claim_id
                WHERE x.source_id = s.id AND c.document = ?1)
            ORDER BY s.publisher, s.kind, s.title COLLATE NOCASE, s.url
            """
        ).forEachRow([SQLValue(document)]) { row in
            sources.append((row.int64(0), CitedSource(
                url: row.text(1), title: row.text(2), publisher: row.text(3), kind: row.text(4),
                published: row.optionalText(5), updated: row.optionalText(6), retrieved: row.optionalText(7),
                citations: [], lacks: [])))
        }
        let citations = try database.cachedStatement(
            """
            SELECT c.key, x.locator FROM claim_sources AS x JOIN claims AS c ON c.id = x.claim_id
            WHERE x.source_id = ?1 AND (?2 IS NULL OR c.document = ?2) ORDER BY c.key, x.locator
            """)
        let lacks = try database.cachedStatement(
            """
            SELECT l.model || ' ' || l.kind || CASE WHEN l.tool_build <> '' THEN ' (Xcode ' || l.tool_build || ')' ELSE '' END
                   || ' lacks ' || k.name
            FROM environment_lacks AS l JOIN capabilities AS k ON k.id = l.capability_id
            WHERE l.source_id = ? ORDER BY l.model, l.kind, l.tool_build, k.name
            """)
        return try sources.map { id, source in
            var source = source
            try citations.forEachRow([.integer(id), SQLValue(document)]) { source.citations.append(($0.text(0), $0.text(1))) }
            try lacks.forEachRow([.integer(id)]) { source.lacks.append($0.text(0)) }
            return source
        }
    }
}
