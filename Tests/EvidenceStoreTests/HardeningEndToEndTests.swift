import Foundation
import Testing

@testable import EvidenceStore


/// What an adversarial review of the release binary broke, each tried again on
/// the built binary (issue 13, by point).
@Suite struct HardeningEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let duo = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    /// The store's files, each with its digest: proof that nothing changed them.
    func storeDigest() throws -> String {
        try fileDigest(store)
    }

    /// Writes to the store directly, as SQLite or a store from before a check would.
    func withRawStore(_ body: (Database) throws -> Void) throws {
        let database = try Database(path: store, mode: .readWrite)
        defer { database.close() }
        try database.execute("PRAGMA foreign_keys = ON")
        try body(database)
    }

    /// Names in the folder other than the ones given: leftovers of a failed write.
    func strayFiles(besides names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { !names.contains($0) }.sorted()
    }

    // MARK: 1. Outputs never replace the store

    @Test func outputsRefuseTheStoreItsFilesAndAnySQLiteFile() throws {
        try run(["query", "SELECT 1"])  // the WAL and shared memory exist
        let before = try run(["query", "--format", "csv", "SELECT count(*) AS n FROM claims"]).stdout
        for command in ["report", "checklist", "sources"] {
            for target in [store, store + "-wal", store + "-shm", store + "-journal", "./evidence.sqlite"] {
                let refused = try run([command, "--output", target], expect: 64)
                #expect(refused.stderr.contains("will not write to \(target)"), "\(refused.stderr)")
            }
        }
        // Another name for the same file, and other SQLite databases.
        symlink(store, folder.path("link.md"))
        #expect(try run(["report", "--output", "link.md"], expect: 64).stderr.contains("it is the store"))
        let other = folder.path("other.sqlite")
        try run(["init", "--store", other])
        #expect(try run(["report", "--output", "other.sqlite"], expect: 64).stderr.contains("it is an SQLite database"))
        #expect(try run(["report", "--output", "other.sqlite-wal"], expect: 64).stderr.contains("SQLite database"))
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        #expect(try run(["report", "--output", "out"], expect: 64).stderr.contains("it is a folder"))
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM claims"]).stdout == before)
        #expect(try run(["check"]).status == 0)
        // A good output is written whole, through a temporary file that does not stay.
        try run(["report", "--output", "report.md"])
        try run(["report", "--output", "report.md"])
        #expect(try String(contentsOfFile: folder.path("report.md"), encoding: .utf8).hasPrefix("# "))
        #expect(try strayFiles(besides: ["evidence.sqlite", "evidence.sqlite-wal", "evidence.sqlite-shm", "link.md",
            "other.sqlite", "other.sqlite-wal", "other.sqlite-shm", "out", "report.md"]).isEmpty)
    }

    // MARK: 2. One name per store

    @Test func aStoreWithTwoNamesIsRefusedAndCheckSaysWhy() throws {
        let second = folder.path("second.sqlite")
        #expect(link(store, second) == 0)
        let before = try storeDigest()
        for path in [store, second] {
            let logged = try run(["log", "bars.share-column.overflow", "--result", "pass", "--store", path] + Self.duo, expect: 65)
            #expect(logged.stderr.contains("has 2 names (hard links)"), "\(logged.stderr)")
            try run(["status", "--store", path], expect: 65)
            try run(["init", "--store", path], expect: 65)
        }
        #expect(try storeDigest() == before)
        let checked = try run(["check"], expect: 1)
        #expect(checked.stdout.contains("FAIL  one_name"), "\(checked.stdout)")
        #expect(unlink(second) == 0)
        try run(["log", "bars.share-column.overflow", "--result", "pass"] + Self.duo)
        #expect(try run(["check"]).stdout.contains("ok    one_name"))
    }

    // MARK: 3. Backups

    @Test func backupsUseTheirOwnTemporaryFileAndReplaceOnlyWhenAsked() throws {
        // A store whose name is what backups once used as their temporary file.
        let partial = folder.path("db.partial")
        try run(["init", "--store", partial])
        try run(["seed", "--store", partial])
        try run(["backup", "db", "--store", partial])
        #expect(try run(["check", "--store", partial]).status == 0)
        #expect(try run(["check", "--store", folder.path("db")]).status == 0)
        // An existing destination is kept unless --force; the store itself never is replaced.
        let again = try run(["backup", "db", "--store", partial], expect: 74)
        #expect(again.stderr.contains("already exists; give a new file, or --force"), "\(again.stderr)")
        try run(["log", "bars.share-column.overflow", "--result", "pass", "--store", partial] + Self.duo)
        try run(["backup", "db", "--force", "--store", partial])
        #expect(try run(["query", "--format", "csv", "--store", folder.path("db"), "SELECT count(*) AS n FROM results"]).stdout
            == "n\n16\n")
        for own in [partial, partial + "-wal", "db.partial"] {
            let refused = try run(["backup", own, "--force", "--store", partial], expect: 64)
            #expect(refused.stderr.contains("it is the store"), "\(own): \(refused.stderr)")
        }
        // Two backups to one new destination: one wins, the other says so; the file is whole.
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let result = try? EvidenceBinary.run(["backup", "pair.sqlite", "--store", store], in: folder.url)
            results.append(result?.status ?? -1)
        }
        #expect(results.values.sorted() == [0, 74], "\(results.values)")
        #expect(try run(["check", "--store", folder.path("pair.sqlite")]).status == 0)
        // A backup killed before its copy took the name leaves no destination,
        // and the next backup removes its temporary file.
        let killed = try EvidenceBinary.run(
            ["backup", "late.sqlite"], environment: ["EVIDENCE_STORE": store, "EVIDENCE_FAULT_POINT": "backup.copied"],
            in: folder.url)
        #expect(killed.status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: folder.path("late.sqlite")))
        #expect(try strayFiles(besides: []).contains { $0.hasPrefix("late.sqlite.backup-") })
        try run(["backup", "late.sqlite"])
        #expect(try strayFiles(besides: []).allSatisfy { !$0.contains(".backup-") })
    }

    // MARK: 4. An export is always one whole export

    /// Every file of the format in an export folder, with its digest.
    func exportContent(_ name: String) throws -> [String: String] {
        var content: [String: String] = [:]
        let root = folder.path(name)
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".jsonl") || relative == "format.json" else { continue }
            content[relative] = try fileDigest(root + "/" + relative)
        }
        return content
    }

    @Test func anExportKilledAtAnyStepIsOldOrNewOnceReadAndNeverMovesOtherFiles() throws {
        try run(["export", "out"])
        try folder.write("out/README.md", "our notes")
        try folder.write("out/.git/config", "[core]")
        try folder.write("out/runs/notes.txt", "kept")
        let old = try exportContent("out")
        try run(["log", "bars.share-column.overflow", "--result", "fail", "--note", "overflow menu missing"] + Self.duo)
        try run(["export", "expected"])
        let new = try exportContent("expected")
        #expect(old != new)
        for point in ["export.staged", "export.ready", "export.moving"] {
            let killed = try EvidenceBinary.run(
                ["export", "out"], environment: ["EVIDENCE_STORE": store, "EVIDENCE_FAULT_POINT": point], in: folder.url)
            #expect(killed.status == SIGKILL, "\(point): \(killed.status) \(killed.stderr)")
            // The user's files never moved.
            #expect(try String(contentsOfFile: folder.path("out/README.md"), encoding: .utf8) == "our notes")
            #expect(FileManager.default.fileExists(atPath: folder.path("out/.git/config")))
            #expect(FileManager.default.fileExists(atPath: folder.path("out/runs/notes.txt")))
            // The next reader finishes a ready export, or drops one that was not: old or new, whole.
            let fresh = folder.path("fresh-\(point).sqlite")
            try run(["init", "--store", fresh])
            try run(["import", "out", "--store", fresh])
            let now = try exportContent("out")
            #expect(now == (point == "export.staged" ? old : new), "\(point): a folder of two moments")
            #expect(try strayFiles(besides: []).allSatisfy { !$0.hasPrefix(".out.") }, "\(point)")
            #expect(!(try FileManager.default.contentsOfDirectory(atPath: folder.path("out"))).contains { $0.hasPrefix(".evidence-") })
            try run(["export", "out"])
            #expect(try exportContent("out") == new)
            // Back to the old export for the next point.
            for (relative, _) in new where old[relative] == nil {
                try FileManager.default.removeItem(atPath: folder.path("out/" + relative))
            }
            #expect(try exportContent("out") == old)
        }
    }

    // MARK: 5. init

    @Test func initIsWholeOrAbsentAndConcurrentInitsAllSucceed() throws {
        let path = folder.path("new.sqlite")
        let killed = try EvidenceBinary.run(
            ["init", "--store", path], environment: ["EVIDENCE_FAULT_POINT": "init.built"], in: folder.url)
        #expect(killed.status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: path))
        try run(["init", "--store", path])
        #expect(try run(["check", "--store", path]).status == 0)
        #expect(try strayFiles(besides: []).allSatisfy { !$0.contains(".init-") })
        // An empty file, as an older version's crashed init left, is made into a store.
        try folder.write("empty.sqlite", "")
        try run(["init", "--store", folder.path("empty.sqlite")])
        #expect(try run(["check", "--store", folder.path("empty.sqlite")]).status == 0)
        // Six inits of one new path at once, ten times over.
        for round in 0..<10 {
            let target = folder.path("race-\(round).sqlite")
            let statuses = ResultBox()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                let result = try? EvidenceBinary.run(["init", "--store", target], in: folder.url)
                statuses.append(result?.status ?? -1)
            }
            #expect(statuses.values == Array(repeating: 0, count: 6), "round \(round): \(statuses.values)")
            #expect(try run(["check", "--store", target]).status == 0)
        }
        #expect(try strayFiles(besides: []).allSatisfy { !$0.contains(".init-") })
    }

    // MARK: 12. Attachments stay in the store's folder

    @Test func attachmentsAreNeverTheStoreAndNeverLeaveItsFolder() throws {
        try run(["query", "SELECT 1"])
        for own in ["evidence.sqlite", "evidence.sqlite-wal", "evidence.sqlite-shm"] {
            let refused = try run(["log", "bars.share-column.overflow", "--result", "pass", "--attach", own] + Self.duo, expect: 64)
            #expect(refused.stderr.contains("a file other than the store"), "\(own): \(refused.stderr)")
        }
        // A folder inside that is a link to one outside: logging keeps a copy
        // of the file inside the folder (as for any file from outside); a
        // recorded path that leads out is refused when importing, and named
        // when checking what an older import let in.
        let outside = try TemporaryFolder()
        try outside.write("secret.txt", "not evidence")
        symlink(outside.url.path, folder.path("etc"))
        let copy = folder.path("copy.sqlite")
        try run(["init", "--store", copy])
        try run(["seed", "--store", copy])
        try run(["log", "bars.share-column.overflow", "--result", "pass", "--attach", "etc/secret.txt", "--store", copy] + Self.duo)
        let kept = try run(["query", "--store", copy, "--format", "csv", "SELECT path FROM attachments"]).stdout
        #expect(kept.hasPrefix("path\nattachments/") && kept.hasSuffix(".txt\n"), "\(kept)")
        let keptPath = String(kept.dropFirst("path\n".count).dropLast())
        #expect(try String(contentsOfFile: folder.path(keptPath), encoding: .utf8) == "not evidence")
        #expect(try run(["attachments", "verify", "--store", copy]).status == 0)
        try folder.write("shots/closed.png", "png")
        try run(["log", "bars.share-column.overflow", "--result", "pass", "--attach", "shots/closed.png", "--attach", "shots/closed.png"] + Self.duo)
        try run(["export", "out"])
        let results = try FileManager.default.contentsOfDirectory(atPath: folder.path("out/runs"))
        var changed = false
        for name in results {
            let path = folder.path("out/runs/" + name)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if text.contains("shots/closed.png") {
                try text.replacingOccurrences(of: "shots/closed.png", with: "etc/secret.txt").write(toFile: path, atomically: true, encoding: .utf8)
                changed = true
            }
        }
        #expect(changed)
        let other = folder.path("other.sqlite")
        try run(["init", "--store", other])
        let imported = try run(["import", "out", "--store", other], expect: 64)
        #expect(imported.stderr.contains("through a symbolic link it leads to"), "\(imported.stderr)")
        try run(["query", "UPDATE attachments SET path = 'etc/secret.txt'"], expect: 64)
        // What a store from before these checks may hold: check names it, once.
        try withRawStore { database in
            try database.execute("UPDATE attachments SET path = 'etc/secret.txt'")
        }
        let checked = try run(["check"], expect: 1)
        #expect(checked.stdout.components(separatedBy: "etc/secret.txt").count == 2, "\(checked.stdout)")
        #expect(checked.stdout.contains("leads out of the store's folder"))
        let verified = try run(["attachments", "verify"], expect: 1)
        #expect(verified.stderr.contains("Checked 1 attachment file:"), "\(verified.stderr)")
        // Opened through a link from elsewhere, the store finds its own attachments.
        let elsewhere = try TemporaryFolder()
        symlink(store, elsewhere.path("linked.sqlite"))
        try withRawStore { database in
            try database.execute("UPDATE attachments SET path = 'shots/closed.png'")
        }
        let linked = try EvidenceBinary.run(["attachments", "verify", "--store", elsewhere.path("linked.sqlite")], in: elsewhere.url)
        #expect(linked.status == 0, "\(linked.stderr)")
        // A file two results attach, then removed: named once (point 13).
        try run(["log", "bars.other-app-activity", "--result", "pass", "--attach", "shots/closed.png"] + Self.duo)
        try FileManager.default.removeItem(atPath: folder.path("shots/closed.png"))
        let vanished = try run(["check"], expect: 1)
        #expect(vanished.stdout.components(separatedBy: "shots/closed.png").count == 2, "\(vanished.stdout)")
    }

    // MARK: 6. Control characters

    @Test func controlCharactersAreRefusedAtEveryBoundaryAndEscapedInOutput() throws {
        let before = try storeDigest()
        // The command line: names, versions and builds are one line; free text has line breaks at most.
        let cases: [(String, [String])] = [
            ("U+000A", ["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1\n---\n<script>x</script>", "--xcode", "27.1"]),
            ("U+001B", ["log", "bars.other-app-activity", "--result", "pass", "--simulator", "iPhone\u{1B}[31mDuo", "--os", "iOS 27.1", "--xcode", "27.1"]),
            ("U+202E", ["log", "bars.other-app-activity", "--result", "pass"] + Self.duo + ["--tester", "eve\u{202E}dlrow"]),
            ("U+0007", ["log", "bars.other-app-activity", "--result", "pass"] + Self.duo + ["--note", "ring\u{7}"]),
        ]
        for (control, arguments) in cases {
            let refused = try run(arguments, expect: 64)
            #expect(refused.stderr.contains("control character \(control)"), "\(refused.stderr)")
            #expect(!refused.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
        }
        #expect(try storeDigest() == before)
        try run(["log", "bars.other-app-activity", "--result", "pass", "--note", "two\nlines\tand a tab"] + Self.duo)
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM results WHERE note LIKE 'two%'"]).stdout == "n\n1\n")

        // Ingest: what a CI file says about its device and its tests.
        let stored = try storeDigest()
        let fixture = try String(contentsOfFile: Fixtures.apple("xcresult-tests-1.json").path, encoding: .utf8)
        let xcresult = try folder.write(
            "injected.json", fixture.replacingOccurrences(of: "\"osVersion\" : \"18.2\"", with: #""osVersion" : "18.2\n---\n<script>x</script>""#))
        let byVersion = try run(["ingest", xcresult, "--xcode", "16.2"], expect: 65)
        #expect(byVersion.stderr.contains("U+000A"), "\(byVersion.stderr)")
        // XML cannot carry ESC at all (libxml2 refuses &#27;); JSON can.
        let junit = try folder.write(
            "escape.xml", "<testsuites><testsuite name=\"S\"><testcase classname=\"T\" name=\"a&#27;[2J\"/></testsuite></testsuites>")
        #expect(try run(["ingest", junit] + Self.duo, expect: 65).stderr.contains("a character that XML does not allow"))
        let named = try folder.write(
            "named.json", fixture.replacingOccurrences(of: #""name" : "testAccessibilityAndScreenshots()""#, with: #""name" : "a\u001b[2Jcleared()""#))
        let byName = try run(["ingest", named, "--xcode", "16.2"], expect: 65)
        #expect(byName.stderr.contains("U+001B") && byName.stderr.contains(#"a\u{1B}[2Jcleared"#), "\(byName.stderr)")
        #expect(!byName.stderr.unicodeScalars.contains("\u{1B}"))
        #expect(try storeDigest() == stored)

        // Import: a text folder edited by hand.
        try run(["export", "out"])
        let runFile = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/runs")).sorted().first)
        let runPath = folder.path("out/runs/" + runFile)
        let text = try String(contentsOfFile: runPath, encoding: .utf8)
        try text.replacingOccurrences(of: #""model":""#, with: #""model":"\u001b[31m"#)
            .write(toFile: runPath, atomically: true, encoding: .utf8)
        try run(["init", "--store", "copy.sqlite"])
        let imported = try run(["import", "out", "--store", "copy.sqlite"], expect: 65)
        #expect(imported.stderr.contains("U+001B") && imported.stderr.contains(runFile), "\(imported.stderr)")
        #expect(try run(["query", "--store", "copy.sqlite", "--format", "csv", "SELECT count(*) AS n FROM runs"]).stdout == "n\n0\n")

        // Output: a store written before the check (or by hand) still gives one line, escaped.
        try withRawStore { database in
            try database.execute(
                "UPDATE environments SET os_version = os_version || char(10) || '---' || char(10) || '<script>x</script>' || char(27)")
        }
        let line = try run(["verified-line"]).stdout
        #expect(line.split(separator: "\n").count == 1, "\(line)")
        #expect(line.contains(#"\u{A}---\u{A}<script>x</script>\u{1B}"#), "\(line)")
    }

    // MARK: 7. Values at the start of a line

    @Test(.enabled(if: ExternalTool.cmark.shouldRun)) func valuesAtTheStartOfALineStayText() throws {
        let names = ["---", "# x", "    code", "1. x", "2) y", "+ z", "= under", "> quote", "* star", "***"]
        var cases = ""
        for name in names {
            cases += "<testcase classname=\"T\" name=\"\(name)\"><failure message=\"\(name)\">\(name)</failure></testcase>"
        }
        let junit = try folder.write("lines.xml", "<testsuites><testsuite name=\"S\">\(cases)</testsuite></testsuites>")
        try run(["ingest", junit] + Self.duo)
        let report = try run(["report"]).stdout
        let html = try CommonMark.html(report)
        let tags = CommonMark.tagCounts(html)
        for tag in ["hr", "pre", "ol", "blockquote", "em", "strong"] {
            #expect(tags[tag] == nil, "no <\(tag)> may come from a test's name: \(html)")
        }
        // Every name reads back as itself, in the list of failures.
        for name in names where name != "    code" {
            #expect(CommonMark.text(html).contains(name), "\(name)")
        }
        #expect(CommonMark.text(html).contains("T/code") || CommonMark.text(html).contains("code"))
        // A heading keeps its closing hashes, a checklist item its first character.
        try run(["claim", "add", "bars.hashes", "--statement", "1. Ends with a hash ##", "--document", "doc ##", "--area", "a",
            "--label", "unverified"])
        try withRawStore { database in
            try database.execute(
                "UPDATE checklist_items SET text = '- looks like a rule' WHERE id = (SELECT min(id) FROM checklist_items)")
        }
        let checklist = try CommonMark.html(try run(["checklist"]).stdout)
        #expect(checklist.contains("- looks like a rule"), "\(checklist)")
        #expect(!checklist.contains("<hr"))
        let again = try CommonMark.html(try run(["report"]).stdout)
        #expect(again.contains("<h3>doc ##</h3>"), "\(again)")
        #expect(!again.contains("<ol"))
    }

    // MARK: 8. No raw HTML; code spans stay code

    @Test(.enabled(if: ExternalTool.cmark.shouldRun)) func publishedMarkdownHoldsNoRawHTMLAndKeepsCodeSpans() throws {
        for command in [["report"], ["checklist"], ["sources"]] {
            let markdown = try run(command).stdout
            let safe = try CommonMark.html(markdown, unsafe: false)
            #expect(!safe.contains("raw HTML omitted"), "\(command): \(safe)")
            #expect(!markdown.contains("<br>") && !markdown.contains("<!--"), "\(command)")
        }
        // Several sources in one cell: each link whole, a separator between them.
        let report = try run(["report"]).stdout
        let html = try CommonMark.html(report, unsafe: false)
        #expect(html.contains("</a>; <a href="), "links in a cell are separated in text")
        // A statement's well-formed code span is code; a lone backtick is text.
        try run(["claim", "add", "api.limited", "--statement", "`isDynamicIslandLimitedInWidth` is `true | false`; a lone ` stays",
            "--document", "api", "--area", "a", "--label", "unverified"])
        let claimed = try CommonMark.html(try run(["report"]).stdout, unsafe: false)
        #expect(claimed.contains("<code>isDynamicIslandLimitedInWidth</code> is <code>true | false</code>; a lone ` stays"), "\(claimed)")
        let table = try #require(CommonMark.tables(claimed).first { $0.cellTexts.first?.first == "api.limited" })
        #expect(table.rows == [table.headerCells])
    }

    // MARK: 9. Only regular files are read

    @Test func fifosAndLinksToStandardInputAreRefusedWithoutHoldingTheLock() throws {
        try run(["export", "out"])
        let before = try storeDigest()
        let sources = folder.path("out/sources.jsonl")
        let original = try Data(contentsOf: URL(fileURLWithPath: sources))
        // The import runs under `timeout`, its standard input a FIFO that no
        // writer ever closes: before the fix it waited there forever.
        let input = folder.path("input-fifo")
        #expect(mkfifo(input, 0o644) == 0)
        func importUnderTimeout() throws -> ProcessResult {
            try ShellCommand.run(
                "exec 0<>\"$3\"; timeout 20 \"$0\" import \"$1\" --store \"$2\"",
                arguments: [EvidenceBinary.url.path, folder.path("out"), store, input])
        }
        try FileManager.default.removeItem(atPath: sources)
        #expect(mkfifo(sources, 0o644) == 0)
        let fifo = try importUnderTimeout()
        #expect(fifo.status == 65, "\(fifo.stderr)")
        #expect(fifo.stderr.contains("sources.jsonl: is a FIFO (named pipe), not a regular file"), "\(fifo.stderr)")
        try FileManager.default.removeItem(atPath: sources)
        #expect(symlink("/dev/stdin", sources) == 0)
        let stdin = try importUnderTimeout()
        #expect(stdin.status == 65, "\(stdin.stderr)")
        #expect(stdin.stderr.contains("not a regular file"), "\(stdin.stderr)")
        // A folder where a file should be (point 13) is named as such.
        try FileManager.default.removeItem(atPath: sources)
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: false)
        let folderInstead = try run(["import", "out"], expect: 65)
        #expect(folderInstead.stderr.contains("sources.jsonl: is a folder, not a regular file"), "\(folderInstead.stderr)")
        #expect(!folderInstead.stderr.contains("NSCocoaErrorDomain"))
        try FileManager.default.removeItem(atPath: sources)
        try original.write(to: URL(fileURLWithPath: sources))
        #expect(try storeDigest() == before)

        // The Xcode version file and a result file: a FIFO is refused at once.
        let versionFIFO = folder.path("xcode-version")
        #expect(mkfifo(versionFIFO, 0o644) == 0)
        let junit = Fixtures.apple("junit-swiftpm-1.xml").path
        let version = try ShellCommand.run(
            "timeout 20 \"$0\" ingest \"$1\" --simulator 'iPhone Duo' --os 'iOS 27.1' --xcode-version-file \"$2\" --store \"$3\"",
            arguments: [EvidenceBinary.url.path, junit, versionFIFO, store])
        #expect(version.status == 65, "\(version.stderr)")
        #expect(version.stderr.contains("xcode-version: is a FIFO (named pipe), not a regular file"), "\(version.stderr)")
        let result = try ShellCommand.run(
            "timeout 20 \"$0\" ingest \"$1\" --simulator 'iPhone Duo' --os 'iOS 27.1' --xcode 27.1 --store \"$2\"",
            arguments: [EvidenceBinary.url.path, versionFIFO, store])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("is a FIFO"), "\(result.stderr)")
        #expect(try storeDigest() == before)
        // And the lock was never held: a log goes through at once.
        try run(["log", "bars.other-app-activity", "--result", "pass"] + Self.duo)
    }

    // MARK: 10. Queries stream, within limits

    @Test func queriesStreamTheirRowsAndStopAtTheirLimitsWithAClearError() throws {
        // 1.3 million rows in 250 MB of address space: held in memory they took 1 GB.
        let many = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1300000) SELECT x, 'some text' AS t FROM c"
        let streamed = try ShellCommand.run(
            "ulimit -v 250000; \"$0\" query --format csv --time-limit 0 --store \"$1\" \"$2\" | tail -n 1",
            arguments: [EvidenceBinary.url.path, store, many])
        #expect(streamed.stdout == "1300000,some text\n", "\(streamed.stderr)")

        // Rows past --max-rows: the rows before it, closed off as valid JSON, and the reason.
        let limited = try run(["query", "--format", "json", "--max-rows", "2", "SELECT key FROM claims ORDER BY key"], expect: 64)
        let rows = try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [[String: String]]
        #expect(rows?.count == 2)
        #expect(limited.stderr == "Error: the query has more than 2 rows; the first 2 were printed (--max-rows 2); narrow it, or raise --max-rows\n")
        #expect(try run(["query", "--format", "csv", "--max-rows", "44", "SELECT key FROM claims"]).stdout.split(separator: "\n").count == 45)

        // A recursive query that never ends: stopped by the time limit, inside SQLite
        // (no row comes) or between rows, whatever the output.
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
        for sql in [endless, endless + " ORDER BY x DESC", "SELECT count(*) FROM (\(endless))"] {
            let started = Date()
            let stopped = try run(["query", "--format", "csv", "--time-limit", "1", sql], expect: 64)
            #expect(Date().timeIntervalSince(started) < 15)
            #expect(stopped.stderr.contains("the query ran longer than 1 s after"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("--time-limit"))
        }
        // A value built past its size.
        let huge = try run(["query", "SELECT length(zeroblob(100000000)) AS n"], expect: 64)
        #expect(huge.stderr.contains("larger than 64 MB"), "\(huge.stderr)")
        #expect(huge.stdout.isEmpty)
        // Bad limits are named.
        #expect(try run(["query", "--max-rows", "0", "SELECT 1"], expect: 64).stderr.contains("maximum rows '0'"))
        #expect(try run(["query", "--time-limit", "soon", "SELECT 1"], expect: 64).stderr.contains("time limit 'soon'"))
    }

    // MARK: 11. A reader who may not write

    /// Runs the binary as a user who may read the store but not write its
    /// folder: "nobody" when the tests run as root (root may write anything),
    /// else this user with the folder and the store made read-only.
    func runAsReader(_ arguments: [String], store path: String? = nil) throws -> ProcessResult {
        let environment = ["EVIDENCE_STORE": path ?? store, "USER": "reader"]
        guard getuid() == 0 else { return try EvidenceBinary.run(arguments, environment: environment, in: folder.url) }
        // A copy of the binary in the test's folder, which every user may run.
        let copy = folder.path("evidence-binary")
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.copyItem(atPath: EvidenceBinary.url.path, toPath: copy)
            chmod(copy, 0o755)
            // The toolchain's libraries may sit where that user cannot read
            // them: copies go beside the binary, which its RUNPATH ($ORIGIN) finds.
            let libraries = try EvidenceBinary.run([copy], executable: URL(fileURLWithPath: "/usr/bin/ldd")).stdout
            for line in libraries.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count >= 3, parts[1] == "=>", let path = parts.dropFirst(2).first.map(String.init),
                    path.hasPrefix("/"), !path.hasPrefix("/lib"), !path.hasPrefix("/usr/lib")
                else { continue }
                let target = folder.path(String(parts[0]))
                if !FileManager.default.fileExists(atPath: target) {
                    try FileManager.default.copyItem(atPath: path, toPath: target)
                    chmod(target, 0o755)
                }
            }
        }
        return try EvidenceBinary.run(
            ["--reuid=65534", "--regid=65534", "--clear-groups", copy] + arguments, environment: environment, in: folder.url,
            executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
    }

    @Test func aReaderWhoMayNotWriteReadsAndWritersSaySoPlainly() throws {
        let outside = folder.path("shared")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        chmod(outside, 0o777)
        chmod(folder.url.path, 0o755)
        chmod(store, 0o644)
        if getuid() != 0 {
            chmod(store, 0o444)
            chmod(folder.url.path, 0o555)
        }
        defer {
            chmod(folder.url.path, 0o755)
            chmod(store, 0o644)
        }
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"), "the seeded store was closed cleanly")
        let before = try storeDigest()
        let reads: [[String]] = [
            ["status"], ["report"], ["checklist"], ["sources"], ["untested"], ["verified-line"],
            ["claim", "show", "bars.other-app-activity"], ["query", "SELECT count(*) AS n FROM claims"], ["check"],
            ["migrate", "--list"], ["attachments", "verify"], ["map", "list"],
        ]
        for arguments in reads {
            let read = try runAsReader(arguments)
            #expect(read.status == 0, "\(arguments): \(read.stderr)")
            #expect(!read.stderr.contains("SQLite error"), "\(arguments): \(read.stderr)")
            if arguments != ["check"] {
                #expect(read.stdout == (try run(arguments).stdout), "\(arguments) reads as the writer does")
            }
        }
        #expect(try runAsReader(["backup", outside + "/copy.sqlite"]).status == 0)
        try run(["export", outside + "/export"])
        let writes: [[String]] = [
            ["log", "bars.other-app-activity", "--result", "pass"] + Self.duo,
            ["claim", "label", "bars.other-app-activity", "measured", "--reason", "r"],
            ["export", outside + "/mine"], ["import", outside + "/export"], ["init"], ["seed"],
        ]
        for arguments in writes {
            let refused = try runAsReader(arguments)
            #expect(refused.status == 74, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("cannot be written: this user may"), "\(arguments): \(refused.stderr)")
            #expect(!refused.stderr.contains("SQLite error"), "\(arguments): \(refused.stderr)")
        }
        #expect(try storeDigest() == before)
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"))

        // A writer with the store open leaves WAL content and its -shm file:
        // the reader reads through them and sees the latest commit.
        guard getuid() == 0 else { return }
        let writer = try Database(path: store, mode: .readWrite)
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("INSERT INTO capabilities (name, description) VALUES ('late-capability', 'written while a reader reads')")
        let late = try runAsReader(["query", "--format", "csv", "SELECT count(*) AS n FROM capabilities WHERE name = 'late-capability'"])
        #expect(late.stdout == "n\n1\n", "\(late.stderr)")
        // The same files without the -shm file cannot be read safely, and say why.
        let copy = folder.path("copy")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: store, toPath: copy + "/evidence.sqlite")
        try FileManager.default.copyItem(atPath: store + "-wal", toPath: copy + "/evidence.sqlite-wal")
        writer.close()
        let noShm = try runAsReader(["status"], store: copy + "/evidence.sqlite")
        #expect(noShm.status == 74, "\(noShm.stderr)")
        #expect(noShm.stderr.contains("its -wal file holds changes not yet in the store"), "\(noShm.stderr)")
    }

    // MARK: 13. Input ends

    @Test func anEmptyStorePathAndSQLCommentsAreTakenAsGiven() throws {
        let empty = try EvidenceBinary.run(["status", "--store", ""], in: folder.url)
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("Option '--store' needs a path"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("evidence.sqlite-journal")))
        let commented = try run(["query", "--format", "csv", "-- the claims\nSELECT count(*) AS n FROM claims"])
        #expect(commented.stdout == "n\n44\n")
    }

    @Test func aDamagedIndexIsAFailedCheckNotARawError() throws {
        let (root, pageSize) = try withRawStoreValues()
        // Scribble over the cells of the claims' key index, as a bad disk would.
        let handle = try #require(FileHandle(forUpdatingAtPath: store))
        try handle.seek(toOffset: UInt64((root - 1) * pageSize + 8))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 200))
        try handle.close()
        let checked = try run(["check"], expect: 1)
        #expect(checked.stderr.isEmpty, "\(checked.stderr)")
        let lines = checked.stdout.split(separator: "\n")
        #expect(lines.count == 10, "one line per item: \(checked.stdout)")
        #expect(lines.first { $0.hasPrefix("FAIL  quick_check") }?.contains("On tree page \(root)") == true, "\(checked.stdout)")
        #expect(lines.first { $0.hasPrefix("FAIL  quick_check") }?.contains("more") == true)
        #expect(lines.contains { $0.hasPrefix("FAIL  integrity_check") })
        #expect(lines.contains { $0.hasPrefix("ok    schema") })
    }

    /// The root page of the claims' key index and the page size.
    func withRawStoreValues() throws -> (Int, Int) {
        var values = (0, 0)
        try withRawStore { database in
            let root = try database.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_claims_1'")
            let size = try database.scalar("PRAGMA page_size")
            values = (Int(root.int64 ?? 0), Int(size.int64 ?? 0))
        }
        return values
    }

    @Test func byteOrderMarksAndBlankLinesImportAndNumbersOutOfRangeAreRefused() throws {
        try run(["export", "out"])
        let sources = folder.path("out/sources.jsonl")
        let text = try String(contentsOfFile: sources, encoding: .utf8)
        // A byte-order mark, blank lines and lines of spaces and tabs, CRLF endings.
        let edited = "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n \t\r\n\n", options: [], range: nil)
        try edited.write(toFile: sources, atomically: true, encoding: .utf8)
        try run(["init", "--store", "copy.sqlite"])
        let imported = try run(["import", "out", "--store", "copy.sqlite"])
        #expect(imported.stderr.contains("107 records added"), "\(imported.stderr)")
        #expect(try run(["report", "--store", "copy.sqlite"]).stdout == (try run(["report"]).stdout))

        // A value and a baseline whose difference overflows to infinity.
        let huge = "1" + String(repeating: "0", count: 308)
        let before = try storeDigest()
        let logged = try run(
            ["log", "bars.other-app-activity", "--result", "pass", "--measure", "offset=\(huge)pt from -\(huge)pt"] + Self.duo,
            expect: 64)
        #expect(logged.stderr.contains("value \(huge) is outside the range a measurement may hold"), "\(logged.stderr)")
        #expect(try storeDigest() == before)
        let one = try run(["log", "bars.other-app-activity", "--result", "pass", "--measure", "offset=171pt from 87pt"] + Self.duo)
        #expect(one.stderr.contains(", 1 measurement.") && !one.stderr.contains("measurements"), "\(one.stderr)")
        try run(["export", "again"])
        let runs = folder.path("again/runs")
        var changed = false
        for name in try FileManager.default.contentsOfDirectory(atPath: runs) {
            let path = runs + "/" + name
            let content = try String(contentsOfFile: path, encoding: .utf8)
            guard content.contains(#""baseline":87"#) else { continue }
            try content.replacingOccurrences(of: #""value":171"#, with: #""value":1e308"#)
                .replacingOccurrences(of: #""baseline":87"#, with: #""baseline":-1e308"#)
                .write(toFile: path, atomically: true, encoding: .utf8)
            changed = true
        }
        #expect(changed)
        try run(["init", "--store", "third.sqlite"])
        let refused = try run(["import", "again", "--store", "third.sqlite"], expect: 65)
        #expect(refused.stderr.contains("value") && refused.stderr.contains("outside the range a measurement may hold"), "\(refused.stderr)")
        #expect(try run(["query", "--store", "third.sqlite", "--format", "csv", "SELECT count(*) AS n FROM claims"]).stdout == "n\n0\n")
    }
}

/// Values collected from several threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Int32] = []

    func append(_ value: Int32) {
        lock.lock()
        collected.append(value)
        lock.unlock()
    }

    var values: [Int32] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
