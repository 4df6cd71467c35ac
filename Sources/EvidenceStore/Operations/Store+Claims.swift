#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Adding, editing and relabelling claims, sources, capabilities and lacks.
/// Each call validates its values (Model) and then writes in one IMMEDIATE
/// transaction: everything or nothing.
extension Store {
    /// A day given for a claim or a source (as of, published, updated,
    /// retrieved): a valid date, and not after today.
    func pastDay(_ text: String, field: String) throws -> String {
        let day = try Timestamp.parseDay(text, field: field)
        try clock.futureLimit().check(day, field: field)
        return day
    }

    @discardableResult
    public func addClaim(_ draft: ClaimDraft, by author: String) throws -> Claim {
        let key = try Validate.key(draft.key)
        let statement = try Validate.prose(draft.statement, field: "statement")
        let document = try Validate.name(draft.document, field: "document")
        let area = try Validate.name(draft.area, field: "area")
        let asOf = try draft.asOf.map { try pastDay($0, field: "as-of date") }
        // `--model none` speaks about any model, whatever its document's default.
        let anyModel = draft.models.contains { $0.trimmingWhitespace().lowercased() == "none" }
        if anyModel, draft.models.count > 1 {
            throw EvidenceError.invalidValue(
                field: "model", value: draft.models.joined(separator: ", "), expected: "'none' alone (any model), or models")
        }
        let models = anyModel ? [] : try Self.distinct(draft.models.map(Validate.model))
        let owner = draft.owner.isEmpty ? "" : try Validate.owner(draft.owner)
        return try write { writer in
            if try writer.reader.existingClaimID(key: key) != nil {
                throw EvidenceError.alreadyExists(kind: "claim", value: key)
            }
            try Self.checkDocument(document, newDocument: draft.newDocument, reader: writer.reader)
            try Self.checkModels(models, newModel: draft.newModel, reader: writer.reader)
            let id = try writer.upsertClaim(
                key: key, statement: statement, document: document, area: area, label: draft.label, asOf: asOf,
                statementRecordedAt: clock.timestamp(), changed: stamp(by: author), owner: owner)
            for reference in draft.sources {
                let (sourceID, locator) = try writer.reader.resolveSourceReference(reference)
                try writer.linkSource(claimID: id, sourceID: sourceID, locator: locator)
            }
            for name in draft.needs {
                try writer.linkCapability(claimID: id, capabilityID: try writer.reader.capabilityID(name: name))
            }
            for model in models.isEmpty && !anyModel ? try writer.reader.documentSubjects(document) : models {
                try writer.linkSubject(claimID: id, model: model)
            }
            try writer.insertLabelChange(
                uuid: ResultIdentity.newUUID(), claimID: id, follows: nil, from: nil, to: draft.label.rawValue,
                by: Self.author(author), at: clock.timestamp(), reason: "claim added")
            return Claim(
                id: id, key: key, statement: statement, document: document, area: area, label: draft.label, asOf: asOf)
        }
    }

    /// Refuses a document name one typo (or only case) away from an existing one.
    static func checkDocument(_ document: String, newDocument: Bool, reader: StoreReader) throws {
        guard !newDocument, let known = Suggestions.nearMiss(document, in: try reader.documents()) else { return }
        throw EvidenceError.refused(
            reason: "unknown document '\(document)'; did you mean '\(known)'? "
                + "Give --new-document to start a document named '\(document)'")
    }

    /// Refuses a model one typo away from a known one, unless it is meant as new.
    static func checkModels(_ models: [String], newModel: Bool, reader: StoreReader) throws {
        guard !newModel, !models.isEmpty else { return }
        let vetting = try reader.environmentVetting()
        for model in models { try vetting.checkModel(model, option: "--new-model") }
    }

    /// The values in their first order, each once.
    static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// Sets the models a document's new claims speak about when `claim add`
    /// names none (and `lint --sync` adds them); returns the document's
    /// defaults afterwards.
    @discardableResult
    public func setDocumentSubjects(document: String, add: [String], remove: [String], newModel: Bool = false) throws
        -> [String]
    {
        let document = try Validate.name(document, field: "document")
        let added = try Self.distinct(add.map(Validate.model))
        let removed = try Self.distinct(remove.map(Validate.model))
        return try write { writer in
            let reader = writer.reader
            var models = try reader.documentSubjects(document)
            if models.isEmpty, !(try reader.documents().contains(document)) {
                try Self.checkDocument(document, newDocument: false, reader: reader)
            }
            try Self.checkModels(added, newModel: newModel, reader: reader)
            for model in removed {
                guard let index = models.firstIndex(of: model) else {
                    throw EvidenceError.notFound(kind: "default model of document '\(document)'", value: model, suggestions: models)
                }
                models.remove(at: index)
            }
            models = Self.distinct(models + added).sorted()
            try writer.setDocumentSubjects(TextFormat.Document(document: document, models: models))
            return models
        }
    }

    /// Changes a claim's text fields, sources and needed capabilities. When
    /// the words change, passes of the earlier words no longer prove it: the
    /// result says which runs those were.
    @discardableResult
    public func editClaim(key: String, _ changes: ClaimChanges, by author: String = "unknown") throws -> ClaimEdit {
        guard !changes.isEmpty else {
            throw EvidenceError.invalidValue(
                field: "change", value: "(none)",
                expected: "at least one of --statement, --document, --area, --as-of, --source, --remove-source, --needs, "
                    + "--remove-needs, --model, --remove-model, --owner, --no-owner")
        }
        let statement = try changes.statement.map { try Validate.prose($0, field: "statement") }
        let document = try changes.document.map { try Validate.name($0, field: "document") }
        let area = try changes.area.map { try Validate.name($0, field: "area") }
        let asOf: String?? = try changes.asOf.map { value in try value.map { try pastDay($0, field: "as-of date") } }
        let addModels = try Self.distinct(changes.addModels.map(Validate.model))
        let removeModels = try Self.distinct(changes.removeModels.map(Validate.model))
        let owner = try changes.owner.map { $0.isEmpty ? "" : try Validate.owner($0) }
        return try write { writer in
            let current = try writer.reader.claim(key: key)
            let id = current.id
            var edit = ClaimEdit()
            if let document, document != current.document {
                try Self.checkDocument(document, newDocument: changes.newDocument, reader: writer.reader)
            }
            if let statement, statement != current.statement {
                edit.statementChanged = true
                edit.earlierProof = try writer.reader.passingRuns(ofClaim: id)
            }
            if statement != nil || document != nil || area != nil || asOf != nil || owner != nil {
                try writer.upsertClaim(
                    key: current.key, statement: statement ?? current.statement, document: document ?? current.document,
                    area: area ?? current.area, label: current.label, asOf: asOf ?? current.asOf,
                    statementRecordedAt: clock.timestamp(), changed: stamp(by: author), owner: owner)
            }
            try writer.touchClaim(id, stamp(by: author))
            for reference in changes.addSources {
                let (sourceID, locator) = try writer.reader.resolveSourceReference(reference)
                try writer.linkSource(claimID: id, sourceID: sourceID, locator: locator)
            }
            for reference in changes.removeSources {
                let (sourceID, locator) = try writer.reader.resolveSourceReference(reference)
                if try writer.unlinkSources(claimID: id, sourceID: sourceID, locator: locator) == 0 {
                    throw EvidenceError.notFound(kind: "source of claim '\(key)'", value: reference, suggestions: [])
                }
            }
            for name in changes.addNeeds {
                try writer.linkCapability(claimID: id, capabilityID: try writer.reader.capabilityID(name: name))
            }
            for name in changes.removeNeeds {
                let capability = try writer.reader.capabilityID(name: name)
                if try writer.unlinkCapabilities(claimID: id, capabilityID: capability) == 0 {
                    throw EvidenceError.notFound(kind: "capability needed by '\(key)'", value: name, suggestions: [])
                }
            }
            try Self.checkModels(addModels, newModel: changes.newModel, reader: writer.reader)
            for model in removeModels where try writer.unlinkSubjects(claimID: id, model: model) == 0 {
                throw EvidenceError.notFound(
                    kind: "model claim '\(key)' speaks about", value: model,
                    suggestions: try writer.reader.claimSubjects(ofClaim: id))
            }
            for model in addModels {
                try writer.linkSubject(claimID: id, model: model)
            }
            return edit
        }
    }

    /// Changes a claim's label and appends the change, who made it and why, to the history.
    public func relabelClaim(key: String, to label: Label, reason: String, by author: String) throws {
        let reason = try Validate.prose(reason, field: "reason")
        try write { writer in
            let current = try writer.reader.claim(key: key)
            guard current.label != label else {
                throw EvidenceError.invalidValue(
                    field: "label", value: label.rawValue,
                    expected: "a label other than the current one (\(current.label.rawValue))")
            }
            try writer.upsertClaim(
                key: current.key, statement: current.statement, document: current.document, area: current.area,
                label: label, asOf: current.asOf, statementRecordedAt: clock.timestamp(), changed: stamp(by: author))
            try writer.insertLabelChange(
                uuid: ResultIdentity.newUUID(), claimID: current.id,
                follows: try writer.reader.latestLabelChange(ofClaim: current.id)?.id, from: current.label.rawValue,
                to: label.rawValue, by: Self.author(author), at: clock.timestamp(), reason: reason)
        }
    }

    /// Gives a claim another key. Its results, label history, earlier words,
    /// checklist items and test mappings follow; the rename is kept (who,
    /// when, why) and travels, so records that still name the old key
    /// import to the claim. Refused where a claim has the new key, or had
    /// it and was renamed since (records naming it go to that claim).
    public func renameClaim(_ from: String, to newKey: String, reason: String, by author: String) throws {
        let to = try Validate.key(newKey, field: "new key")
        try write { writer in
            let reader = writer.reader
            let id = try reader.claimID(key: from)
            if try reader.existingClaimID(key: to) != nil {
                throw EvidenceError.refused(reason: "a claim '\(to)' exists already; give another key")
            }
            // A key this claim had before may come back; another claim's may not.
            if let holder = try reader.claimRenames()[to], holder != from {
                throw EvidenceError.refused(
                    reason: "'\(to)' was the key of claim '\(holder)' before it was renamed, and records that name it go to "
                        + "that claim; give another key")
            }
            try writer.changeClaimKey(claimID: id, from: from, to: to)
            try writer.insertRename(
                TextFormat.Rename(
                    uuid: ResultIdentity.newUUID(), from: from, to: to, by: Self.author(author), at: clock.timestamp(),
                    reason: reason.trimmingWhitespace()),
                claimID: id)
        }
    }

    /// Retires a claim (`action` .retire): it leaves every list, report,
    /// checklist and count, and keeps its results and history; or brings a
    /// retired one back (.restore). The record is only ever added and
    /// travels; a claim's latest record (by time, then UUID) says which holds.
    public func retireClaim(_ key: String, _ action: RetirementAction, reason: String, by author: String) throws {
        let reason = reason.trimmingWhitespace()
        if action == .retire, reason.isEmpty {
            throw EvidenceError.refused(reason: "give --reason: why the claim is retired, such as \"dropped from the guide\"")
        }
        try write { writer in
            let id = try writer.reader.claimID(key: key)
            var latest: TextFormat.Retirement?
            try writer.reader.retirementRecords(claim: id) { latest = $0 }
            switch (action, latest?.action) {
            case (.retire, .retire?):
                throw EvidenceError.refused(
                    reason: "claim '\(key)' is retired already (by \(latest?.by ?? ""), \(latest?.at ?? "")); "
                        + "'evidence claim restore \(key)' brings it back")
            case (.restore, nil), (.restore, .restore?):
                throw EvidenceError.refused(reason: "claim '\(key)' is not retired")
            default:
                break
            }
            // The new record sorts last: never before the latest (a teammate's
            // clock may run ahead), and after it by UUID within one second.
            let at = max(clock.timestamp(), latest?.at ?? "")
            var uuid = ResultIdentity.newUUID()
            if let latest, latest.at == at, uuid <= latest.uuid {
                guard let after = ResultIdentity.uuid(after: latest.uuid) else {
                    throw EvidenceError.refused(
                        reason: "claim '\(key)' was retired or brought back in this very second (record \(latest.uuid)); "
                            + "give it a second and try again")
                }
                uuid = after
            }
            try writer.insertRetirement(
                TextFormat.Retirement(uuid: uuid, claim: key, action: action, by: Self.author(author), at: at, reason: reason),
                claimID: id)
        }
    }

    /// Who a change is recorded as: the name given, or "unknown".
    static func author(_ name: String) -> String {
        name.trimmingWhitespace().isEmpty ? "unknown" : name
    }

    /// A change made now, by `author`.
    func stamp(by author: String) -> TextFormat.Stamp {
        TextFormat.Stamp(at: clock.timestamp(), by: Self.author(author))
    }

    // MARK: - Sources, capabilities, lacks

    public func addSource(_ draft: SourceDraft, by author: String = "unknown") throws {
        let url = try Validate.url(draft.url)
        var record = TextFormat.Source(
            url: url, title: try Validate.name(draft.title, field: "title"),
            publisher: try Validate.name(draft.publisher, field: "publisher"), kind: draft.kind.rawValue,
            published: try draft.published.map { try pastDay($0, field: "published date") },
            updated: try draft.updated.map { try pastDay($0, field: "updated date") },
            retrieved: try draft.retrieved.map { try pastDay($0, field: "retrieved date") })
        record.changed = stamp(by: author)
        try write { writer in
            if try writer.reader.existingSourceID(url: url) != nil {
                throw EvidenceError.alreadyExists(kind: "source", value: url)
            }
            try writer.upsertSource(record)
        }
    }

    public func addCapability(name: String, description: String, by author: String = "unknown") throws {
        let record = TextFormat.Capability(
            name: try Validate.capabilityName(name), description: try Validate.prose(description, field: "description"),
            changed: stamp(by: author))
        try write { writer in
            if try writer.reader.existingCapabilityID(name: record.name) != nil {
                throw EvidenceError.alreadyExists(kind: "capability", value: record.name)
            }
            try writer.upsertCapability(record)
        }
    }

    /// Records that environments of a kind and model (or every model of the
    /// kind) lack, or have, a capability from an Xcode build on.
    public func addLack(_ draft: LackDraft, by author: String = "unknown") throws {
        let model = draft.model == LackDraft.everyModel ? draft.model : try Validate.model(draft.model)
        let toolBuild = try AppleBuild.validated(draft.toolBuild, field: "Xcode build")
        _ = try Validate.freeText(draft.note, field: "note")
        try write { writer in
            if !draft.newModel, model != LackDraft.everyModel {
                try writer.reader.environmentVetting().checkModel(model, option: "--new-model")
            }
            let capability = try writer.reader.capabilityID(name: draft.capability)
            var citedSource: Int64?
            var document: String?
            switch draft.evidence {
            case .source(let url): citedSource = try writer.reader.sourceID(url: url)
            case .document(let name): document = try Validate.name(name, field: "document")
            }
            if let status = try writer.reader.lackStatus(
                kind: draft.kind, model: model, toolBuild: toolBuild, capabilityID: capability)
            {
                let scope = toolBuild.isEmpty ? "" : " from Xcode build \(toolBuild)"
                var recorded = draft
                recorded.model = model
                throw EvidenceError.alreadyExists(
                    kind: "capability record", value: "\(recorded.subject)\(scope) \(status) \(draft.capability)")
            }
            try writer.upsertLack(
                kind: draft.kind.rawValue, model: model, toolBuild: toolBuild, capabilityID: capability,
                status: draft.status.rawValue, sourceID: citedSource, reportedIn: document, note: draft.note,
                changed: stamp(by: author))
        }
    }

    // MARK: - Expected values

    /// Records what a claim's measurement must be, replacing what it was.
    public func expect(_ expected: ExpectedValue, ofClaim key: String, by author: String = "unknown") throws {
        let name = try Validate.name(expected.name, field: "measurement name")
        guard MeasurementDraft.inRange(expected.value), MeasurementDraft.inRange(expected.tolerance), expected.tolerance >= 0 else {
            throw EvidenceError.invalidValue(field: "expected value", value: expected.summary, expected: ExpectedValue.form)
        }
        var checked = expected
        checked.name = name
        try write { writer in
            let claim = try writer.reader.claimID(key: key)
            try writer.upsertExpectation(claimID: claim, checked)
            try writer.touchClaim(claim, stamp(by: author))
            try Self.rejudge(claimID: claim, writer: writer)
        }
    }

    /// Drops the expected value of a measurement.
    public func removeExpectation(named name: String, ofClaim key: String, by author: String = "unknown") throws {
        try write { writer in
            let claim = try writer.reader.claimID(key: key)
            if try writer.removeExpectations(claimID: claim, name: name) == 0 {
                throw EvidenceError.notFound(
                    kind: "expected value of \(key)", value: name,
                    suggestions: try writer.reader.expectations(ofClaim: claim).map(\.name))
            }
            try writer.touchClaim(claim, stamp(by: author))
            try Self.rejudge(claimID: claim, writer: writer)
        }
    }

    // MARK: - Test mappings and checklist marks

    public func addMapping(pattern: String, claimKey: String) throws {
        let pattern = try Validate.name(pattern, field: "pattern")
        try write { writer in
            let claim = try writer.reader.claimID(key: claimKey)
            guard try writer.insertMapping(pattern: pattern, claimID: claim) else {
                throw EvidenceError.alreadyExists(kind: "mapping", value: "\(pattern) → \(claimKey)")
            }
        }
    }

    /// Removes a rule; without a claim, every rule with the pattern.
    public func removeMapping(pattern: String, claimKey: String?) throws {
        try write { writer in
            let claim = try claimKey.map { try writer.reader.claimID(key: $0) }
            if try writer.deleteMappings(pattern: pattern, claimID: claim) == 0 {
                throw EvidenceError.notFound(
                    kind: "mapping", value: pattern + (claimKey.map { " → \($0)" } ?? ""),
                    suggestions: Suggestions.closest(to: pattern, in: try writer.reader.mappingPatterns()))
            }
        }
    }

    /// Marks a checklist item untested on purpose or checked by hand, or clears
    /// the mark (kind nil). Checked is only for an item no claim is linked to:
    /// where claims are linked, their evidence decides.
    public func markChecklistItem(
        key: String, as kind: TextFormat.ChecklistMark.Kind?, reason: String?, by author: String
    ) throws {
        let reason = try reason.map { try Validate.prose($0, field: "reason") }
        if (kind == nil) != (reason == nil) {
            throw EvidenceError.invalidValue(
                field: "reason", value: reason ?? "", expected: kind == nil ? "no reason when clearing a mark" : "a reason")
        }
        try write { writer in
            var found: TextFormat.ChecklistItem?
            try writer.reader.checklistItemRecords(key: key) { found = $0 }
            guard let item = found, let checklist = try writer.reader.checklistID(document: item.checklist) else {
                throw EvidenceError.notFound(
                    kind: "checklist item", value: key,
                    suggestions: Suggestions.closest(to: key, in: try writer.reader.checklistItemKeys()))
            }
            if kind == .checked, !item.claims.isEmpty {
                throw EvidenceError.refused(
                    reason: "checklist item '\(key)' is linked to \(item.claims.joined(separator: ", ")); "
                        + "their evidence decides it. Mark an item checked by hand only when no claim can prove it")
            }
            var mark: TextFormat.ChecklistMark?
            if let kind, let reason {
                mark = TextFormat.ChecklistMark(
                    kind: kind, reason: reason, by: Self.author(author), at: clock.timestamp())
            }
            try writer.upsertChecklistItem(
                checklistID: checklist, key: item.key, position: item.position, text: item.text, mark: mark,
                changed: stamp(by: author))
        }
    }
}
