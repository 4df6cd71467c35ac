import Foundation
import PackagePlugin

/// Builds the files of `migrations/` and `seed/` (at the package root) into the
/// target as Swift source, so that the `evidence` binary needs no resource bundle
/// and still creates, migrates and seeds a store when copied on its own.
@main
struct EmbedResources: BuildToolPlugin {
    static let folders = ["migrations", "seed"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        for folder in Self.folders {
            inputs += try files(under: root.appending(path: folder))
        }
        inputs.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        let relative = inputs.map { String($0.path.dropFirst(root.path.count)).trimmingCharacters(in: ["/"]) }
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files of migrations/ and seed/",
                executable: try context.tool(named: "embed-resources").url,
                arguments: [output.path, root.path] + relative,
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }

    private func files(under folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder,
            includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles]
        ) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                found.append(url.standardizedFileURL)
            }
        }
        return found
    }
}
