import EvidenceStore
import Foundation

/// export, import, seed: the store as a folder of text files.
enum TransferCommands {
    static let specs: [CommandSpec] = [
        CommandSpec(
            name: "export",
            abstract: "Write the whole store as a folder of JSON Lines files, for git.",
            discussion: "The same store always gives the same bytes; records refer to each other by natural keys. The format is described in docs/text-format.md.",
            arguments: [ArgumentSpec(name: "folder", help: "The folder to write; created if missing.")],
            build: { .export(store: CommandTree.storePath($0), folder: $0.required("folder")) }
        ),
        CommandSpec(
            name: "import",
            abstract: "Read a folder written by 'evidence export' into the store, all or nothing.",
            discussion: "Records the store already holds are skipped, so importing twice changes nothing. A record that differs from the stored one is a conflict: it is reported with both values and nothing is written, unless --replace.",
            arguments: [ArgumentSpec(name: "folder", help: "The folder to read.")],
            options: [OptionSpec(name: "replace", help: "Take the input's values where they differ from the store's.")],
            build: {
                .importFolder(store: CommandTree.storePath($0), folder: $0.required("folder"), replace: $0.flag("replace"))
            }
        ),
        CommandSpec(
            name: "seed",
            abstract: "Import the bundled iPhone Duo data set, or a folder in the same format.",
            discussion: "Running it twice changes nothing.",
            arguments: [ArgumentSpec(name: "folder", help: "A folder to import instead of the bundled data set.", isOptional: true)],
            build: { .seed(store: CommandTree.storePath($0), folder: $0.argument("folder")) }
        ),
    ]
}

extension Runner {
    func export(store path: String, folder: String) throws -> Int32 {
        let store = try open(path)
        defer { store.close() }
        let summary = try StoreExporter.export(store, to: URL(fileURLWithPath: Store.absolutePath(folder)))
        let total = summary.counts.reduce(0) { $0 + $1.1 }
        output.message("Exported \(total) records to \(folder).")
        return ExitCode.ok
    }

    func importFolder(store path: String, folder: String, replace: Bool) throws -> Int32 {
        let files = try FolderRecordFiles(folder: URL(fileURLWithPath: Store.absolutePath(folder)))
        let store = try open(path)
        defer { store.close() }
        let summary = try StoreImporter(store: store, replace: replace).run(files)
        output.message("Imported \(folder): \(summary).")
        return ExitCode.ok
    }

    func seed(store path: String, folder: String?) throws -> Int32 {
        let files: RecordFiles = try folder.map { try FolderRecordFiles(folder: URL(fileURLWithPath: Store.absolutePath($0))) }
            ?? BundledSeed()
        let store = try open(path)
        defer { store.close() }
        let summary = try StoreImporter(store: store).run(files)
        output.message("Seeded \(folder ?? "the iPhone Duo data set"): \(summary).")
        return ExitCode.ok
    }
}
