#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Plain text and JSON for the `show` commands. Text is for a terminal: every
/// value is flattened to one line, so nothing in the data can fake a heading.
public enum DetailRenderer {
    // MARK: - Claims

    public static func text(_ detail: ClaimDetail) -> String {
        let claim = detail.claim
        var out = flat(claim.key) + "\n"
        var fields: [(String, String)] = []
        if let retired = detail.retired {
            fields.append((
                "retired",
                "\(retired.at) by \(retired.by): \(retired.reason) (out of every list and report; "
                    + "'evidence claim restore \(claim.key)' brings it back)"))
        }
        fields += [
            ("statement", claim.statement), ("document", claim.document), ("area", claim.area),
            ("label", claim.label.rawValue + (claim.asOf.map { " (as of \($0))" } ?? "")),
            ("models", detail.models.isEmpty ? "any model" : detail.models.joined(separator: ", ")),
        ]
        if !detail.owner.isEmpty { fields.append(("owner", detail.owner)) }
        fields.append(("state", "\(detail.state): \(detail.reason)"))
        for expected in detail.expectations {
            fields.append(("expects", "\(expected.name) = \(expected.summary)"))
        }
        for flaky in detail.flaky {
            fields.append(("flaky", flaky))
        }
        if !detail.checklistItems.isEmpty {
            fields.append(("checklist", detail.checklistItems.joined(separator: ", ")))
        }
        out += aligned(fields)
        out += section("Sources", detail.sources.map { "\($0.title) (\($0.publisher), \($0.kind)) <\($0.fullURL)>" })
        out += section("Needs", detail.needs.map { need in
            ([need.capability] + need.lackedBy.map { "  lacked by " + $0 }).joined(separator: "\n")
        })
        out += resultsSection(detail.results, claimKeys: nil)
        out += section("Label history", detail.history.map { change in
            "\(change.changedAt)  \(change.changedBy)  \(change.oldLabel ?? "(new)") → \(change.newLabel): \(change.reason)"
        })
        out += section("Keys", detail.renames.map { rename in
            "\(rename.at)  \(rename.by)  \(rename.from) → \(rename.to)" + (rename.reason.isEmpty ? "" : ": " + rename.reason)
        })
        out += section("Retirements", detail.retirements.map { record in
            "\(record.at)  \(record.by)  \(record.action == .retire ? "retired" : "brought back")"
                + (record.reason.isEmpty ? "" : ": " + record.reason)
        })
        return out
    }

    public static func json(_ detail: ClaimDetail) -> JSONValue {
        let claim = detail.claim
        return .object([
            ("key", .string(claim.key)), ("statement", .string(claim.statement)), ("document", .string(claim.document)),
            ("area", .string(claim.area)), ("label", .string(claim.label.rawValue)), ("as_of", JSONValue(claim.asOf)),
            ("models", .array(detail.models.map(JSONValue.string))), ("owner", detail.owner.isEmpty ? .null : .string(detail.owner)),
            ("state", .string(detail.state)), ("reason", .string(detail.reason)),
            ("flaky", .array(detail.flaky.map(JSONValue.string))),
            ("expected_values", .array(detail.expectations.map { expected in
                .object([
                    ("name", .string(expected.name)), ("value", .number(expected.value)), ("unit", .string(expected.unit.rawValue)),
                    ("tolerance", .number(expected.tolerance)), ("bound", .string(expected.bound.rawValue)),
                ])
            })),
            ("sources", .array(detail.sources.map { source in
                .object([
                    ("url", .string(source.url)), ("locator", .string(source.locator)), ("title", .string(source.title)),
                    ("publisher", .string(source.publisher)), ("kind", .string(source.kind)),
                ])
            })),
            ("needs", .array(detail.needs.map { need in
                .object([("capability", .string(need.capability)), ("lacked_by", .array(need.lackedBy.map(JSONValue.string)))])
            })),
            ("results", .array(detail.results.map { resultJSON($0, claimKey: nil) })),
            ("label_history", .array(detail.history.map { change in
                .object([
                    ("old_label", JSONValue(change.oldLabel)), ("new_label", .string(change.newLabel)),
                    ("changed_by", .string(change.changedBy)), ("changed_at", .string(change.changedAt)),
                    ("reason", .string(change.reason)),
                ])
            })),
            ("checklist_items", .array(detail.checklistItems.map(JSONValue.string))),
            ("renames", .array(detail.renames.map { rename in
                .object([
                    ("from", .string(rename.from)), ("to", .string(rename.to)), ("by", .string(rename.by)), ("at", .string(rename.at)),
                    ("reason", .string(rename.reason)),
                ])
            })),
            ("retired", .bool(detail.retired != nil)),
            ("retirements", .array(detail.retirements.map { record in
                .object([
                    ("action", .string(record.action.rawValue)), ("by", .string(record.by)), ("at", .string(record.at)),
                    ("reason", .string(record.reason)),
                ])
            })),
        ])
    }

    // MARK: - Runs

    public static func text(_ detail: RunDetail) -> String {
        var out = detail.run.described + "\n"
        var fields: [(String, String)] = [
            ("uuid", detail.run.uuid), ("started", detail.run.startedAt ?? "(not recorded)"), ("environment", detail.environment),
            ("tester", detail.run.tester.isEmpty ? "(not recorded)" : detail.run.tester),
        ]
        if !detail.run.note.isEmpty { fields.append(("note", detail.run.note)) }
        if let file = detail.sourceFile { fields.append(("ingested from", file)) }
        if let retraction = detail.retraction {
            fields.append(("RETRACTED", "by \(retraction.by) at \(retraction.at): \(retraction.reason)"))
        }
        for correction in detail.corrections {
            fields.append((
                "corrected",
                "OS build \(correction.osBuild) (recorded: \(detail.recordedOSBuild.isEmpty ? "none" : detail.recordedOSBuild)) "
                    + "by \(correction.by) at \(correction.at): \(correction.reason)"
            ))
        }
        out += aligned(fields)
        out += resultsSection(detail.results, claimKeys: detail.claimKeys)
        return out
    }

    public static func json(_ detail: RunDetail) -> JSONValue {
        .object([
            ("id", .integer(detail.run.id)), ("uuid", .string(detail.run.uuid)),
            ("started_at", JSONValue(detail.run.startedAt)), ("environment", .string(detail.environment)),
            ("tester", .string(detail.run.tester)), ("note", .string(detail.run.note)),
            ("ingested_from", JSONValue(detail.sourceFile)),
            ("retracted", retractionJSON(detail.retraction)),
            ("recorded_os_build", .string(detail.recordedOSBuild)),
            ("corrections", .array(detail.corrections.map {
                .object([("os_build", .string($0.osBuild)), ("by", .string($0.by)), ("at", .string($0.at)), ("reason", .string($0.reason))])
            })),
            ("results", .array(detail.results.map { resultJSON($0, claimKey: detail.claimKeys[$0.resultID]) })),
        ])
    }

    // MARK: - Sources

    public static func text(_ detail: SourceDetail) -> String {
        var out = flat(detail.url) + "\n"
        var fields: [(String, String)] = [
            ("title", detail.title), ("publisher", detail.publisher), ("kind", detail.kind),
        ]
        if let date = detail.published { fields.append(("published", date)) }
        if let date = detail.updated { fields.append(("updated", date)) }
        if let date = detail.retrieved { fields.append(("retrieved", date)) }
        out += aligned(fields)
        out += section("Cited by", detail.citations.map { $0.0 + ($0.1.isEmpty ? "" : " at \($0.1)") })
        out += section("Says", detail.lacks)
        return out
    }

    public static func json(_ detail: SourceDetail) -> JSONValue {
        .object([
            ("url", .string(detail.url)), ("title", .string(detail.title)), ("publisher", .string(detail.publisher)),
            ("kind", .string(detail.kind)), ("published", JSONValue(detail.published)),
            ("updated", JSONValue(detail.updated)), ("retrieved", JSONValue(detail.retrieved)),
            ("cited_by", .array(detail.citations.map { .object([("claim", .string($0.0)), ("locator", .string($0.1))]) })),
            ("lacks", .array(detail.lacks.map(JSONValue.string))),
        ])
    }

    // MARK: - Pieces

    private static func resultsSection(_ results: [ClaimDetail.ResultEntry], claimKeys: [Int64: String]?) -> String {
        section("Results", results.map { entry in
            var line = ResultIdentity.shortName(entry.resultUUID) + " (#\(entry.resultID))  \(entry.checkedAt ?? "(no date)")  "
                + entry.outcome
            if entry.retraction != nil { line += " (RETRACTED)" }
            if entry.onOtherModel { line += " (on other models: not counted)" }
            if let lacking = entry.lacking { line += " (does not count: the environment lacks \(lacking))" }
            if let posture = entry.posture { line += "  \(posture)" }
            if let claimKeys {
                line += "  " + (claimKeys[entry.resultID] ?? "(no claim)")
                if let test = entry.testID { line += "  test \(test)" }
            } else {
                line += "  on \(entry.environment), run \(entry.runUUID.prefix(8))"
                if !entry.tester.isEmpty { line += " by \(entry.tester)" }
                if let test = entry.testID { line += ", test \(test)" }
            }
            var lines = [flat(line)]
            if let retraction = entry.retraction { lines.append("    " + flat(retraction.resultSummary)) }
            if entry.ofEarlierWords { lines.append("    logged against earlier words of the claim") }
            if !entry.note.isEmpty { lines.append("    note: " + flat(entry.note)) }
            if let message = entry.message, !message.isEmpty { lines.append("    message: " + flat(message)) }
            lines += entry.measurements.map { "    measured: " + flat($0) }
            lines += entry.attachments.map { "    attached: " + flat($0) }
            lines += entry.issues.map { "    issue: " + flat($0) }
            return lines.joined(separator: "\n")
        })
    }

    private static func resultJSON(_ entry: ClaimDetail.ResultEntry, claimKey: String?) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if claimKey != nil || entry.testID != nil { fields.append(("claim", JSONValue(claimKey))) }
        fields += [
            ("id", .integer(entry.resultID)), ("uuid", .string(entry.resultUUID)),
            ("run", .string(entry.runUUID)), ("environment", .string(entry.environment)), ("tester", .string(entry.tester)),
            ("checked_at", JSONValue(entry.checkedAt)), ("result", .string(entry.outcome)),
            ("posture", JSONValue(entry.posture)), ("note", .string(entry.note)), ("test_id", JSONValue(entry.testID)),
            ("duration", JSONValue(entry.duration)), ("message", JSONValue(entry.message)),
            ("measurements", .array(entry.measurements.map(JSONValue.string))),
            ("attachments", .array(entry.attachments.map(JSONValue.string))),
            ("issues", .array(entry.issues.map(JSONValue.string))),
            ("of_earlier_words", .bool(entry.ofEarlierWords)),
            ("on_other_model", .bool(entry.onOtherModel)),
            ("lacks", JSONValue(entry.lacking)),
            ("retracted", retractionJSON(entry.retraction)),
        ]
        return .object(fields)
    }

    private static func retractionJSON(_ retraction: Retraction?) -> JSONValue {
        guard let retraction else { return .null }
        return .object([
            ("uuid", .string(retraction.uuid)), ("by", .string(retraction.by)), ("at", .string(retraction.at)),
            ("reason", .string(retraction.reason)), ("with_run", .bool(retraction.wholeRun)),
        ])
    }

    private static func aligned(_ fields: [(String, String)]) -> String {
        let width = (fields.map(\.0.count).max() ?? 0) + 1
        return fields.map { "  " + ($0.0 + ":").padded(to: width) + " " + flat($0.1) + "\n" }
            .joined()
    }

    private static func section(_ title: String, _ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        return "\n" + title + "\n" + lines.map { line in
            line.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        }.joined(separator: "\n") + "\n"
    }

    private static func flat(_ text: String) -> String {
        TableRenderer.flatten(text)
    }
}
