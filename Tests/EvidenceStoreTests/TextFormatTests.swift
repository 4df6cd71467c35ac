import Foundation
import Testing

@testable import EvidenceStore

/// Text format version 2: what export writes and import reads back.
@Suite struct TextFormatTests {
    let folders: TextFolderFixture
    var fixture: StoreFixture { folders.fixture }
    var store: Store { folders.store }
    static let seedFolder = EvidenceBinary.packageRoot.appendingPathComponent("seed")

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

    /// The files below a folder, by relative path, and their bytes.
    static func contents(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let name = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    static let run2cee = "runs/2cee86e8-9012-410a-9889-f129a39c0861.jsonl"

    // MARK: - Round trip

    @Test func theSeedRoundTripsByteForByte() throws {
        try StoreImporter(store: store).run(try FolderRecordFiles(folder: Self.seedFolder))
        #expect(try Self.contents(try export(store, "out")) == Self.contents(Self.seedFolder))
    }

    @Test func theBundledSeedIsTheSeedFolder() throws {
        let summary = try StoreImporter(store: store).run(BundledSeed())
        #expect(summary.added > 0)
        #expect(try Self.contents(try export(store, "out")) == Self.contents(Self.seedFolder))
    }

    @Test func aStoreBuiltByHandRoundTrips() throws {
        try fixture.addBasics()
        try fixture.folder.write("shot.png", Data([1, 2, 3]))
        var seen = Observation(claimKey: "island.clock-offset.closed", outcome: .pass, posture: .closed, note: "line one\nline \"two\"")
        seen.measurements = [try MeasurementDraft(parsing: "clock y=171.5pt from 87pt at open-wide")]
        seen.attachments = ["shot.png"]
        let logged = try store.log(
            seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"), workingFolder: fixture.folder.url.path)
        let failed = try store.log(Observation(claimKey: "bars.overflow", outcome: .fail, checkedAt: "2026-10-21T08:00:00Z"),
            run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        try store.relabelClaim(key: "bars.overflow", to: .measured, reason: "seen", by: "ana")
        try store.editClaim(key: "island.clock-offset.closed", ClaimChanges(statement: "The clock moves down by 84 pt."))
        try store.retractResult(String(failed.resultID), reason: "wrong claim", by: "ana")
        try store.retractRun(logged.run.uuid, reason: "wrong simulator", by: "ana")
        let first = try export(store, "first")
        #expect(FileManager.default.fileExists(atPath: first.appendingPathComponent("statements/duo-system-surfaces.jsonl").path))
        #expect(FileManager.default.fileExists(atPath: first.appendingPathComponent("label_history/duo-system-surfaces.jsonl").path))

        let other = try Store.initialize(at: fixture.folder.path("other.sqlite")).0
        try StoreImporter(store: other).run(try FolderRecordFiles(folder: first))
        let second = fixture.folder.url.appendingPathComponent("second")
        _ = try StoreExporter.export(other, to: second)
        #expect(try Self.contents(first) == Self.contents(second))
        let states = { (store: Store) in
            try store.database.query("SELECT key, state, reason FROM claim_state ORDER BY key")
                .map { try $0.text("key") + "=" + $0.text("state") + ": " + $0.text("reason") }
        }
        #expect(try states(other) == states(store))
    }

    @Test func importingWhatTheStoreHoldsChangesNothing() throws {
        try StoreImporter(store: store).run(BundledSeed())
        let changes = store.database.totalChanges
        let again = try StoreImporter(store: store).run(BundledSeed())
        #expect(again.added == 0)
        #expect(again.updated == 0)
        #expect(store.database.totalChanges == changes)
    }

    @Test func anExportOfAnEmptyStoreHasEveryTopFile() throws {
        let files = try Self.contents(try export(store, "empty"))
        let top = TextFormat.Part.allCases.filter { !$0.isFolder }.map(\.name)
        #expect(Set(files.keys) == Set(top + [TextFormat.manifest]))
        #expect(files[TextFormat.manifest] == Data("{\"format\":\"evidence-store\",\"version\":4}\n".utf8))
    }

    @Test func anExportReplacesTheFormatsFilesAndLeavesTheRestAlone() throws {
        try StoreImporter(store: store).run(BundledSeed())
        let folder = fixture.folder.url.appendingPathComponent("shared")
        try fixture.folder.write("shared/README.md", "Our evidence.\n")
        try fixture.folder.write("shared/claims.jsonl", "{}\n")
        try fixture.folder.write("shared/claims/gone.jsonl", "{}\n")
        // Files that are no records this store has seen stop a plain export.
        #expect(throws: EvidenceError.self) { try StoreExporter.export(store, to: folder) }
        #expect(try Self.contents(folder)["claims.jsonl"] != nil)
        _ = try StoreExporter.export(store, to: folder, replace: true)
        let files = try Self.contents(folder)
        #expect(files["README.md"] != nil)
        #expect(files["claims.jsonl"] == nil, "version 1's files go")
        #expect(files["claims/gone.jsonl"] == nil)
        #expect(!files.keys.contains { $0.contains(".tmp-") })
    }

    @Test func documentNamesBecomeSafeFileNames() {
        #expect(TextFormat.fileName(ofDocument: "duo-system-surfaces") == "duo-system-surfaces.jsonl")
        #expect(TextFormat.fileName(ofDocument: "guides/Duo 2") == "guides%2FDuo%202.jsonl")
        #expect(TextFormat.fileName(ofDocument: ".hidden") == "%2Ehidden.jsonl")
    }

    // MARK: - Merging with what the store holds

    @Test func everyConflictIsReportedWithBothValuesAndNothingIsWritten() throws {
        try StoreImporter(store: store).run(BundledSeed())
        // Changed here since the seed was imported, and differently in the folder.
        try store.editClaim(key: "shell.ipad-unchanged", ClaimChanges(statement: "On iPad Pro 13 the shell does not change."))
        try store.editClaim(key: "shell.ipad-unchanged", ClaimChanges(statement: "On iPad Pro 13 the shell stays."))
        try store.editClaim(key: "shell.book-posture-keeps-section", ClaimChanges(statement: "In the book posture, kept."))
        let copy = try copyOfSeed()
        try edit(copy, "claims/shell-by-window-width.jsonl") {
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
            #expect(text.contains("the import found 2 conflicts and wrote nothing"), "\(text)")
            #expect(text.contains("claims/shell-by-window-width.jsonl:"))
            #expect(text.contains("claim 'shell.ipad-unchanged' was changed here and in the folder: 'statement' is 'On iPad Pro 13 the shell stays.' here and 'On iPad Pro 13 the shell changes.' in the folder"))
            #expect(text.contains("claim 'shell.book-posture-keeps-section'"))
        }
        #expect(try snapshot() == before)

        let summary = try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: copy))
        #expect(summary.updated == 2)
        #expect(summary.added == 1)
        #expect(try store.reader.claim(key: "shell.ipad-unchanged").statement == "On iPad Pro 13 the shell changes.")
    }

    @Test func theBaseTellsAnEditThereFromOneHere() throws {
        // Both stores start from one export, which is the base of each.
        try StoreImporter(store: store).run(BundledSeed())
        let shared = try export(store, "shared")
        let other = try Store.initialize(at: fixture.folder.path("other.sqlite")).0
        try StoreImporter(store: other).run(try FolderRecordFiles(folder: shared))
        // Here: one claim's area. There: another claim's statement, and the first's statement.
        try store.editClaim(key: "shell.ipad-unchanged", ClaimChanges(area: "Rotation on iPad"))
        try other.editClaim(key: "shell.ipad-unchanged", ClaimChanges(statement: "On iPad Pro 13 nothing changes."))
        try other.editClaim(key: "shell.rotation-keeps-section", ClaimChanges(statement: "Rotation keeps the section."))
        let theirs = try export(other, "theirs")
        let summary = try StoreImporter(store: store).run(try FolderRecordFiles(folder: theirs))
        #expect(summary.updated == 2, "\(summary)")
        let claim = try store.reader.claim(key: "shell.ipad-unchanged")
        #expect(claim.area == "Rotation on iPad", "this store's edit stays")
        #expect(claim.statement == "On iPad Pro 13 nothing changes.", "theirs is taken")
        #expect(try store.reader.claim(key: "shell.rotation-keeps-section").statement == "Rotation keeps the section.")
    }

    @Test func resultsAppendToAnExistingRun() throws {
        try StoreImporter(store: store).run(BundledSeed())
        let copy = try copyOfSeed()
        var words = ""
        try store.reader.claimRecords(key: "deep-links.closed-and-open") { words = $0.statement }
        let line = "{\"result\":\"0b8c1d3e-0000-8000-8000-000000000001\",\"claim\":\"deep-links.closed-and-open\",\"statement\":\"\(SHA256.hex(Data(words.utf8)))\",\"outcome\":\"fail\",\"checked_at\":\"2026-10-20\",\"recorded_at\":\"2026-10-20T00:00:00.000009Z\"}\n"
        try edit(copy, Self.run2cee) { $0 + line }
        let summary = try StoreImporter(store: store).run(try FolderRecordFiles(folder: copy))
        #expect(summary.added == 1)
        #expect(try fixture.state("deep-links.closed-and-open") == "failing")
    }

    @Test func theLabelHistoryIsNeverRewritten() throws {
        try fixture.addBasics()
        let first = try export(store, "first")
        try edit(first, "label_history/duo-system-surfaces.jsonl") { $0.replacingOccurrences(of: "claim added", with: "rewritten") }
        #expect(throws: EvidenceError.self) {
            try StoreImporter(store: store, replace: true).run(try FolderRecordFiles(folder: first))
        }
    }

    // MARK: - Bad input: the file, the line and the field, and nothing written

    @Test func badJSONNamesTheLineAndColumn() throws {
        try expectRejected(
            "claims/duo-system-surfaces.jsonl",
            { $0.replacingOccurrences(of: "\"key\":\"bars.share-column.overflow\"", with: "\"key\" \"x\"") },
            saying: ["claims/duo-system-surfaces.jsonl:2:", "not valid JSON"])
    }

    @Test func aMissingFieldIsNamed() throws {
        try expectRejected(
            "claims/duo-system-surfaces.jsonl", { $0.replacingOccurrences(of: "\"area\":\"Bars\",", with: "") },
            saying: ["claims/duo-system-surfaces.jsonl:1:", "field 'area': missing"])
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: ",\"recorded_at\":\"2026-10-20T00:00:00.000001Z\"", with: "") },
            saying: [Self.run2cee + ":2:", "field 'recorded_at': missing"])
    }

    @Test func anUnknownReferenceIsNamed() throws {
        try expectRejected(
            "claims/duo-system-surfaces.jsonl",
            { $0.replacingOccurrences(of: "\"needs\":[\"standby\"]", with: "\"needs\":[\"standbye\"]") },
            saying: ["claims/duo-system-surfaces.jsonl:", "field 'needs': unknown capability 'standbye'"])
        try expectRejected(
            Self.run2cee,
            { $0.replacingOccurrences(of: "\"claim\":\"live-activity.request-active\"", with: "\"claim\":\"live.nope\"") },
            saying: [Self.run2cee + ":2:", "field 'claim': unknown claim 'live.nope'"])
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: "\"statement\":\"da1b", with: "\"statement\":\"ffff") },
            saying: [Self.run2cee + ":2:", "field 'statement': the words ffff"])
    }

    @Test func aMalformedDigestOrUUIDIsNamed() throws {
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: "\"statement\":\"da1b", with: "\"statement\":\"DA1B") },
            saying: [Self.run2cee + ":2:", "field 'statement': expected a SHA-256 as 64 lower-case hex digits, found 'DA1B"])
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: "\"statement\":\"da1b", with: "\"statement\":\"da1") },
            saying: [Self.run2cee + ":2:", "found 'da1"])
    }

    @Test func aBadEnumeratedValueListsTheAcceptedOnes() throws {
        try expectRejected(
            "claims/duo-system-surfaces.jsonl",
            { $0.replacingOccurrences(of: "\"label\":\"unverified\"", with: "\"label\":\"guessed\"") },
            saying: ["claims/duo-system-surfaces.jsonl:1:", "field 'label': invalid label 'guessed'; expected one of: measured"])
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: "\"outcome\":\"pass\"", with: "\"outcome\":\"ok\"") },
            saying: [Self.run2cee + ":2:", "field 'outcome'"])
    }

    @Test func unknownFieldsWrongTypesAndBadFilesAreRefused() throws {
        try expectRejected(
            "sources.jsonl", { $0.replacingOccurrences(of: "\"kind\":\"newsroom\"", with: "\"kind\":\"newsroom\",\"colour\":\"red\"") },
            saying: ["sources.jsonl:", "field 'colour': not a field of this record"])
        try expectRejected(
            Self.run2cee, { $0.replacingOccurrences(of: "\"started_at\":\"2026-10-20\"", with: "\"started_at\":\"20 October\"") },
            saying: [Self.run2cee + ":1:", "field 'started_at'"])
        try expectRejected(
            Self.run2cee, { "{\"note\":\"x\"}\n" + $0 }, saying: [Self.run2cee + ":1:", "starts with 'run', 'result', 'retraction', 'link', 'unlink' or 'correction'"])
        try expectRejected(
            "runs/not-a-uuid.jsonl", { _ in "{}\n" }, saying: ["runs/not-a-uuid.jsonl", "named by the run's UUID"])
        try expectRejected("results.jsonl", { _ in "{}\n" }, saying: ["results.jsonl", "not a file of the text format, version 4"])
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
    }
}
