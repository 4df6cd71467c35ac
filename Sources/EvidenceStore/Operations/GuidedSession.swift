#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A tester's sitting with one device or simulator: the chosen claims, in
/// document and area order, each answered in turn. Nothing is written until
/// a claim's answer is complete; then it is logged at once, in its own
/// transaction, to the run of this environment, tester and day (started by
/// the first answer, or resumed: claims already answered in it today are
/// passed by). An undo retracts the last result the session logged. One
/// session per environment, tester and day is open at a time (`SessionLock`),
/// and a claim is answered once in its run.
public final class GuidedSession {
    /// One claim to check, with what the tester needs to see.
    public struct Step: Sendable {
        public var claim: ClaimDetail
        /// Each measurement the claim has had, with its last baseline.
        public var prompts: [MeasurementPrompt]
        /// Its latest results that stand (not retracted), newest first, three at most.
        public var recent: [ClaimDetail.ResultEntry]
    }

    private enum Disposition {
        case logged(Outcome, resultID: Int64)
        case passedOver
    }

    public let environment: EnvironmentSpec
    public let tester: String
    public let steps: [Step]
    /// Claims of the selection already answered in the run resumed, by key.
    public let alreadyAnswered: [String]
    /// Every claim answered in the run resumed (whatever its state now), sorted.
    public let answeredInResumedRun: [String]
    /// The run resumed, when there is one.
    public let resumedRun: RunRecord?
    /// Why the session has no claim to check, when it has none: which
    /// filters left out what.
    public private(set) var emptyReason: String?
    private let store: Store
    private let newModel: Bool
    private let lock: SessionLock
    private var dispositions: [Disposition?]
    /// Indexes of the steps logged, latest last: what undo takes back.
    private var loggedOrder: [Int] = []
    private var undone: [String] = []
    private var lastRun: RunRecord?
    /// The step asked now; `steps.count` when every step is done.
    public private(set) var position = 0
    public private(set) var ended = false

    public init(
        store: Store, environment: EnvironmentSpec, tester: String, newModel: Bool = false, selection: SessionSelection
    ) throws {
        self.store = store
        self.environment = environment
        self.tester = tester
        self.newModel = newModel
        lock = try SessionLock(store: store, environment: environment, tester: tester, day: String(store.clock.timestamp().prefix(10)))
        let reader = store.reader
        let given = selection
        let selection = selection.withDefaults(for: environment.kind)
        let document = try reader.resolveDocument(selection.document)
        let owner = try reader.resolveOwner(selection.owner)
        let owned = try owner.map { Set(try reader.claimList(ClaimFilter(owner: $0)).map(\.key)) }
        var explanation: String?
        var keys: [String]
        // The claims named by key are read whole once, to filter them and to make their steps.
        var details: [String: ClaimDetail] = [:]
        if selection.keys.isEmpty {
            // Only claims that speak about this model (or any model) are its work.
            let forModel = try reader.claimKeys(speakingAbout: environment.model)
            let scope = try reader.claimList(ClaimFilter(document: document, area: selection.area, owner: owner))
            keys = scope.filter { selection.states.contains($0.state) && $0.label != .notPublished && forModel.contains($0.key) }
                .map(\.key)
            if keys.isEmpty {
                explanation = Self.explain(
                    scope: scope, selection: selection, given: given, environment: environment, forModel: forModel,
                    document: document, owner: owner)
            }
        } else {
            for key in selection.keys where details[key] == nil { details[key] = try reader.claimDetail(key: key) }
            keys = details.values.map(\.claim).filter { claim in
                (document == nil || claim.document == document)
                    && (selection.area.map { $0.lowercased() == claim.area.lowercased() } ?? true)
            }
            .sorted { ($0.document, $0.area, $0.key) < ($1.document, $1.area, $1.key) }.map(\.key)
            if let owned { keys = keys.filter { owned.contains($0) } }
            if keys.isEmpty {
                explanation = "none of the claims named is in the document, area or owner's claims asked for"
            }
        }
        resumedRun = try reader.resumableRun(environment, tester: tester, day: String(store.clock.timestamp().prefix(10)))
        let answered = try resumedRun.map { try reader.claimsAnswered(inRun: $0.id) } ?? []
        alreadyAnswered = keys.filter { answered.contains($0) }
        answeredInResumedRun = answered.sorted()
        keys.removeAll { answered.contains($0) }
        if keys.isEmpty, explanation == nil, !alreadyAnswered.isEmpty {
            explanation = "every claim it would take was answered in today's run already: "
                + alreadyAnswered.joined(separator: ", ") + " (retract a result to answer it again)"
        }
        emptyReason = explanation
        steps = try keys.map { try Self.step(for: details[$0] ?? reader.claimDetail(key: $0), reader: reader) }
        dispositions = Array(repeating: nil, count: steps.count)
        lastRun = resumedRun
    }

    /// Why a session by state took no claim: the claims in scope by state,
    /// those about other models, and the default it used.
    private static func explain(
        scope: [ClaimListing], selection: SessionSelection, given: SessionSelection, environment: EnvironmentSpec,
        forModel: Set<String>, document: String?, owner: String?
    ) -> String {
        var within = [document.map { "of document \($0)" }, selection.area.map { "of area \($0)" }, owner.map { "owned by \($0)" }]
            .compactMap { $0 }.joined(separator: " ")
        if !within.isEmpty { within = " " + within }
        guard !scope.isEmpty else { return "no claim\(within) is in the store" }
        let wanted = selection.states.map(\.rawValue).sorted().joined(separator: " or ")
        let how = given.states.isEmpty
            ? "a \(environment.kind.rawValue) session takes claims that are \(wanted) by default (give --untested, --needs-device, --stale or claim keys for others)"
            : "it takes claims that are \(wanted)"
        var counts: [String: Int] = [:]
        for claim in scope where claim.label != .notPublished { counts[claim.state.rawValue, default: 0] += 1 }
        var parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        let otherModels = scope.filter { selection.states.contains($0.state) && !forModel.contains($0.key) }.count
        if otherModels > 0 { parts.append("\(otherModels) of those \(wanted) about other models than \(environment.model)") }
        let published = scope.filter { $0.label == .notPublished }.count
        if published > 0 { parts.append("\(published) not published (no QA work)") }
        return how + "; of the " + NumberText.counted(scope.count, "claim") + within + ": " + parts.joined(separator: ", ")
    }

    private static func step(for claim: ClaimDetail, reader: StoreReader) throws -> Step {
        let key = claim.claim.key
        var latest: [String: MeasurementListing] = [:]
        var names: [String] = []
        for row in try reader.measurementList(MeasurementFilter(claimKey: key)) where !row.retracted {
            if latest[row.name] == nil { names.append(row.name) }
            latest[row.name] = row
        }
        let prompts = names.compactMap { name -> MeasurementPrompt? in
            guard let row = latest[name], let unit = MeasurementUnit(rawValue: row.unit) else { return nil }
            return MeasurementPrompt(name: name, unit: unit, baseline: row.baseline, lastValue: row.value)
        }
        let recent = claim.results.filter { $0.retraction == nil }
            .sorted { ($0.checkedAt ?? "") > ($1.checkedAt ?? "") }.prefix(3)
        return Step(claim: claim, prompts: prompts, recent: Array(recent))
    }

    /// The step to answer now, nil when the session is over.
    public var current: Step? {
        ended || position >= steps.count ? nil : steps[position]
    }

    /// Refuses an attachment `log` would refuse, before the claim's answer is complete.
    public func checkAttachment(_ path: String) throws {
        _ = try AttachmentFile.read(path, storeFolder: store.folder, storePath: store.path)
    }

    /// What an answer did.
    public enum Event: Equatable, Sendable {
        case logged(LoggedResult)
        case passedOver
        /// The result of this claim was retracted; the claim is asked again.
        case undone(key: String, RetractionSummary)
        case nothingToUndo
        case ended
    }

    /// Applies the tester's answer to the current step.
    public func answer(_ answer: SessionAnswer) throws -> Event {
        switch answer {
        case .quit:
            ended = true
            return .ended
        case .undo:
            guard let index = loggedOrder.last, case .logged(_, let resultID)? = dispositions[index] else {
                return .nothingToUndo
            }
            let summary = try store.retractResult(String(resultID), reason: "undone in the guided session", by: tester)
            loggedOrder.removeLast()
            dispositions[index] = nil
            // The claims passed over since are asked again too.
            for later in index..<max(index, position) { dispositions[later] = nil }
            undone.append(steps[index].claim.claim.key)
            position = index
            return .undone(key: steps[index].claim.claim.key, summary)
        case .next:
            guard current != nil else { return .ended }
            dispositions[position] = .passedOver
            position += 1
            return .passedOver
        case .result(let observation):
            guard let step = current else { return .ended }
            guard observation.claimKey == step.claim.claim.key else {
                throw EvidenceError.refused(
                    reason: "the answer is for \(observation.claimKey), but the session is at \(step.claim.claim.key)")
            }
            let logged = try store.log(
                observation, run: .matching(environment, tester: tester, newModel: newModel), oncePerRun: true)
            dispositions[position] = .logged(observation.outcome, resultID: logged.resultID)
            loggedOrder.append(position)
            lastRun = logged.run
            position += 1
            return .logged(logged)
        }
    }

    /// Lets another session of this environment, tester and day start.
    public func close() {
        lock.release()
    }

    /// The step of `key`; refused, saying why, when the session has none.
    public func step(of key: String) throws -> (index: Int, step: Step) {
        guard let index = steps.firstIndex(where: { $0.claim.claim.key == key }) else {
            throw EvidenceError.refused(
                reason: alreadyAnswered.contains(key)
                    ? "\(key) was already answered in today's run; retract that result first to answer it again"
                    : "\(key) is not among the session's claims" + (emptyReason.map { ": it has none, as " + $0 } ?? ""))
        }
        return (index, steps[index])
    }

    /// Moves the session to the step of `key`, for answers given by claim;
    /// the steps between stay unanswered.
    public func move(to key: String) throws {
        position = try step(of: key).index
    }

    /// What the session did, with the claims that still need a device now.
    public func summary() throws -> SessionSummary {
        var summary = SessionSummary()
        for (index, step) in steps.enumerated() {
            let key = step.claim.claim.key
            switch dispositions[index] {
            case .logged(let outcome, let resultID)?: summary.logged.append(.init(key: key, outcome: outcome, resultID: resultID))
            case .passedOver?: summary.passedOver.append(key)
            case nil: summary.notReached.append(key)
            }
        }
        summary.undone = undone
        let needing = Set(try store.reader.claimList(ClaimFilter(state: .needsDevice)).map(\.key))
        summary.stillNeedingDevice = (alreadyAnswered + steps.map(\.claim.claim.key)).filter { needing.contains($0) }
        summary.run = lastRun.map { "\($0.id) (\($0.shortName))" }
        return summary
    }
}
