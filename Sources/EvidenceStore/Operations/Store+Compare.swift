import Foundation

extension Store {
    /// What changed from one side to the other, in one read: per claim and per
    /// automated test, regressed, fixed, still failing, newly covered or no
    /// longer covered (a pass on both sides is no line); and each measurement
    /// whose latest value moved, with both values and the delta.
    public func compare(from: ComparisonSide, to: ComparisonSide) throws -> Comparison {
        try read { reader in
            let before = try reader.resolveSide(from)
            let after = try reader.resolveSide(to)
            var rows: [ComparisonRow] = []
            for subject in ComparisonSubject.allCases {
                let old = try reader.sideOutcomes(before, subject: subject)
                let new = try reader.sideOutcomes(after, subject: subject)
                for name in Set(old.keys).union(new.keys).sorted() {
                    guard let change = ComparisonChange.between(old[name]?.outcome, new[name]?.outcome) else { continue }
                    rows.append(ComparisonRow(
                        subject: subject, name: name, change: change, from: old[name]?.outcome.rawValue,
                        to: new[name]?.outcome.rawValue, delta: nil, unit: nil, fromEnvironment: old[name]?.environment,
                        toEnvironment: new[name]?.environment))
                }
            }
            let old = try reader.sideMeasurements(before)
            let new = try reader.sideMeasurements(after)
            for key in Set(old.keys).intersection(new.keys).sorted() {
                guard let was = old[key], let now = new[key], was.value != now.value || was.unit != now.unit else { continue }
                rows.append(ComparisonRow(
                    subject: key.subject, name: key.label, change: .moved, from: NumberText.format(was.value),
                    to: NumberText.format(now.value), delta: was.unit == now.unit ? now.value - was.value : nil,
                    unit: was.unit == now.unit ? now.unit : was.unit + " → " + now.unit, fromEnvironment: was.environment,
                    toEnvironment: now.environment))
            }
            let order = Dictionary(uniqueKeysWithValues: ComparisonChange.allCases.enumerated().map { ($1, $0) })
            rows.sort {
                (order[$0.change] ?? 0, $0.subject.rawValue, $0.name) < (order[$1.change] ?? 0, $1.subject.rawValue, $1.name)
            }
            return Comparison(from: before.label, to: after.label, rows: rows)
        }
    }
}
