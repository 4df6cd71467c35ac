/// The rule that says which of a claim's results is the latest, as the
/// store's `decisive_result_order` view applies it to each claim and
/// environment: for what reads several results together outside that view
/// (`compare`'s sides, the latest measurement of a name), so that it orders
/// them exactly as the state does.
///
/// A result's moment is its day, or its time to the second, and the order
/// it was recorded in. The latest is on the last day; on it, the last result
/// recorded with a date only, unless results with a time were recorded after
/// it, then the latest of those by the clock (then by recording); results
/// with no date are older than any dated one, and among themselves the last
/// recorded is the latest. Within one run, a fail outweighs a pass at the
/// same moment, whichever was recorded last.
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
        let dated = candidates.filter { $0.checkedAt != nil }
        let winner: Candidate?
        if let day = dated.compactMap({ $0.checkedAt?.prefix(10) }).max() {
            let onDay = dated.filter { $0.checkedAt?.prefix(10) == day }
            let dateOnly = onDay.filter { $0.checkedAt?.utf8.count == 10 }.max(by: recorded)
            let timed = onDay.filter { candidate in
                candidate.checkedAt?.utf8.count != 10 && dateOnly.map { recorded($0, before: candidate) } ?? true
            }
            winner = timed.max { ($0.checkedAt ?? "", $0.recordedAt, $0.id) < ($1.checkedAt ?? "", $1.recordedAt, $1.id) }
                ?? dateOnly
        } else {
            winner = candidates.max(by: recorded)
        }
        guard failsOutweighPasses, let found = winner, found.outcome == .pass else { return winner }
        let failures = candidates.filter {
            $0.runID == found.runID && $0.outcome == .fail && $0.checkedAt == found.checkedAt
        }
        return failures.max(by: recorded) ?? found
    }
}
