#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns the fields of one input line into a validated text-format record,
/// with the same rules as the commands that write the store by hand.
extension FieldReader {
    mutating func source() throws -> TextFormat.Source {
        let url = try string("url")
        let record = TextFormat.Source(
            url: try checked("url") { try Validate.url(url) },
            title: try nonEmpty("title"), publisher: try nonEmpty("publisher"),
            kind: try vocabulary("kind", SourceKind.self),
            published: try day("published"), updated: try day("updated"), retrieved: try day("retrieved"),
            changed: try stamp())
        try finish()
        return record
    }

    /// When and by whom a record last changed, where its line says.
    mutating func stamp() throws -> TextFormat.Stamp {
        let at = try optionalTime("changed_at")
        let by = try optionalString("changed_by")
        if let by { _ = try checked("changed_by") { try Validate.nonEmpty(by, field: "changed_by") } }
        return TextFormat.Stamp(at: at, by: by)
    }

    mutating func capability() throws -> TextFormat.Capability {
        let name = try string("name")
        let record = TextFormat.Capability(
            name: try checked("name") { try Validate.capabilityName(name) }, description: try nonEmpty("description"),
            changed: try stamp())
        try finish()
        return record
    }

    /// A claim; version 2 adds when its label was last changed.
    mutating func claim(version: Int = 1) throws -> TextFormat.Claim {
        let key = try string("key")
        var record = TextFormat.Claim(
            key: try checked("key") { try Validate.key(key) }, document: try nonEmpty("document"),
            area: try nonEmpty("area"), label: try vocabulary("label", Label.self),
            labelledAt: version >= 2 ? try optionalTime("labelled_at") : nil, asOf: try day("as_of"),
            statement: try nonEmpty("statement"), sources: [], needs: [])
        for var reference in try objects("sources") {
            let url = try reference.string("url")
            let locator = try reference.optionalString("locator") ?? ""
            if !locator.isEmpty && (!(locator.hasPrefix("#") || locator.hasPrefix("?")) || locator.contains(" ")) {
                throw reference.error("locator", "expected '#anchor' or '?query', found '\(locator)'")
            }
            try reference.finish()
            record.sources.append(TextFormat.SourceReference(url: url, locator: locator))
        }
        record.sources.sort()
        record.needs = try strings("needs").sorted()
        record.models = try models("models")
        record.owner = try optionalString("owner").map { owner in
            try checked("owner") { try Validate.owner(owner) }
        } ?? ""
        for var expected in try objects("expect") {
            let value = ExpectedValue(
                name: try expected.nonEmpty("name"), value: try expected.number("value"),
                unit: try MeasurementUnit(parsing: try expected.vocabulary("unit", MeasurementUnit.self)),
                tolerance: try expected.number("tolerance"),
                bound: try ExpectedValue.Bound(
                    parsing: try expected.optionalString("bound") == nil ? "within" : expected.vocabulary("bound", ExpectedValue.Bound.self)))
            if value.tolerance < 0 { throw expected.error("tolerance", "expected 0 or more") }
            if value.bound != .within && value.tolerance != 0 { throw expected.error("tolerance", "expected 0 for a one-sided value") }
            if record.expectations.contains(where: { $0.name == value.name }) {
                throw expected.error("name", "'\(value.name)' is expected twice")
            }
            try expected.finish()
            record.expectations.append(value)
        }
        record.expectations.sort { $0.name < $1.name }
        record.changed = try stamp()
        try finish()
        return record
    }

    /// A list of device models, each checked as `claim add --model` checks
    /// it, sorted and without repeats.
    private mutating func models(_ key: String) throws -> [String] {
        let given = try strings(key)
        let models = try given.map { model in try checked(key) { try Validate.model(model) } }
        guard Set(models).count == models.count else { throw error(key, "a model is named twice") }
        return models.sorted()
    }

    mutating func lack() throws -> TextFormat.Lack {
        let toolBuild = try optionalString("tool_build") ?? ""
        let model = try nonEmpty("model")
        var record = TextFormat.Lack(
            kind: try vocabulary("kind", EnvironmentKind.self),
            model: model == LackDraft.everyModel ? model : try checked("model") { try Validate.model(model) },
            toolBuild: try checked("tool_build") { try AppleBuild.validated(toolBuild, field: "Xcode build") },
            capability: try string("capability"), source: try optionalString("source"),
            reportedIn: try optionalString("reported_in"), note: try optionalString("note") ?? "")
        record.status = try optionalVocabulary("status", CapabilityStatus.self) ?? CapabilityStatus.lacks.rawValue
        record.changed = try stamp()
        if (record.source == nil) == (record.reportedIn == nil) {
            throw error("source", "give exactly one of 'source' and 'reported_in'")
        }
        try finish()
        return record
    }

    mutating func document() throws -> TextFormat.Document {
        let record = TextFormat.Document(document: try nonEmpty("document"), models: try models("models"))
        try finish()
        return record
    }

    mutating func ingestedFile() throws -> TextFormat.IngestedFile {
        let record = TextFormat.IngestedFile(
            sha256: try digest("sha256"), fileName: try string("file_name"),
            format: try oneOf("format", ["junit", "xcresult"]), testCount: try count("test_count"),
            ingestedAt: try time("ingested_at"))
        try finish()
        return record
    }

    mutating func run() throws -> TextFormat.Run {
        let uuid = try uuid("uuid")
        let startedAt = try startedAt()
        let spec = try environment()
        let ingested = try optionalString("ingested_file")
        let record = TextFormat.Run(
            uuid: uuid, startedAt: startedAt, environment: spec, tester: try optionalString("tester") ?? "",
            note: try optionalString("note") ?? "", ingestedFile: ingested)
        try finish()
        return record
    }

    private mutating func startedAt() throws -> String? {
        let startedAt = try optionalString("started_at")
        return try checked("started_at") { try startedAt.map { try Timestamp.parse($0, field: "date") } }
    }

    private mutating func environment() throws -> EnvironmentSpec {
        guard var environment = try optionalObject("environment") else { throw error("environment", "missing") }
        let osBuild = try environment.optionalString("os_build") ?? ""
        let toolBuild = try environment.optionalString("tool_build") ?? ""
        let spec = EnvironmentSpec(
            kind: EnvironmentKind(rawValue: try environment.vocabulary("kind", EnvironmentKind.self)) ?? .simulator,
            model: try environment.nonEmpty("model"),
            osName: try environment.optionalString("os_name") ?? "",
            osVersion: try environment.optionalString("os_version") ?? "",
            osBuild: try environment.checked("os_build") { try AppleBuild.validated(osBuild, field: "OS build") },
            toolName: try environment.optionalString("tool_name") ?? "",
            toolVersion: try environment.optionalString("tool_version") ?? "",
            toolBuild: try environment.checked("tool_build") { try AppleBuild.validated(toolBuild, field: "Xcode build") })
        try environment.finish()
        return spec
    }

    mutating func result() throws -> TextFormat.Result {
        let checkedAt = try optionalString("checked_at")
        var record = TextFormat.Result(
            run: try string("run"), n: try count("n"), claim: try optionalString("claim"),
            result: try vocabulary("result", Outcome.self), posture: try optionalVocabulary("posture", Posture.self),
            checkedAt: try checked("checked_at") { try checkedAt.map { try Timestamp.parse($0, field: "date") } },
            note: try optionalString("note") ?? "", testID: try optionalString("test_id"),
            duration: try optionalNumber("duration"), message: try optionalString("message"), measurements: [],
            attachments: [])
        if record.n < 1 { throw error("n", "expected a number from 1") }
        (record.measurements, record.attachments) = try details(claim: record.claim, testID: record.testID, duration: record.duration)
        try finish()
        return record
    }

    /// What every result carries beside its outcome: checked, then read.
    private mutating func details(claim: String?, testID: String?, duration: Double?) throws
        -> ([TextFormat.Measurement], [TextFormat.Attachment])
    {
        if claim == nil && testID == nil {
            throw error("claim", "a result needs a claim, or a test_id for an automated test")
        }
        if let duration, duration < 0 { throw error("duration", "expected seconds, 0 or more") }
        var measurements: [TextFormat.Measurement] = []
        var attachments: [TextFormat.Attachment] = []
        for var measurement in try objects("measurements") {
            let unit = try measurement.string("unit")
            guard MeasurementUnit(rawValue: unit) != nil else {
                throw measurement.error("unit", "invalid unit '\(unit)'; expected " + MeasurementUnit.acceptedValues)
            }
            let name = try measurement.nonEmpty("name")
            let value = try measurement.number("value")
            let baseline = try measurement.optionalNumber("baseline")
            if let problem = MeasurementDraft.rangeProblem(value: value, baseline: nil) {
                throw measurement.error("value", problem)
            }
            if let problem = MeasurementDraft.rangeProblem(value: 0, baseline: baseline) {
                throw measurement.error("baseline", problem)
            }
            let samples = try measurement.optionalCount("samples")
            if samples == 0 { throw measurement.error("samples", "expected 1 or more") }
            let deviation = try measurement.optionalNumber("standard_deviation")
            if let deviation, !(deviation >= 0 && deviation.isFinite) {
                throw measurement.error("standard_deviation", "expected a number, 0 or more")
            }
            measurements.append(TextFormat.Measurement(
                name: name, value: value, unit: unit, baseline: baseline,
                posture: try measurement.optionalVocabulary("posture", Posture.self), samples: samples,
                standardDeviation: deviation))
            try measurement.finish()
        }
        for var attachment in try objects("attachments") {
            let path = try attachment.string("path")
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if path.isEmpty || path.hasPrefix("/") || parts.contains("..") || parts.contains("") {
                throw attachment.error("path", "expected a path inside the store's folder, found '\(path)'")
            }
            attachments.append(TextFormat.Attachment(
                path: path, sha256: try attachment.digest("sha256"), size: try attachment.count("size"),
                mediaType: try attachment.string("media_type"), withFailure: try attachment.flag("with_failure")))
            try attachment.finish()
        }
        return (measurements, attachments)
    }

    // MARK: - Version 2

    mutating func statement() throws -> TextFormat.ProvedStatement {
        let record = TextFormat.ProvedStatement(
            claim: try string("claim"), sha256: try digest("sha256"), statement: try nonEmpty("statement"))
        guard SHA256.hex(Data(record.statement.utf8)) == record.sha256 else {
            throw error("sha256", "is not the SHA-256 of the statement")
        }
        try finish()
        return record
    }

    mutating func change() throws -> TextFormat.Change {
        let record = TextFormat.Change(
            uuid: try uuid("change"), claim: try string("claim"), follows: try optionalUUID("follows"),
            oldLabel: try optionalVocabulary("old_label", Label.self), newLabel: try vocabulary("new_label", Label.self),
            changedBy: try nonEmpty("changed_by"), changedAt: try time("changed_at"), reason: try nonEmpty("reason"))
        if record.follows == record.uuid { throw error("follows", "a change cannot follow itself") }
        try finish()
        return record
    }

    /// One line of a run's file, told apart by its first field.
    enum RunFileLine: Sendable {
        case header(TextFormat.RunHeader)
        case result(TextFormat.ResultLine)
        case retraction(TextFormat.RetractionLine)
        case link(TextFormat.LinkLine)
        case unlink(TextFormat.UnlinkLine)
        case correction(TextFormat.CorrectionLine)
    }

    mutating func runFileLine() throws -> RunFileLine {
        switch firstKey {
        case "run": return .header(try runHeader())
        case "result": return .result(try resultLine())
        case "retraction": return .retraction(try retractionLine())
        case "link": return .link(try linkLine())
        case "unlink": return .unlink(try unlinkLine())
        case "correction": return .correction(try correctionLine())
        default:
            throw error(
                firstKey ?? "", "expected a record that starts with 'run', 'result', 'retraction', 'link', 'unlink' or 'correction'")
        }
    }

    mutating func runHeader() throws -> TextFormat.RunHeader {
        let uuid = try uuid("run")
        let startedAt = try startedAt()
        let spec = try environment()
        var ingested: TextFormat.IngestedFile?
        if var file = try optionalObject("ingested_file") {
            ingested = try file.ingestedFile()
        }
        let record = TextFormat.RunHeader(
            uuid: uuid, startedAt: startedAt, environment: spec, tester: try optionalString("tester") ?? "",
            note: try optionalString("note") ?? "", ingestedFile: ingested)
        try finish()
        return record
    }

    mutating func resultLine() throws -> TextFormat.ResultLine {
        let checkedAt = try optionalString("checked_at")
        let recordedAt = try string("recorded_at")
        guard Timestamp.isMicroseconds(recordedAt) else {
            throw error("recorded_at", "expected a UTC time to the microsecond, such as 2026-10-20T14:03:00.000001Z")
        }
        var record = TextFormat.ResultLine(
            uuid: try uuid("result"), claim: try optionalString("claim"), statement: try optionalDigest("statement"),
            result: try vocabulary("outcome", Outcome.self), posture: try optionalVocabulary("posture", Posture.self),
            checkedAt: try checked("checked_at") { try checkedAt.map { try Timestamp.parse($0, field: "date") } },
            recordedAt: recordedAt, note: try optionalString("note") ?? "", testID: try optionalString("test_id"),
            duration: try optionalNumber("duration"), message: try optionalString("message"), measurements: [],
            attachments: [])
        record.judged = try flag("judged")
        if record.judged && record.claim == nil { throw error("judged", "only a claim's result is judged by its expected values") }
        if (record.claim == nil) != (record.statement == nil) {
            throw error("statement", "a result names the SHA-256 of the claim's words it proved, and only with a claim")
        }
        (record.measurements, record.attachments) = try details(claim: record.claim, testID: record.testID, duration: record.duration)
        try finish()
        return record
    }

    mutating func retractionLine() throws -> TextFormat.RetractionLine {
        let record = TextFormat.RetractionLine(
            uuid: try uuid("retraction"), result: try optionalUUID("result"), by: try nonEmpty("by"),
            at: try time("at"), reason: try nonEmpty("reason"))
        try finish()
        return record
    }

    mutating func linkLine() throws -> TextFormat.LinkLine {
        let url = try string("url")
        let record = TextFormat.LinkLine(
            uuid: try uuid("link"), result: try uuid("result"),
            url: try checked("url") { try Validate.url(url, field: "issue URL") }, by: try nonEmpty("by"), at: try time("at"))
        try finish()
        return record
    }

    mutating func unlinkLine() throws -> TextFormat.UnlinkLine {
        let record = TextFormat.UnlinkLine(
            uuid: try uuid("unlink"), link: try uuid("link"), by: try nonEmpty("by"), at: try time("at"),
            reason: try nonEmpty("reason"))
        try finish()
        return record
    }

    mutating func rename() throws -> TextFormat.Rename {
        let uuid = try uuid("rename")
        let from = try string("from")
        let to = try string("to")
        let record = TextFormat.Rename(
            uuid: uuid, from: try checked("from") { try Validate.key(from) }, to: try checked("to") { try Validate.key(to) },
            by: try nonEmpty("by"), at: try time("at"), reason: try optionalString("reason") ?? "")
        if record.from == record.to { throw error("to", "a rename gives the claim another key") }
        try finish()
        return record
    }

    mutating func retirement() throws -> TextFormat.Retirement {
        let uuid = try uuid("retirement")
        let claim = try string("claim")
        let record = TextFormat.Retirement(
            uuid: uuid, claim: try checked("claim") { try Validate.key(claim) },
            action: try RetirementAction(parsing: try vocabulary("action", RetirementAction.self)),
            by: try nonEmpty("by"), at: try time("at"), reason: try optionalString("reason") ?? "")
        try finish()
        return record
    }

    mutating func correctionLine() throws -> TextFormat.CorrectionLine {
        let uuid = try uuid("correction")
        let build = try string("os_build")
        let record = TextFormat.CorrectionLine(
            uuid: uuid, osBuild: try checked("os_build") { try AppleBuild.validated(build, field: "OS build") },
            by: try nonEmpty("by"), at: try time("at"), reason: try nonEmpty("reason"))
        if record.osBuild.isEmpty { throw error("os_build", "a correction names the OS build the run used") }
        try finish()
        return record
    }

    // MARK: - Version 1

    mutating func retraction() throws -> TextFormat.Retraction {
        let record = TextFormat.Retraction(
            uuid: try uuid("uuid"), run: try uuid("run"), n: try optionalCount("n"), by: try nonEmpty("by"),
            at: try time("at"), reason: try nonEmpty("reason"))
        if let n = record.n, n < 1 { throw error("n", "expected a number from 1") }
        try finish()
        return record
    }

    mutating func labelChange() throws -> TextFormat.LabelChange {
        let record = TextFormat.LabelChange(
            claim: try string("claim"), n: try count("n"),
            oldLabel: try optionalVocabulary("old_label", Label.self), newLabel: try vocabulary("new_label", Label.self),
            changedBy: try nonEmpty("changed_by"), changedAt: try time("changed_at"), reason: try nonEmpty("reason"))
        if record.n < 1 { throw error("n", "expected a number from 1") }
        try finish()
        return record
    }

    mutating func checklist() throws -> TextFormat.Checklist {
        let record = TextFormat.Checklist(
            document: try nonEmpty("document"), title: try nonEmpty("title"), changed: try stamp())
        try finish()
        return record
    }

    mutating func checklistItem() throws -> TextFormat.ChecklistItem {
        let key = try string("key")
        var record = TextFormat.ChecklistItem(
            checklist: try string("checklist"), position: try count("position"),
            key: try checked("key") { try Validate.key(key, field: "checklist item key") }, text: try nonEmpty("text"),
            claims: try strings("claims").sorted(), mark: nil)
        if record.position < 1 { throw error("position", "expected a number from 1") }
        for kind in TextFormat.ChecklistMark.Kind.allCases {
            guard var mark = try optionalObject(kind.rawValue) else { continue }
            if record.mark != nil { throw error(kind.rawValue, "an item is marked untested or checked, not both") }
            record.mark = TextFormat.ChecklistMark(
                kind: kind, reason: try mark.nonEmpty("reason"), by: try mark.nonEmpty("by"), at: try mark.time("at"))
            try mark.finish()
        }
        record.changed = try stamp()
        try finish()
        return record
    }

    mutating func testMapping() throws -> TextFormat.TestMapping {
        let record = TextFormat.TestMapping(pattern: try nonEmpty("pattern"), claim: try string("claim"))
        try finish()
        return record
    }

    // MARK: - Field kinds

    mutating func nonEmpty(_ key: String) throws -> String {
        let text = try string(key)
        return try checked(key) { try Validate.nonEmpty(text, field: key) }
    }

    mutating func vocabulary<V: Vocabulary>(_ key: String, _ type: V.Type) throws -> String {
        let text = try string(key)
        guard V(rawValue: text) != nil else {
            throw error(key, "invalid \(V.field) '\(text)'; expected \(V.acceptedValues)")
        }
        return text
    }

    mutating func optionalVocabulary<V: Vocabulary>(_ key: String, _ type: V.Type) throws -> String? {
        guard let text = try optionalString(key) else { return nil }
        guard V(rawValue: text) != nil else {
            throw error(key, "invalid \(V.field) '\(text)'; expected \(V.acceptedValues)")
        }
        return text
    }

    mutating func oneOf(_ key: String, _ values: [String]) throws -> String {
        let text = try string(key)
        guard values.contains(text) else {
            throw error(key, "invalid value '\(text)'; expected one of: " + values.joined(separator: ", "))
        }
        return text
    }

    mutating func day(_ key: String) throws -> String? {
        guard let text = try optionalString(key) else { return nil }
        return try checked(key) { try Timestamp.parseDay(text, field: "date") }
    }

    /// A full timestamp, kept exactly as the store writes it.
    mutating func time(_ key: String) throws -> String {
        try time(key, try string(key))
    }

    private func time(_ key: String, _ text: String) throws -> String {
        let parsed = try checked(key) { try Timestamp.parse(text, field: "time") }
        guard parsed == text, text.count == 20 else {
            throw error(key, "expected a UTC time such as 2026-10-20T14:03:00Z, found '\(text)'")
        }
        return text
    }

    mutating func digest(_ key: String) throws -> String {
        try digest(key, try string(key))
    }

    private func digest(_ key: String, _ text: String) throws -> String {
        var bytes = text
        guard bytes.withUTF8({ $0.count == 64 && $0.allSatisfy(Self.isLowerHex) }) else {
            throw error(key, "expected a SHA-256 as 64 lower-case hex digits, found '\(text)'")
        }
        return text
    }

    /// 0-9 and a-f, as bytes: cheap enough for a million lines.
    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }

    mutating func optionalUUID(_ key: String) throws -> String? {
        try optionalString(key).map { try uuid(key, $0) }
    }

    mutating func optionalDigest(_ key: String) throws -> String? {
        try optionalString(key).map { try digest(key, $0) }
    }

    mutating func optionalTime(_ key: String) throws -> String? {
        try optionalString(key).map { try time(key, $0) }
    }

    mutating func uuid(_ key: String) throws -> String {
        try uuid(key, try string(key))
    }

    private func uuid(_ key: String, _ uuid: String) throws -> String {
        var text = uuid
        let valid = text.withUTF8 { bytes in
            bytes.count == 36
                && bytes.indices.allSatisfy { index in
                    index == 8 || index == 13 || index == 18 || index == 23
                        ? bytes[index] == UInt8(ascii: "-") : Self.isLowerHex(bytes[index])
                }
        }
        guard valid else { throw error(key, "expected a lower-case UUID, found '\(uuid)'") }
        return uuid
    }

    mutating func optionalCount(_ key: String) throws -> Int64? {
        guard let value = try optionalInteger(key) else { return nil }
        guard value >= 0 else { throw error(key, "expected 0 or more, found \(value)") }
        return value
    }

    mutating func count(_ key: String) throws -> Int64 {
        let value = try integer(key)
        guard value >= 0 else { throw error(key, "expected 0 or more, found \(value)") }
        return value
    }
}
