#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a guided session says on a terminal: the claim it asks about, what
/// each answer did, and the summary at the end; with colour when `colour`
/// says the terminal shows it. Values from the store or the tester have any
/// control character in them shown escaped.
public struct SessionText {
    private let session: GuidedSession
    private let colour: Bool

    public init(session: GuidedSession, colour: Bool) {
        self.session = session
        self.colour = colour
    }

    public func styled(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    private func clean(_ text: String) -> String {
        ControlCharacters.escaped(text, keepingLineBreaks: true)
    }

    public func introduction() -> String {
        var text = "Session on \(clean(session.environment.description)) as "
            + (session.tester.isEmpty ? "(no tester)" : clean(session.tester)) + ": "
            + NumberText.counted(session.steps.count, "claim") + " to check."
        if let run = session.resumedRun {
            text += " Resuming \(run.described)"
            text += session.answeredInResumedRun.isEmpty
                ? "." : "; already answered today: " + session.answeredInResumedRun.joined(separator: ", ") + "."
        }
        if let why = session.emptyReason { text += " No claim to check: " + clean(why) + "." }
        return text + "\n"
    }

    public func step(_ step: GuidedSession.Step) -> String {
        let claim = step.claim
        var text = "\n" + styled("[\(session.position + 1)/\(session.steps.count)] \(claim.claim.key)", "1")
        text += "  (\(clean(claim.claim.document)) › \(clean(claim.claim.area)))\n"
        text += "  " + clean(claim.claim.statement).replacingEvery("\n", with: "\n  ") + "\n"
        text += "  state: \(claim.state): \(clean(claim.reason))\n"
        if !claim.needs.isEmpty { text += "  needs: " + claim.needs.map(\.capability).joined(separator: ", ") + "\n" }
        for expected in claim.expectations {
            text += "  expects: " + clean("\(expected.name) = \(expected.summary)") + "\n"
        }
        for entry in step.recent {
            var line = "\(entry.outcome) on \(entry.environment), \(entry.checkedAt ?? "date not recorded")"
            if !entry.measurements.isEmpty { line += "; " + entry.measurements.joined(separator: "; ") }
            text += "  latest: " + clean(line) + "\n"
        }
        if step.recent.isEmpty { text += "  " + styled("no result yet", "2") + "\n" }
        if !claim.checklistItems.isEmpty { text += "  proves checklist items: " + claim.checklistItems.joined(separator: ", ") + "\n" }
        return text
    }

    /// What an answer did.
    public func event(_ event: GuidedSession.Event, for key: String) -> String {
        switch event {
        case .logged(let logged):
            return styled("Logged", "32") + " " + ResultIdentity.described("result", uuid: logged.resultUUID, local: logged.resultID)
                + " for \(key) in \(logged.run.described).\n"
                + logged.notes.map { styled("Warning", "33") + ": \($0).\n" }.joined()
        case .passedOver:
            return "Passed over \(key).\n"
        case .undone(let undoneKey, let summary):
            return styled("Undone", "33") + ": retracted \(summary.target) of \(undoneKey); it is asked again.\n"
        case .nothingToUndo:
            return "Nothing to undo: this session has logged nothing yet.\n"
        case .ended:
            return ""
        }
    }

    /// A block of an answers file run before: today's run holds its answer.
    public func skipped(_ key: String) -> String {
        "Skipped \(key): " + (session.resumedRun.map { $0.described } ?? "today's run") + " holds its answer already.\n"
    }

    public func error(_ error: any Error) -> String {
        styled("Error", "31") + ": " + clean("\(error)") + "\n"
    }

    /// What each answer to the result prompt does.
    public static let help = """
        p pass, f fail, b blocked, i inconclusive, s skipped: log that result (then posture, measurements, note, files)
        n  next: on to the next claim without logging
        u  undo: retract the result this session logged last, and ask its claim again
        q  quit: end the session (every claim answered so far is kept)

        """

    /// What the session logged, undid, passed over and left.
    public func summary(_ summary: SessionSummary) -> String {
        var text = "\nSession summary" + (summary.run.map { " (run \($0))" } ?? "") + ":\n"
        func line(_ title: String, _ keys: [String]) {
            text += "  \(title): " + (keys.isEmpty ? "none" : keys.joined(separator: ", ")) + "\n"
        }
        line("logged", summary.logged.map { "\($0.key) \($0.outcome.rawValue)" })
        if !summary.undone.isEmpty { line("undone", summary.undone) }
        line("passed over", summary.passedOver)
        if !summary.notReached.isEmpty { line("not answered", summary.notReached) }
        line("still needing a device", summary.stillNeedingDevice)
        return text
    }
}

