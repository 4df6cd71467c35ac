import Foundation
import Testing

@testable import EvidenceStore

@Suite struct TextFormatTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }
    static let seedFolder = EvidenceBinary.packageRoot.appendingPathComponent("seed")

    init() throws {
        fixture = try StoreFixture()
    }

    func export(_ store: Store, _ name: String) throws -> URL {
        let folder = fixture.folder.url.appendingPathComponent(name)
        _ = try StoreExporter.export(store, to: folder)
        return folder
    }

    /// The files of a folder and their bytes.
    func contents(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    func copyOfSeed() throws -> URL {
        let copy = fixture.folder.url.appendingPathComponent("seed-copy")
        try FileManager.default.copyItem(at: Self.seedFolder, to: copy)
        return copy
    }

    func edit(_ folder: URL, _ file: String, _ change: (String) -> String) throws {
        let url = folder.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(change(text).utf8).write(to: url)
    }

    /// Every table's row count, to prove nothing was written.
    func snapshot() throws -> [Int] {
        try ["claims", "sources", "claim_sources", "capabilities", "claim_capabilities", "environment_lacks", "environments",
             "runs", "results", "measurements", "attachments", "checklists", "checklist_items", "checklist_item_claims",
             "label_history", "test_mappings", "ingested_files"].map { try fixture.count($0) }
    }

    // MARK: - Round trip

    @Test func theSeedRoundTripsByteForByte() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        let exported = try export(store, "out")
        #expect(try contents(exported) == contents(Self.seedFolder))
    }

    @Test func theBundledSeedIsTheSeedFolder() throws {
        let summary = try StoreImporter(store: store).run(BundledSeed())
        #expect(summary.added > 0)
        #expect(try contents(try export(store, "out")) == contents(Self.seedFolder))
    }

    @Test func aStoreBuiltByHandRoundTrips() throws {
        try fixture.addBasics()
        try fixture.folder.write("shot.png", Data([1, 2, 3]))
        var seen = Observation(claimKey: "island.clock-offset.closed", outcome: .pass, posture: .closed, note: "line one\nline \"two\"")
        seen.measurements = [try MeasurementDraft(parsing: "clock y=171.5pt from 87pt at open-wide")]
        seen.attachments = ["shot.png"]
        try store.log(seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"), workingFolder: fixture.folder.url.path)
        try store.log(Observation(claimKey: "bars.overflow", outcome: .fail, checkedAt: "2026-10-21T08:00:00Z"),
            run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        try store.relabelClaim(key: "bars.overflow", to: .measured, reason: "seen", by: "ana")
        let first = try export(store, "first")

        let other = try Store.initialize(at: fixture.folder.path("other.sqlite")).0
        try StoreImporter(store: other).run(try FolderRecordFiles(folder: first))
        let second = fixture.folder.url.appendingPathComponent("second")
        _ = try StoreExporter.export(other, to: second)
        #expect(try contents(first) == contents(second))
        let states = try other.database.query("SELECT key, state FROM claim_state ORDER BY key").map { try $0.text("key") + "=" + $0.text("state") }
        let original = try store.database.query("SELECT key, state FROM claim_state ORDER BY key").map { try $0.text("key") + "=" + $0.text("state") }
        #expect(states == original)
    }

    @Test func importingWhatTheStoreHoldsChangesNothing() throws {
        try StoreImporter(store: store).run(BundledSeed())
        let changes = store.database.totalChanges
        let again = try StoreImporter(store: store).run(BundledSeed())
        #expect(again.added == 0)
        #expect(again.updated == 0)
        #expect(store.database.totalChanges == changes)
    }

    @Test func anExportOfAnEmptyStoreHasEveryFile() throws {
        let files = try contents(try export(store, "empty"))
        #expect(Set(files.keys) == Set(TextFormat.files + [TextFormat.manifest]))
        #expect(files[TextFormat.manifest] == Data("{\"format\":\"evidence-store\",\"version\":1}\n".utf8))
    }

    // MARK: - Conflicts

    @Test func aConflictIsReportedWithBothValuesAndNothingIsWritten() throws {
        try StoreImporter(store: store).run(BundledSeed())
        let copy = try copyOfSeed()
        try edit(copy, "claims.jsonl") {
            $0.replacingOccurrences(of: "On iPad Pro 13 the shell does not change.", with: "On iPad Pro 13 the shell changes.")
        }
        try edit(copy, "sources.jsonl") { $0 + "{\"url\":\"https://example.com/new\",\"title\":\"New\",\"publisher\":\"Me\",\"kind\":\"article\"}\n" }
        let before = try snapshot()
        do {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
            Issue.record("a conflict must stop the import")
        } catch let error as EvidenceError {
            let text = error.description
            #expect(text.contains("claims.jsonl:"))
            #expect(text.contains("claim 'shell.ipad-unchanged' differs in statement"))
            #expect(text.contains("the store has 'On iPad Pro 13 the shell does not change.'"))
            #expect(text.contains("the input has 'On iPad Pro 13 the shell changes.'"))
            #expect(text.contains("--replace"))
        }
        #expect(try snapshot() == before)

        let summary = try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: copy))
        #expect(summary.updated == 1)
        #expect(summary.added == 1)
        #expect(try store.reader.claim(key: "shell.ipad-unchanged").statement == "On iPad Pro 13 the shell changes.")
    }

    @Test func resultsAppendToAnExistingRun() throws {
        try StoreImporter(store: store).run(BundledSeed())
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
        try fixture.addBasics()
        let first = try export(store, "first")
        try edit(first, "label_history.jsonl") { $0.replacingOccurrences(of: "claim added", with: "rewritten") }
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: first))
        }
    }

    // MARK: - Bad input: the file, the line and the field, and nothing written

    func expectRejected(
        _ file: String, _ change: @escaping (String) -> String, saying fragments: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let copy = fixture.folder.url.appendingPathComponent("bad-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.seedFolder, to: copy)
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
        try Data("{\"format\":\"evidence-store\",\"version\":2}\n".utf8).write(to: folder.appendingPathComponent("format.json"))
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store).run(try FolderRecordFiles(folder: folder))
        }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("claims.json.jsonl"))
        #expect(throws: EvidenceError.self) {
            _ = try FolderRecordFiles(folder: folder)
        }
    }
}
