/// A document's checklist with, for each item, whether its claims are verified
/// and, when not, why.
public struct ChecklistReport: Sendable {
    public struct Item: Sendable {
        public var key: String
        public var position: Int
        public var text: String
        public var ticked: Bool
        /// Why it is not ticked: "failing since run …", "untested: …",
        /// "needs a device for standby (…)", "marked untested …"; for an item
        /// ticked by hand, who checked it and what: "checked by hand by …".
        public var why: String?
    }

    /// A claim linked to an item, with what the store derives about it.
    public struct LinkedClaim: Sendable {
        public var key: String
        public var state: VerificationState
        /// The capabilities it needs that a simulator lacks.
        public var deviceNeeds: [String]
        /// For a failing claim: the short name of the run of its first failure after its latest pass.
        public var failingSince: String?

        public init(key: String, state: VerificationState, deviceNeeds: [String], failingSince: String?) {
            self.key = key
            self.state = state
            self.deviceNeeds = deviceNeeds
            self.failingSince = failingSince
        }
    }

    public var document: String
    public var title: String
    public var items: [Item]

    public init(document: String, title: String, items: [Item]) {
        self.document = document
        self.title = title
        self.items = items
    }
}

extension ChecklistReport.Item {
    /// An item judged by its claims and its mark. Claims decide: it is ticked
    /// only when every one is verified. A mark adds to that and hides nothing:
    /// marked untested, it is never ticked, and a failing claim still shows
    /// first; marked checked, it is ticked only when no claim is linked to it,
    /// since evidence outranks a hand check.
    public init(
        key: String, position: Int, text: String, claims: [ChecklistReport.LinkedClaim],
        mark: TextFormat.ChecklistMark? = nil
    ) {
        var notes = claims.isEmpty ? [] : Self.gaps(claims)
        var ticked = notes.isEmpty
        switch mark?.kind {
        case .untested?:
            ticked = false
            notes.append(Self.describe(mark))
        case .checked? where claims.isEmpty:
            ticked = true
            notes = [Self.describe(mark)]
        case .checked?, nil:
            if claims.isEmpty {
                ticked = false
                notes.append("no claim is linked to it and nobody has checked it by hand")
            }
        }
        self.init(
            key: key, position: position, text: text, ticked: ticked,
            why: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    static func describe(_ mark: TextFormat.ChecklistMark?) -> String {
        guard let mark else { return "" }
        let verb = mark.kind == .untested ? "marked untested" : "checked by hand"
        return "\(verb) by \(mark.by) on \(mark.at.prefix(10)): \(mark.reason)"
    }

    /// What keeps an item from being ticked, one phrase per kind of gap,
    /// failures first.
    static func gaps(_ claims: [ChecklistReport.LinkedClaim]) -> [String] {
        var untested: [String] = []
        var needs: [(String, [String])] = []
        var failing: [String] = []
        var stale: [String] = []
        for claim in claims {
            switch claim.state {
            case .verifiedOnDevice, .verifiedInSimulator:
                continue
            case .needsDevice:
                let what = claim.deviceNeeds.isEmpty ? "a capability" : claim.deviceNeeds.joined(separator: ", ")
                if let index = needs.firstIndex(where: { $0.0 == what }) {
                    needs[index].1.append(claim.key)
                } else {
                    needs.append((what, [claim.key]))
                }
            case .failing:
                failing.append("since run \(claim.failingSince ?? "") (\(claim.key))")
            case .stale:
                stale.append(claim.key)
            case .untested:
                untested.append(claim.key)
            }
        }
        var gaps: [String] = []
        if !failing.isEmpty { gaps.append("failing " + failing.joined(separator: "; ")) }
        if !untested.isEmpty { gaps.append("untested: " + untested.joined(separator: ", ")) }
        if !needs.isEmpty {
            gaps.append("needs a device for " + needs.map { "\($0.0) (\($0.1.joined(separator: ", ")))" }.joined(separator: "; "))
        }
        if !stale.isEmpty { gaps.append("stale: " + stale.joined(separator: ", ")) }
        return gaps
    }
}
