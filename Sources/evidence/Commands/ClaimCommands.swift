import EvidenceStore

/// claim add, list, show, edit, label.
enum ClaimCommands {
    static let newDocument = OptionSpec(
        name: "new-document", help: "Start a document whose name is close to an existing one, instead of taking it for a typo.")

    static let ownerOption = OptionSpec(
        name: "owner", valueName: "name", help: "Who answers for it: the person QA asks and leads follow up with.")

    static let spec = CommandSpec(
        name: "claim",
        abstract: "Add, list, show, edit and relabel claims.",
        subcommands: [
            CommandSpec(
                name: "add",
                abstract: "Add a claim a document makes.",
                arguments: [ArgumentSpec(name: "key", help: "The claim's stable key, such as island.clock-offset.closed.")],
                options: [
                    OptionSpec(name: "statement", valueName: "text", help: "What the document says.", isRequired: true),
                    OptionSpec(name: "document", valueName: "document", help: "The document it belongs to.", isRequired: true),
                    OptionSpec(name: "area", valueName: "area", help: "The section, such as \"Live Activities\".", isRequired: true),
                    OptionSpec(
                        name: "label", valueName: "label",
                        help: "What the document says it is: \(Choices.list(Label.names)).", isRequired: true,
                        choices: Label.names),
                    OptionSpec(name: "as-of", valueName: "date", help: "The date the label holds as of (YYYY-MM-DD)."),
                    OptionSpec(
                        name: "source", valueName: "url", help: "A source it cites, with an optional locator (URL#StandBy, URL?time=94).",
                        isRepeatable: true),
                    OptionSpec(name: "needs", valueName: "capability", help: "A capability checking it needs.", isRepeatable: true),
                    OptionSpec(
                        name: "model", valueName: "model",
                        help: "A device model it speaks about, such as \"iPhone Duo\" (default: its document's; none: any model).",
                        isRepeatable: true),
                    ownerOption,
                    newDocument,
                    SharedOptions.newModel,
                    SharedOptions.by,
                ],
                build: { values in
                    .claimAdd(
                        store: CommandTree.storePath(values),
                        draft: ClaimDraft(
                            key: try values.required("key"), statement: try values.required("statement"),
                            document: try values.required("document"), area: try values.required("area"),
                            label: try Label(parsing: try values.required("label")), asOf: values.value("as-of"),
                            sources: values.values("source"), needs: values.values("needs"),
                            models: values.values("model"), newDocument: values.flag("new-document"),
                            newModel: values.flag("new-model"), owner: values.value("owner") ?? ""),
                        by: SharedOptions.author(values))
                }
            ),
            CommandSpec(
                name: "list",
                abstract: "List claims with their label and derived state.",
                options: [
                    OptionSpec(name: "document", valueName: "document", help: "Only claims of this document."),
                    OptionSpec(name: "area", valueName: "area", help: "Only claims of this area."),
                    OptionSpec(name: "label", valueName: "label", help: "Only claims with this label.", choices: Label.names),
                    OptionSpec(
                        name: "state", valueName: "state",
                        help: "Only claims in this state: \(Choices.list(VerificationState.names)).",
                        choices: VerificationState.names),
                    OptionSpec(name: "owner", valueName: "name", help: "Only claims this person owns."),
                    CommandTree.formatOption,
                ],
                build: { values in
                    .claimList(
                        store: CommandTree.storePath(values),
                        filter: ClaimFilter(
                            document: values.value("document"), area: values.value("area"),
                            label: try values.value("label").map(Label.init(parsing:)),
                            state: try values.value("state").map(VerificationState.init(parsing:)),
                            owner: try values.value("owner").map(Validate.owner)),
                        format: try CommandTree.format(values))
                }
            ),
            CommandSpec(
                name: "show",
                abstract: "Show a claim: its sources, every result with its environment and measurements, its label history and its state.",
                arguments: [ArgumentSpec(name: "key", help: "The claim's key.")],
                options: [CommandTree.detailFormatOption],
                build: { values in
                    .claimShow(
                        store: CommandTree.storePath(values), key: try values.required("key"),
                        format: try CommandTree.detailFormat(values))
                }
            ),
            CommandSpec(
                name: "edit",
                abstract: "Change a claim's statement, document, area, date, sources, needed capabilities or models.",
                discussion: "The label changes only through 'evidence claim label', which records why. A new statement makes earlier passes stale: they proved other words. Only results on the models a claim speaks about decide its state; a claim with none speaks about any model.",
                arguments: [ArgumentSpec(name: "key", help: "The claim's key.")],
                options: [
                    OptionSpec(name: "statement", valueName: "text", help: "The new statement."),
                    OptionSpec(name: "document", valueName: "document", help: "The new document."),
                    OptionSpec(name: "area", valueName: "area", help: "The new area."),
                    OptionSpec(name: "as-of", valueName: "date", help: "The new as-of date (YYYY-MM-DD)."),
                    OptionSpec(name: "clear-as-of", help: "Remove the as-of date."),
                    OptionSpec(name: "source", valueName: "url", help: "Cite another source (URL[#locator]).", isRepeatable: true),
                    OptionSpec(name: "remove-source", valueName: "url", help: "Stop citing a source (URL[#locator]).", isRepeatable: true),
                    OptionSpec(name: "needs", valueName: "capability", help: "Add a needed capability.", isRepeatable: true),
                    OptionSpec(name: "remove-needs", valueName: "capability", help: "Remove a needed capability.", isRepeatable: true),
                    OptionSpec(name: "model", valueName: "model", help: "A device model it also speaks about.", isRepeatable: true),
                    OptionSpec(
                        name: "remove-model", valueName: "model", help: "A device model it no longer speaks about.",
                        isRepeatable: true),
                    ownerOption,
                    OptionSpec(name: "no-owner", help: "Leave it with no owner."),
                    newDocument,
                    SharedOptions.newModel,
                    SharedOptions.by,
                ],
                build: { values in
                    if values.value("as-of") != nil && values.flag("clear-as-of") {
                        throw UsageError(message: "Give either --as-of or --clear-as-of, not both.", path: values.path)
                    }
                    let asOf: String?? = values.flag("clear-as-of") ? .some(nil) : values.value("as-of").map { .some($0) }
                    if values.value("owner") != nil && values.flag("no-owner") {
                        throw UsageError(message: "Give either --owner or --no-owner, not both.", path: values.path)
                    }
                    var changes = ClaimChanges(
                        statement: values.value("statement"), document: values.value("document"),
                        area: values.value("area"), asOf: asOf, addSources: values.values("source"),
                        removeSources: values.values("remove-source"), addNeeds: values.values("needs"),
                        removeNeeds: values.values("remove-needs"), addModels: values.values("model"),
                        removeModels: values.values("remove-model"), newDocument: values.flag("new-document"),
                        newModel: values.flag("new-model"))
                    changes.owner = values.flag("no-owner") ? "" : values.value("owner")
                    return .claimEdit(
                        store: CommandTree.storePath(values), key: try values.required("key"),
                        changes: changes, by: SharedOptions.author(values))
                }
            ),
            CommandSpec(
                name: "label",
                abstract: "Change a claim's label, recording who, when and why in its history.",
                arguments: [
                    ArgumentSpec(name: "key", help: "The claim's key."),
                    ArgumentSpec(
                        name: "label", help: "The new label: \(Choices.list(Label.names)).", choices: Label.names),
                ],
                options: [
                    OptionSpec(name: "reason", valueName: "text", help: "Why the label changes.", isRequired: true),
                    SharedOptions.by,
                ],
                build: { values in
                    .claimLabel(
                        store: CommandTree.storePath(values), key: try values.required("key"),
                        label: try Label(parsing: values.argument("label") ?? ""),
                        reason: try values.required("reason"), by: SharedOptions.author(values))
                }
            ),
            CommandSpec(
                name: "expect",
                abstract: "Record what a claim's measurement must be, within a tolerance.",
                discussion: "Such as 'status-bar clock y=171pt ±2pt' (or +-2). A result logged without --result is judged by "
                    + "its measurements against these: pass when each is within its tolerance, fail when one is outside, "
                    + "which the note then names; a tester's --result stands, and the note says when the values disagree. "
                    + "The reports show what was expected beside what was measured.",
                arguments: [
                    ArgumentSpec(name: "key", help: "The claim's key."),
                    ArgumentSpec(name: "value", help: "NAME=VALUE UNIT [±TOLERANCE]; with --remove, the measurement's name."),
                ],
                options: [
                    OptionSpec(name: "remove", help: "Drop the expected value of the measurement named instead."), SharedOptions.by,
                ],
                build: { values in
                    let key = try values.required("key")
                    let value = try values.required("value")
                    let author = SharedOptions.author(values)
                    if values.flag("remove") {
                        return .claimUnexpect(store: CommandTree.storePath(values), key: key, name: value, by: author)
                    }
                    return .claimExpect(
                        store: CommandTree.storePath(values), key: key, expected: try ExpectedValue(parsing: value), by: author)
                }
            ),
        ]
    )
}

extension Runner {
    func claimExpect(store path: String, key: String, expected: ExpectedValue, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.expect(expected, ofClaim: key, by: author)
        output.message("\(key) expects \(expected.name) = \(expected.summary).")
        return ExitCode.ok
    }

    func claimUnexpect(store path: String, key: String, name: String, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.removeExpectation(named: name, ofClaim: key, by: author)
        output.message("\(key) no longer expects a value of \(name).")
        return ExitCode.ok
    }

    func claimAdd(store path: String, draft: ClaimDraft, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        let claim = try store.addClaim(draft, by: author)
        output.message("Added claim \(claim.key) (\(claim.label.rawValue)).")
        return ExitCode.ok
    }

    func claimList(store path: String, filter: ClaimFilter, format: OutputFormat) throws -> Int32 {
        try listing(store: path, format: format) { Tabular(try $0.reader.claimList(filter)) }
    }

    func claimShow(store path: String, key: String, format: DetailFormat) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let detail = try store.reader.claimDetail(key: key)
        output.write(format == .json ? DetailRenderer.json(detail).rendered() : DetailRenderer.text(detail))
        return ExitCode.ok
    }

    func claimEdit(store path: String, key: String, changes: ClaimChanges, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        let edit = try store.editClaim(key: key, changes, by: author)
        output.message("Edited claim \(key).")
        if !edit.earlierProof.isEmpty {
            let runs = edit.earlierProof.map { "run \($0)" }.joined(separator: ", ")
            output.message(
                "Its statement changed: the passes of \(runs) proved the earlier words, so \(key) is stale until it is checked again.")
        }
        return ExitCode.ok
    }

    func claimLabel(store path: String, key: String, label: Label, reason: String, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.relabelClaim(key: key, to: label, reason: reason, by: author)
        output.message("Relabelled claim \(key) as \(label.rawValue).")
        return ExitCode.ok
    }
}
