import Foundation
import Testing

@testable import EvidenceStore

/// Replays many random sequences of results through a real store and, after
/// every step, checks the derived state against a model of the rules written
/// here in Swift, apart from the SQL: decisive results only, time at the
/// coarser precision then recording order, current environments by build or
/// version, suspect proof after a statement edit, retractions counting for
/// nothing, results only on a claim's models, capability records that carry
/// forward from their Xcode build, and the newest decisive result deciding
/// when no current environment has one, a fail outweighing a pass of its run
/// at the same moment, and results judged by expected values as they are
/// now. New Xcode builds, missing builds, other models, capability records,
/// subject edits, dates in the future, two tests of one claim in one run and
/// expectation changes are among the random steps; each sequence ends with
/// an export to a second store that diverges, and its export imported back.
/// A failure prints the sequence's seed and step.
@Suite struct StateInvariantTests {
    /// The same sequences on every run.
    typealias Generator = SplitMix64

    static let sequences = 40
    static let stepsPerSequence = 50

    /// A claim as the model sees it.
    struct ModelClaim {
        var key: String
        var needs: Set<String>
        var words: String
        /// The models it speaks about; empty for any.
        var subjects: Set<String>
    }

    /// A capability record as the model sees it: `model` "*" for every model,
    /// `toolBuild` "" for from the first build.
    struct ModelRecord: Hashable {
        var kind: EnvironmentKind
        var model: String
        var toolBuild: String
        var capability: String
        var lacks: Bool
    }

    /// One logged result as the model keeps it.
    struct Logged {
        var id: Int64
        var uuid: String
        var run: Int64
        var runUUID: String
        var claim: String
        var environment: EnvironmentSpec
        var outcome: Outcome
        /// "" for a result with no date (as an import or the seed can bring).
        var checkedAt: String
        var sequence: Int
        var words: String
        /// Logged without a verdict: the value measured, which the claim's
        /// expected value as it is now judges.
        var judgedValue: Double? = nil
        /// When the store recorded it: an undated result's moment.
        var recordedAt = ""

        /// Its moment: when it was checked, else when it was recorded.
        var moment: String { checkedAt.isEmpty ? recordedAt : checkedAt }
    }

    /// An expected value of the measurement `offset` (pt).
    struct Expectation {
        var value: Double
        var tolerance: Double
    }

    /// What a sequence did, to replay it without its retracted results.
    enum Step {
        case log(claim: String, outcome: Outcome, environment: EnvironmentSpec, date: String, index: Int)
        case edit(claim: String, words: String)
        case retractResult(index: Int)
        case retractRun(index: Int)
        case record(ModelRecord)
        case subject(claim: String, model: String, add: Bool)
        /// A date in the future: refused, nothing written.
        case future(claim: String, environment: EnvironmentSpec, date: String)
        /// Two tests of one claim in one run at one moment: a pass and a fail.
        case pair(claim: String, environment: EnvironmentSpec, date: String, failFirst: Bool, index: Int)
        /// A result without a verdict, judged by the expected value.
        case judged(claim: String, environment: EnvironmentSpec, date: String, value: Double, index: Int)
        case expect(claim: String, Expectation?)
        /// A result with no date, as an import or the seed brings one.
        case undated(claim: String, outcome: Outcome, environment: EnvironmentSpec, index: Int)
        /// An xcresulttool file of two devices whose names share a prefix
        /// ("iPhone Duo" and "iPhone Duo Max"): the test ran on one of them,
        /// named by its "Device" node alone.
        case ingested(claim: String, outcome: Outcome, onMax: Bool, date: String, index: Int)
    }

    // MARK: - The rules, in Swift

    struct Model {
        var claims: [ModelClaim]
        var records: [ModelRecord]
        var logged: [Logged] = []
        /// By UUID: numbers are each store's own.
        var retractedResults: Set<String> = []
        var retractedRuns: Set<String> = []
        /// Every environment a result was ever logged on (the store keeps them all).
        var environments: Set<EnvironmentSpec> = []
        var expectations: [String: Expectation] = [:]

        /// A result's outcome as it counts now: a judged one's by the expected value.
        func outcome(_ result: Logged) -> Outcome {
            guard let value = result.judgedValue else { return result.outcome }
            guard let expected = expectations[result.claim] else { return .inconclusive }
            return abs(value - expected.value) <= expected.tolerance * (1 + 1e-12) + 1e-9 ? .pass : .fail
        }

        func counts(_ result: Logged) -> Bool {
            !retractedResults.contains(result.uuid) && !retractedRuns.contains(result.runUUID)
        }

        /// Environments with a result that counts (every run here has results).
        var countedEnvironments: Set<EnvironmentSpec> {
            Set(logged.filter(counts).map(\.environment))
        }

        /// Builds as Apple numbers them; a missing one before any.
        static func buildLess(_ a: String, _ b: String) -> Bool {
            switch (AppleBuild(a), AppleBuild(b)) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return x < y
            }
        }

        /// Whether `other` is newer: by build where both have one, else by
        /// version, a recorded build newer than a missing one at the same
        /// version, except a simulator's OS build at the same Xcode build
        /// (one runtime per OS version: the same one).
        static func newer(_ other: EnvironmentSpec, than environment: EnvironmentSpec) -> Bool {
            func part(_ otherBuild: String, _ build: String, _ otherVersion: String, _ version: String, sameRuntime: Bool) -> Bool {
                if let a = AppleBuild(otherBuild), let b = AppleBuild(build) { return a > b }
                let a = MarketingVersion.order(otherVersion)
                let b = MarketingVersion.order(version)
                return a > b || (a == b && !otherBuild.isEmpty && build.isEmpty && !sameRuntime)
            }
            let sameRuntime = environment.kind == .simulator && !environment.toolBuild.isEmpty
                && other.toolBuild == environment.toolBuild
            return part(other.osBuild, environment.osBuild, other.osVersion, environment.osVersion, sameRuntime: sameRuntime)
                || part(other.toolBuild, environment.toolBuild, other.toolVersion, environment.toolVersion, sameRuntime: false)
        }

        func isCurrent(_ environment: EnvironmentSpec, among counted: Set<EnvironmentSpec>) -> Bool {
            !counted.contains { other in
                other != environment && other.kind == environment.kind && other.model == environment.model
                    && Self.newer(other, than: environment)
            }
        }

        /// The latest of one claim's decisive results in one environment: the
        /// last day (an undated result's is when it was recorded); on it, by
        /// time when every result of the day has one, then by recording
        /// order; when one has only the date, the day's results are tied and
        /// a fail among them decides. Within one run, a fail outweighs a pass
        /// at the same moment, whichever came last.
        static func latest(_ results: [Logged]) -> Logged? {
            // Called with outcomes as they count now (see `decisive`).
            guard let day = results.map({ String($0.moment.prefix(10)) }).max() else { return nil }
            let onDay = results.filter { $0.moment.hasPrefix(day) }
            let tied = onDay.contains { $0.checkedAt.count == 10 }
            let found = tied
                ? onDay.max { ($0.outcome == .fail ? 1 : 0, $0.moment, $0.sequence) < ($1.outcome == .fail ? 1 : 0, $1.moment, $1.sequence) }
                : onDay.max { ($0.moment.prefix(19), $0.sequence) < ($1.moment.prefix(19), $1.sequence) }
            guard let winner = found, winner.outcome == .pass else { return found }
            let failures = results.filter {
                $0.runUUID == winner.runUUID && $0.outcome == .fail && $0.checkedAt == winner.checkedAt
            }
            return failures.max { $0.sequence < $1.sequence } ?? winner
        }

        /// The records of a capability for a kind and model, or every model of the kind.
        func records(_ capability: String, kind: EnvironmentKind, model: String) -> [ModelRecord] {
            records.filter { $0.capability == capability && $0.kind == kind && ($0.model == model || $0.model == "*") }
        }

        /// Whether record `a` comes before `b`: by build, and on one build the
        /// record for every model before the model's own (which then decides).
        static func recordLess(_ a: ModelRecord, _ b: ModelRecord) -> Bool {
            if a.toolBuild != b.toolBuild { return buildLess(a.toolBuild, b.toolBuild) }
            return a.model == "*" && b.model != "*"
        }

        /// Whether an environment lacks a capability: the newest record at or
        /// before its Xcode build decides; before the first, the first; with
        /// no build, any record that says it lacks it.
        func lacks(_ environment: EnvironmentSpec, _ capability: String) -> Bool {
            let found = records(capability, kind: environment.kind, model: environment.model)
            guard !found.isEmpty else { return false }
            if environment.toolBuild.isEmpty { return found.contains(where: \.lacks) }
            let before = found.filter { !Self.buildLess(environment.toolBuild, $0.toolBuild) }
            if let decider = before.max(by: Self.recordLess) { return decider.lacks }
            let first = found.min { a, b in
                a.toolBuild != b.toolBuild ? Self.buildLess(a.toolBuild, b.toolBuild) : (a.model != "*" && b.model == "*")
            }
            return first?.lacks ?? false
        }

        func hasGap(_ claim: ModelClaim, _ environment: EnvironmentSpec) -> Bool {
            claim.needs.contains { lacks(environment, $0) }
        }

        func speaksAbout(_ claim: ModelClaim, _ model: String) -> Bool {
            claim.subjects.isEmpty || claim.subjects.contains(model)
        }

        /// Whether the simulator of one of the claim's models (any model, for
        /// a claim with none) lacks a capability it needs as of the newest record.
        func needsDevice(_ claim: ModelClaim) -> Bool {
            var models = claim.subjects
            if models.isEmpty {
                models = Set(records.filter { $0.kind == .simulator }.map(\.model))
                    .union(environments.filter { $0.kind == .simulator }.map(\.model))
                    .union(claims.flatMap(\.subjects))
            }
            return claim.needs.contains { capability in
                models.contains { model in
                    records(capability, kind: .simulator, model: model).max(by: Self.recordLess)?.lacks ?? false
                }
            }
        }

        /// The latest decisive result that counts, per environment of the claim's models.
        func decisive(_ claim: ModelClaim) -> [EnvironmentSpec: Logged] {
            let decisive = logged.map { result -> Logged in
                var now = result
                now.outcome = outcome(result)
                return now
            }.filter {
                $0.claim == claim.key && counts($0) && ($0.outcome == .pass || $0.outcome == .fail)
                    && speaksAbout(claim, $0.environment.model)
            }
            // Where the environment lacks a capability the claim needs, a pass
            // never counts: it neither decides nor hides, and the latest fail decides.
            var counting: [EnvironmentSpec: Logged] = [:]
            for (environment, results) in Dictionary(grouping: decisive, by: \.environment) {
                counting[environment] = hasGap(claim, environment)
                    ? results.filter { $0.outcome == .fail }.max { ($0.moment, $0.sequence) < ($1.moment, $1.sequence) }
                    : Self.latest(results)
            }
            return counting
        }

        /// Whether `a` is newer than `b` by build (OS version, OS build, Xcode
        /// version, Xcode build), then by day, then by recording order.
        static func newerEvidence(_ a: Logged, _ b: Logged) -> Bool {
            let x = a.environment
            let y = b.environment
            let (xv, yv) = (MarketingVersion.order(x.osVersion), MarketingVersion.order(y.osVersion))
            if xv != yv { return xv > yv }
            if x.osBuild != y.osBuild { return buildLess(y.osBuild, x.osBuild) }
            let (xt, yt) = (MarketingVersion.order(x.toolVersion), MarketingVersion.order(y.toolVersion))
            if xt != yt { return xt > yt }
            if x.toolBuild != y.toolBuild { return buildLess(y.toolBuild, x.toolBuild) }
            let (xd, yd) = (a.moment.prefix(10), b.moment.prefix(10))
            if xd != yd { return xd > yd }
            return a.sequence > b.sequence
        }

        func state(_ claim: ModelClaim) -> VerificationState {
            let counted = countedEnvironments
            let latest = decisive(claim)
            if latest.contains(where: { isCurrent($0.key, among: counted) && $0.value.outcome == .fail }) { return .failing }
            let currentPasses = latest.filter {
                isCurrent($0.key, among: counted) && $0.value.outcome == .pass && !hasGap(claim, $0.key)
            }
            let verifying = currentPasses.filter { $0.value.words == claim.words }
            if verifying.keys.contains(where: { $0.kind == .device }) { return .verifiedOnDevice }
            if !verifying.isEmpty { return .verifiedInSimulator }
            if !currentPasses.isEmpty { return .stale }
            let candidates = latest.values.filter { $0.outcome == .fail || !hasGap(claim, $0.environment) }
            if let newest = candidates.max(by: { Self.newerEvidence($1, $0) }) {
                return newest.outcome == .fail ? .failing : .stale
            }
            return needsDevice(claim) ? .needsDevice : .untested
        }
    }

    // MARK: - Sequences

    /// What `StoreFixture.addBasics` and `makeStore` record.
    static let records = [
        ModelRecord(kind: .simulator, model: "iPhone Duo", toolBuild: "", capability: "standby", lacks: true),
        ModelRecord(kind: .simulator, model: "iPhone Duo", toolBuild: "27A9275", capability: "app-extension", lacks: true),
    ]

    /// The JSON of `xcrun xcresulttool get test-results tests` for one test
    /// that maps to `claim` and ran on `device`, one of two devices whose
    /// names share a prefix; its "Device" node names it, with no identifier.
    static func xcresultFile(claim: String, outcome: Outcome, device: String, test: Int) -> String {
        """
        {"devices": [
          {"deviceId": "A1", "deviceName": "iPhone Duo", "modelName": "iPhone Duo", "osVersion": "27.1", "osBuildNumber": "24B85", "platform": "iOS Simulator"},
          {"deviceId": "B2", "deviceName": "iPhone Duo Max", "modelName": "iPhone Duo Max", "osVersion": "27.1", "osBuildNumber": "24B85", "platform": "iOS Simulator"}],
         "testNodes": [{"name": "Checks", "nodeType": "Test Suite", "result": "\(outcome == .pass ? "Passed" : "Failed")", "children": [
           {"name": "test\(test)()", "nodeIdentifier": "Checks/test\(test)()", "nodeType": "Test Case", "tags": ["claim:\(claim)"],
            "result": "\(outcome == .pass ? "Passed" : "Failed")", "children": [
             {"name": "\(device)", "nodeType": "Device", "result": "\(outcome == .pass ? "Passed" : "Failed")"}]}]}]}
        """
    }

    /// A store with the claims and records the model knows.
    static func makeStore() throws -> (StoreFixture, [ModelClaim]) {
        let fixture = try StoreFixture()
        try fixture.addBasics()
        let store = fixture.store
        try store.addClaim(
            ClaimDraft(
                key: "widgets.gallery", statement: "The widget gallery lists the app's widget.",
                document: "duo-system-surfaces", area: "Widgets", label: .measured, needs: ["app-extension"],
                models: ["iPhone Duo"]), by: "writer")
        try store.editClaim(key: "standby.either-display", ClaimChanges(addModels: ["iPhone Duo"]))
        try store.addLack(
            LackDraft(
                kind: .simulator, model: "iPhone Duo", toolBuild: "27A9275", capability: "app-extension",
                evidence: .document("duo-system-surfaces")))
        let claims = try store.reader.claimList().map { listing in
            let detail = try store.reader.claimDetail(key: listing.key)
            return ModelClaim(
                key: listing.key, needs: Set(detail.needs.map(\.capability)), words: detail.claim.statement,
                subjects: Set(detail.models))
        }
        return (fixture, claims)
    }

    /// Few environments, so that results often meet in one: builds and
    /// versions that make each other stale, with and without builds, two
    /// kinds, three models, Xcode builds before, at and after the records.
    static let environments: [EnvironmentSpec] = [
        (EnvironmentKind.simulator, "iPhone Duo", "27.1", "", "27.1", ""),
        (.simulator, "iPhone Duo", "27.1", "24B50", "27.1", "27A9275"),
        (.simulator, "iPhone Duo", "27.1", "24B85", "27.1", "27A9275"),
        // The same Xcode build with no OS build: the same runtime as the two above.
        (.simulator, "iPhone Duo", "27.1", "", "27.1", "27A9275"),
        (.simulator, "iPhone Duo", "27.1", "24B85", "27.1", "27B100"),
        (.simulator, "iPhone Duo", "27.2", "", "27.1.1", ""),
        (.simulator, "iPhone Duo", "27.2", "24C40", "27.2", "27B40"),
        (.simulator, "iPhone Duo", "27.0", "24A300", "27.0", "27A100"),
        (.simulator, "iPhone Duo", "27.3", "24D10", "27.3", "27C10"),
        (.device, "iPhone Duo", "27.1", "24B85", "27.1", "27A9275"),
        (.device, "iPhone Duo", "27.2", "24C20", "27.1.1", "27B100"),
        (.device, "iPhone Duo", "27.3", "24D10", "27.3", ""),
        (.simulator, "iPad Pro 13", "27.1", "24B50", "27.1", "27B100"),
        (.simulator, "iPhone 18 Pro Max", "27.2", "24C40", "27.2", "27B40"),
        (.simulator, "iPhone 18 Pro Max", "27.1", "", "27.1", ""),
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

    /// A record the store does not hold yet, or nil.
    static func randomRecord(_ generator: inout Generator, model: Model) -> ModelRecord? {
        let record = ModelRecord(
            kind: Int.random(in: 0..<5, using: &generator) == 0 ? .device : .simulator,
            model: ["iPhone Duo", "iPhone Duo", "*", "iPhone 18 Pro Max"].randomElement(using: &generator) ?? "*",
            toolBuild: ["", "27A100", "27A9275", "27B40", "27C10"].randomElement(using: &generator) ?? "",
            capability: ["standby", "app-extension"].randomElement(using: &generator) ?? "standby",
            lacks: Bool.random(using: &generator))
        let taken = model.records.contains {
            $0.kind == record.kind && $0.model == record.model && $0.toolBuild == record.toolBuild
                && $0.capability == record.capability
        }
        return taken ? nil : record
    }

    /// Applies one step to a store and to the model.
    static func apply(_ step: Step, to store: Store, model: inout Model, sequence: inout Int) throws {
        func record(_ logged: LoggedResult, _ claim: String, _ outcome: Outcome, _ environment: EnvironmentSpec, _ date: String) {
            sequence += 1
            model.environments.insert(environment)
            model.logged.append(Logged(
                id: logged.resultID, uuid: logged.resultUUID, run: logged.run.id, runUUID: logged.run.uuid, claim: claim,
                environment: environment,
                outcome: outcome, checkedAt: date, sequence: sequence, words: model.claims.first { $0.key == claim }?.words ?? ""))
        }
        switch step {
        case .future(let claim, let environment, let date):
            #expect(throws: EvidenceError.self) {
                try store.log(
                    Observation(claimKey: claim, outcome: .pass, checkedAt: date),
                    run: .matching(environment, tester: "qa", newModel: true))
            }
        case .pair(let claim, let environment, let date, let failFirst, _):
            for outcome in failFirst ? [Outcome.fail, .pass] : [.pass, .fail] {
                let logged = try store.log(
                    Observation(claimKey: claim, outcome: outcome, checkedAt: date),
                    run: .matching(environment, tester: "qa", newModel: true))
                record(logged, claim, outcome, environment, date)
            }
        case .judged(let claim, let environment, let date, let value, _):
            var observation = Observation(
                claimKey: claim, outcome: .pass, measurements: [MeasurementDraft(name: "offset", value: value, unit: .pt)],
                checkedAt: date)
            observation.outcomeGiven = false
            let logged = try store.log(observation, run: .matching(environment, tester: "qa", newModel: true))
            record(logged, claim, logged.outcome, environment, date)
            model.logged[model.logged.count - 1].judgedValue = value
        case .expect(let claim, let expectation?):
            try store.expect(
                ExpectedValue(name: "offset", value: expectation.value, unit: .pt, tolerance: expectation.tolerance), ofClaim: claim)
            model.expectations[claim] = expectation
        case .expect(let claim, nil):
            try store.removeExpectation(named: "offset", ofClaim: claim)
            model.expectations[claim] = nil
        case .log(let claim, let outcome, let environment, let date, _):
            let logged = try store.log(
                Observation(claimKey: claim, outcome: outcome, checkedAt: date),
                run: .matching(environment, tester: "qa", newModel: true))
            let words = model.claims.first { $0.key == claim }?.words ?? ""
            sequence += 1
            model.environments.insert(environment)
            model.logged.append(Logged(
                id: logged.resultID, uuid: logged.resultUUID, run: logged.run.id, runUUID: logged.run.uuid, claim: claim,
                environment: environment,
                outcome: outcome, checkedAt: date, sequence: sequence, words: words))
        case .undated(let claim, let outcome, let environment, _):
            let logged = try store.log(
                Observation(claimKey: claim, outcome: outcome, checkedAt: "2026-10-01"),
                run: .matching(environment, tester: "qa", newModel: true))
            try store.database.execute("UPDATE results SET checked_at = NULL WHERE id = ?", [.integer(logged.resultID)])
            record(logged, claim, outcome, environment, "")
            model.logged[model.logged.count - 1].recordedAt =
                try store.database.scalar("SELECT recorded_at FROM results WHERE id = ?", [.integer(logged.resultID)]).string ?? ""
        case .ingested(let claim, let outcome, let onMax, let date, let index):
            let environment = EnvironmentSpec(
                kind: .simulator, model: onMax ? "iPhone Duo Max" : "iPhone Duo", osName: "iOS", osVersion: "27.1",
                osBuild: "24B85", toolName: "Xcode", toolVersion: "27.1", toolBuild: "27A9275")
            let file = store.folder.appendingPathComponent("ingested-\(index).json").path
            try Data(xcresultFile(claim: claim, outcome: outcome, device: environment.model, test: index).utf8)
                .write(to: URL(fileURLWithPath: file))
            var options = IngestOptions(xcodeVersion: "27.1", xcodeBuild: "27A9275", tester: "ci", date: date)
            options.format = .xcresult
            let summary = try store.ingest(file: file, options: options)
            let run = try #require(summary.runs.first?.run)
            let named = summary.runs.map { $0.environment }
            #expect(named == [environment.description], "the device named: \(named)")
            let id = try #require(try store.database.scalar("SELECT max(id) FROM results WHERE run_id = ?", [.integer(run.id)]).int64)
            let uuid = try store.database.scalar("SELECT uuid FROM results WHERE id = ?", [.integer(id)]).string ?? ""
            sequence += 1
            model.environments.insert(environment)
            model.logged.append(Logged(
                id: id, uuid: uuid, run: run.id, runUUID: run.uuid, claim: claim, environment: environment, outcome: outcome,
                checkedAt: date, sequence: sequence, words: model.claims.first { $0.key == claim }?.words ?? ""))
        case .edit(let claim, let words):
            try store.editClaim(key: claim, ClaimChanges(statement: words))
            if let index = model.claims.firstIndex(where: { $0.key == claim }) { model.claims[index].words = words }
        case .retractResult(let index):
            let result = model.logged[index]
            try store.retractResult(String(result.id), reason: "random retraction", by: "qa")
            model.retractedResults.insert(result.uuid)
        case .retractRun(let index):
            let result = model.logged[index]
            try store.retractRun(result.runUUID, reason: "random retraction", by: "qa")
            model.retractedRuns.insert(result.runUUID)
        case .record(let record):
            try store.addLack(
                LackDraft(
                    kind: record.kind, model: record.model, toolBuild: record.toolBuild, capability: record.capability,
                    evidence: .document("duo-system-surfaces"), status: record.lacks ? .lacks : .has, newModel: true))
            model.records.append(record)
        case .subject(let claim, let subject, let add):
            try store.editClaim(
                key: claim, add ? ClaimChanges(addModels: [subject], newModel: true) : ClaimChanges(removeModels: [subject]))
            if let index = model.claims.firstIndex(where: { $0.key == claim }) {
                if add { model.claims[index].subjects.insert(subject) } else { model.claims[index].subjects.remove(subject) }
            }
        }
    }

    static func storeStates(_ store: Store) throws -> [String: VerificationState] {
        Dictionary(uniqueKeysWithValues: try store.reader.claimList().map { ($0.key, $0.state) })
    }

    @Test func theDerivedStateFollowsTheRulesAfterEveryStep() throws {
        var steps = 0
        var seen: Set<VerificationState> = []
        var counts: [String: Int] = [:]
        var failures = 0
        for seed in 1...Self.sequences {
            var generator = Generator(state: UInt64(seed) &* 7919)
            let (fixture, claims) = try Self.makeStore()
            var model = Model(claims: claims, records: Self.records)
            var sequence = 0
            var history: [Step] = []
            var wordings = Dictionary(uniqueKeysWithValues: claims.map { ($0.key, [$0.words]) })
            for number in 1...Self.stepsPerSequence {
                let roll = Int.random(in: 0..<100, using: &generator)
                let live = model.logged.indices.filter { model.counts(model.logged[$0]) }
                var step: Step
                if roll < 8, let index = live.randomElement(using: &generator) {
                    step = .retractResult(index: index)
                    counts["retractions", default: 0] += 1
                } else if roll < 11, let index = live.randomElement(using: &generator) {
                    step = .retractRun(index: index)
                    counts["retractions", default: 0] += 1
                } else if roll < 18 {
                    let claim = claims[Int.random(in: 0..<claims.count, using: &generator)].key
                    // Sometimes back to earlier words, which earlier passes proved.
                    let earlier = wordings[claim] ?? []
                    let words =
                        Bool.random(using: &generator) && earlier.count > 1
                        ? earlier[Int.random(in: 0..<earlier.count, using: &generator)]
                        : "Words \(seed).\(number) of \(claim)."
                    wordings[claim, default: []].append(words)
                    step = .edit(claim: claim, words: words)
                    counts["edits", default: 0] += 1
                } else if roll < 23, let record = Self.randomRecord(&generator, model: model) {
                    step = .record(record)
                    counts["records", default: 0] += 1
                } else if roll < 27 {
                    let claim = model.claims[Int.random(in: 0..<model.claims.count, using: &generator)]
                    let subject = ["iPhone Duo", "iPhone 18 Pro Max", "iPad Pro 13"].randomElement(using: &generator) ?? ""
                    step = .subject(claim: claim.key, model: subject, add: !claim.subjects.contains(subject))
                    counts["subject edits", default: 0] += 1
                } else if roll < 29 {
                    step = .future(
                        claim: claims[Int.random(in: 0..<claims.count, using: &generator)].key,
                        environment: Self.randomEnvironment(&generator),
                        date: Bool.random(using: &generator) ? "2099-01-01" : Timestamp.format(Date().addingTimeInterval(3600)))
                    counts["future dates", default: 0] += 1
                } else if roll < 35 {
                    step = .pair(
                        claim: claims[Int.random(in: 0..<claims.count, using: &generator)].key,
                        environment: Self.randomEnvironment(&generator), date: Self.randomDate(&generator),
                        failFirst: Bool.random(using: &generator), index: model.logged.count)
                    counts["two-test runs", default: 0] += 1
                } else if roll < 40 {
                    let claim = claims[Int.random(in: 0..<claims.count, using: &generator)].key
                    let expectation = Int.random(in: 0..<4, using: &generator) == 0
                        ? nil : Expectation(value: Double(Int.random(in: 82...86, using: &generator)), tolerance: Double(Int.random(in: 0...3, using: &generator)))
                    if expectation == nil && model.expectations[claim] == nil { continue }
                    step = .expect(claim: claim, expectation)
                    counts["expectation changes", default: 0] += 1
                } else if roll < 46, let claim = claims.map(\.key).filter({ model.expectations[$0] != nil }).randomElement(using: &generator) {
                    step = .judged(
                        claim: claim, environment: Self.randomEnvironment(&generator), date: Self.randomDate(&generator),
                        value: Double(Int.random(in: 80...90, using: &generator)), index: model.logged.count)
                    counts["judged results", default: 0] += 1
                } else if roll < 53 {
                    step = .ingested(
                        claim: claims[Int.random(in: 0..<claims.count, using: &generator)].key,
                        outcome: Bool.random(using: &generator) ? .pass : .fail, onMax: Bool.random(using: &generator),
                        date: Self.randomDate(&generator), index: model.logged.count)
                    counts["ingested on prefix-named devices", default: 0] += 1
                } else if roll < 57 {
                    step = .undated(
                        claim: claims[Int.random(in: 0..<claims.count, using: &generator)].key,
                        outcome: Bool.random(using: &generator) ? .pass : .fail, environment: Self.randomEnvironment(&generator),
                        index: model.logged.count)
                    counts["undated results", default: 0] += 1
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
                    if actual != expected { failures += 1 }
                    // One message per sequence is enough to debug it; the count says the rest.
                    #expect(actual == expected || failures > 5, "sequence \(seed), step \(number): \(claim.key)")
                    try Self.checkInvariants(claim, actual: actual, model: model, context: "sequence \(seed), step \(number)")
                }
            }
            try Self.checkTheReportReadsTheSameState(fixture.store, context: "sequence \(seed)")
            try Self.checkRetractionsChangeNothing(
                history, model: model, claims: claims, original: try Self.storeStates(fixture.store), seed: seed)
            try Self.checkDivergingStoresMerge(fixture, model: model, generator: &generator, sequence: sequence, seed: seed)
            counts["merges", default: 0] += 1
        }
        #expect(failures == 0, "\(failures) states differ from the rules")
        #expect(seen == Set(VerificationState.allCases), "the sequences pass through every state")
        #expect(counts["retractions", default: 0] > 60 && counts["edits", default: 0] > 60)
        #expect(counts["records", default: 0] > 40 && counts["subject edits", default: 0] > 40)
        print(
            "State invariants: \(Self.sequences) sequences, \(steps) steps, "
                + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ".")
    }

    /// The report's claims read the states, mismatches and reasons that
    /// claim_state and claim_mismatches give, and say "decided by" exactly
    /// when the reason does not already name that result's run and environment.
    static func checkTheReportReadsTheSameState(_ store: Store, context: String) throws {
        let claims = try store.reader.reportClaims()
        let states = try storeStates(store)
        for claim in claims {
            #expect(states[claim.key] == claim.state, "\(context): \(claim.key)")
            let names = claim.decidedBy.map { claim.reason.contains("in run \($0.run) on \($0.environment)") } ?? false
            #expect(claim.reasonNamesRun == names, "\(context): \(claim.key): \(claim.reason)")
            #expect(claim.knownIssues.isEmpty || claim.reason.hasSuffix("; known: " + claim.knownIssues.joined(separator: ", ")))
        }
        let fromClaims = claims.flatMap(\.mismatches).map(\.text).sorted()
        let fromView = try store.reader.mismatches().map(\.text).sorted()
        #expect(fromClaims == fromView, "\(context)")
    }

    /// The issue's invariants, stated directly.
    static func checkInvariants(_ claim: ModelClaim, actual: VerificationState?, model: Model, context: String) throws {
        let counted = model.countedEnvironments
        let latest = model.decisive(claim)
        let currentFail = latest.contains { model.isCurrent($0.key, among: counted) && $0.value.outcome == .fail }
        // A current failure on the claim's models is always failing.
        if currentFail { #expect(actual == .failing, "\(context): \(claim.key) failing") }
        if actual?.isVerified == true {
            // Nothing verified while a decisive fail exists in a current environment.
            #expect(!currentFail, "\(context): \(claim.key) verified over a failure")
            // Nothing verified by a model the claim does not speak about, or where a capability is missing.
            #expect(
                latest.contains {
                    $0.value.outcome == .pass && model.isCurrent($0.key, among: counted) && !model.hasGap(claim, $0.key)
                },
                "\(context): \(claim.key) verified without a current pass on its models")
        }
        if actual == .verifiedOnDevice {
            // A simulator never yields verified-on-device.
            #expect(latest.contains { $0.key.kind == .device && $0.value.outcome == .pass }, "\(context): \(claim.key)")
        }
    }

    /// The store exported to a second one, which reads the same; then the
    /// second diverges (results of its own, two tests in one run among them)
    /// and its export is imported back: both read what the rules say of every
    /// result either holds.
    static func checkDivergingStoresMerge(
        _ fixture: StoreFixture, model: Model, generator: inout Generator, sequence: Int, seed: Int
    ) throws {
        let shared = fixture.folder.url.appendingPathComponent("shared-\(seed)")
        _ = try StoreExporter.export(fixture.store, to: shared)
        let other = try StoreFixture()
        try StoreImporter(store: other.store).run(try FolderRecordFiles(folder: shared))
        #expect(try storeStates(other.store) == storeStates(fixture.store), "sequence \(seed): an exported store reads differently")
        var merged = model
        var sequence = sequence
        for _ in 0..<8 {
            let claim = merged.claims[Int.random(in: 0..<merged.claims.count, using: &generator)].key
            let step: Step =
                Bool.random(using: &generator)
                ? .log(
                    claim: claim, outcome: [Outcome.pass, .fail, .blocked].randomElement(using: &generator) ?? .pass,
                    environment: randomEnvironment(&generator), date: randomDate(&generator), index: merged.logged.count)
                : .pair(
                    claim: claim, environment: randomEnvironment(&generator), date: randomDate(&generator),
                    failFirst: Bool.random(using: &generator), index: merged.logged.count)
            try apply(step, to: other.store, model: &merged, sequence: &sequence)
        }
        let back = other.folder.url.appendingPathComponent("back")
        _ = try StoreExporter.export(other.store, to: back)
        try StoreImporter(store: fixture.store).run(try FolderRecordFiles(folder: back))
        let states = try storeStates(fixture.store)
        #expect(states == (try storeStates(other.store)), "sequence \(seed): the two stores read differently after the merge")
        for claim in merged.claims where states[claim.key] != merged.state(claim) {
            let shown = DetailRenderer.text(try fixture.store.reader.claimDetail(key: claim.key))
            let logged = merged.logged.filter { $0.claim == claim.key }.map {
                "\($0.outcome) \($0.checkedAt) \($0.environment.description) run \($0.runUUID.prefix(8)) seq \($0.sequence) counts \(merged.counts($0))"
            }
            Issue.record("sequence \(seed), after the merge: \(claim.key) \(String(describing: states[claim.key])) \(merged.state(claim))\n\(shown)\n\(logged.joined(separator: "\n"))")
        }
    }

    /// A second store that never saw the retracted results, nor the
    /// retractions, ends in the same states.
    static func checkRetractionsChangeNothing(
        _ history: [Step], model: Model, claims: [ModelClaim], original: [String: VerificationState], seed: Int
    ) throws {
        let (fixture, _) = try makeStore()
        var replay = Model(claims: claims, records: records)
        var sequence = 0
        for step in history {
            switch step {
            case .log(_, _, _, _, let index) where !model.counts(model.logged[index]):
                continue
            case .judged(_, _, _, _, let index) where !model.counts(model.logged[index]):
                continue
            case .undated(_, _, _, let index) where !model.counts(model.logged[index]):
                continue
            case .ingested(_, _, _, _, let index) where !model.counts(model.logged[index]):
                continue
            case .pair(let claim, let environment, let date, _, let index)
            where !model.counts(model.logged[index]) || !model.counts(model.logged[index + 1]):
                for result in model.logged[index...index + 1] where model.counts(result) {
                    try apply(
                        .log(claim: claim, outcome: result.outcome, environment: environment, date: date, index: 0),
                        to: fixture.store, model: &replay, sequence: &sequence)
                }
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
