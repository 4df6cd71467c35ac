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
}
