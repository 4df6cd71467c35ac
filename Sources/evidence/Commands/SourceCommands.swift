import EvidenceStore

/// source add, list, show; capability add, list; env lacks, has, list; document subjects, list.
enum SourceCommands {
    static let source = CommandSpec(
        name: "source",
        abstract: "Add, list and show the pages claims cite.",
        subcommands: [
            CommandSpec(
                name: "add",
                abstract: "Add a source: a URL with its title, publisher, kind and dates.",
                arguments: [ArgumentSpec(name: "url", help: "The page's URL, without a locator.")],
                options: [
                    OptionSpec(name: "title", valueName: "text", help: "The page's title.", isRequired: true),
                    OptionSpec(name: "publisher", valueName: "name", help: "Who publishes it, such as Apple.", isRequired: true),
                    OptionSpec(
                        name: "kind", valueName: "kind",
                        help: "\(Choices.list(SourceKind.names)).", isRequired: true, choices: SourceKind.names),
                    OptionSpec(name: "published", valueName: "date", help: "When it was published (YYYY-MM-DD)."),
                    OptionSpec(name: "updated", valueName: "date", help: "When it was last updated (YYYY-MM-DD)."),
                    OptionSpec(name: "retrieved", valueName: "date", help: "When it was read (YYYY-MM-DD)."),
                    SharedOptions.by,
                ],
                build: { values in
                    .sourceAdd(
                        store: CommandTree.storePath(values),
                        draft: SourceDraft(
                            url: try values.required("url"), title: try values.required("title"),
                            publisher: try values.required("publisher"), kind: try SourceKind(parsing: try values.required("kind")),
                            published: values.value("published"), updated: values.value("updated"),
                            retrieved: values.value("retrieved")),
                        by: SharedOptions.author(values))
                }
            ),
            CommandSpec(
                name: "list",
                abstract: "List sources with how many claims cite each.",
                options: [CommandTree.formatOption],
                build: { .sourceList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
            CommandSpec(
                name: "show",
                abstract: "Show a source and the claims that cite it.",
                arguments: [ArgumentSpec(name: "url", help: "The source's URL.")],
                options: [CommandTree.detailFormatOption],
                build: {
                    .sourceShow(
                        store: CommandTree.storePath($0), url: try $0.required("url"), format: try CommandTree.detailFormat($0))
                }
            ),
        ]
    )

    static let capability = CommandSpec(
        name: "capability",
        abstract: "Add and list capabilities that checks need and some environments lack.",
        subcommands: [
            CommandSpec(
                name: "add",
                abstract: "Add a capability, such as standby or app-extension.",
                arguments: [ArgumentSpec(name: "name", help: "Lower-case letters, digits and '-'.")],
                options: [OptionSpec(name: "description", valueName: "text", help: "What it is.", isRequired: true), SharedOptions.by],
                build: {
                    .capabilityAdd(
                        store: CommandTree.storePath($0), name: try $0.required("name"), description: try $0.required("description"),
                        by: SharedOptions.author($0))
                }
            ),
            CommandSpec(
                name: "list",
                abstract: "List capabilities, how many claims need each, and which environments lack it.",
                options: [CommandTree.formatOption],
                build: { .capabilityList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
        ]
    )

    /// `env lacks` and `env has`: one record of what environments of a kind
    /// and model have from an Xcode build on.
    static func capabilityRecord(_ status: CapabilityStatus) -> CommandSpec {
        let verb = status == .lacks ? "lacks" : "has"
        return CommandSpec(
            name: verb,
            abstract: status == .lacks
                ? "Record that a simulator or device model lacks a capability from an Xcode build on, and who says so."
                : "Record that a simulator or device model has a capability from an Xcode build on, and who says so.",
            discussion: "A record holds for its kind and model (or, with --all-models, every model of the kind) from its "
                + "Xcode build onward, until a later record says otherwise; without --xcode-build, from the first build. "
                + "For an environment, the record with the newest build at or before its own decides; before the first "
                + "record, the first decides; an environment with no Xcode build lacks a capability when any record for "
                + "its kind and model says so. Give --source for a page that says so, or --reported-in for a document of "
                + "this store whose own testing found it.",
            arguments: [ArgumentSpec(name: "capability", help: "The capability it \(verb).")],
            options: [
                OptionSpec(name: "simulator", valueName: "model", help: "The simulator model, such as \"iPhone Duo\"."),
                OptionSpec(name: "device", valueName: "model", help: "The device model."),
                OptionSpec(name: "all-models", help: "Every model of the kind --kind names, instead of --simulator or --device."),
                OptionSpec(
                    name: "kind", valueName: "kind", help: "With --all-models: simulator or device (default: simulator).",
                    choices: EnvironmentKind.names),
                OptionSpec(name: "xcode-build", valueName: "build", help: "The Xcode build it holds from, such as 27A9275."),
                OptionSpec(name: "source", valueName: "url", help: "The source that says so."),
                OptionSpec(name: "reported-in", valueName: "document", help: "The document whose testing found it."),
                OptionSpec(name: "note", valueName: "text", help: "A note, such as the wording of the limit."),
                SharedOptions.newModel,
                SharedOptions.by,
            ],
            build: { values in
                let simulator = values.value("simulator")
                let device = values.value("device")
                let allModels = values.flag("all-models")
                guard [simulator != nil, device != nil, allModels].filter({ $0 }).count == 1 else {
                    throw UsageError(message: "Give exactly one of --simulator, --device or --all-models.", path: values.path)
                }
                if values.value("kind") != nil && !allModels {
                    throw UsageError(message: "--kind goes with --all-models; --simulator and --device name the kind.", path: values.path)
                }
                let source = values.value("source")
                let document = values.value("reported-in")
                guard (source == nil) != (document == nil) else {
                    throw UsageError(message: "Give exactly one of --source or --reported-in.", path: values.path)
                }
                let kind: EnvironmentKind =
                    allModels ? try values.value("kind").map(EnvironmentKind.init(parsing:)) ?? .simulator
                    : simulator != nil ? .simulator : .device
                return .envLacks(
                    store: CommandTree.storePath(values),
                    draft: LackDraft(
                        kind: kind, model: simulator ?? device ?? LackDraft.everyModel,
                        toolBuild: values.value("xcode-build") ?? "", capability: try values.required("capability"),
                        evidence: source.map { .source(url: $0) } ?? .document(document ?? ""),
                        note: values.value("note") ?? "", status: status, newModel: values.flag("new-model")),
                    by: SharedOptions.author(values))
            }
        )
    }

    static let environment = CommandSpec(
        name: "env",
        abstract: "Record what environments lack or have, and list environments.",
        subcommands: [
            capabilityRecord(.lacks),
            capabilityRecord(.has),
            CommandSpec(
                name: "list",
                abstract: "List environments, whether each is current, what each lacks and which record decides.",
                options: [CommandTree.formatOption],
                build: { .envList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
        ]
    )

    static let document = CommandSpec(
        name: "document",
        abstract: "List documents, and set the models their new claims speak about.",
        subcommands: [
            CommandSpec(
                name: "subjects",
                abstract: "Set the models a document's new claims speak about when 'claim add' names none.",
                discussion: "Prints the document's default models afterwards; with no option, only prints them. "
                    + "Claims already added keep their own models ('claim edit --model').",
                arguments: [ArgumentSpec(name: "document", help: "The document.")],
                options: [
                    OptionSpec(name: "model", valueName: "model", help: "A model to add to the defaults.", isRepeatable: true),
                    OptionSpec(
                        name: "remove-model", valueName: "model", help: "A model to take out of the defaults.", isRepeatable: true),
                    SharedOptions.newModel,
                ],
                build: { values in
                    .documentSubjects(
                        store: CommandTree.storePath(values), document: try values.required("document"),
                        add: values.values("model"), remove: values.values("remove-model"), newModel: values.flag("new-model"))
                }
            ),
            CommandSpec(
                name: "list",
                abstract: "List documents with their claims and default models.",
                options: [CommandTree.formatOption],
                build: { .documentList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
        ]
    )
}

extension Runner {
    func sourceAdd(store path: String, draft: SourceDraft, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addSource(draft, by: author)
        output.message("Added source \(draft.url).")
        return ExitCode.ok
    }

    func sourceShow(store path: String, url: String, format: DetailFormat) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let detail = try store.reader.sourceDetail(url: url)
        output.write(format == .json ? DetailRenderer.json(detail).rendered() : DetailRenderer.text(detail))
        return ExitCode.ok
    }

    func capabilityAdd(store path: String, name: String, description: String, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addCapability(name: name, description: description, by: author)
        output.message("Added capability \(name).")
        return ExitCode.ok
    }

    func envLacks(store path: String, draft: LackDraft, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addLack(draft, by: author)
        let scope = draft.toolBuild.isEmpty ? "from the first Xcode build" : "from Xcode build \(draft.toolBuild) on"
        output.message("Recorded: \(draft.subject) \(draft.status.rawValue) \(draft.capability) (\(scope)).")
        return ExitCode.ok
    }

    func documentSubjects(store path: String, document: String, add: [String], remove: [String], newModel: Bool) throws
        -> Int32
    {
        let store = try open(path, access: add.isEmpty && remove.isEmpty ? .reading : .readWrite)
        defer { store.close() }
        let models =
            add.isEmpty && remove.isEmpty
            ? try store.reader.documentSubjects(document)
            : try store.setDocumentSubjects(document: document, add: add, remove: remove, newModel: newModel)
        output.write(
            models.isEmpty
                ? "\(document): new claims speak about any model\n"
                : "\(document): new claims speak about \(models.joined(separator: ", "))\n")
        return ExitCode.ok
    }

    /// Prints a listing the store computes.
    func listing(store path: String, format: OutputFormat, _ make: (Store) throws -> Tabular) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        output.write(try make(store).render(format))
        return ExitCode.ok
    }
}
