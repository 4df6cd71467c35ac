/// A correction: a result or a whole run marked wrong, with who, when and
/// why. The result stays in the store and in every listing, and counts for
/// nothing. Retractions are never edited or removed.
public struct Retraction: Equatable, Sendable {
    public var uuid: String
    public var by: String
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    public var at: String
    public var reason: String
    /// True when the whole run was retracted, not this result alone.
    public var wholeRun: Bool

    public init(uuid: String, by: String, at: String, reason: String, wholeRun: Bool) {
        self.uuid = uuid
        self.by = by
        self.at = at
        self.reason = reason
        self.wholeRun = wholeRun
    }

    /// "retracted by qa on 2026-11-30: logged on the wrong device".
    public var summary: String {
        "retracted by \(by) on \(at.prefix(10)): \(reason)"
    }

    /// For one result: "retracted with its run by qa on 2026-11-30: …" when the run was.
    public var resultSummary: String {
        wholeRun ? "retracted with its run by \(by) on \(at.prefix(10)): \(reason)" : summary
    }
}

/// What `result retract` and `run retract` did, or what `run correct` moved.
public struct RetractionSummary: Equatable, Sendable {
    /// The run or result as people name it: "result 1a2b3c4d (local #12)".
    public var target: String
    /// The results it took out of the evidence (or moved, for a correction).
    public var results: Int
    /// The claims whose evidence changed, by key.
    public var claims: [String]

    /// "Retracted run 1a2b3c4d (3 results); evidence changed for duo.a, duo.b.", from what was done to what.
    public func sentence(_ done: String) -> String {
        done + (claims.isEmpty ? "." : "; evidence changed for " + claims.joined(separator: ", ") + ".")
    }
}
