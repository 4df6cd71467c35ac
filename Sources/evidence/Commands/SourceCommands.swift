import EvidenceStore

/// source add, list, show; capability add, list; env lacks, has, list; document subjects, list.
enum SourceCommands {
    static let source = CommandSpec(
        group: "source", abstract: "Add, list and show the pages claims cite.", commands: [Add.self, List.self, Show.self])
    static let capability = CommandSpec(
        group: "capability", abstract: "Add and list capabilities that checks need and some environments lack.",
        commands: [CapabilityAdd.self, CapabilityList.self])
    static let environment = CommandSpec(
        group: "env", abstract: "Record what environments lack or have, and list environments.",
        commands: [Lacks.self, Has.self, EnvironmentList.self])
    static let document = CommandSpec(
        group: "document", abstract: "List documents, and set the models their new claims speak about.",
        commands: [Subjects.self, DocumentList.self])
}

extension SourceCommands {
    /// `source add`
    struct Add: DeclaredCommand {
        static let url = Argument.required("url", help: "The page's URL, without a locator.")
        static let title = Option.required("title", "text", help: "The page's title.")
        static let publisher = Option.required("publisher", "name", help: "Who publishes it, such as Apple.")
        static let kind = Option.requiredChoice("kind", "kind", help: "\(Choices.list(SourceKind.names)).", of: SourceKind.self)
        static let published = Option.text("published", "date", help: "When it was published (YYYY-MM-DD).")
        static let updated = Option.text("updated", "date", help: "When it was last updated (YYYY-MM-DD).")
        static let retrieved = Option.text("retrieved", "date", help: "When it was read (YYYY-MM-DD).")
        static let spec = CommandSpec(
            name: "add", abstract: "Add a source: a URL with its title, publisher, kind and dates.",
            arguments: [url.argument], options: [title.option, publisher.option, kind.option, published.option, updated.option, retrieved.option, SharedOptions.by.option])

        let draft: SourceDraft
        let by: String

        init(_ values: ParsedValues) throws {
            draft = SourceDraft(
                url: try values[Self.url], title: try values[Self.title], publisher: try values[Self.publisher],
                kind: try values[Self.kind], published: try values[Self.published], updated: try values[Self.updated],
                retrieved: try values[Self.retrieved])
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            try opened.addSource(draft, by: by)
            runner.output.message("Added source \(draft.url).")
            return ExitCode.ok
        }
    }

    /// `source list`
    struct List: ListingCommand {
        static let spec = CommandSpec(
            name: "list", abstract: "List sources with how many claims cite each.", options: [CommandTree.format.option])

        let format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.sourceList()) }
    }

    /// `source show`
    struct Show: DeclaredCommand {
        static let url = Argument.required("url", help: "The source's URL.")
        static let spec = CommandSpec(
            name: "show", abstract: "Show a source and the claims that cite it.", arguments: [url.argument],
            options: [CommandTree.detailFormat.option])

        let url: String
        let format: DetailFormat

        init(_ values: ParsedValues) throws {
            url = try values[Self.url]
            format = try values[CommandTree.detailFormat]
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.show(format: format, { try $0.reader.sourceDetail(url: url) }, text: DetailRenderer.text,
                json: DetailRenderer.json)
        }
    }

    /// `capability add`
    struct CapabilityAdd: DeclaredCommand {
        static let name = Argument.required("name", help: "Lower-case letters, digits and '-'.")
        static let description = Option.required("description", "text", help: "What it is.")
        static let spec = CommandSpec(
            name: "add", abstract: "Add a capability, such as standby or app-extension.", arguments: [name.argument],
            options: [description.option, SharedOptions.by.option])

        let name: String
        let description: String
        let by: String

        init(_ values: ParsedValues) throws {
            name = try values[Self.name]
            description = try values[Self.description]
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            try opened.addCapability(name: name, description: description, by: by)
            runner.output.message("Added capability \(name).")
            return ExitCode.ok
        }
    }

    /// `capability list`
    struct CapabilityList: ListingCommand {
        static let spec = CommandSpec(
            name: "list", abstract: "List capabilities, how many claims need each, and which environments lack it.",
            options: [CommandTree.format.option])

        let format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.capabilityList()) }
    }

    /// `env lacks` and `env has`: one record of what environments of a kind
    /// and model have from an Xcode build on.
    struct CapabilityRecord: Equatable, Sendable {
        static let capability = Argument.required("capability", help: "The capability it lacks or has.")
        static let simulator = Option.text("simulator", "model", help: "The simulator model, such as \"iPhone Duo\".")
        static let device = Option.text("device", "model", help: "The device model.")
        static let allModels = Option.flag(
            "all-models", help: "Every model of the kind --kind names, instead of --simulator or --device.")
        static let kind = Option.choice(
            "kind", "kind", help: "With --all-models: simulator or device (default: simulator).", of: EnvironmentKind.self)
        static let xcodeBuild = Option.text("xcode-build", "build", help: "The Xcode build it holds from, such as 27A9275.")
        static let source = Option.text("source", "url", help: "The source that says so.")
        static let reportedIn = Option.text("reported-in", "document", help: "The document whose testing found it.")
        static let note = Option.text("note", "text", help: "A note, such as the wording of the limit.")

        static func spec(_ status: CapabilityStatus) -> CommandSpec {
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
                arguments: [capability.helped("The capability it \(verb).").argument],
                options: [
                    simulator.option, device.option, allModels.option, kind.option, xcodeBuild.option, source.option, reportedIn.option, note.option, SharedOptions.newModel.option,
                    SharedOptions.by.option,
                ])
        }

        let draft: LackDraft
        let by: String

        init(_ values: ParsedValues, status: CapabilityStatus) throws {
            let simulator = try values[Self.simulator]
            let device = try values[Self.device]
            let allModels = try values[Self.allModels]
            guard [simulator != nil, device != nil, allModels].filter({ $0 }).count == 1 else {
                throw UsageError(message: "Give exactly one of --simulator, --device or --all-models.", path: values.path)
            }
            if try values[Self.kind] != nil && !allModels {
                throw UsageError(message: "--kind goes with --all-models; --simulator and --device name the kind.", path: values.path)
            }
            let source = try values[Self.source]
            let document = try values[Self.reportedIn]
            guard (source == nil) != (document == nil) else {
                throw UsageError(message: "Give exactly one of --source or --reported-in.", path: values.path)
            }
            let kind: EnvironmentKind = allModels ? try values[Self.kind] ?? .simulator : simulator != nil ? .simulator : .device
            draft = LackDraft(
                kind: kind, model: simulator ?? device ?? LackDraft.everyModel, toolBuild: try values[Self.xcodeBuild] ?? "",
                capability: try values[Self.capability], evidence: source.map { .source(url: $0) } ?? .document(document ?? ""),
                note: try values[Self.note] ?? "", status: status, newModel: try values[SharedOptions.newModel])
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            try opened.addLack(draft, by: by)
            let scope = draft.toolBuild.isEmpty ? "from the first Xcode build" : "from Xcode build \(draft.toolBuild) on"
            runner.output.message("Recorded: \(draft.subject) \(draft.status.rawValue) \(draft.capability) (\(scope)).")
            return ExitCode.ok
        }
    }

    /// `env lacks`
    struct Lacks: DeclaredCommand {
        static let spec = CapabilityRecord.spec(.lacks)
        let record: CapabilityRecord
        init(_ values: ParsedValues) throws { record = try CapabilityRecord(values, status: .lacks) }
        func run(_ runner: Runner) throws -> Int32 { try record.run(runner) }
    }

    /// `env has`
    struct Has: DeclaredCommand {
        static let spec = CapabilityRecord.spec(.has)
        let record: CapabilityRecord
        init(_ values: ParsedValues) throws { record = try CapabilityRecord(values, status: .has) }
        func run(_ runner: Runner) throws -> Int32 { try record.run(runner) }
    }

    /// `env list`
    struct EnvironmentList: ListingCommand {
        static let spec = CommandSpec(
            name: "list", abstract: "List environments, whether each is current, what each lacks and which record decides.",
            options: [CommandTree.format.option])

        let format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.environmentList()) }
    }

    /// `document subjects`
    struct Subjects: DeclaredCommand {
        static let document = Argument.required("document", help: "The document.")
        static let model = Option.repeated("model", "model", help: "A model to add to the defaults.")
        static let removeModel = Option.repeated("remove-model", "model", help: "A model to take out of the defaults.")
        static let spec = CommandSpec(
            name: "subjects",
            abstract: "Set the models a document's new claims speak about when 'claim add' names none.",
            discussion: "Prints the document's default models afterwards; with no option, only prints them. "
                + "Claims already added keep their own models ('claim edit --model').",
            arguments: [document.argument], options: [model.option, removeModel.option, SharedOptions.newModel.option])

        let document: String
        let add: [String]
        let remove: [String]
        let newModel: Bool

        init(_ values: ParsedValues) throws {
            document = try values[Self.document]
            add = try values[Self.model]
            remove = try values[Self.removeModel]
            newModel = try values[SharedOptions.newModel]
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: add.isEmpty && remove.isEmpty ? .reading : .readWrite)
            defer { opened.close() }
            let models =
                add.isEmpty && remove.isEmpty
                ? try opened.reader.documentSubjects(document)
                : try opened.setDocumentSubjects(document: document, add: add, remove: remove, newModel: newModel)
            runner.output.write(
                models.isEmpty
                    ? "\(document): new claims speak about any model\n"
                    : "\(document): new claims speak about \(models.joined(separator: ", "))\n")
            return ExitCode.ok
        }
    }

    /// `document list`
    struct DocumentList: ListingCommand {
        static let spec = CommandSpec(
            name: "list", abstract: "List documents with their claims and default models.", options: [CommandTree.format.option])

        let format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.documentList()) }
    }
}
