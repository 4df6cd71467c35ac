import Foundation

/// Adding, editing and relabelling claims. Each call is one IMMEDIATE
/// transaction: it writes everything or nothing.
extension Store {
    @discardableResult
    public func addClaim(_ draft: ClaimDraft, by author: String) throws -> Claim {
        let key = try Validate.key(draft.key)
        let statement = try Validate.nonEmpty(draft.statement, field: "statement")
        let document = try Validate.nonEmpty(draft.document, field: "document")
        let area = try Validate.nonEmpty(draft.area, field: "area")
        let asOf = try draft.asOf.map { try Timestamp.parseDay($0, field: "as-of date") }
        return try database.inTransaction(.immediate) {
            if try database.scalar("SELECT 1 FROM claims WHERE key = ?", .text(key)) != .null {
                throw EvidenceError.alreadyExists(kind: "claim", value: key)
            }
            try database.execute(
                "INSERT INTO claims (key, statement, document, area, label, as_of) VALUES (?, ?, ?, ?, ?, ?)",
                .text(key), .text(statement), .text(document), .text(area), .text(draft.label.rawValue), SQLValue(asOf))
            let id = database.lastInsertRowID
            for reference in draft.sources {
                try linkSource(claimID: id, reference: reference)
            }
            for name in draft.needs {
                try linkCapability(claimID: id, name: name)
            }
            try recordLabel(claimID: id, from: nil, to: draft.label, by: author, reason: "claim added")
            return Claim(
                id: id, key: key, statement: statement, document: document, area: area, label: draft.label, asOf: asOf)
        }
    }

    public func claim(key: String) throws -> Claim {
        let id = try claimID(key: key)
        guard let row = try database.queryFirst(
            "SELECT id, key, statement, document, area, label, as_of FROM claims WHERE id = ?", .integer(id))
        else { throw EvidenceError.notFound(kind: "claim", value: key, suggestions: []) }
        return Claim(
            id: Int64(row.int("id")), key: row.text("key"), statement: row.text("statement"),
            document: row.text("document"), area: row.text("area"),
            label: try Label(parsing: row.text("label")), asOf: row.optionalText("as_of"))
    }

    /// Changes a claim's text fields, sources and needed capabilities.
    public func editClaim(key: String, _ changes: ClaimChanges) throws {
        guard !changes.isEmpty else {
            throw EvidenceError.invalidValue(
                field: "change", value: "(none)",
                expected: "at least one of --statement, --document, --area, --as-of, --source, --remove-source, --needs, --remove-needs")
        }
        let statement = try changes.statement.map { try Validate.nonEmpty($0, field: "statement") }
        let document = try changes.document.map { try Validate.nonEmpty($0, field: "document") }
        let area = try changes.area.map { try Validate.nonEmpty($0, field: "area") }
        let asOf: String?? = try changes.asOf.map { value in try value.map { try Timestamp.parseDay($0, field: "as-of date") } }
        try database.inTransaction(.immediate) {
            let id = try claimID(key: key)
            if let statement {
                try database.execute("UPDATE claims SET statement = ? WHERE id = ?", .text(statement), .integer(id))
            }
            if let document {
                try database.execute("UPDATE claims SET document = ? WHERE id = ?", .text(document), .integer(id))
            }
            if let area {
                try database.execute("UPDATE claims SET area = ? WHERE id = ?", .text(area), .integer(id))
            }
            if let asOf {
                try database.execute("UPDATE claims SET as_of = ? WHERE id = ?", SQLValue(asOf), .integer(id))
            }
            for reference in changes.addSources {
                try linkSource(claimID: id, reference: reference)
            }
            for reference in changes.removeSources {
                let (sourceID, locator) = try resolveSourceReference(reference)
                try database.execute(
                    "DELETE FROM claim_sources WHERE claim_id = ? AND source_id = ? AND locator = ?",
                    .integer(id), .integer(sourceID), .text(locator))
                if database.changes == 0 {
                    throw EvidenceError.notFound(kind: "source of claim '\(key)'", value: reference, suggestions: [])
                }
            }
            for name in changes.addNeeds {
                try linkCapability(claimID: id, name: name)
            }
            for name in changes.removeNeeds {
                let capability = try capabilityID(name: name)
                try database.execute(
                    "DELETE FROM claim_capabilities WHERE claim_id = ? AND capability_id = ?",
                    .integer(id), .integer(capability))
                if database.changes == 0 {
                    throw EvidenceError.notFound(kind: "capability needed by '\(key)'", value: name, suggestions: [])
                }
            }
        }
    }

    /// Changes a claim's label and appends the change, who made it and why, to the history.
    public func relabelClaim(key: String, to label: Label, reason: String, by author: String) throws {
        let reason = try Validate.nonEmpty(reason, field: "reason")
        try database.inTransaction(.immediate) {
            let current = try claim(key: key)
            guard current.label != label else {
                throw EvidenceError.invalidValue(
                    field: "label", value: label.rawValue, expected: "a label other than the current one (\(current.label.rawValue))")
            }
            try database.execute("UPDATE claims SET label = ? WHERE id = ?", .text(label.rawValue), .integer(current.id))
            try recordLabel(claimID: current.id, from: current.label, to: label, by: author, reason: reason)
        }
    }

    // MARK: - Links

    func linkSource(claimID: Int64, reference: String) throws {
        let (sourceID, locator) = try resolveSourceReference(reference)
        try database.execute(
            "INSERT OR IGNORE INTO claim_sources (claim_id, source_id, locator) VALUES (?, ?, ?)",
            .integer(claimID), .integer(sourceID), .text(locator))
    }

    func linkCapability(claimID: Int64, name: String) throws {
        let capability = try capabilityID(name: name)
        try database.execute(
            "INSERT OR IGNORE INTO claim_capabilities (claim_id, capability_id) VALUES (?, ?)",
            .integer(claimID), .integer(capability))
    }

    private func recordLabel(claimID: Int64, from old: Label?, to new: Label, by author: String, reason: String) throws {
        let who = author.trimmingCharacters(in: .whitespaces).isEmpty ? "unknown" : author
        try database.execute(
            "INSERT INTO label_history (claim_id, old_label, new_label, changed_by, changed_at, reason) VALUES (?, ?, ?, ?, ?, ?)",
            .integer(claimID), SQLValue(old?.rawValue), .text(new.rawValue), .text(who), .text(Timestamp.now()),
            .text(reason))
    }
}
