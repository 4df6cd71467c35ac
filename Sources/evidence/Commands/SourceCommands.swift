import EvidenceStore

/// source add, list, show; capability add, list; env lacks, list.
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
                ],
                build: { values in
                    .sourceAdd(
                        store: CommandTree.storePath(values),
                        draft: SourceDraft(
                            url: values.required("url"), title: values.required("title"),
                            publisher: values.required("publisher"), kind: try SourceKind(parsing: values.required("kind")),
                            published: values.value("published"), updated: values.value("updated"),
                            retrieved: values.value("retrieved")))
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
                        store: CommandTree.storePath($0), url: $0.required("url"), format: try CommandTree.detailFormat($0))
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
                options: [OptionSpec(name: "description", valueName: "text", help: "What it is.", isRequired: true)],
                build: {
                    .capabilityAdd(
                        store: CommandTree.storePath($0), name: $0.required("name"), description: $0.required("description"))
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

    static let environment = CommandSpec(
        name: "env",
        abstract: "Record what environments lack, and list environments.",
        subcommands: [
            CommandSpec(
                name: "lacks",
                abstract: "Record that a simulator or device model lacks a capability, and who says so.",
                discussion: "Without --xcode-build the limit holds for every Xcode build. Give --source for a page that says so, or --reported-in for a document of this store whose own testing found it.",
                arguments: [ArgumentSpec(name: "capability", help: "The capability it lacks.")],
                options: [
                    OptionSpec(name: "simulator", valueName: "model", help: "The simulator model, such as \"iPhone Duo\"."),
                    OptionSpec(name: "device", valueName: "model", help: "The device model."),
                    OptionSpec(name: "xcode-build", valueName: "build", help: "Only this Xcode build, such as 27A9275."),
                    OptionSpec(name: "source", valueName: "url", help: "The source that says so."),
                    OptionSpec(name: "reported-in", valueName: "document", help: "The document whose testing found it."),
                    OptionSpec(name: "note", valueName: "text", help: "A note, such as the wording of the limit."),
                    SharedOptions.newModel,
                ],
                build: { values in
                    let simulator = values.value("simulator")
                    let device = values.value("device")
                    guard (simulator == nil) != (device == nil), let model = simulator ?? device else {
                        throw UsageError(message: "Give exactly one of --simulator or --device.", path: values.path)
                    }
                    let source = values.value("source")
                    let document = values.value("reported-in")
                    guard (source == nil) != (document == nil) else {
                        throw UsageError(message: "Give exactly one of --source or --reported-in.", path: values.path)
                    }
                    return .envLacks(
                        store: CommandTree.storePath(values),
                        draft: LackDraft(
                            kind: simulator != nil ? .simulator : .device, model: model,
                            toolBuild: values.value("xcode-build") ?? "", capability: values.required("capability"),
                            evidence: source.map { .source(url: $0) } ?? .document(document ?? ""),
                            note: values.value("note") ?? "", newModel: values.flag("new-model")))
                }
            ),
            CommandSpec(
                name: "list",
                abstract: "List environments and what each lacks.",
                options: [CommandTree.formatOption],
                build: { .envList(store: CommandTree.storePath($0), format: try CommandTree.format($0)) }
            ),
        ]
    )
}

extension Runner {
    func sourceAdd(store path: String, draft: SourceDraft) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addSource(draft)
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

    func capabilityAdd(store path: String, name: String, description: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addCapability(name: name, description: description)
        output.message("Added capability \(name).")
        return ExitCode.ok
    }

    func envLacks(store path: String, draft: LackDraft) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.addLack(draft)
        let scope = draft.toolBuild.isEmpty ? "every Xcode build" : "Xcode build \(draft.toolBuild)"
        output.message("Recorded: the \(draft.model) \(draft.kind.rawValue) (\(scope)) lacks \(draft.capability).")
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
