import EvidenceStore

/// claim add, list, show, edit, label, expect.
enum ClaimCommands {
    static let spec = CommandSpec(
        group: "claim", abstract: "Add, list, show, edit, relabel, rename and retire claims.",
        commands: [Add.self, List.self, Show.self, Edit.self, Relabel.self, Rename.self, Retire.self, Restore.self, Expect.self])

    static let newDocument = OptionDeclaration.flag(
        "new-document", help: "Start a document whose name is close to an existing one, instead of taking it for a typo.")
    static let owner = OptionDeclaration.text("owner", "name", help: "Who answers for it: the person QA asks and leads follow up with.")
    static let key = ArgumentDeclaration.required("key", help: "The claim's key.")
}

extension ClaimCommands {
    /// `claim add`
    struct Add: DeclaredCommand {
        static let about = CommandSpec(name: "add", abstract: "Add a claim a document makes.")

        @Argument(.required("key", help: "The claim's stable key, such as island.clock-offset.closed.")) var key: String
        @Option(.required("statement", "text", help: "What the document says.")) var statement: String
        @Option(.required("document", "document", help: "The document it belongs to.")) var document: String
        @Option(.required("area", "area", help: "The section, such as \"Live Activities\".")) var area: String
        @Option(.requiredChoice("label", "label", help: "What the document says it is: \(Label.names.listed()).")) var label: Label
        @Option(.text("as-of", "date", help: "The date the label holds as of (YYYY-MM-DD).")) var asOf: String?
        @Option(.repeated("source", "url", help: "A source it cites, with an optional locator (URL#StandBy, URL?time=94)."))
        var sources: [String]
        @Option(.repeated("needs", "capability", help: "A capability checking it needs.")) var needs: [String]
        @Option(
            .repeated(
                "model", "model",
                help: "A device model it speaks about, such as \"iPhone Duo\" (default: its document's; 'none' for any model)."))
        var models: [String]
        @Option(ClaimCommands.owner) var owner: String?
        @Option(ClaimCommands.newDocument) var newDocument: Bool
        @Option(SharedOptions.newModel) var newModel: Bool
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            let draft = ClaimDraft(
                key: key, statement: statement, document: document, area: area, label: label, asOf: asOf, sources: sources,
                needs: needs, models: models, newDocument: newDocument, newModel: newModel, owner: owner ?? "")
            let claim = try runner.with { try $0.addClaim(draft, by: by) }
            runner.output.message("Added claim \(claim.key) (\(claim.label.rawValue)).")
            return ExitCode.ok
        }
    }

    /// `claim list`
    struct List: DeclaredCommand {
        static let about = CommandSpec(name: "list", abstract: "List claims with their label and derived state.")

        @Option(SharedOptions.document) var document: String?
        @Option(.text("area", "area", help: "Only claims of this area.")) var area: String?
        @Option(.choice("label", "label", help: "Only claims with this label.")) var label: Label?
        @Option(.choice("state", "state", help: "Only claims in this state: \(VerificationState.names.listed()).")) var state: VerificationState?
        @Option(SharedOptions.owner) var owner: String?
        @Option(.flag("retired", help: "The retired claims instead of those in use.")) var retired: Bool
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            let filter = ClaimFilter(document: document, area: area, label: label, state: state, owner: owner, retired: retired)
            return try runner.listing(format: format) { Tabular(try $0.reader.claimList(filter)) }
        }
    }

    /// `claim show`
    struct Show: DeclaredCommand {
        static let about = CommandSpec(
            name: "show",
            abstract: "Show a claim: its sources, every result with its environment and measurements, its label history and its state.")

        @Argument(ClaimCommands.key) var key: String
        @Option(CommandTree.detailFormat) var format: DetailFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.show(format: format, { try $0.reader.claimDetail(key: key) }, text: DetailRenderer.text,
                json: DetailRenderer.json)
        }
    }

    /// `claim edit`
    struct Edit: DeclaredCommand {
        static let about = CommandSpec(
            name: "edit",
            abstract: "Change a claim's statement, document, area, date, sources, needed capabilities or models.",
            discussion: "The label changes only through 'evidence claim label', which records why. A new statement makes earlier passes stale: they proved other words. Only results on the models a claim speaks about decide its state; a claim with none speaks about any model.")

        @Argument(ClaimCommands.key) var key: String
        @Option(.text("statement", "text", help: "The new statement.")) var statement: String?
        @Option(.text("document", "document", help: "The new document.")) var document: String?
        @Option(.text("area", "area", help: "The new area.")) var area: String?
        @Option(.text("as-of", "date", help: "The new as-of date (YYYY-MM-DD).")) var asOf: String?
        @Option(.flag("clear-as-of", help: "Remove the as-of date.")) var clearAsOf: Bool
        @Option(.repeated("source", "url", help: "Cite another source (URL[#locator]).")) var sources: [String]
        @Option(.repeated("remove-source", "url", help: "Stop citing a source (URL[#locator]).")) var removeSources: [String]
        @Option(.repeated("needs", "capability", help: "Add a needed capability.")) var needs: [String]
        @Option(.repeated("remove-needs", "capability", help: "Remove a needed capability.")) var removeNeeds: [String]
        @Option(.repeated("model", "model", help: "A device model it also speaks about.")) var models: [String]
        @Option(.repeated("remove-model", "model", help: "A device model it no longer speaks about.")) var removeModels: [String]
        @Option(ClaimCommands.owner) var owner: String?
        @Option(.flag("no-owner", help: "Leave it with no owner.")) var noOwner: Bool
        @Option(ClaimCommands.newDocument) var newDocument: Bool
        @Option(SharedOptions.newModel) var newModel: Bool
        @Option(SharedOptions.by) var by: String

        func validate() throws {
            if asOf != nil && clearAsOf { throw UsageError(message: "Give either --as-of or --clear-as-of, not both.") }
            if owner != nil && noOwner { throw UsageError(message: "Give either --owner or --no-owner, not both.") }
        }

        func run(_ runner: Runner) throws -> Int32 {
            var changes = ClaimChanges(
                statement: statement, document: document, area: area, asOf: clearAsOf ? .some(nil) : asOf.map { .some($0) },
                addSources: sources, removeSources: removeSources, addNeeds: needs, removeNeeds: removeNeeds, addModels: models,
                removeModels: removeModels, newDocument: newDocument, newModel: newModel)
            changes.owner = noOwner ? "" : owner
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
        static let about = CommandSpec(
            name: "label", abstract: "Change a claim's label, recording who, when and why in its history.")

        @Argument(ClaimCommands.key) var key: String
        @Argument(.choice("label", help: "The new label: \(Label.names.listed()).")) var label: Label
        @Option(.required("reason", "text", help: "Why the label changes.")) var reason: String
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.relabelClaim(key: key, to: label, reason: reason, by: by) }
            runner.output.message("Relabelled claim \(key) as \(label.rawValue).")
            return ExitCode.ok
        }
    }

    /// `claim rename`
    struct Rename: DeclaredCommand {
        static let about = CommandSpec(
            name: "rename",
            abstract: "Give a claim another key; its results, history, checklist items and test mappings follow.",
            discussion: "The rename is kept (who, when, why) and travels through export and import, so a clone that "
                + "still names the old key imports to the renamed claim, and commands given the old key name the new "
                + "one. Change the document's marker to the new key; 'lint' names a marker that still has the old one.")

        @Argument(ClaimCommands.key) var key: String
        @Argument(.required("new-key", help: "The key it takes.")) var newKey: String
        @Option(.text("reason", "text", help: "Why the key changes.")) var reason: String?
        @Option(SharedOptions.by) var by: String

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.renameClaim(key, to: newKey, reason: reason ?? "", by: by) }
            runner.output.message("Renamed claim \(key) to \(newKey).")
            return ExitCode.ok
        }
    }

    /// `claim retire`
    struct Retire: DeclaredCommand {
        static let about = CommandSpec(
            name: "retire",
            abstract: "Retire a claim a document dropped: it leaves every list, report, checklist and count.",
            discussion: "Its results, label history and words are kept, 'claim show' and 'history' still show them, and "
                + "'claim list --retired' lists it. The retirement is only ever added and travels through export and "
                + "import; 'claim restore' brings the claim back. A reason is required.")

        let change = Retirement(
            .retire, reason: "Why the claim is retired, such as \"dropped from the guide\".")

        func run(_ runner: Runner) throws -> Int32 { try change.run(runner) }
    }

    /// `claim restore`
    struct Restore: DeclaredCommand {
        static let about = CommandSpec(
            name: "restore", abstract: "Bring a retired claim back into lists and reports, with its results and history.")

        let change = Retirement(.restore, reason: "Why the claim comes back.")

        func run(_ runner: Runner) throws -> Int32 { try change.run(runner) }
    }

    /// `claim retire` and `claim restore`: one record, only ever added, that
    /// takes a claim out of every list and report or brings it back.
    struct Retirement: OptionGroup {
        let action: RetirementAction
        @Argument(ClaimCommands.key) var key: String
        @Option var reason: String?
        @Option(SharedOptions.by) var by: String

        init(_ action: RetirementAction, reason help: String) {
            self.action = action
            _reason = Option(.text("reason", "text", help: help))
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.retireClaim(key, action, reason: reason ?? "", by: by) }
            runner.output.message(
                action == .retire ? "Retired claim \(key); 'evidence claim restore \(key)' brings it back." : "Brought claim \(key) back.")
            return ExitCode.ok
        }
    }

    /// `claim expect`
    struct Expect: DeclaredCommand {
        static let about = CommandSpec(
            name: "expect",
            abstract: "Record what a claim's measurement must be: within a tolerance, at most or at least a value.",
            discussion: "Such as 'status-bar clock y=171pt ±2pt' (or +-2), 'launch time<=0.4s' (at most) or "
                + "'scroll frame rate>=60fps' (at least; ≤ and ≥ also read). A result logged without --result is judged by "
                + "its measurements against these: pass when each is within what is expected, fail when one is outside, "
                + "which the note then names; a tester's --result stands, and the note says when the values disagree. "
                + "The reports show what was expected beside what was measured.")

        @Argument(ClaimCommands.key) var key: String
        @Argument(
            .required(
                "value", help: "NAME=VALUE UNIT [±TOLERANCE], NAME<=VALUE UNIT or NAME>=VALUE UNIT; with --remove, the measurement's name."))
        var value: String
        @Option(.flag("remove", help: "Drop the expected value of the measurement named instead.")) var remove: Bool
        @Option(SharedOptions.by) var by: String

        func validate() throws {
            if !remove { _ = try ExpectedValue(parsing: value) }
        }

        func run(_ runner: Runner) throws -> Int32 {
            if remove {
                try runner.with { try $0.removeExpectation(named: value, ofClaim: key, by: by) }
                runner.output.message("\(key) no longer expects a value of \(value).")
            } else {
                let expected = try ExpectedValue(parsing: value)
                try runner.with { try $0.expect(expected, ofClaim: key, by: by) }
                runner.output.message("\(key) expects \(expected.name)\(expected.bound == .within ? " =" : "") \(expected.summary).")
            }
            return ExitCode.ok
        }
    }
}
