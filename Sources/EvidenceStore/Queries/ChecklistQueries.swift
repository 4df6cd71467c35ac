/// A document's checklist with, for each item, whether its claims are verified
/// and, when not, why.
public struct ChecklistReport: Sendable {
    public struct Item: Sendable {
        public var key: String
        public var position: Int
        public var text: String
        public var ticked: Bool
        /// Why it is not ticked: "untested: …", "needs a device for standby (…)", "marked untested …".
        public var why: String?
    }

    public var document: String
    public var title: String
    public var items: [Item]
}

extension Store {
    public func checklists(document: String? = nil) throws -> [ChecklistReport] {
        let lists = try database.query(
            "SELECT id, document, title FROM checklists WHERE ?1 IS NULL OR document = ?1 ORDER BY document",
            SQLValue(document))
        if let document, lists.isEmpty {
            let known = try database.query("SELECT document FROM checklists").map { $0.text("document") }
            throw EvidenceError.notFound(
                kind: "checklist", value: document, suggestions: Suggestions.closest(to: document, in: known))
        }
        // Every linked claim's state in one pass over the links, not one query
        // (and one claim_state set-up) per item.
        var linked: [Int64: [LinkedClaim]] = [:]
        try database.cachedStatement(
            """
            SELECT x.checklist_item_id, s.claim_id, s.key, s.state
            FROM checklist_item_claims AS x
            JOIN checklist_items AS i ON i.id = x.checklist_item_id
            JOIN checklists AS l ON l.id = i.checklist_id
            JOIN claim_state AS s ON s.claim_id = x.claim_id
            WHERE ?1 IS NULL OR l.document = ?1
            ORDER BY x.checklist_item_id, s.key
            """
        ).forEachRow([SQLValue(document)]) { row in
            linked[row.int64(0), default: []].append(LinkedClaim(id: row.int64(1), key: row.text(2), state: row.text(3)))
        }
        return try lists.map { list in
            let items = try database.query(
                """
                SELECT id, key, position, text, untested_reason, marked_by, marked_at
                FROM checklist_items WHERE checklist_id = ? ORDER BY position
                """, list["id"]
            ).map { row -> ChecklistReport.Item in
                var item = ChecklistReport.Item(
                    key: row.text("key"), position: row.int("position"), text: row.text("text"), ticked: false, why: nil)
                if let reason = row.optionalText("untested_reason") {
                    item.why = "marked untested by \(row.text("marked_by")) on \(row.text("marked_at").prefix(10)): \(reason)"
                    return item
                }
                let why = try checklistItemGaps(linked[Int64(row.int("id"))] ?? [])
                item.ticked = why.isEmpty
                item.why = why.isEmpty ? nil : why.joined(separator: "; ")
                return item
            }
            return ChecklistReport(document: list.text("document"), title: list.text("title"), items: items)
        }
    }

    /// A claim linked to a checklist item, with its state.
    private struct LinkedClaim {
        var id: Int64
        var key: String
        var state: String
    }

    /// What keeps an item from being ticked, one phrase per kind of gap.
    private func checklistItemGaps(_ claims: [LinkedClaim]) throws -> [String] {
        if claims.isEmpty { return ["no claims are linked to it"] }
        var untested: [String] = []
        var needs: [(String, [String])] = []
        var failing: [String] = []
        var stale: [String] = []
        let capabilitiesNeeded = try database.cachedStatement(
            "SELECT DISTINCT capability FROM claim_device_needs WHERE claim_id = ? ORDER BY capability")
        for claim in claims {
            let key = claim.key
            switch claim.state {
            case "verified-on-device", "verified-in-simulator":
                continue
            case "needs-device":
                var capabilities: [String] = []
                try capabilitiesNeeded.forEachRow([.integer(claim.id)]) { capabilities.append($0.text(0)) }
                let what = capabilities.isEmpty ? "a capability" : capabilities.joined(separator: ", ")
                if let index = needs.firstIndex(where: { $0.0 == what }) {
                    needs[index].1.append(key)
                } else {
                    needs.append((what, [key]))
                }
            case "failing":
                failing.append("since run \(try failingSince(claimID: .integer(claim.id))) (\(key))")
            case "stale":
                stale.append(key)
            default:
                untested.append(key)
            }
        }
        var gaps: [String] = []
        if !untested.isEmpty { gaps.append("untested: " + untested.joined(separator: ", ")) }
        if !needs.isEmpty {
            gaps.append("needs a device for " + needs.map { "\($0.0) (\($0.1.joined(separator: ", ")))" }.joined(separator: "; "))
        }
        if !failing.isEmpty { gaps.append("failing " + failing.joined(separator: "; ")) }
        if !stale.isEmpty { gaps.append("stale: " + stale.joined(separator: ", ")) }
        return gaps
    }

    /// The run of the first failure after the claim's latest pass.
    func failingSince(claimID: SQLValue) throws -> String {
        var since = ""
        let statement = try database.cachedStatement(
            """
            SELECT r.result, u.uuid FROM results AS r JOIN runs AS u ON u.id = r.run_id
            WHERE r.claim_id = ? ORDER BY r.checked_at DESC, r.id DESC
            """)
        try statement.bind([claimID])
        defer { statement.reset() }
        while try statement.step() {
            let result = statement.text(0)
            if result == "pass" { break }
            if result == "fail" { since = String(statement.text(1).prefix(8)) }
        }
        return since
    }

    /// Marks a checklist item untested on purpose, or clears the mark (reason nil).
    public func markChecklistItem(key: String, untestedReason reason: String?, by author: String) throws {
        let reason = try reason.map { try Validate.nonEmpty($0, field: "reason") }
        try database.inTransaction(.immediate) {
            guard try database.scalar("SELECT 1 FROM checklist_items WHERE key = ?", .text(key)) != .null else {
                let keys = try database.query("SELECT key FROM checklist_items").map { $0.text("key") }
                throw EvidenceError.notFound(kind: "checklist item", value: key, suggestions: Suggestions.closest(to: key, in: keys))
            }
            if let reason {
                try database.execute(
                    "UPDATE checklist_items SET untested_reason = ?, marked_by = ?, marked_at = ? WHERE key = ?",
                    .text(reason), .text(author.isEmpty ? "unknown" : author), .text(Timestamp.now()), .text(key))
            } else {
                try database.execute(
                    "UPDATE checklist_items SET untested_reason = NULL, marked_by = NULL, marked_at = NULL WHERE key = ?",
                    .text(key))
            }
        }
    }
}
