import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// session: a guided sitting with one device or simulator.
enum SessionCommands {
    static let answersFormat = """
        An answers file holds one block per claim, blocks apart by a blank line, lines as 'field: value' ('#' starts a comment): \
        'claim: KEY' first, then 'result:' (pass, fail, blocked, inconclusive, skipped, or next to pass it over), and at will \
        'posture:', 'measure:' (as --measure writes it, or NAME=VALUE for a measurement the claim had before, whose unit and \
        baseline it keeps), 'note:' and 'attach:' (each may repeat). A line 'undo' retracts the result logged last; a line \
        'quit' ends the session. The whole file is checked before anything is written; run again after it stopped part way, it skips the claims today's run already answered.
        """
}

extension SessionCommands {
    /// `session`
    struct Session: DeclaredCommand {
        static let about = CommandSpec(
            name: "session",
            abstract: "Walk through the claims that need checking on one device or simulator, logging each answer at once.",
            discussion: "Each claim is shown with its statement, what it needs, its latest results and measurements elsewhere, "
                + "and the checklist items it proves; then it asks for the result ([p]ass, [f]ail, [b]locked, [i]nconclusive, "
                + "[s]kipped, [n]ext without logging, [u]ndo the last one, [q]uit, [?] help), the posture, each measurement the "
                + "claim had before (its last baseline as the default), new measurements, a note and attachments. A claim's answer "
                + "is written when it is complete, in its own transaction, to the run of this environment, tester and day; a "
                + "session started again that day resumes that run and passes by the claims it holds. Without claims or a state "
                + "option, a device session takes the claims that need a device, a simulator session those with no result. "
                + "On a terminal it asks; otherwise give --answers. " + answersFormat,
            environment: .required)

        @Argument(.variadic("claim", help: "Only these claims, by key.", optional: true)) var claims: [String]
        let environment = EnvironmentOptions()
        @Option(SharedOptions.tester) var tester: String
        @Option(.flag("needs-device", help: "Claims that need a device (the default for a device).")) var needsDevice: Bool
        @Option(.flag("untested", help: "Claims with no result yet (the default for a simulator).")) var untested: Bool
        @Option(.flag("stale", help: "Claims whose proof is stale.")) var stale: Bool
        @Option(SharedOptions.document) var document: String?
        @Option(.text("area", "area", help: "Only claims of this area, such as StandBy.")) var area: String?
        @Option(SharedOptions.owner) var owner: String?
        @Option(.text("answers", "file", help: "Read the answers from this file instead of a terminal.")) var answers: String?

        func validate() throws { _ = try environment.required() }

        func run(_ runner: Runner) throws -> Int32 {
            let environment = try runner.complete(try self.environment.required(), detect: self.environment.detect)
            guard answers != nil || ThisProcess.isTerminal(ThisProcess.standardInput) else {
                throw EvidenceError.refused(
                    reason: "'evidence session' asks its questions on a terminal, and standard input is not one; "
                        + "give the answers in a file with --answers FILE (its format: 'evidence help session')")
            }
            let opened = try runner.open()
            defer { opened.close() }
            let states = [(needsDevice, VerificationState.needsDevice), (untested, .untested), (stale, .stale)].filter(\.0).map(\.1)
            let selection = SessionSelection(keys: claims, states: Set(states), document: document, area: area, owner: owner)
            let session = try GuidedSession(
                store: opened, environment: environment, tester: tester, newModel: self.environment.newModel, selection: selection)
            defer { session.close() }
            FaultPoint.reached("session.started")
            let console = SessionConsole(output: runner.output, session: session)
            console.introduce()
            if let answers {
                try SessionAnswers.run(file: answers, session: session, console: console)
            } else {
                console.ask()
            }
            console.summarize(try session.summary())
            return ExitCode.ok
        }
    }
}

/// What a session shows and asks on standard output; with colour only on a
/// terminal that has it, and never when NO_COLOR is set.
final class SessionConsole {
    private let output: Output
    private let session: GuidedSession
    private let colour: Bool

    init(output: Output, session: GuidedSession) {
        self.output = output
        self.session = session
        let environment = ProcessInfo.processInfo.environment
        colour = ThisProcess.isTerminal(ThisProcess.standardOutput) && (environment["NO_COLOR"] ?? "").isEmpty
            && !["", "dumb"].contains(environment["TERM"] ?? "")
    }

    private func styled(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    /// Writes text as it is; values in it went through `clean`.
    func say(_ text: String) {
        output.write(text)
        try? output.standardOutput.flush()
    }

    /// A value from the store or the tester, any control character in it shown escaped.
    private func clean(_ text: String) -> String {
        ControlCharacters.escaped(text, keepingLineBreaks: true)
    }

    func introduce() {
        var text = "Session on \(clean(session.environment.description)) as "
            + (session.tester.isEmpty ? "(no tester)" : clean(session.tester)) + ": "
            + NumberText.counted(session.steps.count, "claim") + " to check."
        if let run = session.resumedRun {
            text += " Resuming \(run.described)"
            text += session.answeredInResumedRun.isEmpty
                ? "." : "; already answered today: " + session.answeredInResumedRun.joined(separator: ", ") + "."
        }
        if let why = session.emptyReason { text += " No claim to check: " + clean(why) + "." }
        say(text + "\n")
    }

    func show(_ step: GuidedSession.Step) {
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
        say(text)
    }

    func report(_ event: GuidedSession.Event, for key: String) {
        switch event {
        case .logged(let logged):
            say(
                styled("Logged", "32") + " " + ResultIdentity.described("result", uuid: logged.resultUUID, local: logged.resultID)
                    + " for \(key) in \(logged.run.described).\n")
            for note in logged.notes { say(styled("Warning", "33") + ": \(note).\n") }
        case .passedOver:
            say("Passed over \(key).\n")
        case .undone(let undoneKey, let summary):
            say(styled("Undone", "33") + ": retracted \(summary.target) of \(undoneKey); it is asked again.\n")
        case .nothingToUndo:
            say("Nothing to undo: this session has logged nothing yet.\n")
        case .ended:
            break
        }
    }

    /// A block of an answers file run before: today's run holds its answer.
    func skipped(_ key: String) {
        say("Skipped \(key): " + (session.resumedRun.map { $0.described } ?? "today's run") + " holds its answer already.\n")
    }

    func error(_ error: Error) {
        say(styled("Error", "31") + ": " + clean("\(error)") + "\n")
    }

    // MARK: - Asking on a terminal

    /// Asks until the session ends: on `q`, at the end of input, or after the last claim.
    func ask() {
        while let step = session.current {
            show(step)
            let answer = readAnswer(for: step)
            do {
                report(try session.answer(answer), for: step.claim.claim.key)
            } catch {
                self.error(error)
            }
        }
    }

    /// A line from standard input, nil at its end.
    private func prompt(_ text: String) -> String? {
        say(styled(text, "36"))
        return readLine(strippingNewline: true)
    }

    private static let help = """
        p pass, f fail, b blocked, i inconclusive, s skipped: log that result (then posture, measurements, note, files)
        n  next: on to the next claim without logging
        u  undo: retract the result this session logged last, and ask its claim again
        q  quit: end the session (every claim answered so far is kept)

        """

    private func readAnswer(for step: GuidedSession.Step) -> SessionAnswer {
        while true {
            guard let line = prompt("result [p f b i s] [n]ext [u]ndo [q]uit [?]: ") else { return .quit }
            let word = line.trimmingWhitespace().lowercased()
            let outcomes: [String: Outcome] = ["p": .pass, "f": .fail, "b": .blocked, "i": .inconclusive, "s": .skipped]
            switch word {
            case "": continue
            case "?", "h", "help": say(Self.help)
            case "n", "next": return .next
            case "u", "undo": return .undo
            case "q", "quit": return .quit
            default:
                guard let outcome = outcomes[word] ?? Outcome(rawValue: word) else {
                    error(EvidenceError.invalidValue(field: "answer", value: line, expected: "p, f, b, i, s, n, u, q or ?"))
                    continue
                }
                guard let observation = readDetails(outcome, for: step) else { return .quit }
                return .result(observation)
            }
        }
    }

    /// Asks `text` until `accept` takes the answer (nil: the field is left
    /// out); nil for the whole answer at the end of input.
    private func field<T>(_ text: String, _ accept: (String) throws -> T?) -> T?? {
        while true {
            guard let line = prompt(text) else { return nil }
            let trimmed = line.trimmingWhitespace()
            do {
                return .some(try accept(trimmed))
            } catch {
                self.error(error)
            }
        }
    }

    private func readDetails(_ outcome: Outcome, for step: GuidedSession.Step) -> Observation? {
        var observation = Observation(claimKey: step.claim.claim.key, outcome: outcome)
        if [.pass, .fail, .inconclusive].contains(outcome) {
            guard let posture = field("posture (\(Posture.names.joined(separator: ", ")); empty for none): ", {
                $0.isEmpty ? nil : try Posture(parsing: $0)
            }) else { return nil }
            observation.posture = posture
            for measurement in step.prompts {
                guard let draft = field("\(measurement.label) (empty to leave out): ", {
                    $0.isEmpty ? nil : try measurement.draft(from: $0)
                }) else { return nil }
                if let draft { observation.measurements.append(draft) }
            }
            while true {
                guard let draft = field("another measurement, NAME=VALUE UNIT [from BASELINE] (empty when done): ", {
                    $0.isEmpty ? nil : try MeasurementDraft(parsing: Validate.singleLine($0, field: "measurement"))
                }) else { return nil }
                guard let draft else { break }
                observation.measurements.append(draft)
            }
        }
        guard let note = field("note (empty for none): ", { try Validate.freeText($0, field: "note") }) else { return nil }
        observation.note = note ?? ""
        while true {
            guard let path = field("attachment path (empty when done): ", { text -> String? in
                guard !text.isEmpty else { return nil }
                try self.session.checkAttachment(try Validate.singleLine(text, field: "attachment"))
                return text
            }) else { return nil }
            guard let path else { break }
            observation.attachments.append(path)
        }
        return observation
    }

    // MARK: - The end

    func summarize(_ summary: SessionSummary) {
        var text = "\nSession summary" + (summary.run.map { " (run \($0))" } ?? "") + ":\n"
        func line(_ title: String, _ keys: [String]) {
            text += "  \(title): " + (keys.isEmpty ? "none" : keys.joined(separator: ", ")) + "\n"
        }
        line("logged", summary.logged.map { "\($0.key) \($0.outcome.rawValue)" })
        if !summary.undone.isEmpty { line("undone", summary.undone) }
        line("passed over", summary.passedOver)
        if !summary.notReached.isEmpty { line("not answered", summary.notReached) }
        line("still needing a device", summary.stillNeedingDevice)
        say(text)
    }
}

/// Answers from a file: read and checked whole (`SessionAnswerFile`), then applied in order.
enum SessionAnswers {
    static func run(file: String, session: GuidedSession, console: SessionConsole) throws {
        for entry in try SessionAnswerFile.read(file, session: session) {
            switch entry {
            case .quit:
                _ = try session.answer(.quit)
                return
            case .alreadyAnswered(let key):
                console.skipped(key)
            case .undo:
                // The event names the claim it took back.
                console.report(try session.answer(.undo), for: "")
            case .claim(let key, let answer):
                try session.move(to: key)
                if let step = session.current { console.show(step) }
                console.report(try session.answer(answer), for: key)
            }
        }
        // Claims the file does not mention stay unanswered.
        _ = try session.answer(.quit)
    }
}
