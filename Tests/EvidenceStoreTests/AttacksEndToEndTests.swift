import Foundation
import Testing

@testable import EvidenceStore

/// What an adversarial tester's 638 attacks on the release binary broke
/// (issue 45), each tried again on the built binary.
@Suite struct AttacksEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    /// Every file under a folder with its digest, links as their targets:
    /// proof that a command left the folder as it was.
    func folderDigest(_ path: String) throws -> [String: String] {
        var digests: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path(path)) else { return [:] }
        while let relative = walker.nextObject() as? String {
            let full = folder.path(path) + "/" + relative
            if let target = try? manager.destinationOfSymbolicLink(atPath: full) {
                digests[relative] = "link to " + target
                walker.skipDescendants()
            } else if (try? manager.attributesOfItem(atPath: full)[.type] as? FileAttributeType) == .typeRegular {
                digests[relative] = try fileDigest(full)
            }
        }
        return digests
    }

    // MARK: 2 and 6. A team folder is a boundary

    /// A link among the folder's parts (a teammate can commit one) is never
    /// followed: export, `export --replace` and import refuse it and touch
    /// nothing on either side of it; `/etc/passwd` is never read.
    @Test func exportAndImportNeverFollowALinkOutOfTheTeamFolder() throws {
        try run(["export", "out"])
        try FileManager.default.createDirectory(atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
        _ = try folder.write("elsewhere/victim.jsonl", "{\"kept\":true}\n")
        try FileManager.default.removeItem(atPath: folder.path("out/claims"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/claims"), withDestinationPath: "../elsewhere")
        let outside = try folderDigest("elsewhere")
        let inside = try folderDigest("out")
        let before = try fileDigest(store)
        for arguments in [["export", "out"], ["export", "out", "--replace"], ["import", "out"], ["sync", "out"]] {
            let refused = try run(arguments, expect: 65)
            #expect(refused.stderr.contains("out/claims: is a symbolic link, not the folder an export keeps its records in"), "\(refused.stderr)")
            #expect(refused.stderr.contains("never follows a link out of a team folder"), "\(refused.stderr)")
            #expect(try folderDigest("elsewhere") == outside, "\(arguments)")
            #expect(try folderDigest("out") == inside, "\(arguments)")
            #expect(try fileDigest(store) == before, "\(arguments)")
        }

        try FileManager.default.removeItem(atPath: folder.path("out/claims"))
        try run(["export", "out", "--replace"])
        try FileManager.default.removeItem(atPath: folder.path("out/sources.jsonl"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("out/sources.jsonl"), withDestinationPath: "/etc/passwd")
        let passwd = try run(["import", "out"], expect: 65)
        #expect(passwd.stderr.contains("out/sources.jsonl: is a symbolic link, not a regular file"), "\(passwd.stderr)")
        #expect(!passwd.stderr.contains("root:"), "\(passwd.stderr)")
        #expect(try fileDigest(store) == before)
    }

    /// A person's file named `claims` where the export keeps a folder stops
    /// export before any file is moved (every later command used to fail
    /// half way), and import names it instead of reading no claims.
    @Test func aFileWhereTheExportKeepsAFolderStopsEverythingBeforeItMoves() throws {
        try run(["export", "out"])
        try run(["log", "deep-links.closed-and-open", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1",
                 "--xcode-build", "27A9275", "--date", "2026-11-02"])
        try FileManager.default.removeItem(atPath: folder.path("out/claims"))
        _ = try folder.write("out/claims", "my notes about claims\n")
        let inside = try folderDigest("out")
        let before = try fileDigest(store)
        for arguments in [["export", "out"], ["export", "out", "--replace"], ["import", "out"], ["sync", "out"]] {
            let refused = try run(arguments, expect: 65)
            #expect(refused.stderr.contains("out/claims: is a regular file, not the folder an export keeps its records in"), "\(refused.stderr)")
            #expect(try folderDigest("out") == inside, "\(arguments): nothing moved")
            #expect(try fileDigest(store) == before, "\(arguments)")
        }
        try FileManager.default.removeItem(atPath: folder.path("out/claims"))
        try run(["sync", "out"])
    }

    /// An export's staging folder that came in a teammate's commit is never
    /// carried out: its ready list would remove or replace the format's files
    /// (issue 45, point 9). Import, export and sync name it and leave it.
    @Test func aStagingFolderFromElsewhereIsNeverCarriedOut() throws {
        try run(["export", "out"])
        let sources = try fileDigest(folder.path("out/sources.jsonl"))
        for (name, madeFor) in [(".evidence-export-99999999-1", "1:1\n"), (".evidence-export-99999998-2", nil)] {
            _ = try folder.write("out/\(name)/ready", "remove sources.jsonl\nmove claims/planted.jsonl\n")
            _ = try folder.write("out/\(name)/claims/planted.jsonl", "{\"key\":\"planted\"}\n")
            if let madeFor { _ = try folder.write("out/\(name)/folder", madeFor) }
        }
        for arguments in [["import", "out"], ["export", "out"], ["sync", "out"]] {
            let ran = try run(arguments)
            #expect(ran.stderr.contains("warning: out/.evidence-export-99999998-2 is an export's staging folder made elsewhere"), "\(ran.stderr)")
            #expect(ran.stderr.contains("out/.evidence-export-99999999-1"), "\(ran.stderr)")
            #expect(try fileDigest(folder.path("out/sources.jsonl")) == sources, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out/claims/planted.jsonl")), "\(arguments)")
        }
    }

    // MARK: 1 and 10. Temporary files

    /// A write stopped by SIGTERM, SIGINT or SIGHUP removes its temporary
    /// file (a 15 MB one stayed until the next write) and leaves the document
    /// as it was; the next write sweeps what a kill -9 left, and only what has
    /// the exact shape of its own temporary names: a person's file that
    /// merely starts the same way stays.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP]) func aStoppedWriteTakesItsTemporaryFileWithIt(signal number: Int32) throws {
        let document = folder.path("guide.md")
        let text = "---\nname: duo-system-surfaces\nverified: \"Xcode 26\"\n---\n# Guide\n"
        try text.write(toFile: document, atomically: true, encoding: .utf8)
        let running = try EvidenceBinary.start(
            ["lint", "--write", "guide.md"],
            environment: ["EVIDENCE_STORE": store, "EVIDENCE_FAULT_POINT": "document.written:stop"], in: folder.url)
        #expect(running.waitUntilStopped(), "lint --write reaches the point before it renames its new file")
        let during = try hidden()
        #expect(during.count == 1, "\(during)")
        kill(running.pid, number)
        running.resume()
        let result = running.finish()
        #expect(result.status == number, "ended by the signal: \(result.stderr)")
        let after = try hidden()
        #expect(after.isEmpty, "\(after)")
        #expect(try String(contentsOfFile: document, encoding: .utf8) == text)

        _ = try folder.write(".guide.md.evidence-99999999-1", "left by a kill -9")
        _ = try folder.write(".guide.md.evidence-99999999-my-notes", "a person's own file")
        _ = try folder.write(".report.md.evidence-99999999-2", "left by a killed report")
        try run(["lint", "--write", "guide.md"])
        try run(["report", "--output", "report.md"])
        #expect(try hidden() == [".guide.md.evidence-99999999-my-notes"])
    }

    /// The hidden files beside the documents.
    private func hidden() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".evidence-") }.sorted()
    }

    // MARK: 7 and 10. CSV cannot be turned against its reader

    /// Cells a spreadsheet would run as formulas start with an apostrophe;
    /// numbers stay numbers; ESC already in a store reaches no terminal.
    @Test func csvCellsAreNeverFormulasOrTerminalCommands() throws {
        let cells = try run([
            "query", "--format", "csv",
            "SELECT '=HYPERLINK(\"http://x\")' AS a, '@SUM(A1)' AS b, '+cmd|calc' AS c, '-2+3' AS d, -1.5 AS e, '-4' AS f, "
                + "char(9) || 'tab' AS g, 'say ' || char(27) || '[31m red' AS h, '1e-3' AS i, 'plain - text' AS j",
        ]).stdout
        let row = try #require(cells.split(separator: "\n").dropFirst().first.map(String.init))
        #expect(row == "\"'=HYPERLINK(\"\"http://x\"\")\",'@SUM(A1),'+cmd|calc,'-2+3,-1.5,-4,'\ttab,say \u{FFFD}[31m red,1e-3,plain - text", "\(row)")
        #expect(!cells.contains("\u{1B}"))
    }

    // MARK: 10. Smaller defects

    /// A folder git could not merge (the driver was not set up) names its
    /// conflict, the file, the line and the records, instead of "not valid JSON".
    @Test func gitConflictMarkersInAnExportAreNamedAsSuch() throws {
        try run(["export", "out"])
        let path = folder.path("out/sources.jsonl")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let mine = lines[1]
        let theirs = mine.replacingOccurrences(of: "\"title\":\"", with: "\"title\":\"Renamed: ")
        #expect(theirs != mine)
        lines.replaceSubrange(1...1, with: ["<<<<<<< HEAD", mine, "=======", theirs, ">>>>>>> origin/main"])
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let before = try fileDigest(store)
        let refused = try run(["import", "out"], expect: 65)
        #expect(refused.stderr.contains("sources.jsonl:2: holds git's conflict markers: a merge left unresolved (source '"), "\(refused.stderr)")
        #expect(refused.stderr.contains("evidence git-setup"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not valid JSON"))
        #expect(try fileDigest(store) == before)
    }

    /// The Arabic letter mark reorders text as U+200F does: refused at input
    /// as the others are, and dropped or replaced in every output.
    @Test func theArabicLetterMarkIsRefusedAsTheOtherMarksAre() throws {
        for mark in ["\u{200F}", "\u{061C}"] {
            let refused = try run(["source", "add", "https://developer.apple.com/x", "--title", "Apple\(mark) page", "--kind", "doc", "--publisher", "Apple"], expect: 64)
            #expect(refused.stderr.contains("holds the control character U+\(mark == "\u{061C}" ? "061C" : "200F")"), "\(refused.stderr)")
        }
        #expect(EvidenceStore.Markdown.isDropped("\u{061C}"))
        #expect(HTML.escape("a\u{061C}b\u{200F}c") == "abc")
        #expect(CSVRenderer.field("a\u{061C}b") == "a\u{FFFD}b")
    }
}
