import Foundation
import Testing

@testable import EvidenceStore

/// Replays many random sequences of results through a real store and, after
/// every step, checks the derived state against a model of the rules written
/// here in Swift, apart from the SQL: decisive results only, time at the
/// coarser precision then recording order, current environments by build or
/// version, suspect proof after a statement edit, retractions counting for
/// nothing. A failure prints the sequence's seed and step.
@Suite struct StateInvariantTests {
    /// SplitMix64: the same sequences on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let sequences = 40
    static let stepsPerSequence = 50

    /// A claim as the model sees it.
    struct ModelClaim {
        var key: String
        var needs: Set<String>
        var words: String
    }

    /// A lack as the model sees it.
    struct ModelLack {
        var kind: EnvironmentKind
        var model: String
        var toolBuild: String
        var capability: String
    }

    /// One logged result as the model keeps it.
    struct Logged {
        var id: Int64
        var run: Int64
        var runUUID: String
        var claim: String
        var environment: EnvironmentSpec
        var outcome: Outcome
        var checkedAt: String
        var sequence: Int
        var words: String
    }

    /// What a sequence did, to replay it without its retracted results.
    enum Step {
        case log(claim: String, outcome: Outcome, environment: EnvironmentSpec, date: String, index: Int)
        case edit(claim: String, words: String)
        case retractResult(index: Int)
        case retractRun(index: Int)
    }

    // MARK: - The rules, in Swift

    struct Model {
        var claims: [ModelClaim]
        var lacks: [ModelLack]
        var logged: [Logged] = []
        var retractedResults: Set<Int64> = []
        var retractedRuns: Set<Int64> = []

        func counts(_ result: Logged) -> Bool {
            !retractedResults.contains(result.id) && !retractedRuns.contains(result.run)
        }

        /// Environments with a result that counts (every run here has results).
        var countedEnvironments: Set<EnvironmentSpec> {
            Set(logged.filter(counts).map(\.environment))
        }

        static func newer(_ other: EnvironmentSpec, than environment: EnvironmentSpec) -> Bool {
            func part(_ otherBuild: String, _ build: String, _ otherVersion: String, _ version: String) -> Bool {
                if let a = AppleBuild(otherBuild), let b = AppleBuild(build) { return a > b }
                let a = MarketingVersion.order(otherVersion)
                let b = MarketingVersion.order(version)
                return a > b || (a == b && !otherBuild.isEmpty && build.isEmpty)
            }
            return part(other.osBuild, environment.osBuild, other.osVersion, environment.osVersion)
                || part(other.toolBuild, environment.toolBuild, other.toolVersion, environment.toolVersion)
        }

        func isCurrent(_ environment: EnvironmentSpec, among counted: Set<EnvironmentSpec>) -> Bool {
            !counted.contains { other in
                other != environment && other.kind == environment.kind && other.model == environment.model
                    && Self.newer(other, than: environment)
            }
        }

        /// The latest of one claim's decisive results in one environment: the
        /// last day; on it, the last result recorded with a date only, unless
        /// timed results were recorded after it, then the latest of those by
        /// the clock; with no date at all, the last recorded.
        static func latest(_ results: [Logged]) -> Logged? {
            guard let day = results.map({ String($0.checkedAt.prefix(10)) }).max() else { return nil }
            let onDay = results.filter { $0.checkedAt.hasPrefix(day) }
            let dateOnly = onDay.filter { $0.checkedAt.count == 10 }.max { $0.sequence < $1.sequence }
            let timed = onDay.filter { $0.checkedAt.count > 10 && $0.sequence > (dateOnly?.sequence ?? -1) }
            if let last = timed.max(by: { ($0.checkedAt, $0.sequence) < ($1.checkedAt, $1.sequence) }) { return last }
            return dateOnly
        }

        func hasGap(_ claim: ModelClaim, _ environment: EnvironmentSpec) -> Bool {
            lacks.contains { lack in
                claim.needs.contains(lack.capability) && lack.kind == environment.kind && lack.model == environment.model
                    && (lack.toolBuild.isEmpty || lack.toolBuild == environment.toolBuild)
            }
        }

        /// The latest decisive result that counts, per environment.
        func decisive(_ claim: ModelClaim) -> [EnvironmentSpec: Logged] {
            let decisive = logged.filter { $0.claim == claim.key && counts($0) && ($0.outcome == .pass || $0.outcome == .fail) }
            return Dictionary(grouping: decisive, by: \.environment).compactMapValues(Self.latest)
        }

        func state(_ claim: ModelClaim) -> VerificationState {
            let counted = countedEnvironments
            let latest = decisive(claim)
            if latest.contains(where: { isCurrent($0.key, among: counted) && $0.value.outcome == .fail }) { return .failing }
            let usable = latest.filter { !hasGap(claim, $0.key) }
            let verifying = usable.filter {
                isCurrent($0.key, among: counted) && $0.value.outcome == .pass && $0.value.words == claim.words
            }
            if verifying.keys.contains(where: { $0.kind == .device }) { return .verifiedOnDevice }
            if !verifying.isEmpty { return .verifiedInSimulator }
            if !usable.isEmpty { return .stale }
            if lacks.contains(where: { $0.kind == .simulator && claim.needs.contains($0.capability) }) { return .needsDevice }
            return .untested
        }
    }

    // MARK: - Sequences

    static let lacks = [
        ModelLack(kind: .simulator, model: "iPhone Duo", toolBuild: "", capability: "standby"),
        ModelLack(kind: .simulator, model: "iPhone Duo", toolBuild: "27A9275", capability: "app-extension"),
    ]

    /// A store with the claims and lacks the model knows.
    static func makeStore() throws -> (StoreFixture, [ModelClaim]) {
        let fixture = try StoreFixture()
        try fixture.addBasics()
        let store = fixture.store
        try store.addClaim(
            ClaimDraft(
                key: "widgets.gallery", statement: "The widget gallery lists the app's widget.",
                document: "duo-system-surfaces", area: "Widgets", label: .measured, needs: ["app-extension"]), by: "writer")
        try store.addLack(
            LackDraft(
                kind: .simulator, model: "iPhone Duo", toolBuild: "27A9275", capability: "app-extension",
                evidence: .document("duo-system-surfaces")))
        let claims = try store.reader.claimList().map { listing in
            let detail = try store.reader.claimDetail(key: listing.key)
            return ModelClaim(key: listing.key, needs: Set(detail.needs.map(\.capability)), words: detail.claim.statement)
        }
        return (fixture, claims)
    }

    /// Few environments, so that results often meet in one: builds and
    /// versions that make each other stale, with and without builds, two
    /// kinds, two models, and an Xcode build whose simulator lacks a capability.
    static let environments: [EnvironmentSpec] = [
        (EnvironmentKind.simulator, "iPhone Duo", "27.1", "", "27.1", ""),
        (.simulator, "iPhone Duo", "27.1", "24B50", "27.1", "27A9275"),
        (.simulator, "iPhone Duo", "27.1", "24B85", "27.1", "27A9275"),
        (.simulator, "iPhone Duo", "27.1", "24B85", "27.1", "27B100"),
        (.simulator, "iPhone Duo", "27.2", "", "27.1.1", ""),
        (.device, "iPhone Duo", "27.1", "24B85", "27.1", "27A9275"),
        (.device, "iPhone Duo", "27.2", "24C20", "27.1.1", "27B100"),
        (.simulator, "iPad Pro 13", "27.1", "24B50", "27.1", "27B100"),
    ].map {
        EnvironmentSpec(
            kind: $0.0, model: $0.1, osName: "iOS", osVersion: $0.2, osBuild: $0.3, toolName: "Xcode", toolVersion: $0.4,
            toolBuild: $0.5)
    }

    static func randomEnvironment(_ generator: inout Generator) -> EnvironmentSpec {
        // The first four most often: they meet, and the rest make them stale.
        let index = Bool.random(using: &generator)
            ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<environments.count, using: &generator)
        return environments[index]
    }

    static func randomDate(_ generator: inout Generator) -> String {
        let day = String(format: "2026-10-%02d", Int.random(in: 1...3, using: &generator))
        guard Bool.random(using: &generator) else { return day }
        return day + String(
            format: "T%02d:%02d:00Z", Int.random(in: 0...23, using: &generator), Int.random(in: 0...59, using: &generator))
    }

    /// Applies one step to a store and to the model.
    static func apply(_ step: Step, to store: Store, model: inout Model, sequence: inout Int) throws {
        switch step {
        case .log(let claim, let outcome, let environment, let date, _):
            let logged = try store.log(
                Observation(claimKey: claim, outcome: outcome, checkedAt: date), run: .matching(environment, tester: "qa"))
            let words = model.claims.first { $0.key == claim }?.words ?? ""
            sequence += 1
            model.logged.append(Logged(
                id: logged.resultID, run: logged.run.id, runUUID: logged.run.uuid, claim: claim, environment: environment,
                outcome: outcome, checkedAt: date, sequence: sequence, words: words))
        case .edit(let claim, let words):
            try store.editClaim(key: claim, ClaimChanges(statement: words))
            if let index = model.claims.firstIndex(where: { $0.key == claim }) { model.claims[index].words = words }
        case .retractResult(let index):
            let result = model.logged[index]
            try store.retractResult(String(result.id), reason: "random retraction", by: "qa")
            model.retractedResults.insert(result.id)
        case .retractRun(let index):
            let result = model.logged[index]
            try store.retractRun(result.runUUID, reason: "random retraction", by: "qa")
            model.retractedRuns.insert(result.run)
        }
    }

    static func storeStates(_ store: Store) throws -> [String: VerificationState] {
        Dictionary(uniqueKeysWithValues: try store.reader.claimList().map { ($0.key, $0.state) })
    }

    @Test func theDerivedStateFollowsTheRulesAfterEveryStep() throws {
        var steps = 0
        var seen: Set<VerificationState> = []
        var retractions = 0
        var edits = 0
        for seed in 1...Self.sequences {
            var generator = Generator(state: UInt64(seed) &* 7919)
            let (fixture, claims) = try Self.makeStore()
            var model = Model(claims: claims, lacks: Self.lacks)
            var sequence = 0
            var history: [Step] = []
            var wordings = Dictionary(uniqueKeysWithValues: claims.map { ($0.key, [$0.words]) })
            for number in 1...Self.stepsPerSequence {
                let roll = Int.random(in: 0..<100, using: &generator)
                let live = model.logged.indices.filter { model.counts(model.logged[$0]) }
                let step: Step
                if roll < 10, let index = live.randomElement(using: &generator) {
                    step = .retractResult(index: index)
                    retractions += 1
                } else if roll < 14, let index = live.randomElement(using: &generator) {
                    step = .retractRun(index: index)
                    retractions += 1
                } else if roll < 22 {
                    let claim = claims[Int.random(in: 0..<claims.count, using: &generator)].key
                    // Sometimes back to earlier words, which earlier passes proved.
                    let earlier = wordings[claim] ?? []
                    let words =
                        Bool.random(using: &generator) && earlier.count > 1
                        ? earlier[Int.random(in: 0..<earlier.count, using: &generator)]
                        : "Words \(seed).\(number) of \(claim)."
                    wordings[claim, default: []].append(words)
                    step = .edit(claim: claim, words: words)
                    edits += 1
                } else {
                    let outcomes: [Outcome] = [.pass, .pass, .pass, .fail, .fail, .skipped, .blocked, .inconclusive]
                    step = .log(
                        claim: claims[Int.random(in: 0..<claims.count, using: &generator)].key,
                        outcome: outcomes[Int.random(in: 0..<outcomes.count, using: &generator)],
                        environment: Self.randomEnvironment(&generator), date: Self.randomDate(&generator),
                        index: model.logged.count)
                }
                try Self.apply(step, to: fixture.store, model: &model, sequence: &sequence)
                history.append(step)
                steps += 1
                let states = try Self.storeStates(fixture.store)
                for claim in model.claims {
                    let expected = model.state(claim)
                    let actual = states[claim.key]
                    seen.insert(expected)
                    #expect(actual == expected, "sequence \(seed), step \(number): \(claim.key)")
                    try Self.checkInvariants(claim, actual: actual, model: model, context: "sequence \(seed), step \(number)")
                }
            }
            try Self.checkRetractionsChangeNothing(
                history, model: model, claims: claims, original: try Self.storeStates(fixture.store), seed: seed)
        }
        #expect(seen == Set(VerificationState.allCases), "the sequences pass through every state")
        #expect(retractions > 100 && edits > 100)
        print("State invariants: \(Self.sequences) sequences, \(steps) steps, \(retractions) retractions, \(edits) statement edits.")
    }

    /// The invariants, stated directly.
    static func checkInvariants(_ claim: ModelClaim, actual: VerificationState?, model: Model, context: String) throws {
        let counted = model.countedEnvironments
        let latest = model.decisive(claim)
        let currentFail = latest.contains { model.isCurrent($0.key, among: counted) && $0.value.outcome == .fail }
        // Failing exactly when the latest decisive result of a current environment is a fail.
        #expect((actual == .failing) == currentFail, "\(context): \(claim.key) failing")
        if actual?.isVerified == true {
            // Nothing verified while a later decisive fail exists in a current environment.
            #expect(!currentFail, "\(context): \(claim.key) verified over a failure")
        }
        if actual == .verifiedOnDevice {
            // A simulator never yields verified-on-device.
            #expect(latest.contains { $0.key.kind == .device && $0.value.outcome == .pass }, "\(context): \(claim.key)")
        }
    }

    /// A second store that never saw the retracted results, nor the
    /// retractions, ends in the same states.
    static func checkRetractionsChangeNothing(
        _ history: [Step], model: Model, claims: [ModelClaim], original: [String: VerificationState], seed: Int
    ) throws {
        let (fixture, _) = try makeStore()
        var replay = Model(claims: claims, lacks: lacks)
        var sequence = 0
        for step in history {
            switch step {
            case .log(_, _, _, _, let index) where !model.counts(model.logged[index]):
                continue
            case .retractResult, .retractRun:
                continue
            default:
                try apply(step, to: fixture.store, model: &replay, sequence: &sequence)
            }
        }
        #expect(
            try storeStates(fixture.store) == original,
            "sequence \(seed): a store that never had the retracted results reads differently")
    }
}
