#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Natural keys to row ids for an import, filled as records are read or
/// written, and the writes every version of the text format shares.
final class ImportLookups {
    let writer: StoreWriter
    private var sourceIDs: [String: Int64] = [:]
    private var capabilityIDs: [String: Int64] = [:]
    private var claimIDs: [String: Int64] = [:]
    private var checklistIDs: [String: Int64] = [:]
    private var environmentIDs: [EnvironmentSpec: Int64] = [:]
    /// Claims whose expected values or judged results this import wrote: they are judged again at its end.
    var judging: Set<Int64> = []

    /// The store's real folder, which every attachment path must stay inside.
    let storeFolder: String
    /// The folder's copy of an attached file, by SHA-256.
    let attachedFile: (String) -> String?

    init(writer: StoreWriter, storeFolder: String, attachedFile: @escaping (String) -> String? = { _ in nil }) {
        self.writer = writer
        self.storeFolder = storeFolder
        self.attachedFile = attachedFile
    }

    private func id(
        _ cache: inout [String: Int64], _ key: String, kind: String, _ fields: RecordLocation, field: String,
        lookup: (String) throws -> Int64?
    ) throws -> Int64 {
        if let id = cache[key] { return id }
        guard let id = try lookup(key) else {
            throw fields.error(field, "unknown \(kind) '\(key)' (not in the store, nor earlier in the input)")
        }
        cache[key] = id
        return id
    }

    func sourceID(_ url: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&sourceIDs, url, kind: "source", fields, field: field) { try writer.reader.existingSourceID(url: $0) }
    }

    func capabilityID(_ name: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&capabilityIDs, name, kind: "capability", fields, field: field) {
            try writer.reader.existingCapabilityID(name: $0)
        }
    }

    func claimID(_ key: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&claimIDs, key, kind: "claim", fields, field: field) { try writer.reader.existingClaimID(key: $0) }
    }

    func checklistID(_ document: String, _ fields: RecordLocation, field: String) throws -> Int64 {
        try id(&checklistIDs, document, kind: "checklist", fields, field: field) {
            try writer.reader.checklistID(document: $0)
        }
    }

    func remember(source url: String, id: Int64) { sourceIDs[url] = id }
    func remember(capability name: String, id: Int64) { capabilityIDs[name] = id }
    func remember(claim key: String, id: Int64) { claimIDs[key] = id }
    func remember(checklist document: String, id: Int64) { checklistIDs[document] = id }

    func environmentID(_ spec: EnvironmentSpec) throws -> Int64 {
        if let id = environmentIDs[spec] { return id }
        let id = try writer.environmentID(spec)
        environmentIDs[spec] = id
        return id
    }

    // MARK: - Writes shared by every version

    /// Writes a claim with its links; `existing` says whether it replaces one.
    func writeClaim(_ record: TextFormat.Claim, existing: Bool, _ fields: RecordLocation) throws {
        // References are checked first, so an unknown one is reported before anything is written.
        let sources = try record.sources.map { (try sourceID($0.url, fields, field: "sources"), $0.locator) }
        let needs = try record.needs.map { try capabilityID($0, fields, field: "needs") }
        let id = try writer.upsertClaim(
            key: record.key, statement: record.statement, document: record.document, area: record.area,
            label: try Label(parsing: record.label), asOf: record.asOf, statementRecordedAt: nil, changed: record.changed,
            owner: record.owner)
        claimIDs[record.key] = id
        if existing {
            try writer.unlinkSources(claimID: id)
            try writer.unlinkCapabilities(claimID: id)
            try writer.unlinkSubjects(claimID: id)
        }
        for model in record.models {
            try writer.linkSubject(claimID: id, model: model)
        }
        for (source, locator) in sources {
            try writer.linkSource(claimID: id, sourceID: source, locator: locator)
        }
        for capability in needs {
            try writer.linkCapability(claimID: id, capabilityID: capability)
        }
        if existing { try writer.removeExpectations(claimID: id) }
        for expected in record.expectations {
            try writer.upsertExpectation(claimID: id, expected)
        }
        if existing || !record.expectations.isEmpty { judging.insert(id) }
    }

    func writeLack(_ record: TextFormat.Lack, _ fields: RecordLocation) throws {
        let capability = try capabilityID(record.capability, fields, field: "capability")
        let source = try record.source.map { try sourceID($0, fields, field: "source") }
        try writer.upsertLack(
            kind: record.kind, model: record.model, toolBuild: record.toolBuild, capabilityID: capability,
            status: record.status, sourceID: source, reportedIn: record.reportedIn, note: record.note,
            changed: record.changed)
    }

    /// Writes a checklist item with its links; refuses a position another item holds.
    func writeChecklistItem(_ record: TextFormat.ChecklistItem, existing: Bool, _ fields: RecordLocation) throws {
        let checklist = try checklistID(record.checklist, fields, field: "checklist")
        let claims = try record.claims.map { try claimID($0, fields, field: "claims") }
        // An item of a document's checklist is proved only by that document's claims.
        for (key, id) in zip(record.claims, claims) {
            let document = try writer.reader.claim(id: id).document
            guard document == record.checklist else {
                throw fields.error(
                    "claims",
                    "claim '\(key)' belongs to document '\(document)'; an item of the checklist of '\(record.checklist)' "
                        + "is proved only by claims of that document")
            }
        }
        if let taken = try writer.reader.checklistItem(atPosition: record.position, of: checklist, otherThan: record.key) {
            throw fields.error("position", "position \(record.position) of '\(record.checklist)' is already item '\(taken)'")
        }
        let id = try writer.upsertChecklistItem(
            checklistID: checklist, key: record.key, position: record.position, text: record.text, mark: record.mark,
            changed: record.changed)
        if existing { try writer.unlinkChecklistItem(itemID: id) }
        for claim in claims {
            try writer.linkChecklistItem(itemID: id, claimID: claim)
        }
    }

    func writeDetails(measurements: [TextFormat.Measurement], attachments: [TextFormat.Attachment], resultID: Int64)
        throws
    {
        for measurement in measurements {
            try writer.insertMeasurement(resultID: resultID, measurement)
        }
        for attachment in attachments {
            if case .outside(let target) = AttachmentFile.locate(attachment.path, in: storeFolder) {
                throw EvidenceError.invalidValue(
                    field: "attachment path", value: attachment.path,
                    expected: "a path inside the store's folder; through a symbolic link it leads to \(target)")
            }
            try writer.insertAttachment(
                resultID: resultID, path: attachment.path, sha256: attachment.sha256, size: attachment.size,
                mediaType: attachment.mediaType, withFailure: attachment.withFailure)
            try bring(attachment)
        }
    }

    /// Copies an attached file the folder holds into the store's folder, at
    /// its path, where that path has no file yet; a file there is never
    /// written over (`attachments verify` says when it differs).
    private func bring(_ attachment: TextFormat.Attachment) throws {
        guard case .inside(let destination) = AttachmentFile.locate(attachment.path, in: storeFolder),
            (try? FileSystem.linkStatus(destination)) == nil, let source = attachedFile(attachment.sha256),
            SHA256.hex(ofFile: source) == attachment.sha256
        else { return }
        var file = AttachmentFile(path: attachment.path, sha256: attachment.sha256, size: attachment.size, mediaType: attachment.mediaType)
        file.copiedFrom = source
        try file.keepCopy(in: URL(fileURLWithPath: storeFolder))
    }
}

/// How an import tells what differs between two versions of a record.
enum RecordDifference {
    /// The first field in which two records differ, with both values as JSON.
    static func first(_ a: JSONLine, _ b: JSONLine) -> (String, String, String) {
        let left = (try? JSONReader.parse(Data(a.object.utf8))) ?? .null
        let right = (try? JSONReader.parse(Data(b.object.utf8))) ?? .null
        guard case .object(let leftFields) = left, case .object(let rightFields) = right else {
            return ("record", a.object, b.object)
        }
        var keys = leftFields.map(\.0)
        for key in rightFields.map(\.0) where !keys.contains(key) { keys.append(key) }
        for key in keys {
            let old = left[key].map(Self.show) ?? "(none)"
            let new = right[key].map(Self.show) ?? "(none)"
            if old != new { return (key, old, new) }
        }
        return ("record", a.object, b.object)
    }

    /// A value as a message shows it: a string as it is, anything else as JSON, cut at 200 characters.
    static func show(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = string
        default: text = value.rendered().replacingEvery("\n", with: " ").trimmingWhitespace()
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}
