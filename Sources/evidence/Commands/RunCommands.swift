import EvidenceStore

/// run start, list, show; log; measurements; attachments.
enum RunCommands {
    static let run = CommandSpec(
        name: "run",
        abstract: "Start, list and show runs: sittings on one device or simulator.",
        subcommands: [
            CommandSpec(
                name: "start",
                abstract: "Start a run and print its id.",
                options: SharedOptions.environment + [
                    SharedOptions.tester, SharedOptions.date,
                    OptionSpec(name: "note", valueName: "text", help: "A note about the run."),
                ],
                build: { values in
                    .runStart(
                        store: CommandTree.storePath(values),
                        draft: RunDraft(
                            environment: try SharedOptions.requireEnvironment(values), tester: SharedOptions.tester(values),
                            startedAt: values.value("date"), note: values.value("note") ?? "",
                            newModel: values.flag("new-model")),
                        detect: SharedOptions.detect(values))
                },
                environment: .required
            ),
            CommandSpec(
                name: "list",
                abstract: "List runs with their environment and number of results.",
                options: [CommandTree.formatOption],
                build: { .runList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
            CommandSpec(
                name: "show",
                abstract: "Show a run and every result in it.",
                arguments: [
                    ArgumentSpec(name: "id", help: "The run's UUID, or a prefix of it of 6 or more, or its local number (this store's only).")
                ],
                options: [CommandTree.detailFormatOption],
                build: {
                    .runShow(
                        store: CommandTree.storePath($0), reference: try $0.required("id"),
                        format: try CommandTree.detailFormat($0))
                }
            ),
            retract(
                .run, abstract: "Retract a whole run: every result in it counts for nothing from now on.",
                id: "The run's UUID, or a prefix of it of 6 or more, or its local number, which another clone's store "
                    + "gives another run."),
        ]
    )

    static let result = CommandSpec(
        name: "result",
        abstract: "Correct a result logged by mistake, or tie it to the issue that tracks it.",
        subcommands: [
            CommandSpec(
                name: "link",
                abstract: "Tie a result to the issue (bug) that tracks it.",
                discussion: "Links are only ever added, like retractions, and travel through export and import. A failing "
                    + "claim stays failing; its reason names the issues linked to its failures since its last pass "
                    + "(\"failing, known: URL\") in claim show, untested, status, the reports, compare and the session.",
                arguments: [
                    ArgumentSpec(
                        name: "result",
                        help: "The result's UUID, or a prefix of it of 6 or more, or its local number (this store's only)."),
                    ArgumentSpec(name: "url", help: "The issue's http:// or https:// address."),
                ],
                options: [SharedOptions.by],
                build: { values in
                    .resultLink(
                        store: CommandTree.storePath(values), reference: try values.required("result"), url: try values.required("url"),
                        by: SharedOptions.author(values))
                }
            ),
            retract(
                .result, abstract: "Retract one result: it stays in the store, shown as retracted, and counts for nothing.",
                id: "The result's UUID, or a prefix of it of 6 or more (as 'claim show' and 'run show' print it), or its "
                    + "local number, which another clone's store gives another result.")
        ]
    )

    private static func retract(_ target: RetractTarget, abstract: String, id: String) -> CommandSpec {
        CommandSpec(
            name: "retract",
            abstract: abstract,
            discussion: "Retractions are append-only: nothing is deleted, and the retraction records who, when and why. Use it for a wrong date, claim, device or build, then log the result again correctly.",
            arguments: [ArgumentSpec(name: "id", help: id)],
            options: [
                OptionSpec(name: "reason", valueName: "text", help: "Why it is wrong.", isRequired: true),
                SharedOptions.by,
            ],
            build: { values in
                .retract(
                    target, store: CommandTree.storePath(values), reference: try values.required("id"),
                    reason: try values.required("reason"), by: SharedOptions.author(values))
            }
        )
    }

    static let log = CommandSpec(
        name: "log",
        abstract: "Log one result for a claim, with its measurements and attachments.",
        discussion: "Without --run, the result joins the run of the same environment, tester and day, or starts one. Measurements take the form NAME=VALUE UNIT [from BASELINE] [at POSTURE], such as 'status-bar clock y=171pt from 87pt'; units: pt, px, mm, ms, s, %, count, fps, B, KB, MB, x (a ratio, 2.5x).",
        arguments: [ArgumentSpec(name: "claim", help: "The claim's key.")],
        options: [
            OptionSpec(
                name: "result", valueName: "result",
                help: "\(Choices.list(Outcome.names)) (default: judged by the measurements against the claim's expected "
                    + "values, when each has one).",
                choices: Outcome.names),
            OptionSpec(
                name: "run", valueName: "id",
                help: "The run to add it to: its UUID, a prefix of it of 6 or more, or its local number (this store's only)."),
        ] + SharedOptions.environment + [
            SharedOptions.tester, SharedOptions.date,
            OptionSpec(
                name: "posture", valueName: "posture", help: "\(Choices.list(Posture.names)).", choices: Posture.names),
            OptionSpec(name: "note", valueName: "text", help: "What was seen."),
            OptionSpec(name: "measure", valueName: "measurement", help: "A measurement (see above).", isRepeatable: true),
            OptionSpec(
                name: "attach", valueName: "file", help: "A file inside the store's folder to attach.", isRepeatable: true),
            OptionSpec(
                name: "issue", valueName: "url",
                help: "The issue (bug) that tracks what it shows, such as https://github.com/o/r/issues/12; a failing claim "
                    + "stays failing and names it as known.",
                isRepeatable: true),
            OptionSpec(
                name: "format", valueName: "format",
                help: "text (a sentence on standard error) or json (the result on standard output) (default: text).",
                choices: ["text", "json"]),
        ],
        build: { values in
            let environment = try SharedOptions.environment(values, requireAll: true)
            let choice: RunChoice
            switch (values.value("run"), environment) {
            case (let run?, nil):
                choice = .existing(run)
            case (nil, let environment?):
                choice = .matching(
                    environment, tester: SharedOptions.tester(values), newModel: values.flag("new-model"))
            case (.some, .some):
                throw UsageError(message: "Give either --run or the environment options, not both.", path: values.path)
            case (nil, nil):
                throw UsageError(
                    message: "Missing expected argument '--run <id>' or '--device <model>' or '--simulator <model>': a result "
                        + "goes to a run, or to the run of an environment named by --device or --simulator, --os and --xcode.",
                    path: values.path)
            }
            return .log(
                store: CommandTree.storePath(values),
                observation: try {
                    var observation = Observation(
                        claimKey: try values.required("claim"), outcome: try Outcome(parsing: values.value("result") ?? "pass"),
                        posture: try values.value("posture").map(Posture.init(parsing:)), note: values.value("note") ?? "",
                        measurements: try values.values("measure").map(MeasurementDraft.init(parsing:)),
                        attachments: values.values("attach"), checkedAt: values.value("date"))
                    observation.issues = values.values("issue")
                    observation.outcomeGiven = values.value("result") != nil
                    return observation
                }(),
                run: choice, json: values.value("format")?.lowercased() == "json", detect: SharedOptions.detect(values))
        },
        environment: .orRun
    )

    static let measurements = CommandSpec(
        name: "measurements",
        abstract: "List measurements with their baseline and delta.",
        options: [
            OptionSpec(name: "name", valueName: "name", help: "Only measurements with this name."),
            OptionSpec(name: "claim", valueName: "key", help: "Only measurements of this claim."),
            OptionSpec(name: "model", valueName: "model", help: "Only measurements on this model."),
            CommandTree.formatOption,
        ],
        build: { values in
            .measurements(
                store: CommandTree.storePath(values),
                filter: MeasurementFilter(name: values.value("name"), claimKey: values.value("claim"), model: values.value("model")),
                format: try CommandTree.format(values))
        }
    )

    static let attachments = CommandSpec(
        name: "attachments",
        abstract: "List attachments, or verify that their files are unchanged.",
        subcommands: [
            CommandSpec(
                name: "list",
                abstract: "List attachments with their size and SHA-256.",
                options: [CommandTree.formatOption],
                build: { .attachmentsList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
            CommandSpec(
                name: "verify",
                abstract: "List attachments whose files changed or vanished; exit 1 when there are any.",
                options: [CommandTree.formatOption],
                build: { .attachmentsVerify(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
        ]
    )
}

extension Runner {
    func runStart(store path: String, draft: RunDraft, detect: Bool) throws -> Int32 {
        var draft = draft
        draft.environment = try complete(draft.environment, detect: detect)
        let store = try open(path)
        defer { store.close() }
        let run = try store.startRun(draft)
        output.write("\(run.uuid)\n")
        output.message("Started \(run.described) on \(draft.environment.description).")
        return ExitCode.ok
    }

    func runShow(store path: String, reference: String, format: DetailFormat) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let detail = try store.reader.runDetail(reference: reference)
        output.write(format == .json ? DetailRenderer.json(detail).rendered() : DetailRenderer.text(detail))
        return ExitCode.ok
    }

    func retract(_ target: RetractTarget, store path: String, reference: String, reason: String, by author: String)
        throws -> Int32
    {
        let store = try open(path)
        defer { store.close() }
        let summary =
            switch target {
            case .result: try store.retractResult(reference, reason: reason, by: author)
            case .run: try store.retractRun(reference, reason: reason, by: author)
            }
        var text = "Retracted \(summary.target)"
        if target == .run { text += " (\(NumberText.counted(summary.results, "result")))" }
        text += summary.claims.isEmpty ? "." : "; evidence changed for " + summary.claims.joined(separator: ", ") + "."
        output.message(text)
        return ExitCode.ok
    }

    func log(store path: String, observation: Observation, run choice: RunChoice, json: Bool, detect: Bool) throws -> Int32 {
        var choice = choice
        if case .matching(let environment, let tester, let newModel) = choice {
            choice = .matching(try complete(environment, detect: detect), tester: tester, newModel: newModel)
        }
        let store = try open(path)
        defer { store.close() }
        let logged = try store.log(observation, run: choice)
        for note in logged.notes { output.message("Warning: \(note).") }
        if json {
            let value = JSONValue.object([
                ("claim", .string(observation.claimKey)), ("result", .string(logged.resultUUID)),
                ("id", .integer(logged.resultID)), ("run", .string(logged.run.uuid)), ("new_run", .bool(logged.startedRun)),
                ("outcome", .string(logged.outcome.rawValue)), ("judged", .bool(!observation.outcomeGiven)),
                ("outside_expected", .array(logged.misses.map(JSONValue.string))),
                ("counts", .bool(logged.notes.isEmpty)), ("notes", .array(logged.notes.map(JSONValue.string))),
            ])
            output.write(value.rendered() + "\n")
            return ExitCode.ok
        }
        let runText = (logged.startedRun ? "new " : "") + logged.run.described
        var text = "Logged \(logged.outcome.rawValue)" + (observation.outcomeGiven ? "" : " (judged by its expected values)")
            + " for \(observation.claimKey) as "
            + ResultIdentity.described("result", uuid: logged.resultUUID, local: logged.resultID) + " in \(runText)"
        if !observation.measurements.isEmpty { text += ", " + NumberText.counted(observation.measurements.count, "measurement") }
        if !observation.attachments.isEmpty { text += ", " + NumberText.counted(observation.attachments.count, "attachment") }
        output.message(text + ".")
        for miss in logged.misses { output.message("Outside the expected values: \(miss).") }
        return ExitCode.ok
    }

    func attachmentsVerify(store path: String, format: OutputFormat) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let (checked, problems) = try store.verifyAttachments()
        let table = Tabular(
            columns: ["path", "problem", "claim", "run"],
            rows: problems.map {
                [.text($0.path), .text($0.kind.rawValue), TableValue($0.claimKey), .text(String($0.runUUID.prefix(8)))]
            })
        output.write(table.render(format))
        output.message("Checked \(NumberText.counted(checked, "attachment file")): \(problems.isEmpty ? "all unchanged" : "\(problems.count) changed, vanished or outside the folder").")
        return problems.isEmpty ? ExitCode.ok : ExitCode.failure
    }
}
