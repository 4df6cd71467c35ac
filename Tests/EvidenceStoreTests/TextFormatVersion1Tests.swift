import Foundation
import Testing

@testable import EvidenceStore

/// Version 1 folders, as exports of the first version wrote them, still
/// import: the bundled data set as it was, and every refusal with its line.
@Suite struct TextFormatVersion1Tests {
    let folders: TextFolderFixture
    var fixture: StoreFixture { folders.fixture }
    var store: Store { folders.store }
    static let seedFolder = EvidenceBinary.packageRoot.appendingPathComponent("Tests/EvidenceStoreTests/Fixtures/seed-v1")
    static let currentSeed = EvidenceBinary.packageRoot.appendingPathComponent("seed")

    init() throws {
        folders = try TextFolderFixture(seedFolder: Self.seedFolder)
    }

    func export(_ store: Store, _ name: String) throws -> URL { try folders.export(store, name) }
    func copyOfSeed() throws -> URL { try folders.copyOfSeed() }
    func edit(_ folder: URL, _ file: String, _ change: (String) -> String) throws { try folders.edit(folder, file, change) }
    func snapshot() throws -> [Int] { try folders.snapshot() }

    func expectRejected(
        _ file: String, _ change: @escaping (String) -> String, saying fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try folders.expectRejected(file, change, saying: fragments, sourceLocation: sourceLocation)
    }

    // MARK: - Reading version 1

    @Test func theFirstVersionsDataSetImportsAsTheCurrentOne() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        let exported = try export(store, "out")
        // Version 1 had no models: the current data set gives its claims and documents theirs.
        var current = try TextFormatTests.contents(Self.currentSeed)
        current[TextFormat.Part.documents.name] = Data()
        for (name, data) in current where name.hasPrefix("claims/") {
            let text = String(decoding: data, as: UTF8.self)
            let pattern = try NSRegularExpression(pattern: #",\"models\":\[[^\]]*\]"#)
            current[name] = Data(
                pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "").utf8)
        }
        current[TextFormat.manifest] = Data("{\"format\":\"evidence-store\",\"version\":4}\n".utf8)
        #expect(try TextFormatTests.contents(exported) == current)
    }

    @Test func importingAVersionOneFolderTwiceChangesNothing() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        let changes = store.database.totalChanges
        let again = try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        #expect(again.added == 0 && again.updated == 0)
        #expect(store.database.totalChanges == changes)
    }

    // MARK: - Conflicts

    @Test func aVersionOneFolderMergesAsTheCurrentFormatDoes() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        // Changed here since the folder was imported, and differently in the folder: a conflict.
        try store.editClaim(key: "shell.ipad-unchanged", ClaimChanges(statement: "On iPad Pro 13 the shell stays."))
        let copy = try copyOfSeed()
        try edit(copy, "claims.jsonl") {
            $0.replacingOccurrences(of: "On iPad Pro 13 the shell does not change.", with: "On iPad Pro 13 the shell changes.")
                .replacingOccurrences(of: "In the book posture the open section is kept.", with: "In the book posture it is kept.")
        }
        try edit(copy, "sources.jsonl") { $0 + "{\"url\":\"https://example.com/new\",\"title\":\"New\",\"publisher\":\"Me\",\"kind\":\"article\"}\n" }
        let before = try snapshot()
        do {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
            Issue.record("a conflict must stop the import")
        } catch let error as EvidenceError {
            let text = error.description
            #expect(text.contains("claims.jsonl:"), "\(text)")
            #expect(text.contains("claim 'shell.ipad-unchanged' was changed here and in the folder: 'statement' is 'On iPad Pro 13 the shell stays.' here and 'On iPad Pro 13 the shell changes.' in the folder"))
            #expect(!text.contains("shell.book-posture-keeps-section"), "changed only in the folder: taken")
        }
        #expect(try snapshot() == before)

        let summary = try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: copy))
        #expect(summary.updated == 2)
        #expect(summary.added == 1)
        #expect(try store.reader.claim(key: "shell.ipad-unchanged").statement == "On iPad Pro 13 the shell changes.")
        #expect(try store.reader.claim(key: "shell.book-posture-keeps-section").statement == "In the book posture it is kept.")
    }

    @Test func resultsAppendToAnExistingRun() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        let copy = try copyOfSeed()
        let run = try #require(try store.database.scalar("SELECT uuid FROM runs WHERE started_at = '2026-10-20'").string)
        try edit(copy, "results.jsonl") {
            $0.replacingOccurrences(
                of: "{\"run\":\"\(run)\",\"n\":6,",
                with: "{\"run\":\"\(run)\",\"n\":7,\"claim\":\"deep-links.closed-and-open\",\"result\":\"fail\",\"checked_at\":\"2026-10-20\"}\n{\"run\":\"\(run)\",\"n\":6,")
        }
        // The appended line must come after n 6: move it.
        try edit(copy, "results.jsonl") { text in
            var lines = text.split(separator: "\n").map(String.init)
            if let index = lines.firstIndex(where: { $0.contains("\"n\":7,") }) {
                let line = lines.remove(at: index)
                lines.insert(line, at: index + 1)
            }
            return lines.joined(separator: "\n") + "\n"
        }
        let summary = try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
        #expect(summary.added == 1)
        #expect(try fixture.state("deep-links.closed-and-open") == "failing")
    }

    @Test func theLabelHistoryCannotBeReplaced() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        let copy = try copyOfSeed()
        let history = """
            {"claim":"bars.other-app-activity","n":1,"new_label":"unverified","changed_by":"w","changed_at":"2026-10-20T10:00:00Z","reason":"claim added"}

            """
        try edit(copy, "label_history.jsonl") { _ in history }
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
        try edit(copy, "label_history.jsonl") { $0.replacingOccurrences(of: "claim added", with: "rewritten") }
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: copy))
        }
    }

    // MARK: - Bad input: the file, the line and the field, and nothing written

    @Test func badJSONNamesTheLineAndColumn() throws {
        try expectRejected("claims.jsonl", { $0.replacingOccurrences(of: "\"key\":\"bars.share-column.overflow\"", with: "\"key\" \"x\"") },
            saying: ["claims.jsonl:2:", "not valid JSON"])
    }

    @Test func aMissingFieldIsNamed() throws {
        try expectRejected("claims.jsonl", { $0.replacingOccurrences(of: "\"area\":\"Bars\",", with: "") },
            saying: ["claims.jsonl:1:", "field 'area': missing"])
    }

    @Test func anUnknownReferenceIsNamed() throws {
        try expectRejected("claims.jsonl", { $0.replacingOccurrences(of: "\"needs\":[\"standby\"]", with: "\"needs\":[\"standbye\"]") },
            saying: ["claims.jsonl:", "field 'needs': unknown capability 'standbye'"])
        try expectRejected("results.jsonl", { $0.replacingOccurrences(of: "\"claim\":\"shell.ipad-unchanged\"", with: "\"claim\":\"shell.nope\"") },
            saying: ["results.jsonl:1:", "field 'claim': unknown claim 'shell.nope'"])
    }

    @Test func aBadEnumeratedValueListsTheAcceptedOnes() throws {
        try expectRejected("claims.jsonl", { $0.replacingOccurrences(of: "\"label\":\"unverified\"", with: "\"label\":\"guessed\"") },
            saying: ["claims.jsonl:1:", "field 'label': invalid label 'guessed'; expected one of: measured"])
        try expectRejected("results.jsonl", { $0.replacingOccurrences(of: "\"result\":\"pass\"", with: "\"result\":\"ok\"") },
            saying: ["results.jsonl:1:", "field 'result'"])
        try expectRejected("results.jsonl", { $0.replacingOccurrences(of: "\"unit\":\"pt\"", with: "\"unit\":\"points\"") },
            saying: ["results.jsonl:", "field 'measurements[0].unit': invalid unit 'points'"])
    }

    @Test func unknownFieldsWrongTypesAndBadNumbersAreRefused() throws {
        try expectRejected("sources.jsonl", { $0.replacingOccurrences(of: "\"kind\":\"newsroom\"", with: "\"kind\":\"newsroom\",\"colour\":\"red\"") },
            saying: ["sources.jsonl:", "field 'colour': not a field of this record"])
        try expectRejected("results.jsonl", { $0.replacingOccurrences(of: "\"n\":1,", with: "\"n\":\"1\",") },
            saying: ["results.jsonl:1:", "field 'n': expected a whole number, found a string"])
        try expectRejected("results.jsonl", { $0.replacingOccurrences(of: "\"n\":2,", with: "\"n\":5,") },
            saying: ["results.jsonl:", "field 'n': expected 2"])
        try expectRejected("runs.jsonl", { $0.replacingOccurrences(of: "\"started_at\":\"2026-10-20\"", with: "\"started_at\":\"20 October\"") },
            saying: ["runs.jsonl:", "field 'started_at'"])
    }

    @Test func aFolderWithoutAManifestIsNotAnExport() throws {
        let folder = fixture.folder.url.appendingPathComponent("not-export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: folder))
        }
        try Data("{\"format\":\"evidence-store\",\"version\":5}\n".utf8).write(to: folder.appendingPathComponent("format.json"))
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: folder))
        }
        try Data("{\"format\":\"evidence-store\",\"version\":1}\n".utf8).write(to: folder.appendingPathComponent("format.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("claims.json.jsonl"))
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: folder))
        }
    }
}
