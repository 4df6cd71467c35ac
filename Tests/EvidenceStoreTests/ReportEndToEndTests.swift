import Foundation
import Testing

@testable import EvidenceStore


/// The publishing workflow through the binary: demo, seed, export, import and the reports.
@Suite struct ReportEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "lead"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    @Test func demoPrintsTheReportOfTheBundledDataSet() throws {
        let result = try EvidenceBinary.run(["demo"])
        #expect(result.status == 0, "\(result.stderr)")
        let golden = try String(contentsOf: Golden.folder.appendingPathComponent("report-seed.md"), encoding: .utf8)
        #expect(result.stdout == golden)
        #expect(result.stderr.hasPrefix("Demo store: "))
    }

    /// A lead's report while CI ingests: another connection holds the write
    /// lock with changes not yet committed for as long as both reports run.
    /// A report that waited for it would never finish (the writer lets go
    /// only after) or would fail once the busy timeout passed; each reads one
    /// snapshot instead, the same as without the writer.
    @Test func reportsNeverWaitForAWriter() throws {
        let markdown = try run(["report"]).stdout
        let html = try run(["report", "--format", "html"]).stdout
        let writer = try Database(path: store, mode: .readWrite)
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("UPDATE claims SET area = area || ' (being edited)'")
        let duringMarkdown = try run(["report"])
        let duringHTML = try run(["report", "--format", "html"])
        try writer.execute("ROLLBACK")
        #expect(duringMarkdown.stdout == markdown)
        #expect(duringHTML.stdout == html)
    }

    @Test func seedingTwiceChangesNothing() throws {
        let again = try run(["seed"])
        #expect(again.stderr.contains("0 records added"))
    }

    @Test func reportsGoToAFileOrStandardOutputByteForByte() throws {
        let printed = try run(["report"]).stdout
        try run(["report", "--output", "evidence.md"])
        #expect(try String(contentsOfFile: folder.path("evidence.md"), encoding: .utf8) == printed)
        #expect(try run(["report"]).stdout == printed)
        let stamped = try run(["report", "--stamp"]).stdout
        #expect(stamped.contains("\nGenerated 20"))
        #expect(try run(["checklist", "--document", "duo-system-surfaces"]).stdout.hasPrefix("# duo-system-surfaces: Checklist\n"))
        #expect(try run(["sources"]).stdout.hasPrefix("# Sources\n"))
        #expect(try run(["verified-line", "--document", "duo-system-surfaces"]).stdout
            == "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no\n")
    }

    /// Every claim once: its state, the result it rests on, and its
    /// measurements against what it expects; the newest runs only.
    @Test func theReportShowsEachClaimOnceWithItsMeasurementsAgainstWhatItExpects() throws {
        try run(["claim", "expect", "island.clock-offset.closed", "status-bar clock y=171pt ±2pt"])
        try run(["claim", "expect", "island.clock-offset.open-wide", "status-bar clock y=128pt ±2pt"])
        let simulator = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
        try run(["log", "island.clock-offset.open-wide", "--result", "pass", "--posture", "open-wide",
                 "--measure", "status-bar clock y=131pt from 34pt"] + simulator)
        try run(["log", "island.clock-offset.closed", "--result", "pass", "--posture", "closed"] + simulator)
        let report = try run(["report"]).stdout
        let claims = try #require(report.components(separatedBy: "\n## Claims\n").last?.components(separatedBy: "\n## Run log\n").first)
        let keys = try run(["query", "SELECT key FROM claims", "--format", "csv"]).stdout.split(separator: "\n").dropFirst()
        for key in keys {
            #expect(claims.components(separatedBy: "\n| \(key) |").count == 2, "\(key) once")
        }
        #expect(claims.contains("measured status-bar clock y: 34 pt → 131 pt (Δ +97 pt); expected 128 ±2 pt, outside"), "\(claims)")
        #expect(claims.contains("expected status-bar clock y: 171 ±2 pt, not measured in the result it rests on"))

        // The run log: the newest runs only, and the command that lists them all.
        let two = try run(["report", "--runs", "2"]).stdout
        #expect(two.components(separatedBy: "\n### Run ").count == 3)
        #expect(two.contains("older runs left out: evidence run list lists every run, and evidence report --runs all writes them all."))
        let all = try run(["report", "--runs", "all"]).stdout
        #expect(!all.contains("left out"))
        #expect(all.components(separatedBy: "\n### Run ").count > 3)
        for bad in ["-1", "some", "2.5"] {
            let refused = try run(["report", "--runs", bad], expect: 64)
            #expect(refused.stderr.contains("'\(bad)'") && refused.stderr.contains("or 'all'"), "\(refused.stderr)")
        }
    }

    /// A pipe (or a device such as /dev/null) given as --output is written
    /// into; a file renamed over it would take its place.
    @Test func anOutputThatIsNotAFileIsWrittenIntoNotReplaced() throws {
        let fifo = folder.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, folder.path("read.md")]
        try reader.run()
        try run(["report", "--output", fifo])
        var status = stat()
        let stillAPipe = stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
        #expect(stillAPipe, "the pipe is still a pipe")
        // Replaced, the pipe would never be opened for writing: its reader is stopped, not waited for forever.
        if !stillAPipe { reader.terminate() }
        reader.waitUntilExit()
        #expect(try String(contentsOfFile: folder.path("read.md"), encoding: .utf8) == run(["report"]).stdout)
    }

    @Test func anUnknownDocumentIsNamed() throws {
        for command in [["report"], ["checklist"], ["sources"], ["untested"], ["status"], ["verified-line"]] {
            let result = try run(command + ["--document", "duo-sytem-surfaces"], expect: 65)
            #expect(result.stderr.contains("'duo-sytem-surfaces'"), "\(command)")
            #expect(result.stderr.contains("did you mean 'duo-system-surfaces'?"), "\(command)")
        }
    }

    @Test func leadsMarkAnItemUntestedAndSeeIt() throws {
        try run(["checklist", "mark", "surfaces.previews-and-device", "--untested", "--reason", "no iPhone Duo in the lab yet"])
        let checklist = try run(["checklist"]).stdout
        #expect(checklist.contains("; marked untested by lead on "))
        #expect(checklist.contains(": no iPhone Duo in the lab yet)"))
        try run(["checklist", "mark", "surfaces.previews-and-device", "--clear"])
        #expect(!(try run(["checklist"]).stdout.contains("marked untested by")))
        let missing = try run(["checklist", "mark", "surfaces.previews", "--untested", "--reason", "x"], expect: 65)
        #expect(missing.stderr.contains("unknown checklist item 'surfaces.previews'"))
        try run(["checklist", "mark", "surfaces.previews-and-device", "--untested"], expect: 64)
    }

    @Test func untestedAndStatusSpeakEveryFormat() throws {
        let devices = try run(["untested", "--needs-device", "--format", "csv"]).stdout
        #expect(devices.hasPrefix("key,state,needs,document,area,label,reason,flaky,owner\n"))
        #expect(devices.split(separator: "\n").count == 8)
        let status = try run(["status", "--format", "json"]).stdout
        #expect(status.contains("{\"document\": \"duo-system-surfaces\", \"qa_work\": \"yes\", \"label\": \"measured\", \"state\": \"verified-in-simulator\", \"claims\": 6, \"known\": null}"))
        #expect(status.contains("{\"document\": \"duo-system-surfaces\", \"qa_work\": \"no\", \"label\": \"not-published\", \"state\": \"untested\", \"claims\": 6, \"known\": null}"))
    }

    @Test func exportThenImportElsewhereGivesTheSameReport() throws {
        try run(["export", "out"])
        let other = folder.path("other.sqlite")
        #expect(try EvidenceBinary.run(["init", "--store", other]).status == 0)
        let imported = try EvidenceBinary.run(["import", "out", "--store", other], in: folder.url)
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try EvidenceBinary.run(["report", "--store", other])
        #expect(report.stdout == (try run(["report"]).stdout))
    }

    @Test func importErrorsNameTheFileAndWriteNothing() throws {
        try run(["export", "out"])
        let claims = folder.url.appendingPathComponent("out/claims/duo-system-surfaces.jsonl")
        var text = try String(contentsOf: claims, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"label\":\"sourced\"", with: "\"label\":\"rumoured\"")
        try Data(text.utf8).write(to: claims)
        let other = folder.path("other.sqlite")
        try EvidenceBinary.run(["init", "--store", other])
        let failed = try EvidenceBinary.run(["import", "out", "--store", other], in: folder.url)
        #expect(failed.status == 65)
        #expect(failed.stderr.contains("/out/claims/duo-system-surfaces.jsonl:"))
        #expect(failed.stderr.contains("field 'label': invalid label 'rumoured'"))
        let count = try EvidenceBinary.run(["query", "--store", other, "--format", "csv", "SELECT count(*) AS n FROM sources"])
        #expect(count.stdout == "n\n0\n")
        let missing = try run(["import", "nowhere"], expect: 66)
        #expect(missing.stderr.contains("nowhere"))
    }
}
