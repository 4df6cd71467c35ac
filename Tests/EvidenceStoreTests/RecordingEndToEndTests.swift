import Foundation
import Testing

@testable import EvidenceStore

/// The QA and writer workflows of the recording commands, through the built binary.
@Suite struct RecordingEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa-ana"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run([
            "source", "add", "https://developer.apple.com/videos/play/tech-talks/111466/", "--title", "Tech Talk 111466",
            "--publisher", "Apple", "--kind", "tech-talk", "--published", "2026-09-09",
        ])
        try run([
            "source", "add", "https://developer.apple.com/documentation/xcode-release-notes/xcode-27_1-release-notes",
            "--title", "Xcode 27.1 Release Notes", "--publisher", "Apple", "--kind", "release-notes",
        ])
        try run(["capability", "add", "standby", "--description", "StandBy on either display"])
        try run([
            "env", "lacks", "--simulator", "iPhone Duo", "--xcode-build", "27A9275", "standby", "--source",
            "https://developer.apple.com/documentation/xcode-release-notes/xcode-27_1-release-notes",
        ])
        try run([
            "claim", "add", "island.clock-offset.closed", "--statement", "The clock moves down 84 pt closed.",
            "--document", "duo-system-surfaces", "--area", "Live Activities", "--label", "measured",
            "--source", "https://developer.apple.com/videos/play/tech-talks/111466/?time=94", "--by", "writer",
        ])
        try run([
            "claim", "add", "standby.either-display", "--statement", "StandBy works on either display.",
            "--document", "duo-system-surfaces", "--area", "StandBy", "--label", "sourced", "--needs", "standby",
        ])
    }

    func count(_ table: String) throws -> String {
        try run(["query", "--format", "csv", "SELECT count(*) AS n FROM \(table)"]).stdout
    }

    @Test func qaLogsADeviceResultInOneCommand() throws {
        try folder.write("shots/closed.png", Data([0x89, 0x50, 0x4E, 0x47]))
        let logged = try run([
            "log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275", "--posture", "closed", "--date", "2026-10-20",
            "--measure", "status-bar clock y=171pt from 87pt", "--note", "Settings in front", "--attach", "shots/closed.png",
        ])
        #expect(logged.stderr.hasPrefix("Logged pass for island.clock-offset.closed as result "), "\(logged.stderr)")
        #expect(logged.stderr.contains(" (local #1) in new run ") && logged.stderr.contains(" (local #1), 1 measurement"))
        #expect(logged.stdout.isEmpty)
        let again = try run([
            "log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275", "--posture", "open-wide", "--date", "2026-10-20",
            "--measure=status-bar clock y=128pt from 34pt",
        ])
        #expect(again.stderr.contains(" (local #2) in run ") && again.stderr.contains(" (local #1)"), "\(again.stderr)")

        let show = try run(["claim", "show", "island.clock-offset.closed"]).stdout
        #expect(show.contains("state:     verified-in-simulator: passed on 2026-10-20"))
        #expect(show.contains("measured: status-bar clock y = 87 pt → 171 pt (Δ +84 pt)"))
        #expect(show.contains("measured: status-bar clock y = 34 pt → 128 pt (Δ +94 pt)"))
        #expect(show.contains("attached: shots/closed.png (4 bytes, sha256 "))
        #expect(show.contains("run ") && show.contains(" by qa-ana"))

        let measurements = try run(["measurements", "--claim", "island.clock-offset.closed", "--format", "csv"]).stdout
        #expect(measurements.hasPrefix("claim,name,value,baseline,delta,unit,posture,environment,run,checked_at,retracted\n"))
        #expect(measurements.contains(",status-bar clock y,171,87,84,pt,closed,"))
        #expect(measurements.contains(",status-bar clock y,128,34,94,pt,open-wide,"))

        let verify = try run(["attachments", "verify"])
        #expect(verify.stderr.contains("all unchanged"))
        try folder.write("shots/closed.png", Data([0]))
        let changed = try run(["attachments", "verify", "--format", "csv"], expect: 1)
        #expect(changed.stdout.contains("shots/closed.png,changed,island.clock-offset.closed,"))
    }

    @Test func runStartPrintsTheRunIDAndLogJoinsIt() throws {
        let started = try run([
            "run", "start", "--device", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "23B85", "--xcode", "27.1",
            "--xcode-build", "27A9275", "--tester", "ben", "--date", "2026-10-22", "--note", "first device",
        ])
        // The run's UUID, the same in every clone; its short name (or its local number) names it as well.
        let uuid = started.stdout.trimmingCharacters(in: .newlines)
        #expect(uuid.count == 36, "\(started.stdout)")
        try run(["log", "standby.either-display", "--run", String(uuid.prefix(6)), "--result", "pass", "--posture", "closed", "--date", "2026-10-22"])
        let runs = try run(["run", "list", "--format", "csv"]).stdout
        #expect(runs.contains(",2026-10-22,\"iPhone Duo device, iOS 27.1 (23B85), Xcode 27.1 (27A9275)\",ben,1,,first device\n"))
        let shown = try run(["run", "show", "1"]).stdout
        #expect(shown.hasPrefix("run \(uuid.prefix(8)) (local #1)\n"), "\(shown)")
        #expect(shown.contains("  environment: iPhone Duo device, iOS 27.1 (23B85), Xcode 27.1 (27A9275)"))
        #expect(shown.contains(" (#1)  2026-10-22  pass  closed  standby.either-display"))
        let list = try run(["claim", "list", "--format", "csv", "--document", "duo-system-surfaces"]).stdout
        #expect(list.contains("standby.either-display,sourced,verified-on-device,"))
        #expect(list.contains("island.clock-offset.closed,measured,untested,"))
    }

    @Test func writersRelabelWithAReason() throws {
        try run(["claim", "label", "island.clock-offset.closed", "unverified", "--reason", "not seen again on 27.2"])
        let json = try run(["claim", "show", "island.clock-offset.closed", "--format", "json"]).stdout
        #expect(json.contains("\"label\": \"unverified\""))
        #expect(json.contains("\"changed_by\": \"qa-ana\""))
        #expect(json.contains("\"reason\": \"not seen again on 27.2\""))
        try run(["claim", "edit", "island.clock-offset.closed", "--area", "Bars", "--as-of", "2026-10-20"])
        #expect(try run(["claim", "list", "--area", "Bars", "--format", "csv"]).stdout.contains("island.clock-offset.closed"))
    }

    @Test func listingsSpeakEveryFormat() throws {
        for command in [["claim", "list"], ["source", "list"], ["capability", "list"], ["env", "list"], ["run", "list"],
                        ["measurements"], ["attachments", "list"]] {
            for format in ["table", "json", "csv"] {
                try run(command + ["--format", format])
            }
        }
        let sources = try run(["source", "list", "--format", "json"]).stdout
        #expect(sources.contains("\"url\": \"https://developer.apple.com/videos/play/tech-talks/111466/\", \"title\": \"Tech Talk 111466\""))
        let shown = try run(["source", "show", "https://developer.apple.com/videos/play/tech-talks/111466/"]).stdout
        #expect(shown.contains("Cited by\n  island.clock-offset.closed at ?time=94\n"))
        let environments = try run(["env", "list", "--format", "csv"]).stdout
        #expect(
            environments == "id,kind,model,os,os_build,tool,tool_build,current,lacks,decided_by\n"
                + ",simulator,iPhone Duo,,,,27A9275,,lacks standby,iPhone Duo simulator lacks standby from Xcode build "
                + "27A9275 (Xcode 27.1 Release Notes)\n")
    }

    // MARK: - Errors: named, with the accepted values, and nothing written

    @Test func anUnknownClaimSuggestsTheClosestAndWritesNothing() throws {
        let before = try count("runs") + count("results") + count("environments")
        let result = try run(
            ["log", "island.clock-ofset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1"],
            expect: 65)
        #expect(result.stderr == "Error: unknown claim 'island.clock-ofset.closed'; did you mean 'island.clock-offset.closed'?\n")
        #expect(try count("runs") + count("results") + count("environments") == before)
    }

    @Test func badValuesListWhatIsAccepted() throws {
        let label = try run(
            ["claim", "add", "x.y", "--statement", "s", "--document", "d", "--area", "a", "--label", "guessed"], expect: 64)
        #expect(label.stderr.hasPrefix(
            "Error: The value 'guessed' is invalid for '--label <label>'. Please provide one of 'measured', 'unverified', 'not-published' or 'sourced'.\nUSAGE: evidence claim add <key>"))
        let result = try run(["log", "island.clock-offset.closed", "--result", "ok", "--run", "1"], expect: 64)
        #expect(result.stderr.contains(
            "The value 'ok' is invalid for '--result <result>'. Please provide one of 'pass', 'fail', 'blocked', 'inconclusive' or 'skipped'.\nUSAGE: evidence log"))
        let posture = try run(
            ["log", "island.clock-offset.closed", "--result", "pass", "--run", "1", "--posture", "tent"], expect: 64)
        #expect(posture.stderr.contains(
            "for '--posture <posture>'. Please provide one of 'closed', 'open', 'open-wide', 'book', 'portrait' or 'landscape'."))
        let kind = try run(["source", "add", "https://x.example/", "--title", "t", "--publisher", "p", "--kind", "blog"], expect: 64)
        #expect(kind.stderr.contains(
            "for '--kind <kind>'. Please provide one of 'newsroom', 'doc', 'hig', 'video', 'tech-talk', 'specs', 'release-notes', 'article' or 'other'.\nUSAGE: evidence source add"))
        let unit = try run(
            ["log", "island.clock-offset.closed", "--result", "pass", "--run", "1", "--measure", "y=171 furlongs"], expect: 64)
        #expect(unit.stderr.contains("NAME=VALUE UNIT [from BASELINE] [at POSTURE]"))
        #expect(unit.stderr.contains("pt, px, mm, ms, s, %, count"))
        let number = try run(
            ["log", "island.clock-offset.closed", "--result", "pass", "--run", "1", "--measure", "y=about 84pt"], expect: 64)
        #expect(number.stderr.contains("'y=about 84pt'"))
        let date = try run(
            ["run", "start", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--date", "20/10/2026"],
            expect: 64)
        #expect(date.stderr.contains("invalid date '20/10/2026'; expected an ISO 8601 date"))
        let build = try run(
            ["run", "start", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27a9275"],
            expect: 64)
        #expect(build.stderr.contains("invalid Xcode build '27a9275'"))
        #expect(try count("runs") == "n\n0\n")
    }

    @Test func environmentOptionsMustBeComplete() throws {
        let both = try run(
            ["log", "island.clock-offset.closed", "--result", "pass", "--run", "1", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1"],
            expect: 64)
        #expect(both.stderr.contains("Give either --run or the environment options, not both."))
        let noOS = try run(["run", "start", "--simulator", "iPhone Duo", "--xcode", "27.1"], expect: 64)
        #expect(noOS.stderr.contains("Missing expected argument '--os <os>'"))
        let neither = try run(["log", "island.clock-offset.closed", "--result", "pass"], expect: 64)
        #expect(neither.stderr.contains("--run"))
        let deviceAndSimulator = try run(
            ["run", "start", "--device", "a", "--simulator", "b", "--os", "iOS 27.1", "--xcode", "27.1"], expect: 64)
        #expect(deviceAndSimulator.stderr.contains("not both"))
    }

    @Test func attachmentsFromOutsideAreCopiedInAndMissingOnesRefused() throws {
        let outside = try TemporaryFolder()
        let file = try outside.write("x.png", Data([1]))
        let base = ["log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1"]
        let missing = try run(base + ["--attach", "nope.png"], expect: 66)
        #expect(missing.stderr == "Error: nope.png: no such file\n")
        #expect(try count("results") == "n\n0\n")
        try run(base + ["--attach", file])
        let kept = "attachments/" + SHA256.hex(Data([1])) + ".png"
        #expect(FileManager.default.contents(atPath: folder.path(kept)) == Data([1]))
        try FileManager.default.removeItem(atPath: file)
        #expect(try run(["attachments", "verify"]).status == 0, "the copy is what is kept")
    }

    @Test func duplicatesAndUnknownSourcesAreRefused() throws {
        let duplicate = try run(
            ["claim", "add", "standby.either-display", "--statement", "s", "--document", "d", "--area", "a", "--label", "sourced"],
            expect: 65)
        #expect(duplicate.stderr == "Error: claim 'standby.either-display' already exists\n")
        let source = try run(
            ["claim", "add", "new.claim", "--statement", "s", "--document", "d", "--area", "a", "--label", "sourced",
             "--source", "https://developer.apple.com/videos/play/tech-talks/111467/"],
            expect: 65)
        #expect(source.stderr.contains("unknown source"))
        #expect(source.stderr.contains("evidence source add"))
        #expect(try count("claims") == "n\n2\n")
    }
}
