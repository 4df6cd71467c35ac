import EvidenceStore
import FoundationEssentials

/// lint and annotate: Markdown documents checked against the store.
enum LintCommands {
    static let lint = CommandSpec(
        name: "lint",
        abstract: "Check Markdown documents against the evidence: words, labels, numbers, links, verified line, generated blocks.",
        discussion: "A claim marker is an HTML comment at the end of the text it marks: <!-- evidence: KEY (LABEL) -->, in a "
            + "table row's last cell (the first cell holds the words), or after a list item's or paragraph's words; "
            + "the words may be the last whole sentences before it. Proof only on older builds is a stale-proof warning. "
            + "Generated blocks sit between <!-- evidence:checklist --> and <!-- /evidence:checklist --> (also untested and "
            + "sources). Findings print as FILE:LINE:COL: error|warning: message [rule]. Exit 0 when clean, 1 when any "
            + "error (or, with --strict, any warning). The document's name is its front matter's name:, else its file "
            + "name; --document overrides it.",
        arguments: [ArgumentSpec(name: "file", help: "A Markdown document.", isVariadic: true)],
        options: [
            OptionSpec(name: "document", valueName: "name", help: "The document's name in the store (for every file)."),
            OptionSpec(
                name: "format", valueName: "format", help: "text (the default), json (one object a line) or github (annotations).",
                choices: LintOutput.Format.names),
            OptionSpec(name: "strict", help: "Exit 1 on warnings too."),
            OptionSpec(name: "write", help: "Rewrite the generated blocks and the verified: field in place; print what changed."),
            OptionSpec(name: "sync", help: "The document leads: carry changed words and labels, and new claims, into the store."),
            OptionSpec(name: "dry-run", help: "With --sync, print the changes and write nothing."),
            SharedOptions.by,
        ],
        build: { values in
            let mode: LintMode
            switch (values.flag("write"), values.flag("sync")) {
            case (true, true): throw UsageError(message: "Give --write or --sync, not both.", path: values.path)
            case (true, false): mode = .write
            case (false, true): mode = .sync(dryRun: values.flag("dry-run"))
            case (false, false): mode = .check
            }
            if values.flag("dry-run") && !values.flag("sync") {
                throw UsageError(message: "--dry-run goes with --sync.", path: values.path)
            }
            return .lint(
                store: CommandTree.storePath(values), files: values.argumentValues("file"), document: values.value("document"),
                format: try values.value("format").map(LintOutput.Format.init(parsing:)) ?? .text,
                strict: values.flag("strict"), mode: mode, by: SharedOptions.author(values))
        }
    )

    static let annotate = CommandSpec(
        name: "annotate",
        abstract: "Place claim markers in a Markdown document where it states a claim's words.",
        discussion: "A marker goes at the end of a table row whose first cell is a claim's statement, or right after the "
            + "whole sentences of a list item or paragraph line that state it (whitespace, emphasis and links aside). "
            + "Claims it cannot place are listed, such as several claims of one sentence, which are marked by hand. "
            + "Running it again changes nothing.",
        arguments: [ArgumentSpec(name: "file", help: "The Markdown document.")],
        options: [OptionSpec(name: "document", valueName: "name", help: "The document's name in the store.", isRequired: true)],
        build: { .annotate(store: CommandTree.storePath($0), file: try $0.required("file"), document: try $0.required("document")) }
    )
}

enum LintMode: Equatable, Sendable {
    case check, write
    case sync(dryRun: Bool)
}

extension Runner {
    func lint(store path: String, files: [String], document: String?, format: LintOutput.Format, strict: Bool, mode: LintMode, by author: String)
        throws -> Int32
    {
        let store = try open(path, access: mode == .sync(dryRun: false) ? .readWrite : .reading)
        defer { store.close() }
        var findings: [LintFinding] = []
        for file in files {
            switch mode {
            case .check:
                findings += try DocumentLint.lint(file: file, text: try DocumentLint.readDocument(file), store: store, document: document)
            case .write:
                let changes = try DocumentLint.write(file: file, store: store, document: document)
                for change in changes { output.write("\(change.file):\(change.line): \(change.description)\n") }
                if changes.isEmpty { output.message("\(file): up to date.") }
            case .sync(let dryRun):
                let changes = try DocumentLint.sync(file: file, store: store, document: document, dryRun: dryRun, by: author)
                for change in changes { output.write("\(change.file):\(change.line): \(change.description)\n") }
                output.message(changes.isEmpty ? "\(file): the store already agrees." : dryRun ? "Nothing written (--dry-run)." : "Synced \(file).")
            }
        }
        guard mode == .check else { return ExitCode.ok }
        output.write(LintOutput.render(findings, as: format))
        let errors = findings.count { $0.severity == .error }
        let warnings = findings.count - errors
        output.message("\(NumberText.counted(errors, "error")), \(NumberText.counted(warnings, "warning")) in \(NumberText.counted(files.count, "file")).")
        return errors > 0 || (strict && warnings > 0) ? ExitCode.failure : ExitCode.ok
    }

    func annotate(store path: String, file: String, document: String) throws -> Int32 {
        let store = try open(path, access: .reading)
        defer { store.close() }
        let (changes, unplaced) = try DocumentLint.annotate(file: file, store: store, document: document)
        for change in changes { output.write("\(change.file):\(change.line): \(change.description)\n") }
        for key in unplaced { output.write("not placed: \(key)\n") }
        output.message("Marked \(NumberText.counted(changes.count, "claim")); \(unplaced.count) not placed.")
        return ExitCode.ok
    }
}
