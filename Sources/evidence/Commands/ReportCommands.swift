import EvidenceStore
import Foundation

/// report, checklist, sources, untested, status, verified-line.
enum ReportCommands {
    static let documentOption = OptionSpec(name: "document", valueName: "document", help: "Only this document.")
    static let outputOption = OptionSpec(
        name: "output", valueName: "file", help: "Write to this file (replaced whole) instead of standard output.")
    static let stampOption = OptionSpec(name: "stamp", help: "Print the generation time (off by default, so the bytes stay stable).")

    static func markdown(_ kind: Reports.Kind, _ values: ParsedValues) throws -> Command {
        .document(
            kind, store: CommandTree.storePath(values), document: values.value("document"),
            output: values.value("output"), stamp: values.flag("stamp"))
    }

    static let specs: [CommandSpec] = [
        CommandSpec(
            name: "report",
            abstract: "Write the evidence report as GitHub-flavoured Markdown.",
            discussion: "A legend of labels and states, claims by label and state, every claim with its state and reason, sources and evidence, the run log, what still needs a device, what went stale, what is not published, and the labels the evidence does not support.",
            options: [documentOption, outputOption, stampOption],
            build: { try markdown(.report, $0) }
        ),
        CommandSpec(
            name: "checklist",
            abstract: "Write a document's checklist as a Markdown task list.",
            discussion: "An item is ticked only when every claim linked to it is verified in an environment that has every capability the claim needs; an unticked item says why.",
            options: [documentOption, outputOption, stampOption],
            subcommands: [
                CommandSpec(
                    name: "mark",
                    abstract: "Mark a checklist item untested on purpose, or clear the mark.",
                    arguments: [ArgumentSpec(name: "item", help: "The item's key, such as surfaces.previews-and-device.")],
                    options: [
                        OptionSpec(name: "untested", help: "Mark it untested."),
                        OptionSpec(name: "reason", valueName: "text", help: "Why it stays untested."),
                        OptionSpec(name: "clear", help: "Remove the mark."),
                        SharedOptions.by,
                    ],
                    build: { values in
                        let untested = values.flag("untested")
                        let clear = values.flag("clear")
                        guard untested != clear else {
                            throw UsageError(message: "Give exactly one of --untested or --clear.", path: values.path)
                        }
                        if untested && values.value("reason") == nil {
                            throw UsageError(message: "Missing expected argument '--reason <text>'.", path: values.path)
                        }
                        if clear && values.value("reason") != nil {
                            throw UsageError(message: "--reason goes with --untested, not --clear.", path: values.path)
                        }
                        return .checklistMark(
                            store: CommandTree.storePath(values), item: values.required("item"),
                            reason: untested ? values.value("reason") : nil, by: SharedOptions.author(values))
                    }
                )
            ],
            build: { try markdown(.checklist, $0) }
        ),
        CommandSpec(
            name: "sources",
            abstract: "Write the source list as Markdown, grouped by publisher and kind, with the claims that cite each.",
            options: [documentOption, outputOption, stampOption],
            build: { try markdown(.sources, $0) }
        ),
        CommandSpec(
            name: "untested",
            abstract: "List claims still untested or needing a device.",
            options: [
                OptionSpec(name: "needs-device", help: "Only claims that need a device."),
                documentOption, CommandTree.formatOption,
            ],
            build: {
                .untested(
                    store: CommandTree.storePath($0), needsDevice: $0.flag("needs-device"), document: $0.value("document"),
                    format: try CommandTree.format($0))
            }
        ),
        CommandSpec(
            name: "status",
            abstract: "Count claims by document, label and state.",
            options: [documentOption, CommandTree.formatOption],
            build: {
                .status(store: CommandTree.storePath($0), document: $0.value("document"), format: try CommandTree.format($0))
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
    func document(_ kind: Reports.Kind, store path: String, document: String?, output file: String?, stamp: Bool) throws
        -> Int32
    {
        let store = try open(path)
        defer { store.close() }
        let options = Reports.Options(document: document, stamp: stamp ? clock.timestamp() : nil)
        let sink = try file.map { try TextSink(path: Store.absolutePath($0)) } ?? output.standardOutput
        try Reports.markdown(kind, of: store, options: options, into: sink)
        if let file {
            try sink.close()
            output.message("Wrote \(file).")
        }
        return ExitCode.ok
    }

    func checklistMark(store path: String, item: String, reason: String?, by author: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.markChecklistItem(key: item, untestedReason: reason, by: author)
        output.message(reason == nil ? "Cleared the mark on \(item)." : "Marked \(item) untested.")
        return ExitCode.ok
    }

    func verifiedLine(store path: String, document: String?) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        try store.reader.checkDocument(document)
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
