extension LoggedResult {
    /// The result as `log --format json` prints it: what was logged, where,
    /// whether its outcome was judged, and whether it counts.
    public func json(of observation: Observation) -> JSONValue {
        .object([
            ("claim", .string(observation.claimKey)), ("result", .string(resultUUID)), ("id", .integer(resultID)),
            ("run", .string(run.uuid)), ("new_run", .bool(startedRun)), ("outcome", .string(outcome.rawValue)),
            ("judged", .bool(!observation.outcomeGiven)), ("outside_expected", .array(misses.map(JSONValue.string))),
            ("counts", .bool(notes.isEmpty)), ("notes", .array(notes.map(JSONValue.string))),
        ])
    }

    /// The sentence `log` says: what was logged, as which result, in which run, with what.
    public func sentence(of observation: Observation) -> String {
        var text = "Logged \(outcome.rawValue)" + (observation.outcomeGiven ? "" : " (judged by its expected values)")
            + " for \(observation.claimKey) as " + ResultIdentity.described("result", uuid: resultUUID, local: resultID)
            + " in " + (startedRun ? "new " : "") + run.described
        if !observation.measurements.isEmpty { text += ", " + NumberText.counted(observation.measurements.count, "measurement") }
        if !observation.attachments.isEmpty { text += ", " + NumberText.counted(observation.attachments.count, "attachment") }
        return text + "."
    }
}
