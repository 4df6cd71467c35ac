import EvidenceStore

/// claim add, list, show, edit, label, expect.
enum ClaimCommands {
    static let spec = CommandSpec(
        group: "claim", abstract: "Add, list, show, edit, relabel, rename and retire claims.",
        commands: [Add.self, List.self, Show.self, Edit.self, Relabel.self, Rename.self, Retire.self, Restore.self, Expect.self])

    static let newDocument = Option.flag(
        "new-document", help: "Start a document whose name is close to an existing one, instead of taking it for a typo.")
    static let owner = Option.text("owner", "name", help: "Who answers for it: the person QA asks and leads follow up with.")
    static let key = Argument.required("key", help: "The claim's key.")
}

extension ClaimCommands {
    /// `claim add`
    struct Add: DeclaredCommand {
        static let key = Argument.required("key", help: "The claim's stable key, such as island.clock-offset.closed.")
        static let statement = Option.required("statement", "text", help: "What the document says.")
        static let document = Option.required("document", "document", help: "The document it belongs to.")
        static let area = Option.required("area", "area", help: "The section, such as \"Live Activities\".")
        static let label = Option.requiredChoice(
            "label", "label", help: "What the document says it is: \(Choices.list(Label.names)).", of: Label.self)
        static let asOf = Option.text("as-of", "date", help: "The date the label holds as of (YYYY-MM-DD).")
        static let source = Option.repeated(
            "source", "url", help: "A source it cites, with an optional locator (URL#StandBy, URL?time=94).")
        static let needs = Option.repeated("needs", "capability", help: "A capability checking it needs.")
        static let model = Option.repeated(
            "model", "model",
            help: "A device model it speaks about, such as \"iPhone Duo\" (default: its document's; 'none' for any model).")
        static let spec = CommandSpec(
            name: "add",
            abstract: "Add a claim a document makes.",
            arguments: [key.argument],
            options: [
                statement.option, document.option, area.option, label.option, asOf.option, source.option, needs.option, model.option, owner.option, newDocument.option, SharedOptions.newModel.option,
                SharedOptions.by.option,
            ])

        let draft: ClaimDraft
        let by: String

        init(_ values: ParsedValues) throws {
            draft = ClaimDraft(
                key: try values[Self.key], statement: try values[Self.statement], document: try values[Self.document],
                area: try values[Self.area], label: try values[Self.label], asOf: try values[Self.asOf],
                sources: try values[Self.source], needs: try values[Self.needs], models: try values[Self.model],
                newDocument: try values[newDocument], newModel: try values[SharedOptions.newModel],
                owner: try values[owner] ?? "")
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let claim = try runner.with { try $0.addClaim(draft, by: by) }
            runner.output.message("Added claim \(claim.key) (\(claim.label.rawValue)).")
            return ExitCode.ok
        }
    }

    /// `claim list`
    struct List: DeclaredCommand {
        static let document = Option.text("document", "document", help: "Only claims of this document.")
        static let area = Option.text("area", "area", help: "Only claims of this area.")
        static let label = Option.choice("label", "label", help: "Only claims with this label.", of: Label.self)
        static let state = Option.choice(
            "state", "state", help: "Only claims in this state: \(Choices.list(VerificationState.names)).",
            of: VerificationState.self)
        static let owner = Option.text("owner", "name", help: "Only claims this person owns.")
        static let retired = Option.flag("retired", help: "The retired claims instead of those in use.")
        static let spec = CommandSpec(
            name: "list", abstract: "List claims with their label and derived state.",
            options: [
                document.option, area.option, label.option, state.option, owner.option, retired.option, CommandTree.format.option,
            ])

        let filter: ClaimFilter
        let format: OutputFormat

        init(_ values: ParsedValues) throws {
            filter = ClaimFilter(
                document: try values[Self.document], area: try values[Self.area], label: try values[Self.label],
                state: try values[Self.state], owner: try values[Self.owner].map(Validate.owner), retired: try values[Self.retired])
            format = try values[CommandTree.format]
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.listing(format: format) { Tabular(try $0.reader.claimList(filter)) }
        }
    }

    /// `claim show`
    struct Show: DeclaredCommand {
        static let spec = CommandSpec(
            name: "show",
            abstract: "Show a claim: its sources, every result with its environment and measurements, its label history and its state.",
            arguments: [ClaimCommands.key.argument], options: [CommandTree.detailFormat.option])

        let key: String
        let format: DetailFormat

        init(_ values: ParsedValues) throws {
            key = try values[ClaimCommands.key]
            format = try values[CommandTree.detailFormat]
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.show(format: format, { try $0.reader.claimDetail(key: key) }, text: DetailRenderer.text,
                json: DetailRenderer.json)
        }
    }

    /// `claim edit`
    struct Edit: DeclaredCommand {
        static let statement = Option.text("statement", "text", help: "The new statement.")
        static let document = Option.text("document", "document", help: "The new document.")
        static let area = Option.text("area", "area", help: "The new area.")
        static let asOf = Option.text("as-of", "date", help: "The new as-of date (YYYY-MM-DD).")
        static let clearAsOf = Option.flag("clear-as-of", help: "Remove the as-of date.")
        static let source = Option.repeated("source", "url", help: "Cite another source (URL[#locator]).")
        static let removeSource = Option.repeated("remove-source", "url", help: "Stop citing a source (URL[#locator]).")
        static let needs = Option.repeated("needs", "capability", help: "Add a needed capability.")
        static let removeNeeds = Option.repeated("remove-needs", "capability", help: "Remove a needed capability.")
        static let model = Option.repeated("model", "model", help: "A device model it also speaks about.")
        static let removeModel = Option.repeated("remove-model", "model", help: "A device model it no longer speaks about.")
        static let noOwner = Option.flag("no-owner", help: "Leave it with no owner.")
        static let spec = CommandSpec(
            name: "edit",
            abstract: "Change a claim's statement, document, area, date, sources, needed capabilities or models.",
            discussion: "The label changes only through 'evidence claim label', which records why. A new statement makes earlier passes stale: they proved other words. Only results on the models a claim speaks about decide its state; a claim with none speaks about any model.",
            arguments: [ClaimCommands.key.argument],
            options: [
                statement.option, document.option, area.option, asOf.option, clearAsOf.option, source.option, removeSource.option, needs.option, removeNeeds.option, model.option, removeModel.option,
                owner.option, noOwner.option, newDocument.option, SharedOptions.newModel.option, SharedOptions.by.option,
            ])

        let key: String
        let changes: ClaimChanges
        let by: String

        init(_ values: ParsedValues) throws {
            if try values[Self.asOf] != nil && values[Self.clearAsOf] {
                throw UsageError(message: "Give either --as-of or --clear-as-of, not both.", path: values.path)
            }
            let asOf: String?? = try values[Self.clearAsOf] ? .some(nil) : values[Self.asOf].map { .some($0) }
            if try values[owner] != nil && values[Self.noOwner] {
                throw UsageError(message: "Give either --owner or --no-owner, not both.", path: values.path)
            }
            var changes = ClaimChanges(
                statement: try values[Self.statement], document: try values[Self.document], area: try values[Self.area],
                asOf: asOf, addSources: try values[Self.source], removeSources: try values[Self.removeSource],
                addNeeds: try values[Self.needs], removeNeeds: try values[Self.removeNeeds], addModels: try values[Self.model],
                removeModels: try values[Self.removeModel], newDocument: try values[newDocument],
                newModel: try values[SharedOptions.newModel])
            changes.owner = try values[Self.noOwner] ? "" : values[owner]
            key = try values[ClaimCommands.key]
            self.changes = changes
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let edit = try runner.with { try $0.editClaim(key: key, changes, by: by) }
            runner.output.message("Edited claim \(key).")
            if !edit.earlierProof.isEmpty {
                let runs = edit.earlierProof.map { "run \($0)" }.joined(separator: ", ")
                runner.output.message(
                    "Its statement changed: the passes of \(runs) proved the earlier words, so \(key) is stale until it is checked again.")
            }
            return ExitCode.ok
        }
    }

    /// `claim label`
    struct Relabel: DeclaredCommand {
        static let label = Argument.choice("label", help: "The new label: \(Choices.list(Label.names)).", of: Label.self)
        static let reason = Option.required("reason", "text", help: "Why the label changes.")
        static let spec = CommandSpec(
            name: "label",
            abstract: "Change a claim's label, recording who, when and why in its history.",
            arguments: [ClaimCommands.key.argument, label.argument], options: [reason.option, SharedOptions.by.option])

        let key: String
        let label: Label
        let reason: String
        let by: String

        init(_ values: ParsedValues) throws {
            key = try values[ClaimCommands.key]
            label = try values[Self.label]
            reason = try values[Self.reason]
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.relabelClaim(key: key, to: label, reason: reason, by: by) }
            runner.output.message("Relabelled claim \(key) as \(label.rawValue).")
            return ExitCode.ok
        }
    }

    /// `claim rename`
    struct Rename: DeclaredCommand {
        static let newKey = Argument.required("new-key", help: "The key it takes.")
        static let reason = Option.text("reason", "text", help: "Why the key changes.")
        static let spec = CommandSpec(
            name: "rename",
            abstract: "Give a claim another key; its results, history, checklist items and test mappings follow.",
            discussion: "The rename is kept (who, when, why) and travels through export and import, so a clone that "
                + "still names the old key imports to the renamed claim, and commands given the old key name the new "
                + "one. Change the document's marker to the new key; 'lint' names a marker that still has the old one.",
            arguments: [ClaimCommands.key.argument, newKey.argument], options: [reason.option, SharedOptions.by.option])

        let key: String
        let newKey: String
        let reason: String
        let by: String

        init(_ values: ParsedValues) throws {
            key = try values[ClaimCommands.key]
            newKey = try values[Self.newKey]
            reason = try values[Self.reason] ?? ""
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.renameClaim(key, to: newKey, reason: reason, by: by) }
            runner.output.message("Renamed claim \(key) to \(newKey).")
            return ExitCode.ok
        }
    }

    /// `claim retire` and `claim restore`: one record, only ever added, that
    /// takes a claim out of every list and report or brings it back.
    protocol RetirementCommand: DeclaredCommand {
        static var action: RetirementAction { get }
        static var reason: Option<String?> { get }
        var key: String { get }
        var reason: String { get }
        var by: String { get }
        init(key: String, reason: String, by: String)
    }

    /// `claim retire`
    struct Retire: RetirementCommand {
        static let action = RetirementAction.retire
        static let reason = Option.text("reason", "text", help: "Why the claim is retired, such as \"dropped from the guide\".")
        static let spec = CommandSpec(
            name: "retire",
            abstract: "Retire a claim a document dropped: it leaves every list, report, checklist and count.",
            discussion: "Its results, label history and words are kept, 'claim show' and 'history' still show them, and "
                + "'claim list --retired' lists it. The retirement is only ever added and travels through export and "
                + "import; 'claim restore' brings the claim back. A reason is required.",
            arguments: [ClaimCommands.key.argument], options: [reason.option, SharedOptions.by.option])
        let key, reason, by: String
    }

    /// `claim restore`
    struct Restore: RetirementCommand {
        static let action = RetirementAction.restore
        static let reason = Option.text("reason", "text", help: "Why the claim comes back.")
        static let spec = CommandSpec(
            name: "restore", abstract: "Bring a retired claim back into lists and reports, with its results and history.",
            arguments: [ClaimCommands.key.argument], options: [reason.option, SharedOptions.by.option])
        let key, reason, by: String
    }

    /// `claim expect`
    struct Expect: DeclaredCommand {
        static let value = Argument.required(
            "value", help: "NAME=VALUE UNIT [±TOLERANCE], NAME<=VALUE UNIT or NAME>=VALUE UNIT; with --remove, the measurement's name.")
        static let remove = Option.flag("remove", help: "Drop the expected value of the measurement named instead.")
        static let spec = CommandSpec(
            name: "expect",
            abstract: "Record what a claim's measurement must be: within a tolerance, at most or at least a value.",
            discussion: "Such as 'status-bar clock y=171pt ±2pt' (or +-2), 'launch time<=0.4s' (at most) or "
                + "'scroll frame rate>=60fps' (at least; ≤ and ≥ also read). A result logged without --result is judged by "
                + "its measurements against these: pass when each is within what is expected, fail when one is outside, "
                + "which the note then names; a tester's --result stands, and the note says when the values disagree. "
                + "The reports show what was expected beside what was measured.",
            arguments: [ClaimCommands.key.argument, value.argument], options: [remove.option, SharedOptions.by.option])

        /// What changes: a value expected, or the expectation of a measurement dropped.
        enum Change: Equatable {
            case expect(ExpectedValue)
            case remove(name: String)
        }

        let key: String
        let change: Change
        let by: String

        init(_ values: ParsedValues) throws {
            key = try values[ClaimCommands.key]
            let value = try values[Self.value]
            change = try values[Self.remove] ? .remove(name: value) : .expect(try ExpectedValue(parsing: value))
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            switch change {
            case .expect(let expected):
                try runner.with { try $0.expect(expected, ofClaim: key, by: by) }
                runner.output.message("\(key) expects \(expected.name)\(expected.bound == .within ? " =" : "") \(expected.summary).")
            case .remove(let name):
                try runner.with { try $0.removeExpectation(named: name, ofClaim: key, by: by) }
                runner.output.message("\(key) no longer expects a value of \(name).")
            }
            return ExitCode.ok
        }
    }
}

extension ClaimCommands.RetirementCommand {
    init(_ values: ParsedValues) throws {
        self.init(key: try values[ClaimCommands.key], reason: try values[Self.reason] ?? "", by: try SharedOptions.author(values))
    }

    func run(_ runner: Runner) throws -> Int32 {
        try runner.with { try $0.retireClaim(key, Self.action, reason: reason, by: by) }
        runner.output.message(
            Self.action == .retire
                ? "Retired claim \(key); 'evidence claim restore \(key)' brings it back." : "Brought claim \(key) back.")
        return ExitCode.ok
    }
}
