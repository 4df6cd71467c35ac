import EvidenceStore

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
            let dialogue = SessionDialogue(
                session: session, text: SessionText(session: session, colour: runner.output.colour),
                say: {
                    runner.output.write($0)
                    try? runner.output.standardOutput.flush()
                }, readLine: { Swift.readLine(strippingNewline: true) })
            runner.output.write(dialogue.text.introduction())
            if let answers { try dialogue.answer(file: answers) } else { dialogue.ask() }
            runner.output.write(dialogue.text.summary(try session.summary()))
            return ExitCode.ok
        }
    }
}
