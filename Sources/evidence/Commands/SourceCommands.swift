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
        static let about = CommandSpec(name: "add", abstract: "Add a source: a URL with its title, publisher, kind and dates.")

        @Argument(.required("url", help: "The page's URL, without a locator.")) var url: String
        @Option(.required("title", "text", help: "The page's title.")) var title: String
        @Option(.required("publisher", "name", help: "Who publishes it, such as Apple.")) var publisher: String
        @Option(.requiredChoice("kind", "kind", help: "\(SourceKind.names.listed()).")) var kind: SourceKind
        @Option(.text("published", "date", help: "When it was published (YYYY-MM-DD).")) var published: String?
        @Option(.text("updated", "date", help: "When it was last updated (YYYY-MM-DD).")) var updated: String?
        @Option(.text("retrieved", "date", help: "When it was read (YYYY-MM-DD).")) var retrieved: String?
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            let draft = SourceDraft(
                url: url, title: title, publisher: publisher, kind: kind, published: published, updated: updated,
                retrieved: retrieved)
            try runner.with { try $0.addSource(draft, by: by) }
            runner.output.message("Added source \(draft.url).")
            return ExitCode.ok
        }
    }

    /// `source list`
    struct List: ListingCommand {
        static let about = CommandSpec(name: "list", abstract: "List sources with how many claims cite each.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.sourceList()) }
    }

    /// `source show`
    struct Show: DeclaredCommand {
        static let about = CommandSpec(name: "show", abstract: "Show a source and the claims that cite it.")

        @Argument(.required("url", help: "The source's URL.")) var url: String
        @Option(CommandTree.detailFormat) var format: DetailFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.show(format: format, { try $0.reader.sourceDetail(url: url) }, text: DetailRenderer.text,
                json: DetailRenderer.json)
        }
    }

    /// `capability add`
    struct CapabilityAdd: DeclaredCommand {
        static let about = CommandSpec(name: "add", abstract: "Add a capability, such as standby or app-extension.")

        @Argument(.required("name", help: "Lower-case letters, digits and '-'.")) var name: String
        @Option(.required("description", "text", help: "What it is.")) var description: String
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.addCapability(name: name, description: description, by: by) }
            runner.output.message("Added capability \(name).")
            return ExitCode.ok
        }
    }

    /// `capability list`
    struct CapabilityList: ListingCommand {
        static let about = CommandSpec(
            name: "list", abstract: "List capabilities, how many claims need each, and which environments lack it.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.capabilityList()) }
    }

    /// `env lacks` and `env has`: one record of what environments of a kind
    /// and model have from an Xcode build on.
    struct CapabilityRecord: OptionGroup {
        static func about(_ status: CapabilityStatus) -> CommandSpec {
            CommandSpec(
                name: status == .lacks ? "lacks" : "has",
                abstract: status == .lacks
                    ? "Record that a simulator or device model lacks a capability from an Xcode build on, and who says so."
                    : "Record that a simulator or device model has a capability from an Xcode build on, and who says so.",
                discussion: "A record holds for its kind and model (or, with --all-models, every model of the kind) from its "
                    + "Xcode build onward, until a later record says otherwise; without --xcode-build, from the first build. "
                    + "For an environment, the record with the newest build at or before its own decides; before the first "
                    + "record, the first decides; an environment with no Xcode build lacks a capability when any record for "
                    + "its kind and model says so. Give --source for a page that says so, or --reported-in for a document of "
                    + "this store whose own testing found it.")
        }

        let status: CapabilityStatus
        @Argument var capability: String
        @Option(.text("simulator", "model", help: "The simulator model, such as \"iPhone Duo\".")) var simulator: String?
        @Option(.text("device", "model", help: "The device model.")) var device: String?
        @Option(.flag("all-models", help: "Every model of the kind --kind names, instead of --simulator or --device."))
        var allModels: Bool
        @Option(.choice("kind", "kind", help: "With --all-models: simulator or device (default: simulator).")) var kind: EnvironmentKind?
        @Option(.text("xcode-build", "build", help: "The Xcode build it holds from, such as 27A9275.")) var xcodeBuild: String?
        @Option(.text("source", "url", help: "The source that says so.")) var source: String?
        @Option(.text("reported-in", "document", help: "The document whose testing found it.")) var reportedIn: String?
        @Option(.text("note", "text", help: "A note, such as the wording of the limit.")) var note: String?
        @Option(SharedOptions.newModel) var newModel: Bool
        @Option(SharedOptions.by) var by: String

        init(_ status: CapabilityStatus) {
            self.status = status
            _capability = Argument(.required("capability", help: "The capability it \(status == .lacks ? "lacks" : "has")."))
        }

        func validate() throws {
            guard [simulator != nil, device != nil, allModels].filter({ $0 }).count == 1 else {
                throw UsageError(message: "Give exactly one of --simulator, --device or --all-models.")
            }
            if kind != nil && !allModels {
                throw UsageError(message: "--kind goes with --all-models; --simulator and --device name the kind.")
            }
            guard (source == nil) != (reportedIn == nil) else {
                throw UsageError(message: "Give exactly one of --source or --reported-in.")
            }
        }

        func run(_ runner: Runner) throws -> Int32 {
            let draft = LackDraft(
                kind: allModels ? kind ?? .simulator : simulator != nil ? .simulator : .device,
                model: simulator ?? device ?? LackDraft.everyModel, toolBuild: xcodeBuild ?? "", capability: capability,
                evidence: source.map { .source(url: $0) } ?? .document(reportedIn ?? ""), note: note ?? "", status: status,
                newModel: newModel)
            try runner.with { try $0.addLack(draft, by: by) }
            let scope = draft.toolBuild.isEmpty ? "from the first Xcode build" : "from Xcode build \(draft.toolBuild) on"
            runner.output.message("Recorded: \(draft.subject) \(draft.status.rawValue) \(draft.capability) (\(scope)).")
            return ExitCode.ok
        }
    }

    /// `env lacks`
    struct Lacks: DeclaredCommand {
        static let about = CapabilityRecord.about(.lacks)
        let record = CapabilityRecord(.lacks)
        func validate() throws { try record.validate() }
        func run(_ runner: Runner) throws -> Int32 { try record.run(runner) }
    }

    /// `env has`
    struct Has: DeclaredCommand {
        static let about = CapabilityRecord.about(.has)
        let record = CapabilityRecord(.has)
        func validate() throws { try record.validate() }
        func run(_ runner: Runner) throws -> Int32 { try record.run(runner) }
    }

    /// `env list`
    struct EnvironmentList: ListingCommand {
        static let about = CommandSpec(
            name: "list", abstract: "List environments, whether each is current, what each lacks and which record decides.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.environmentList()) }
    }

    /// `document subjects`
    struct Subjects: DeclaredCommand {
        static let about = CommandSpec(
            name: "subjects",
            abstract: "Set the models a document's new claims speak about when 'claim add' names none.",
            discussion: "Prints the document's default models afterwards; with no option, only prints them. "
                + "Claims already added keep their own models ('claim edit --model').")

        @Argument(.required("document", help: "The document.")) var document: String
        @Option(.repeated("model", "model", help: "A model to add to the defaults.")) var add: [String]
        @Option(.repeated("remove-model", "model", help: "A model to take out of the defaults.")) var remove: [String]
        @Option(SharedOptions.newModel) var newModel: Bool

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
        static let about = CommandSpec(name: "list", abstract: "List documents with their claims and default models.")

        @Option(CommandTree.format) var format: OutputFormat

        func listing(_ store: Store) throws -> Tabular { Tabular(try store.reader.documentList()) }
    }
}
