import Foundation
import Testing

@testable import EvidenceStore

/// A store in a temporary folder and a data set of the text format to copy
/// and spoil, shared by the suites of both versions of the format.
struct TextFolderFixture {
    let fixture: StoreFixture
    /// The folder a test copies: the bundled data set in one version.
    let seedFolder: URL
    var store: Store { fixture.store }

    init(seedFolder: URL) throws {
        fixture = try StoreFixture()
        self.seedFolder = seedFolder
    }

    func export(_ store: Store, _ name: String) throws -> URL {
        let folder = fixture.folder.url.appendingPathComponent(name)
        _ = try StoreExporter.export(store, to: folder)
        return folder
    }

    func copyOfSeed() throws -> URL {
        let copy = fixture.folder.url.appendingPathComponent("seed-copy-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: seedFolder, to: copy)
        return copy
    }

    /// Rewrites a file of a folder (creating it, and its folder, when missing).
    func edit(_ folder: URL, _ file: String, _ change: (String) -> String) throws {
        let url = folder.appendingPathComponent(file)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(change(text).utf8).write(to: url)
    }

    /// Every table's row count, to prove nothing was written.
    func snapshot() throws -> [Int] {
        try ["claims", "sources", "claim_sources", "capabilities", "claim_capabilities", "environment_lacks", "environments",
             "runs", "results", "measurements", "attachments", "checklists", "checklist_items", "checklist_item_claims",
             "label_history", "test_mappings", "ingested_files", "retractions", "claim_statements"].map { try fixture.count($0) }
    }

    /// Imports a copy of the data set with one file spoiled, and expects the
    /// import to fail with every fragment in its message and nothing written.
    func expectRejected(
        _ file: String, _ change: @escaping (String) -> String, saying fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let copy = try copyOfSeed()
        try edit(copy, file, change)
        let before = try snapshot()
        do {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
            Issue.record("the import must fail", sourceLocation: sourceLocation)
        } catch let error as EvidenceError {
            #expect(error.category == .badData, sourceLocation: sourceLocation)
            for fragment in fragments {
                #expect(error.description.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            }
        }
        #expect(try snapshot() == before, sourceLocation: sourceLocation)
    }
}
