import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// export, import, sync, seed, merge-file, git-setup: the store as a folder of text files, shared through git.
enum TransferCommands {
    static let specs: [CommandSpec] = [
        Export.declaration, Import.declaration, Sync.declaration, MergeFile.declaration, GitSetup.declaration,
        Seed.declaration,
    ]

    /// Names the staging folders in a team folder that another clone made
    /// (committed by mistake): they are never carried out.
    static func warnOfForeignStaging(in folder: String, _ runner: Runner) {
        for name in InterruptedExport.foreign(in: URL(fileURLWithPath: Store.absolutePath(folder))) {
            runner.output.message(
                "warning: \(folder)/\(name) is an export's staging folder made elsewhere (committed to git, or copied with the folder); "
                    + "it is ignored. Remove it (git rm -r).")
        }
    }
}

extension TransferCommands {
    /// `export`
    struct Export: DeclaredCommand {
        static let about = CommandSpec(
            name: "export",
            abstract: "Write the whole store as a folder of JSON Lines files, for git.",
            discussion: "The same store always gives the same bytes; records refer to each other by natural keys and UUIDs, and each run has a file of its own, so two people's work merges. Only the format's own files are written or removed: .git, a README or anything else in the folder stays, even when the export is killed (the next export, import or sync finishes a killed one). Records in the folder this store has not imported (a teammate's run, their edit) stop the export: run 'evidence sync' to merge them, or give --replace. The format (version 3) is described in docs/text-format.md.")

        @Argument(.required("folder", help: "The folder to write; created if missing.")) var folder: String
        @Option(.flag("replace", help: "Write over records in the folder that this store has not imported.")) var replace: Bool

        func run(_ runner: Runner) throws -> Int32 {
            let opened = try runner.open()
            defer { opened.close() }
            let summary = try StoreExporter.export(opened, to: URL(fileURLWithPath: Store.absolutePath(folder)), replace: replace)
            runner.output.message("Exported \(summary.total) records to \(folder).")
            TransferCommands.warnOfForeignStaging(in: folder, runner)
            return ExitCode.ok
        }
    }

    /// `import`
    struct Import: DeclaredCommand {
        static let about = CommandSpec(
            name: "import",
            abstract: "Read a folder written by 'evidence export' into the store, all or nothing.",
            discussion: "Records the store already holds are skipped, so importing twice changes nothing. A record someone edited is merged field by field with this store's version, against the version both last shared (a claim's label: the later change wins); what was changed both ways is a conflict. Every conflict is reported and nothing is written, unless --replace. Reads format versions 1 and 2.")

        @Argument(.required("folder", help: "The folder to read.")) var folder: String
        @Option(.flag("replace", help: "Take the input's values where they differ from the store's.")) var replace: Bool

        func run(_ runner: Runner) throws -> Int32 {
            let files = try FolderRecordFiles(folder: URL(fileURLWithPath: Store.absolutePath(folder)))
            let opened = try runner.open()
            defer { opened.close() }
            let progress = ProgressLine(runner.output)
            let summary = try StoreImporter(store: opened, replace: replace).run(files) { progress.show("\(folder): \($0) results read") }
            progress.clear()
            runner.output.message("Imported \(folder): \(summary).")
            TransferCommands.warnOfForeignStaging(in: folder, runner)
            return ExitCode.ok
        }
    }

    /// `sync`
    struct Sync: DeclaredCommand {
        static let about = CommandSpec(
            name: "sync",
            abstract: "Import a shared folder, then export the store back to it: run it after 'git pull' and before 'git commit'.",
            discussion: "A folder with no export yet is simply written. In a clone with no store yet, the store is created first (./evidence.sqlite, or where --store says). Nothing is exported when the import finds a conflict.")

        @Argument(.required("folder", help: "The export folder in the team's git repository.")) var folder: String

        func run(_ runner: Runner) throws -> Int32 {
            let url = URL(fileURLWithPath: Store.absolutePath(folder))
            if !FileManager.default.fileExists(atPath: Store.absolutePath(runner.store)) {
                _ = try runner.initialize()
            }
            let opened = try runner.open()
            defer { opened.close() }
            let progress = ProgressLine(runner.output)
            let (imported, exported) = try opened.sync(folder: url) { progress.show("\(folder): \($0) results read") }
            progress.clear()
            if let imported { runner.output.message("Imported \(folder): \(imported).") }
            runner.output.message("Exported \(exported.total) records to \(folder).")
            TransferCommands.warnOfForeignStaging(in: folder, runner)
            return ExitCode.ok
        }
    }

    /// `merge-file`: git's merge driver.
    struct MergeFile: DeclaredCommand {
        static let about = CommandSpec(
            name: "merge-file",
            abstract: "Merge three versions of one file of an export, record by record: git's merge driver.",
            discussion: "Git runs it as 'evidence merge-file %O %A %B %P' once 'evidence git-setup' has set it up. The merged file replaces OURS. Records changed on one side take that side; a record changed both ways is merged field by field, and what still differs is left between git's conflict markers and named on standard error. Exits 1 when there is a conflict.")

        @Argument(.required("base", help: "The common ancestor's version (%O).")) var base: String
        @Argument(.required("ours", help: "This branch's version, replaced by the result (%A).")) var ours: String
        @Argument(.required("theirs", help: "The other branch's version (%B).")) var theirs: String
        @Argument(.optional("path", help: "The file's path in the repository, for messages (%P).")) var path: String?

        func run(_ runner: Runner) throws -> Int32 {
            let conflicts = try EvidenceStore.MergeFile.merge(baseFile: base, oursFile: ours, theirsFile: theirs, path: path)
            for conflict in conflicts { runner.output.message("conflict: " + conflict) }
            return conflicts.isEmpty ? ExitCode.ok : ExitCode.failure
        }
    }

    /// `git-setup`
    struct GitSetup: DeclaredCommand {
        static let about = CommandSpec(
            name: "git-setup",
            abstract: "Set a git repository up to merge an export folder with 'evidence merge-file'.",
            discussion: "Writes the folder's .gitattributes (commit it) and sets merge.evidence.driver in the repository's config, with this binary's path; where the store lies inside the repository, its file and its copies of attached files go in the top .gitignore. Run it once in every clone; running it again changes nothing.")

        @Argument(.required("folder", help: "The export folder, inside a git repository.")) var folder: String

        func run(_ runner: Runner) throws -> Int32 {
            let executable = ThisProcess.executablePath() ?? Store.absolutePath(CommandLine.arguments[0])
            let outcome = try EvidenceStore.GitSetup.run(
                folder: URL(fileURLWithPath: Store.absolutePath(folder)), executable: executable, store: Store.absolutePath(runner.store))
            runner.output.message(
                (outcome.wroteAttributes ? "Wrote \(outcome.attributesFile); commit it." : "\(outcome.attributesFile) already sends the folder's files to evidence.")
                    + "\nSet merge.evidence.driver in \(outcome.repository): \(outcome.driver)")
            return ExitCode.ok
        }
    }

    /// `seed`
    struct Seed: DeclaredCommand {
        static let about = CommandSpec(
            name: "seed",
            abstract: "Import the bundled iPhone Duo data set, or a folder in the same format.",
            discussion: "Running it twice changes nothing.")

        @Argument(.optional("folder", help: "A folder to import instead of the bundled data set.")) var folder: String?

        func run(_ runner: Runner) throws -> Int32 {
            let files: RecordFiles = try folder.map { try FolderRecordFiles(folder: URL(fileURLWithPath: Store.absolutePath($0))) }
                ?? BundledSeed()
            let opened = try runner.open()
            defer { opened.close() }
            let summary = try StoreImporter(store: opened).run(files)
            runner.output.message("Seeded \(folder ?? "the iPhone Duo data set"): \(summary).")
            return ExitCode.ok
        }
    }
}
