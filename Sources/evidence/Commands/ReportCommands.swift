import EvidenceStore

/// report, checklist, sources, untested, status, verified-line.
enum ReportCommands {
    static let specs: [CommandSpec] = [
        Report.declaration,
        CommandSpec(Checklist.self, subcommands: [Mark.self]),
        Sources.declaration, Untested.declaration, Status.declaration, VerifiedLine.declaration,
    ]

    static let document = OptionDeclaration.text("document", "document", help: "Only this document.")
    static let output = OptionDeclaration.text(
        "output", "file", help: "Write to this file (replaced whole; missing folders are made) instead of standard output.")
    static let stamp = OptionDeclaration.flag("stamp", help: "Print the generation time (off by default, so the bytes stay stable).")
    static let format = OptionDeclaration<DocumentFormat?>.choice(
        "format", "format", help: "markdown (GitHub-flavoured, the default) or html (one self-contained page).").defaulting(to: .markdown)

    /// Writes a document of the store to `output` (standard output when nil),
    /// stamped with the time of writing when `stamp` says so.
    static func write(_ kind: Reports.Kind, _ options: Reports.Options, to output: String?, stamp: Bool, _ runner: Runner) throws
        -> Int32
    {
        if let output { try Store.refuseAsOutput(output, store: runner.store) }
        let opened = try runner.open(access: .reading)
        defer { opened.close() }
        var options = options
        if stamp { options.stamp = runner.clock.timestamp() }
        let sink = try output.map { try TextSink.output(Store.absolutePath($0)) } ?? runner.output.standardOutput
        try Reports.write(kind, of: opened, options: options, into: sink)
        if let output {
            try sink.close()
            runner.output.message("Wrote \(output).")
        }
        return ExitCode.ok
    }
}

extension ReportCommands {
    /// What `checklist` and `sources` take: which document, where it goes and in what format.
    struct DocumentRequest: OptionGroup {
        @Option(ReportCommands.document) var document: String?
        @Option(ReportCommands.output) var output: String?
        @Option(ReportCommands.format) var format: DocumentFormat
        @Option(ReportCommands.stamp) var stamp: Bool

        func run(_ kind: Reports.Kind, _ runner: Runner) throws -> Int32 {
            try write(kind, Reports.Options(document: document, format: format, images: true), to: output, stamp: stamp, runner)
        }
    }

    /// `report`
    struct Report: DeclaredCommand {
        static let about = CommandSpec(
            name: "report",
            abstract: "Write the evidence report as GitHub-flavoured Markdown or one HTML page.",
            discussion: "A legend of labels and states, claims by label and state, every claim once with its state and reason, sources, the result it rests on and its measurements against what it expects, the newest runs of the run log, what still needs a device, what went stale, what is not published, and the labels the evidence does not support. The HTML page also draws each document's claims by state and by build, a coverage matrix of claims by environment (each kind and model's current build, every build a click away), each measurement's values by build with the expected band, and screenshots side by side across builds; its filters take an address (#filter?document=NAME&state=STATE&label=LABEL&needs=CAPABILITY&model=MODEL&owner=NAME). It makes no network request, reads whole without JavaScript, and follows the reader's light or dark setting.")

        @Option(ReportCommands.document) var document: String?
        @Option(
            OptionDeclaration.text(
                "runs", "count",
                help: "Show the newest this many runs in the run log, or 'all' (default: \(Reports.Options.defaultRuns)); "
                    + "the report says how many it leaves out."
            ).map { text -> Int? in
                guard let text else { return Reports.Options.defaultRuns }
                if text.lowercased() == "all" { return nil }
                guard let count = Int(text), count >= 0 else {
                    throw EvidenceError.invalidValue(field: "--runs", value: text, expected: "a number of runs, 0 or more, or 'all'")
                }
                return count
            })
        var runs: Int?
        @Option(ReportCommands.output) var output: String?
        @Option(ReportCommands.format) var format: DocumentFormat
        @Option(.flag("no-images", help: "In HTML, name the images attached to results instead of embedding them.")) var noImages: Bool
        @Option(ReportCommands.stamp) var stamp: Bool

        func validate() throws {
            if noImages && format != .html { throw UsageError(message: "--no-images goes with --format html.") }
        }

        func run(_ runner: Runner) throws -> Int32 {
            var options = Reports.Options(document: document, format: format, images: !noImages)
            options.runs = runs
            return try write(.report, options, to: output, stamp: stamp, runner)
        }
    }

    /// `checklist`
    struct Checklist: DeclaredCommand {
        static let about = CommandSpec(
            name: "checklist",
            abstract: "Write a document's checklist as a Markdown task list.",
            discussion: "An item is ticked only when every claim linked to it is verified in an environment that has every capability the claim needs; an unticked item says why.")

        let request = DocumentRequest()

        func run(_ runner: Runner) throws -> Int32 { try request.run(.checklist, runner) }
    }

    /// `sources`
    struct Sources: DeclaredCommand {
        static let about = CommandSpec(
            name: "sources",
            abstract: "Write the source list as Markdown, grouped by publisher and kind, with the claims that cite each.")

        let request = DocumentRequest()

        func run(_ runner: Runner) throws -> Int32 { try request.run(.sources, runner) }
    }

    /// `checklist mark`
    struct Mark: DeclaredCommand {
        static let about = CommandSpec(
            name: "mark",
            abstract: "Mark a checklist item untested on purpose or checked by hand, or clear the mark.",
            discussion: "A mark never hides a failure: an item marked untested still shows its failing claims first. --checked ticks only an item no claim is linked to; where claims are linked, their evidence decides.")

        @Argument(.required("item", help: "The item's key, such as surfaces.previews-and-device.")) var item: String
        @Option(.flag("untested", help: "Mark it untested on purpose.")) var untested: Bool
        @Option(.flag("checked", help: "Mark it checked by hand (only items with no linked claim).")) var checked: Bool
        @Option(.text("reason", "text", help: "Why: what was checked, or why it stays untested.")) var reason: String?
        @Option(.flag("clear", help: "Remove the mark.")) var clear: Bool
        @Option(SharedOptions.by) var by: String

        /// The mark to set; nil clears it.
        var mark: TextFormat.ChecklistMark.Kind? { untested ? .untested : checked ? .checked : nil }

        func validate() throws {
            guard [untested, checked, clear].filter({ $0 }).count == 1 else {
                throw UsageError(message: "Give exactly one of --untested, --checked or --clear.")
            }
            if mark != nil && reason == nil { throw UsageError.missing("--reason <text>", path: []) }
            if mark == nil && reason != nil {
                throw UsageError(message: "--reason goes with --untested or --checked, not --clear.")
            }
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.with { try $0.markChecklistItem(key: item, as: mark, reason: reason, by: by) }
            switch mark {
            case .untested?: runner.output.message("Marked \(item) untested.")
            case .checked?: runner.output.message("Marked \(item) checked by hand.")
            case nil: runner.output.message("Cleared the mark on \(item).")
            }
            return ExitCode.ok
        }
    }

    /// `untested`
    struct Untested: DeclaredCommand {
        static let about = CommandSpec(
            name: "untested",
            abstract: "List claims still untested or needing a device.",
            discussion: "Not-published claims record what the vendor has not said; they are not QA work, and are listed only with --all.")

        @Option(.flag("needs-device", help: "Only claims that need a device.")) var needsDevice: Bool
        @Option(.flag("all", help: "Include not-published claims.")) var all: Bool
        @Option(
            .flag(
                "failing",
                help: "Include every failing claim too, not-published ones included (no label hides a fail), each with the issues known to track it (evidence result link)."))
        var failing: Bool
        @Option(SharedOptions.owner) var owner: String?
        @Option(ReportCommands.document) var document: String?
        @Option(CommandTree.format) var format: OutputFormat

        func validate() throws {
            if needsDevice && failing { throw UsageError(message: "Give either --needs-device or --failing, not both.") }
        }

        func run(_ runner: Runner) throws -> Int32 {
            try runner.listing(format: format) {
                let document = try $0.reader.resolveDocument(document)
                return Tabular(
                    try $0.reader.untestedList(
                        needsDevice: needsDevice, document: document, all: all, owner: try $0.reader.resolveOwner(owner),
                        failing: failing))
            }
        }
    }

    /// `status`
    struct Status: DeclaredCommand {
        static let about = CommandSpec(
            name: "status",
            abstract: "Count claims by document (or owner), label and state, with the issues known to track failing ones.")

        @Option(
            OptionDeclaration.text("by", "grouping", help: "document (the default) or owner (\"\" for claims with none).")
                .accepting(["document", "owner"]).map { $0?.lowercased() == "owner" })
        var byOwner: Bool
        @Option(SharedOptions.owner) var owner: String?
        @Option(ReportCommands.document) var document: String?
        @Option(CommandTree.format) var format: OutputFormat

        func run(_ runner: Runner) throws -> Int32 {
            try runner.listing(format: format) {
                let document = try $0.reader.resolveDocument(document)
                let counts = try $0.reader.stateCounts(document: document, byOwner: byOwner, owner: try $0.reader.resolveOwner(owner))
                return StateCount.table(counts, by: byOwner ? "owner" : "document")
            }
        }
    }

    /// `verified-line`
    struct VerifiedLine: DeclaredCommand {
        static let about = CommandSpec(
            name: "verified-line",
            abstract: "Print the one-line summary a document's front matter carries.",
            discussion: "Such as: Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no")

        @Option(ReportCommands.document) var document: String?

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            let document = try opened.reader.resolveDocument(document)
            runner.output.write(try opened.verifiedLine(document: document) + "\n")
            return ExitCode.ok
        }
    }
}
