import EvidenceStore

/// run start, list, show, retract; result link, retract; log; measurements; attachments.
enum RunCommands {
    static let run = CommandSpec(
        group: "run", abstract: "Start, list and show runs: sittings on one device or simulator.",
        commands: [Start.self, List.self, Show.self, Correct.self, RetractRun.self])
    static let result = CommandSpec(
        group: "result", abstract: "Correct a result logged by mistake, or tie it to the issue that tracks it.",
        commands: [Link.self, Unlink.self, RetractResult.self])
    static let attachments = CommandSpec(
        group: "attachments", abstract: "List attachments, or verify that their files are unchanged.",
        commands: [AttachmentList.self, AttachmentVerify.self])

    static let id = ArgumentDeclaration.required(
        "id", help: "The run's UUID, or a prefix of it of 6 or more, or its local number (this store's only).")
    static let resultID = ArgumentDeclaration.required(
        "result", help: "The result's UUID, or a prefix of it of 6 or more, or its local number (this store's only).")
    static let url = ArgumentDeclaration.required("url", help: "The issue's http:// or https:// address.")
}

/// What `retract` corrects.
enum RetractTarget: Equatable, Sendable {
    case result
    case run
}

extension RunCommands {
    /// `run start`
    struct Start: DeclaredCommand {
        static let about = CommandSpec(name: "start", abstract: "Start a run and print its id.", environment: .required)

        let environment = EnvironmentOptions()
        @Option(SharedOptions.tester) var tester: String
        @Option(SharedOptions.date) var date: String?
        @Option(.text("note", "text", help: "A note about the run.")) var note: String?

        func validate() throws { _ = try environment.required() }

        func run(_ runner: Runner) throws -> Int32 {
            let draft = RunDraft(
                environment: try runner.complete(try environment.required(), detect: environment.detect), tester: tester,
                startedAt: date, note: note ?? "", newModel: environment.newModel)
            let opened = try runner.open()
            defer { opened.close() }
            let run = try opened.startRun(draft)
            runner.output.write("\(run.uuid)\n")
            runner.output.message("Started \(run.described) on \(draft.environment.description).")
            return ExitCode.ok
        }
    }

    /// `run list`
    struct List: ListingCommand {
        static let about = CommandSpec(name: "list", abstract: "List runs with their environment and number of results.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.runList()) }
    }

    /// `run show`
    struct Show: DeclaredCommand {
        static let about = CommandSpec(name: "show", abstract: "Show a run and every result in it.")

        @Argument(RunCommands.id) var reference: String
        @Option(CommandTree.detailFormat) var format: DetailFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.show(format: format, { try $0.reader.runDetail(reference: reference) }, text: DetailRenderer.text,
                json: DetailRenderer.json)
        }
    }

    /// `run retract` and `result retract`: what they share.
    struct Retraction: OptionGroup {
        static let discussion = "Retractions are append-only: nothing is deleted, and the retraction records who, when and why. Use it for a wrong date, claim, device or build, then log the result again correctly."

        let target: RetractTarget
        @Argument var reference: String
        @Option(.required("reason", "text", help: "Why it is wrong.")) var reason: String
        @Option(SharedOptions.by) var by: String

        init(_ target: RetractTarget, id help: String) {
            self.target = target
            _reference = Argument(.required("id", help: help))
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            let summary =
                switch target {
                case .result: try opened.retractResult(reference, reason: reason, by: by)
                case .run: try opened.retractRun(reference, reason: reason, by: by)
                }
            let counted = target == .run ? " (\(NumberText.counted(summary.results, "result")))" : ""
            runner.output.message(summary.sentence("Retracted \(summary.target)" + counted))
            return ExitCode.ok
        }
    }

    /// `run correct`
    struct Correct: DeclaredCommand {
        static let about = CommandSpec(
            name: "correct",
            abstract: "Say which OS build a run used, where it recorded none or a wrong one.",
            discussion: "The run and its results move to the environment with that build, so a device run logged as "
                + "\"iOS 27.1\" counts as current beside later runs of \"iOS 27.1 (24B85)\". The correction is only ever "
                + "added, like a retraction: it keeps who made it, when and why, travels through export and import, and "
                + "the latest one decides.")

        @Argument(RunCommands.id) var reference: String
        @Option(.required("os-build", "build", help: "The OS build the run used, such as 24B85.")) var build: String
        @Option(.required("reason", "text", help: "How you know it used that build.")) var reason: String
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            let summary = try runner.with { try $0.correctRunBuild(reference, osBuild: build, reason: reason, by: by) }
            runner.output.message(
                summary.sentence("Corrected \(summary.target) to OS build \(build) (\(NumberText.counted(summary.results, "result")))"))
            return ExitCode.ok
        }
    }

    /// `run retract`
    struct RetractRun: DeclaredCommand {
        static let about = CommandSpec(
            name: "retract", abstract: "Retract a whole run: every result in it counts for nothing from now on.",
            discussion: Retraction.discussion)

        let retraction = Retraction(
            .run,
            id: "The run's UUID, or a prefix of it of 6 or more, or its local number, which another clone's store "
                + "gives another run.")

        func run(_ runner: Runner) throws -> Int32 { try retraction.run(runner) }
    }

    /// `result retract`
    struct RetractResult: DeclaredCommand {
        static let about = CommandSpec(
            name: "retract", abstract: "Retract one result: it stays in the store, shown as retracted, and counts for nothing.",
            discussion: Retraction.discussion)

        let retraction = Retraction(
            .result,
            id: "The result's UUID, or a prefix of it of 6 or more (as 'claim show' and 'run show' print it), or its "
                + "local number, which another clone's store gives another result.")

        func run(_ runner: Runner) throws -> Int32 { try retraction.run(runner) }
    }

    /// `result link`
    struct Link: DeclaredCommand {
        static let about = CommandSpec(
            name: "link",
            abstract: "Tie a result to the issue (bug) that tracks it.",
            discussion: "Links travel through export and import; one made by mistake is removed with result unlink. A failing "
                + "claim stays failing; its reason names the issues linked to its failures since its last pass "
                + "(\"failing, known: URL\") in claim show, untested, status, the reports, compare and the session.")

        @Argument(RunCommands.resultID) var reference: String
        @Argument(RunCommands.url) var url: String
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            let (result, added) = try runner.with { try $0.linkResult(reference, to: url, by: by) }
            runner.output.message(added ? "Linked \(result) to \(url)." : "\(result) is linked to \(url) already; nothing changed.")
            return ExitCode.ok
        }
    }

    /// `result unlink`
    struct Unlink: DeclaredCommand {
        static let about = CommandSpec(
            name: "unlink",
            abstract: "Remove a result's link to an issue made by mistake, keeping who removed it, when and why.",
            discussion: "The issue leaves the claim's reason and every listing; the removal is only ever added, like a "
                + "retraction, and travels through export and import, so every clone drops the link.")

        @Argument(RunCommands.resultID) var reference: String
        @Argument(RunCommands.url) var url: String
        @Option(.required("reason", "text", help: "Why the link is wrong.")) var reason: String
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            let result = try runner.with { try $0.unlinkResult(reference, from: url, reason: reason, by: by) }
            runner.output.message("Removed the link of \(result) to \(url).")
            return ExitCode.ok
        }
    }

    /// `attachments list`
    struct AttachmentList: ListingCommand {
        static let about = CommandSpec(name: "list", abstract: "List attachments with their size and SHA-256.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.attachmentList()) }
    }

    /// `attachments verify`
    struct AttachmentVerify: DeclaredCommand {
        static let about = CommandSpec(
            name: "verify", abstract: "List attachments whose files changed or vanished; exit 1 when there are any.")

        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            let (checked, problems) = try opened.verifyAttachments()
            runner.output.write(Tabular(problems), format)
            runner.output.message("Checked \(NumberText.counted(checked, "attachment file")): \(problems.isEmpty ? "all unchanged" : "\(problems.count) changed, vanished or outside the folder").")
            return problems.isEmpty ? ExitCode.ok : ExitCode.failure
        }
    }
}

extension RunCommands {
    /// `log`
    struct Log: DeclaredCommand {
        static let about = CommandSpec(
            name: "log",
            abstract: "Log one result for a claim, with its measurements and attachments.",
            discussion: "Without --run, the result joins the run of the same environment, tester and day, or starts one. Measurements take the form NAME=VALUE UNIT [from BASELINE] [at POSTURE], such as 'status-bar clock y=171pt from 87pt'; units: pt, px, mm, ms, s, %, count, fps, B, KB, MB, x (a ratio, 2.5x).",
            environment: .orRun)

        @Argument(.required("claim", help: "The claim's key.")) var claim: String
        @Option(
            .choice(
                "result", "result",
                help: "\(Outcome.names.listed()) (default: judged by the measurements against the claim's expected "
                    + "values, when each has one)."))
        var outcome: Outcome?
        @Option(
            .text("run", "id", help: "The run to add it to: its UUID, a prefix of it of 6 or more, or its local number (this store's only)."))
        var runID: String?
        let environment = EnvironmentOptions()
        @Option(SharedOptions.tester) var tester: String
        @Option(SharedOptions.date) var date: String?
        @Option(.choice("posture", "posture", help: "\(Posture.names.listed()).")) var posture: Posture?
        @Option(.text("note", "text", help: "What was seen.")) var note: String?
        @Option(
            OptionDeclaration.repeated("measure", "measurement", help: "A measurement (see above).").map {
                try $0.map(MeasurementDraft.init(parsing:))
            })
        var measurements: [MeasurementDraft]
        @Option(
            .repeated(
                "attach", "file",
                help: "A file to attach (a screenshot, a log); one from outside the store's folder is copied into its attachments/ folder, named by its SHA-256."))
        var attachments: [String]
        @Option(
            .repeated(
                "issue", "url",
                help: "The issue (bug) that tracks what it shows, such as https://github.com/o/r/issues/12; a failing claim "
                    + "stays failing and names it as known."))
        var issues: [String]
        /// The result on standard output as JSON, instead of a sentence on standard error.
        @Option(
            OptionDeclaration.text(
                "format", "format", help: "text (a sentence on standard error) or json (the result on standard output) (default: text).")
                .accepting(["text", "json"]).map { $0?.lowercased() == "json" })
        var json: Bool

        /// The run it goes to: one named, or the run of its environment, tester and day.
        func choice() throws -> RunChoice {
            switch (runID, try environment.spec(requireAll: true)) {
            case (let run?, nil):
                return .existing(run)
            case (nil, let environment?):
                return .matching(environment, tester: tester, newModel: self.environment.newModel)
            case (.some, .some):
                throw UsageError(message: "Give either --run or the environment options, not both.")
            case (nil, nil):
                throw UsageError(
                    message: "Missing expected argument '--run <id>' or '--device <model>' or '--simulator <model>': a result "
                        + "goes to a run, or to the run of an environment named by --device or --simulator, --os and --xcode.")
            }
        }

        func validate() throws { _ = try choice() }

        func run(_ runner: Runner) throws -> Int32 {
            var observation = Observation(
                claimKey: claim, outcome: outcome ?? .pass, posture: posture, note: note ?? "", measurements: measurements,
                attachments: attachments, checkedAt: date)
            observation.issues = issues
            observation.outcomeGiven = outcome != nil
            var choice = try choice()
            if case .matching(let environment, let tester, let newModel) = choice {
                choice = .matching(try runner.complete(environment, detect: self.environment.detect), tester: tester, newModel: newModel)
            }
            let opened = try runner.open()
            defer { opened.close() }
            let logged = try opened.log(observation, run: choice)
            for note in logged.notes { runner.output.message("Warning: \(note).") }
            if json {
                runner.output.write(logged.json(of: observation).rendered() + "\n")
                return ExitCode.ok
            }
            runner.output.message(logged.sentence(of: observation))
            for miss in logged.misses { runner.output.message("Outside the expected values: \(miss).") }
            return ExitCode.ok
        }
    }

    /// `measurements`
    struct Measurements: DeclaredCommand {
        static let about = CommandSpec(name: "measurements", abstract: "List measurements with their baseline and delta.")

        @Option(.text("name", "name", help: "Only measurements with this name.")) var name: String?
        @Option(.text("claim", "key", help: "Only measurements of this claim.")) var claim: String?
        @Option(.text("model", "model", help: "Only measurements on this model.")) var model: String?
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            let filter = MeasurementFilter(name: name, claimKey: claim, model: model)
            return try runner.listing(format: format) { Tabular(try $0.reader.measurementList(filter)) }
        }
    }
}
