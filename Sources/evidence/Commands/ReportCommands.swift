import EvidenceStore
import FoundationEssentials

/// report, checklist, sources, untested, status, verified-line.
enum ReportCommands {
    static let documentOption = OptionSpec(name: "document", valueName: "document", help: "Only this document.")
    static let ownerOption = OptionSpec(name: "owner", valueName: "name", help: "Only claims this person owns.")
    static let outputOption = OptionSpec(
        name: "output", valueName: "file", help: "Write to this file (replaced whole; missing folders are made) instead of standard output.")
    static let stampOption = OptionSpec(name: "stamp", help: "Print the generation time (off by default, so the bytes stay stable).")
    static let formatOption = OptionSpec(
        name: "format", valueName: "format",
        help: "markdown (GitHub-flavoured, the default) or html (one self-contained page).", choices: DocumentFormat.names)
    static let noImagesOption = OptionSpec(
        name: "no-images", help: "In HTML, name the images attached to results instead of embedding them.")

    static func document(_ kind: Reports.Kind, _ values: ParsedValues) throws -> Command {
        let format = try values.value("format").map(DocumentFormat.init(parsing:)) ?? .markdown
        if values.flag("no-images") && format != .html {
            throw UsageError(message: "--no-images goes with --format html.", path: values.path)
        }
        var options = Reports.Options(document: values.value("document"), format: format, images: !values.flag("no-images"))
        if let runs = values.value("runs") {
            if runs.lowercased() == "all" {
                options.runs = nil
            } else if let count = Int(runs), count >= 0 {
                options.runs = count
            } else {
                throw EvidenceError.invalidValue(field: "--runs", value: runs, expected: "a number of runs, 0 or more, or 'all'")
            }
        }
        return .document(kind, store: CommandTree.storePath(values), output: values.value("output"), options: options, stamp: values.flag("stamp"))
    }

    static let specs: [CommandSpec] = [
        CommandSpec(
            name: "report",
            abstract: "Write the evidence report as GitHub-flavoured Markdown or one HTML page.",
            discussion: "A legend of labels and states, claims by label and state, every claim once with its state and reason, sources, the result it rests on and its measurements against what it expects, the newest runs of the run log, what still needs a device, what went stale, what is not published, and the labels the evidence does not support. The HTML page also draws each document's claims by state and by build, a coverage matrix of claims by environment (each kind and model's current build, every build a click away), each measurement's values by build with the expected band, and screenshots side by side across builds; its filters take an address (#filter?document=NAME&state=STATE&label=LABEL&needs=CAPABILITY&model=MODEL&owner=NAME). It makes no network request, reads whole without JavaScript, and follows the reader's light or dark setting.",
            options: [
                documentOption,
                OptionSpec(
                    name: "runs", valueName: "count",
                    help: "Show the newest this many runs in the run log, or 'all' (default: \(Reports.Options.defaultRuns)); "
                        + "the report says how many it leaves out."),
                outputOption, formatOption, noImagesOption, stampOption,
            ],
            build: { try document(.report, $0) }
        ),
        CommandSpec(
            name: "checklist",
            abstract: "Write a document's checklist as a Markdown task list.",
            discussion: "An item is ticked only when every claim linked to it is verified in an environment that has every capability the claim needs; an unticked item says why.",
            options: [documentOption, outputOption, formatOption, stampOption],
            subcommands: [
                CommandSpec(
                    name: "mark",
                    abstract: "Mark a checklist item untested on purpose or checked by hand, or clear the mark.",
                    discussion: "A mark never hides a failure: an item marked untested still shows its failing claims first. --checked ticks only an item no claim is linked to; where claims are linked, their evidence decides.",
                    arguments: [ArgumentSpec(name: "item", help: "The item's key, such as surfaces.previews-and-device.")],
                    options: [
                        OptionSpec(name: "untested", help: "Mark it untested on purpose."),
                        OptionSpec(name: "checked", help: "Mark it checked by hand (only items with no linked claim)."),
                        OptionSpec(name: "reason", valueName: "text", help: "Why: what was checked, or why it stays untested."),
                        OptionSpec(name: "clear", help: "Remove the mark."),
                        SharedOptions.by,
                    ],
                    build: { values in
                        let chosen = ["untested", "checked", "clear"].filter { values.flag($0) }
                        guard chosen.count == 1 else {
                            throw UsageError(
                                message: "Give exactly one of --untested, --checked or --clear.", path: values.path)
                        }
                        let kind = TextFormat.ChecklistMark.Kind(rawValue: chosen[0])
                        if kind != nil && values.value("reason") == nil {
                            throw UsageError(message: "Missing expected argument '--reason <text>'.", path: values.path)
                        }
                        if kind == nil && values.value("reason") != nil {
                            throw UsageError(message: "--reason goes with --untested or --checked, not --clear.", path: values.path)
                        }
                        return .checklistMark(
                            store: CommandTree.storePath(values), item: try values.required("item"), mark: kind,
                            reason: values.value("reason"), by: SharedOptions.author(values))
                    }
                )
            ],
            build: { try document(.checklist, $0) }
        ),
        CommandSpec(
            name: "sources",
            abstract: "Write the source list as Markdown, grouped by publisher and kind, with the claims that cite each.",
            options: [documentOption, outputOption, formatOption, stampOption],
            build: { try document(.sources, $0) }
        ),
        CommandSpec(
            name: "untested",
            abstract: "List claims still untested or needing a device.",
            discussion: "Not-published claims record what the vendor has not said; they are not QA work, and are listed only with --all.",
            options: [
                OptionSpec(name: "needs-device", help: "Only claims that need a device."),
                OptionSpec(name: "all", help: "Include not-published claims."),
                OptionSpec(
                    name: "failing",
                    help: "Include failing claims too, each with the issues known to track it (evidence result link)."),
                ownerOption, documentOption, CommandTree.formatOption,
            ],
            build: {
                if $0.flag("needs-device") && $0.flag("failing") {
                    throw UsageError(message: "Give either --needs-device or --failing, not both.", path: $0.path)
                }
                return .untested(
                    store: CommandTree.storePath($0), needsDevice: $0.flag("needs-device"), document: $0.value("document"),
                    all: $0.flag("all"), owner: try $0.value("owner").map(Validate.owner), failing: $0.flag("failing"),
                    format: try CommandTree.format($0))
            }
        ),
        CommandSpec(
            name: "status",
            abstract: "Count claims by document (or owner), label and state, with the issues known to track failing ones.",
            options: [
                OptionSpec(
                    name: "by", valueName: "grouping", help: "document (the default) or owner (\"\" for claims with none).",
                    choices: ["document", "owner"]),
                ownerOption, documentOption, CommandTree.formatOption,
            ],
            build: {
                .status(
                    store: CommandTree.storePath($0), document: $0.value("document"),
                    byOwner: $0.value("by")?.lowercased() == "owner", owner: try $0.value("owner").map(Validate.owner),
                    format: try CommandTree.format($0))
            }
        ),
        CommandSpec(
            name: "verified-line",
            abstract: "Print the one-line summary a document's front matter carries.",
            discussion: "Such as: Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no",
            options: [documentOption],
            build: { .verifiedLine(store: CommandTree.storePath($0), document: $0.value("document")) }
        ),
    ]
}

extension Runner {
    func document(_ kind: Reports.Kind, store path: String, output file: String?, options: Reports.Options, stamp: Bool) throws
        -> Int32
    {
        if let file { try Store.refuseAsOutput(file, store: path) }
        let store = try open(path, access: .reading)
        defer { store.close() }
        var options = options
        // The time of writing, read now rather than when the command was parsed.
        if stamp { options.stamp = clock.timestamp() }
        let sink = try file.map { try TextSink.output(Store.absolutePath($0)) } ?? output.standardOutput
        try Reports.write(kind, of: store, options: options, into: sink)
        if let file {
            try sink.close()
            output.message("Wrote \(file).")
        }
        return ExitCode.ok
    }

    func checklistMark(
        store path: String, item: String, mark: TextFormat.ChecklistMark.Kind?, reason: String?, by author: String
    ) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.markChecklistItem(key: item, as: mark, reason: reason, by: author)
        switch mark {
        case .untested?: output.message("Marked \(item) untested.")
        case .checked?: output.message("Marked \(item) checked by hand.")
        case nil: output.message("Cleared the mark on \(item).")
        }
        return ExitCode.ok
    }

    func verifiedLine(store path: String, document: String?) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let document = try store.reader.resolveDocument(document)
        output.write(try store.verifiedLine(document: document) + "\n")
        return ExitCode.ok
    }

    func demo(store path: String?) throws -> Int32 {
        let target: String
        if let path {
            target = path
        } else {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("evidence-demo-\(UUID().uuidString.prefix(8).lowercased())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            target = folder.appendingPathComponent("evidence.sqlite").path
        }
        let (store, _) = try Store.initialize(at: target, clock: clock)
        defer { store.close() }
        let summary = try StoreImporter(store: store).run(BundledSeed())
        output.message("Demo store: \(store.path) (the iPhone Duo data set: \(summary)).")
        try Reports.markdown(.report, of: store, into: output.standardOutput)
        return ExitCode.ok
    }
}
