import EvidenceStore

/// lint and annotate: Markdown documents checked against the store.
enum LintCommands {}

extension LintCommands {
    /// `lint`
    struct Lint: DeclaredCommand {
        static let about = CommandSpec(
            name: "lint",
            abstract: "Check Markdown documents against the evidence: words, labels, numbers, links, verified line, generated blocks.",
            discussion: "A claim marker is an HTML comment at the end of the text it marks: <!-- evidence: KEY (LABEL) -->, in a "
                + "table row's last cell (the first cell holds the words), or after a list item's or paragraph's words; "
                + "the words may be the last whole sentences before it. Proof only on older builds is a stale-proof warning. "
                + "Generated blocks sit between <!-- evidence:checklist --> and <!-- /evidence:checklist --> (also untested and "
                + "sources). Findings print as FILE:LINE:COL: error|warning: message [rule]. Exit 0 when clean, 1 when any "
                + "error (or, with --strict, any warning). The document's name is its front matter's name:, else its file "
                + "name; --document overrides it.")

        @Argument(.variadic("file", help: "A Markdown document.")) var files: [String]
        @Option(.text("document", "name", help: "The document's name in the store (for every file).")) var document: String?
        @Option(
            OptionDeclaration<LintOutput.Format?>.choice(
                "format", "format", help: "text (the default), json (one object a line) or github (annotations)."
            ).defaulting(to: .text))
        var format: LintOutput.Format
        @Option(.flag("strict", help: "Exit 1 on warnings too.")) var strict: Bool
        @Option(.flag("write", help: "Rewrite the generated blocks and the verified: field in place; print what changed."))
        var write: Bool
        @Option(SharedOptions.breakHardLinks) var breakHardLinks: Bool
        @Option(
            .flag(
                "sync",
                help: "The document leads: carry changed words and labels, and new claims (the sentence a marker ends, in its "
                    + "section's area), into the store; with --write, then rewrite the document's blocks."))
        var sync: Bool
        @Option(.flag("dry-run", help: "With --sync, print the changes and write nothing.")) var dryRun: Bool
        @Option(SharedOptions.by) var by: String

        var mode: LintMode { sync ? .sync(dryRun: dryRun, write: write) : write ? .write : .check }

        func validate() throws {
            if write && sync && dryRun { throw UsageError(message: "--dry-run writes nothing; leave out --write.") }
            if dryRun && !sync { throw UsageError(message: "--dry-run goes with --sync.") }
            if breakHardLinks && !mode.writesTheDocument { throw UsageError(message: "--break-hard-links goes with --write.") }
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
                    runner.output.write(changes.text)
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
            runner.output.write(changes.text)
            if changes.isEmpty { runner.output.message("\(file): up to date.") }
        }
    }

    /// `annotate`
    struct Annotate: DeclaredCommand {
        static let about = CommandSpec(
            name: "annotate",
            abstract: "Place claim markers in a Markdown document where it states a claim's words.",
            discussion: "A marker goes at the end of a table row whose first cell is a claim's statement, or right after the "
                + "whole sentences of a list item or paragraph line that state it (whitespace, emphasis and links aside). "
                + "Claims it cannot place are listed, such as several claims of one sentence, which are marked by hand. "
                + "Running it again changes nothing.")

        @Argument(.required("file", help: "The Markdown document.")) var file: String
        @Option(.required("document", "name", help: "The document's name in the store.")) var document: String
        @Option(SharedOptions.breakHardLinks) var breakHardLinks: Bool

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open(access: .reading)
            defer { opened.close() }
            let (changes, unplaced) = try DocumentLint.annotate(file: file, store: opened, document: document, breakingHardLinks: breakHardLinks)
            runner.output.write(changes.text)
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
