import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// lint and annotate: Markdown documents checked against the store.
enum LintCommands {}

extension LintCommands {
    /// `lint`
    struct Lint: DeclaredCommand {
        static let file = Argument.variadic("file", help: "A Markdown document.")
        static let document = Option.text("document", "name", help: "The document's name in the store (for every file).")
        static let format = Option.choice(
            "format", "format", help: "text (the default), json (one object a line) or github (annotations).",
            of: LintOutput.Format.self
        ).defaulting(to: .text)
        static let strict = Option.flag("strict", help: "Exit 1 on warnings too.")
        static let write = Option.flag(
            "write", help: "Rewrite the generated blocks and the verified: field in place; print what changed.")
        static let sync = Option.flag(
            "sync",
            help: "The document leads: carry changed words and labels, and new claims (the sentence a marker ends, in its "
                + "section's area), into the store; with --write, then rewrite the document's blocks.")
        static let dryRun = Option.flag("dry-run", help: "With --sync, print the changes and write nothing.")
        static let spec = CommandSpec(
            name: "lint",
            abstract: "Check Markdown documents against the evidence: words, labels, numbers, links, verified line, generated blocks.",
            discussion: "A claim marker is an HTML comment at the end of the text it marks: <!-- evidence: KEY (LABEL) -->, in a "
                + "table row's last cell (the first cell holds the words), or after a list item's or paragraph's words; "
                + "the words may be the last whole sentences before it. Proof only on older builds is a stale-proof warning. "
                + "Generated blocks sit between <!-- evidence:checklist --> and <!-- /evidence:checklist --> (also untested and "
                + "sources). Findings print as FILE:LINE:COL: error|warning: message [rule]. Exit 0 when clean, 1 when any "
                + "error (or, with --strict, any warning). The document's name is its front matter's name:, else its file "
                + "name; --document overrides it.",
            arguments: [file.argument],
            options: [document.option, format.option, strict.option, write.option, SharedOptions.breakHardLinks.option, sync.option, dryRun.option,
                      SharedOptions.by.option])

        let files: [String]
        let document: String?
        let format: LintOutput.Format
        let strict: Bool
        let mode: LintMode
        let breakHardLinks: Bool
        let by: String

        init(_ values: ParsedValues) throws {
            let dryRun = try values[Self.dryRun]
            switch (try values[Self.write], try values[Self.sync]) {
            case (true, true) where dryRun: throw UsageError(message: "--dry-run writes nothing; leave out --write.", path: values.path)
            case (let write, true): mode = .sync(dryRun: dryRun, write: write)
            case (true, false): mode = .write
            case (false, false): mode = .check
            }
            if try dryRun && !values[Self.sync] {
                throw UsageError(message: "--dry-run goes with --sync.", path: values.path)
            }
            files = try values[Self.file]
            document = try values[Self.document]
            format = try values[Self.format]
            strict = try values[Self.strict]
            breakHardLinks = try values[SharedOptions.breakHardLinks]
            if breakHardLinks && !mode.writesTheDocument {
                throw UsageError(message: "--break-hard-links goes with --write.", path: values.path)
            }
            by = try SharedOptions.author(values)
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: mode.writesTheStore ? .readWrite : .reading)
            defer { opened.close() }
            var findings: [LintFinding] = []
            for file in files {
                switch mode {
                case .check:
                    findings += try DocumentLint.lint(file: file, text: try DocumentLint.readDocument(file), store: opened, document: document)
                case .write:
                    try rewrite(file, opened, runner)
                case .sync(let dryRun, let write):
                    let changes = try DocumentLint.sync(file: file, store: opened, document: document, dryRun: dryRun, by: by)
                    for change in changes { runner.output.write("\(change.file):\(change.line): \(change.description)\n") }
                    runner.output.message(changes.isEmpty ? "\(file): the store already agrees." : dryRun ? "Nothing written (--dry-run)." : "Synced \(file).")
                    if write { try rewrite(file, opened, runner) }
                }
            }
            guard mode == .check else { return ExitCode.ok }
            runner.output.write(LintOutput.render(findings, as: format))
            let errors = findings.count { $0.severity == .error }
            let warnings = findings.count - errors
            runner.output.message("\(NumberText.counted(errors, "error")), \(NumberText.counted(warnings, "warning")) in \(NumberText.counted(files.count, "file")).")
            return errors > 0 || (strict && warnings > 0) ? ExitCode.failure : ExitCode.ok
        }

        /// Rewrites the document's generated blocks and verified line, printing what changed.
        private func rewrite(_ file: String, _ store: Store, _ runner: Runner) throws {
            let changes = try DocumentLint.write(file: file, store: store, document: document, breakingHardLinks: breakHardLinks)
            for change in changes { runner.output.write("\(change.file):\(change.line): \(change.description)\n") }
            if changes.isEmpty { runner.output.message("\(file): up to date.") }
        }
    }

    /// `annotate`
    struct Annotate: DeclaredCommand {
        static let file = Argument.required("file", help: "The Markdown document.")
        static let document = Option.required("document", "name", help: "The document's name in the store.")
        static let spec = CommandSpec(
            name: "annotate",
            abstract: "Place claim markers in a Markdown document where it states a claim's words.",
            discussion: "A marker goes at the end of a table row whose first cell is a claim's statement, or right after the "
                + "whole sentences of a list item or paragraph line that state it (whitespace, emphasis and links aside). "
                + "Claims it cannot place are listed, such as several claims of one sentence, which are marked by hand. "
                + "Running it again changes nothing.",
            arguments: [file.argument], options: [document.option, SharedOptions.breakHardLinks.option])

        let file: String
        let document: String
        let breakHardLinks: Bool

        init(_ values: ParsedValues) throws {
            file = try values[Self.file]
            document = try values[Self.document]
            breakHardLinks = try values[SharedOptions.breakHardLinks]
        }

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            let (changes, unplaced) = try DocumentLint.annotate(file: file, store: opened, document: document, breakingHardLinks: breakHardLinks)
            for change in changes { runner.output.write("\(change.file):\(change.line): \(change.description)\n") }
            for key in unplaced { runner.output.write("not placed: \(key)\n") }
            runner.output.message("Marked \(NumberText.counted(changes.count, "claim")); \(unplaced.count) not placed.")
            return ExitCode.ok
        }
    }
}

enum LintMode: Equatable, Sendable {
    case check, write
    /// The store follows the document; with `write`, the document's blocks are rewritten after.
    case sync(dryRun: Bool, write: Bool)

    var writesTheStore: Bool {
        if case .sync(false, _) = self { return true }
        return false
    }

    var writesTheDocument: Bool {
        if case .sync(_, true) = self { return true }
        return self == .write
    }
}
