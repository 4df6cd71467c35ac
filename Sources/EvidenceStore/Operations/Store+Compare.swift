#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

extension Store {
    /// What changed from one side to the other, in one read: per claim and per
    /// automated test, on each kind of environment (a model's devices and
    /// simulators each with their own lines), regressed, fixed, still failing,
    /// newly covered or no longer covered (a pass on both sides is no line);
    /// and each measurement whose latest value moved, with both values and
    /// the delta.
    public func compare(from: ComparisonSide, to: ComparisonSide) throws -> Comparison {
        try read { reader in
            let before = try reader.resolveSide(from)
            let after = try reader.resolveSide(to)
            var rows: [ComparisonRow] = []
            for subject in ComparisonSubject.allCases {
                let old = try reader.sideOutcomes(before, subject: subject)
                let new = try reader.sideOutcomes(after, subject: subject)
                for key in Set(old.keys).union(new.keys).sorted() {
                    guard let change = ComparisonChange.between(old[key]?.outcome, new[key]?.outcome) else { continue }
                    rows.append(ComparisonRow(
                        subject: subject, name: key.name, kind: key.kind, change: change, from: old[key]?.outcome.rawValue,
                        to: new[key]?.outcome.rawValue, delta: nil, unit: nil, fromEnvironment: old[key]?.environment,
                        toEnvironment: new[key]?.environment))
                }
            }
            let old = try reader.sideMeasurements(before)
            let new = try reader.sideMeasurements(after)
            for key in Set(old.keys).intersection(new.keys).sorted() {
                guard let was = old[key], let now = new[key], was.value != now.value || was.unit != now.unit else { continue }
                rows.append(ComparisonRow(
                    subject: key.subject, name: key.label, kind: key.kind, change: .moved, from: NumberText.format(was.value),
                    to: NumberText.format(now.value), delta: was.unit == now.unit ? now.value - was.value : nil,
                    unit: was.unit == now.unit ? now.unit : was.unit + " → " + now.unit, fromEnvironment: was.environment,
                    toEnvironment: now.environment))
            }
            // A claim failing on the later side names the issues known to track it.
            let known = try reader.failureLinks()
            for index in rows.indices where rows[index].subject == .claim && rows[index].to == Outcome.fail.rawValue {
                rows[index].known = known[rows[index].name].map { $0.joined(separator: ", ") }
            }
            let order = Dictionary(uniqueKeysWithValues: ComparisonChange.allCases.enumerated().map { ($1, $0) })
            rows.sort {
                (order[$0.change] ?? 0, $0.subject.rawValue, $0.name, $0.kind.rawValue)
                    < (order[$1.change] ?? 0, $1.subject.rawValue, $1.name, $1.kind.rawValue)
            }
            return Comparison(from: before.label, to: after.label, rows: rows)
        }
    }
}
