/// The rule that says which of a claim's results is the latest, as the
/// store's `decisive_result_order` view applies it to each claim and
/// environment: for what reads several results together outside that view
/// (`compare`'s sides, the latest measurement of a name), so that it orders
/// them exactly as the state does.
///
/// A result's moment is its day, or its time to the second, and the order
/// it was recorded in; an undated result's is when it was recorded, so it is
/// never older than results recorded before it. The latest is on the last
/// day. On it, by time where every result of the day has one, then by
/// recording order; where one has only the date, the day's results cannot be
/// ordered: they are tied, and a fail among them is the latest. Within one
/// run, a fail outweighs a pass at the same moment, whichever was recorded
/// last.
public enum DecisiveOrder {
    public struct Candidate: Equatable, Sendable {
        public var id: Int64
        public var outcome: Outcome
        /// `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`; nil when not recorded.
        public var checkedAt: String?
        /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
        public var recordedAt: String
        public var runID: Int64

        public init(id: Int64, outcome: Outcome, checkedAt: String?, recordedAt: String, runID: Int64) {
            self.id = id
            self.outcome = outcome
            self.checkedAt = checkedAt
            self.recordedAt = recordedAt
            self.runID = runID
        }
    }

    /// The latest of `candidates`; with `failsOutweighPasses`, a pass that
    /// wins gives way to the last fail of its run at its moment.
    public static func latest(_ candidates: [Candidate], failsOutweighPasses: Bool = true) -> Candidate? {
        func recorded(_ a: Candidate, before b: Candidate) -> Bool { (a.recordedAt, a.id) < (b.recordedAt, b.id) }
        func moment(_ candidate: Candidate) -> String { candidate.checkedAt ?? candidate.recordedAt }
        guard let day = candidates.map({ moment($0).prefix(10) }).max() else { return nil }
        let onDay = candidates.filter { moment($0).prefix(10) == day }
        let winner: Candidate?
        if onDay.contains(where: { $0.checkedAt?.utf8.count == 10 }) {
            winner = onDay.max {
                ($0.outcome == .fail ? 1 : 0, moment($0), $0.recordedAt, $0.id) < ($1.outcome == .fail ? 1 : 0, moment($1), $1.recordedAt, $1.id)
            }
        } else {
            winner = onDay.max { (moment($0).prefix(19), $0.recordedAt, $0.id) < (moment($1).prefix(19), $1.recordedAt, $1.id) }
        }
        guard failsOutweighPasses, let found = winner, found.outcome == .pass else { return winner }
        let failures = candidates.filter {
            $0.runID == found.runID && $0.outcome == .fail && $0.checkedAt == found.checkedAt
        }
        return failures.max(by: recorded) ?? found
    }
}
