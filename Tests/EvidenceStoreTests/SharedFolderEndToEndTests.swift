import Foundation
import Testing


/// `export` into the team's shared folder writes only its own files, whatever
/// kills it, and never writes over a teammate's work it has not imported.
/// Through the binary.
@Suite struct SharedFolderEndToEndTests {
    let folder: TemporaryFolder
    static let duo = HardeningEndToEndTests.duo

    init() throws {
        folder = try TemporaryFolder()
        try evidence(["init", "--store", "a.sqlite"])
        try evidence(["seed", "--store", "a.sqlite"])
    }

    @discardableResult
    func evidence(_ arguments: [String], as user: String = "ana", expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> ProcessResult
    {
        let result = try EvidenceBinary.run(arguments, environment: ["USER": user], in: folder.url)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// The user's files in the shared folder, with their bytes.
    private func othersFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for relative in [".git/config", ".git/HEAD", "README.md", "docs/guide.md", "runs/notes.txt"] {
            files[relative] = try String(contentsOfFile: folder.path("shared/" + relative), encoding: .utf8)
        }
        return files
    }

    // MARK: - Finding 6: a killed export hides nothing

    @Test func killingAnExportAtRandomMomentsNeverMovesTheFoldersOtherFiles() throws {
        // Enough runs that an export takes a while to write.
        for day in 1...40 {
            try evidence(["log", "bars.other-app-activity", "--result", day % 3 == 0 ? "fail" : "pass", "--date", String(format: "2026-10-%02d", day % 28 + 1),
                "--store", "a.sqlite", "--measure", "offset=\(day)pt from 80pt"] + Self.duo, as: "tester\(day)")
        }
        try evidence(["export", "shared", "--store", "a.sqlite"])
        _ = try folder.write("shared/.git/config", "[core]\n\tbare = false\n")
        _ = try folder.write("shared/.git/HEAD", "ref: refs/heads/main\n")
        _ = try folder.write("shared/README.md", "Our evidence.\n")
        _ = try folder.write("shared/docs/guide.md", "# Guide\n")
        _ = try folder.write("shared/runs/notes.txt", "kept\n")
        let before = try othersFiles()
        var killedMidway = 0
        for attempt in 0..<25 {
            try evidence(["log", "bars.share-column.overflow", "--result", "pass", "--note", "attempt \(attempt)", "--store", "a.sqlite"] + Self.duo)
            let running = try EvidenceBinary.start(["export", "shared", "--store", "a.sqlite"], in: folder.url)
            usleep(UInt32.random(in: 0...60_000))
            kill(running.pid, SIGKILL)
            let result = running.finish()
            if result.status == SIGKILL { killedMidway += 1 }
            #expect(try othersFiles() == before, "attempt \(attempt)")
            let siblings = try FileManager.default.contentsOfDirectory(atPath: folder.path("."))
            #expect(!siblings.contains { $0.hasPrefix(".shared.") }, "nothing beside the folder: \(siblings)")
        }
        #expect(killedMidway > 0, "some exports were killed before they ended")
        // The next command finishes or drops what a killed export left; a new store reads the folder whole.
        try evidence(["init", "--store", "b.sqlite"])
        try evidence(["import", "shared", "--store", "b.sqlite"])
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.path("shared"))).contains { $0.hasPrefix(".evidence-") })
        try evidence(["export", "shared", "--store", "a.sqlite"])
        try evidence(["sync", "shared", "--store", "b.sqlite"])
        #expect(try othersFiles() == before)
    }

    // MARK: - Finding 7: a teammate's run is not removed silently

    @Test func anExportRefusesToRemoveATeammatesRunItHasNotImported() throws {
        try evidence(["export", "shared", "--store", "a.sqlite"])
        // Bea imports the shared folder, logs a run and exports back.
        try evidence(["init", "--store", "b.sqlite"], as: "bea")
        try evidence(["sync", "shared", "--store", "b.sqlite"], as: "bea")
        let logged = try evidence(["log", "bars.other-app-activity", "--result", "fail", "--note", "Bea's find", "--store", "b.sqlite"] + Self.duo, as: "bea")
        try evidence(["sync", "shared", "--store", "b.sqlite"], as: "bea")
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder.path("shared/runs")).sorted()
        let beas = try #require(runs.first { name in
            (try? String(contentsOfFile: folder.path("shared/runs/" + name), encoding: .utf8))?.contains("Bea's find") == true
        })
        #expect(logged.stderr.contains(String(beas.prefix(8))))
        // Ana has not imported it: her export stops, naming the run, and changes nothing.
        let snapshot = try FileManager.default.contentsOfDirectory(atPath: folder.path("shared/runs")).sorted()
        let refused = try evidence(["export", "shared", "--store", "a.sqlite"], expect: 64)
        #expect(refused.stderr.contains("holds what this store has not imported"), "\(refused.stderr)")
        #expect(refused.stderr.contains("run " + String(beas.prefix(8))) || refused.stderr.contains(String(beas.dropLast(6))), "\(refused.stderr)")
        #expect(refused.stderr.contains("evidence sync") && refused.stderr.contains("--replace"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("shared/runs")).sorted() == snapshot)

        // A teammate's edit of a claim stops it too.
        let claims = folder.path("shared/claims/duo-system-surfaces.jsonl")
        let text = try String(contentsOfFile: claims, encoding: .utf8)
        try text.replacingOccurrences(of: "\"area\":\"Bars\"", with: "\"area\":\"Bars and columns\"").write(toFile: claims, atomically: true, encoding: .utf8)
        let edited = try evidence(["export", "shared", "--store", "a.sqlite"], expect: 64)
        #expect(edited.stderr.contains("as changed in claims/duo-system-surfaces.jsonl"), "\(edited.stderr)")

        // sync takes both in and writes them back; --replace writes over them.
        try evidence(["sync", "shared", "--store", "a.sqlite"])
        #expect(FileManager.default.fileExists(atPath: folder.path("shared/runs/" + beas)))
        #expect(try String(contentsOfFile: claims, encoding: .utf8).contains("Bars and columns"))
        try evidence(["export", "shared", "--store", "a.sqlite"])
        try evidence(["init", "--store", "c.sqlite"], as: "cy")
        try evidence(["seed", "--store", "c.sqlite"], as: "cy")
        try evidence(["export", "shared", "--store", "c.sqlite"], as: "cy", expect: 64)
        try evidence(["export", "shared", "--store", "c.sqlite", "--replace"], as: "cy")
        #expect(!FileManager.default.fileExists(atPath: folder.path("shared/runs/" + beas)))
    }

    // MARK: - Finding 12: merge-file with nothing to merge

    @Test func mergeFileOfThreeIdenticalVersionsHasNoMarkers() throws {
        try evidence(["export", "shared", "--store", "a.sqlite"])
        let file = folder.path("shared/sources.jsonl")
        for name in ["base", "ours", "theirs"] {
            try FileManager.default.copyItem(atPath: file, toPath: folder.path(name + ".jsonl"))
        }
        try evidence(["merge-file", "base.jsonl", "ours.jsonl", "theirs.jsonl", "sources.jsonl"])
        #expect(try String(contentsOfFile: folder.path("ours.jsonl"), encoding: .utf8) == String(contentsOfFile: file, encoding: .utf8))
        // Not records at all, but the same on every side: kept as it is.
        for name in ["base", "ours", "theirs"] { _ = try folder.write(name + ".txt", "not a record\n") }
        try evidence(["merge-file", "base.txt", "ours.txt", "theirs.txt", "notes.txt"])
        #expect(try String(contentsOfFile: folder.path("ours.txt"), encoding: .utf8) == "not a record\n")
    }
}
