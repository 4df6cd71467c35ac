import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// report, checklist, sources, untested, status, verified-line.
enum ReportCommands {
    static let specs: [CommandSpec] = [
        Report.declaration,
        CommandSpec(Checklist.self, subcommands: [Mark.self]),
        Sources.declaration, Untested.declaration, Status.declaration, VerifiedLine.declaration,
    ]

    static let document = Option.text("document", "document", help: "Only this document.")
    static let owner = Option.text("owner", "name", help: "Only claims this person owns.").map { try $0.map(Validate.owner) }
}

extension ReportCommands {
    /// What `report`, `checklist` and `sources` share: which document, where
    /// it goes and in what format.
    struct DocumentRequest: Equatable, Sendable {
        static let output = Option.text(
            "output", "file", help: "Write to this file (replaced whole; missing folders are made) instead of standard output.")
        static let stamp = Option.flag("stamp", help: "Print the generation time (off by default, so the bytes stay stable).")
        static let format = Option.choice(
            "format", "format", help: "markdown (GitHub-flavoured, the default) or html (one self-contained page).",
            of: DocumentFormat.self
        ).defaulting(to: .markdown)
        static let noImages = Option.flag("no-images", help: "In HTML, name the images attached to results instead of embedding them.")
        static let runs = Option.text(
            "runs", "count",
            help: "Show the newest this many runs in the run log, or 'all' (default: \(Reports.Options.defaultRuns)); "
                + "the report says how many it leaves out.")

        /// The options of `checklist` and `sources`.
        static let options: [OptionSpec] = [document.option, output.option, format.option, stamp.option]

        let kind: Reports.Kind
        let output: String?
        let options: Reports.Options
        /// The generation time is printed, read when the command runs.
        let stamp: Bool

        init(_ kind: Reports.Kind, _ values: ParsedValues) throws {
            let format = try values[Self.format]
            let images = kind == .report ? !(try values[Self.noImages]) : true
            if !images && format != .html {
                throw UsageError(message: "--no-images goes with --format html.", path: values.path)
            }
            var options = Reports.Options(document: try values[document], format: format, images: images)
            if kind == .report, let runs = try values[Self.runs] {
                if runs.lowercased() == "all" {
                    options.runs = nil
                } else if let count = Int(runs), count >= 0 {
                    options.runs = count
                } else {
                    throw EvidenceError.invalidValue(field: "--runs", value: runs, expected: "a number of runs, 0 or more, or 'all'")
                }
            }
            self.kind = kind
            output = try values[Self.output]
            self.options = options
            stamp = try values[Self.stamp]
        }

        func run(_ runner: Runner) throws -> Int32 {
            if let output { try Store.refuseAsOutput(output, store: runner.store) }
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            var options = options
            // The time of writing, read now rather than when the command was parsed.
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

    /// `report`
    struct Report: DeclaredCommand {
        static let spec = CommandSpec(
            name: "report",
            abstract: "Write the evidence report as GitHub-flavoured Markdown or one HTML page.",
            discussion: "A legend of labels and states, claims by label and state, every claim once with its state and reason, sources, the result it rests on and its measurements against what it expects, the newest runs of the run log, what still needs a device, what went stale, what is not published, and the labels the evidence does not support. The HTML page also draws each document's claims by state and by build, a coverage matrix of claims by environment (each kind and model's current build, every build a click away), each measurement's values by build with the expected band, and screenshots side by side across builds; its filters take an address (#filter?document=NAME&state=STATE&label=LABEL&needs=CAPABILITY&model=MODEL&owner=NAME). It makes no network request, reads whole without JavaScript, and follows the reader's light or dark setting.",
            options: [
                document.option, DocumentRequest.runs.option, DocumentRequest.output.option, DocumentRequest.format.option, DocumentRequest.noImages.option,
                DocumentRequest.stamp.option,
            ])

        let request: DocumentRequest

        init(_ values: ParsedValues) throws { request = try DocumentRequest(.report, values) }

        func run(_ runner: Runner) throws -> Int32 { try request.run(runner) }
    }

    /// `checklist`
    struct Checklist: DeclaredCommand {
        static let spec = CommandSpec(
            name: "checklist",
            abstract: "Write a document's checklist as a Markdown task list.",
            discussion: "An item is ticked only when every claim linked to it is verified in an environment that has every capability the claim needs; an unticked item says why.",
            options: DocumentRequest.options)

        let request: DocumentRequest

        init(_ values: ParsedValues) throws { request = try DocumentRequest(.checklist, values) }

        func run(_ runner: Runner) throws -> Int32 { try request.run(runner) }
    }

    /// `sources`
    struct Sources: DeclaredCommand {
        static let spec = CommandSpec(
            name: "sources",
            abstract: "Write the source list as Markdown, grouped by publisher and kind, with the claims that cite each.",
            options: DocumentRequest.options)

        let request: DocumentRequest

        init(_ values: ParsedValues) throws { request = try DocumentRequest(.sources, values) }

        func run(_ runner: Runner) throws -> Int32 { try request.run(runner) }
    }

    /// `checklist mark`
    struct Mark: DeclaredCommand {
        static let item = Argument.required("item", help: "The item's key, such as surfaces.previews-and-device.")
        static let untested = Option.flag("untested", help: "Mark it untested on purpose.")
        static let checked = Option.flag("checked", help: "Mark it checked by hand (only items with no linked claim).")
        static let reason = Option.text("reason", "text", help: "Why: what was checked, or why it stays untested.")
        static let clear = Option.flag("clear", help: "Remove the mark.")
        static let spec = CommandSpec(
            name: "mark",
            abstract: "Mark a checklist item untested on purpose or checked by hand, or clear the mark.",
            discussion: "A mark never hides a failure: an item marked untested still shows its failing claims first. --checked ticks only an item no claim is linked to; where claims are linked, their evidence decides.",
            arguments: [item.argument], options: [untested.option, checked.option, reason.option, clear.option, SharedOptions.by.option])

        let item: String
        /// The mark to set; nil clears it.
        let mark: TextFormat.ChecklistMark.Kind?
        let reason: String?
        let by: String

        init(_ values: ParsedValues) throws {
            let chosen: [(Option<Bool>, TextFormat.ChecklistMark.Kind?)] = [(Self.untested, .untested), (Self.checked, .checked), (Self.clear, nil)]
            let given = try chosen.filter { try values[$0.0] }
            guard given.count == 1 else {
                throw UsageError(message: "Give exactly one of --untested, --checked or --clear.", path: values.path)
            }
            let mark = given[0].1
            let reason = try values[Self.reason]
            if mark != nil && reason == nil {
                throw UsageError.missing(Self.reason.option.synopsis, path: values.path)
            }
            if mark == nil && reason != nil {
                throw UsageError(message: "--reason goes with --untested or --checked, not --clear.", path: values.path)
            }
            item = try values[Self.item]
            self.mark = mark
            self.reason = reason
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            try opened.markChecklistItem(key: item, as: mark, reason: reason, by: by)
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
        static let needsDevice = Option.flag("needs-device", help: "Only claims that need a device.")
        static let all = Option.flag("all", help: "Include not-published claims.")
        static let failing = Option.flag(
            "failing",
            help: "Include every failing claim too, not-published ones included (no label hides a fail), each with the issues known to track it (evidence result link).")
        static let spec = CommandSpec(
            name: "untested",
            abstract: "List claims still untested or needing a device.",
            discussion: "Not-published claims record what the vendor has not said; they are not QA work, and are listed only with --all.",
            options: [needsDevice.option, all.option, failing.option, ReportCommands.owner.option, ReportCommands.document.option, CommandTree.format.option])

        let needsDevice: Bool
        let document: String?
        let all: Bool
        let owner: String?
        let failing: Bool
        let format: OutputFormat

        init(_ values: ParsedValues) throws {
            needsDevice = try values[Self.needsDevice]
            failing = try values[Self.failing]
            if needsDevice && failing {
                throw UsageError(message: "Give either --needs-device or --failing, not both.", path: values.path)
            }
            document = try values[ReportCommands.document]
            all = try values[Self.all]
            owner = try values[ReportCommands.owner]
            format = try values[CommandTree.format]
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
        static let by = Option.text("by", "grouping", help: "document (the default) or owner (\"\" for claims with none).")
            .accepting(["document", "owner"]).map { $0?.lowercased() == "owner" }
        static let spec = CommandSpec(
            name: "status",
            abstract: "Count claims by document (or owner), label and state, with the issues known to track failing ones.",
            options: [by.option, ReportCommands.owner.option, ReportCommands.document.option, CommandTree.format.option])

        let document: String?
        let byOwner: Bool
        let owner: String?
        let format: OutputFormat

        init(_ values: ParsedValues) throws {
            document = try values[ReportCommands.document]
            byOwner = try values[Self.by]
            owner = try values[ReportCommands.owner]
            format = try values[CommandTree.format]
        }

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
        static let spec = CommandSpec(
            name: "verified-line",
            abstract: "Print the one-line summary a document's front matter carries.",
            discussion: "Such as: Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no",
            options: [ReportCommands.document.option])

        let document: String?

        init(_ values: ParsedValues) throws {
            document = try values[ReportCommands.document]
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            let document = try opened.reader.resolveDocument(document)
            runner.output.write(try opened.verifiedLine(document: document) + "\n")
            return ExitCode.ok
        }
    }
}
