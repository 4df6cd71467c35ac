import Foundation
import Testing

/// Triage links and owners, and the papercuts a new user hit, through the
/// binary on the seed store.
@Suite struct TriageAndOwnersEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"
    static let duo = HardeningEndToEndTests.duo
    static let issue = "https://github.com/example/duo/issues/12"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    // MARK: - Triage links

    @Test func aFailingClaimWithALinkedIssueStaysFailingAndShowsItEverywhere() throws {
        let logged = try run(
            ["log", "bars.other-app-activity", "--result", "fail", "--note", "Bar cut off", "--issue", Self.issue,
             "--date", "2026-11-01T10:00:00Z", "--format", "json"] + Self.duo)
        let result = try #require(logged.stdout.split(separator: "\"result\": \"").dropFirst().first?.prefix(36))
        let show = try run(["claim", "show", "bars.other-app-activity"]).stdout
        #expect(show.contains("state:     failing: failed on "), "\(show)")
        #expect(show.contains("; known: \(Self.issue)"))
        #expect(show.contains("    issue: \(Self.issue)"))
        let untested = try run(["untested", "--failing", "--format", "csv"]).stdout
        #expect(untested.contains("bars.other-app-activity,failing,") && untested.contains("known: \(Self.issue)"), "\(untested)")
        #expect(!(try run(["untested", "--format", "csv"]).stdout.contains("bars.other-app-activity")))
        let status = try run(["status", "--format", "csv"]).stdout
        #expect(status.contains(",failing,1,\(Self.issue)\n"), "\(status)")
        // The report links the issue.
        // A reference link, its address defined once at the end of the report.
        let report = try run(["report"]).stdout
        let reference = try #require(report.range(of: #"known: \[github\.com/example/duo/issues/12\]\[(\d+)\]"#, options: .regularExpression))
        let number = report[reference].split(separator: "[").last?.dropLast() ?? ""
        #expect(report.hasSuffix("\n[\(number)]: \(Self.issue)\n") || report.contains("\n[\(number)]: \(Self.issue)\n"), "\(report.suffix(300))")
        try run(["report", "--format", "html", "--output", "report.html"])
        #expect(try String(contentsOfFile: folder.path("report.html"), encoding: .utf8).contains("known: <a href=\"\(Self.issue)\""))
        let compare = try run(["compare", "--model", "iPhone Duo", "--from", "27.1", "--to", "27.1", "--format", "csv"]).stdout
        #expect(compare.hasPrefix("subject,name,kind,change,from,to,delta,unit,from_environment,to_environment,known\n"), "\(compare)")
        _ = try folder.write("answers.txt", "claim: bars.other-app-activity\nresult: next\n")
        let session = try run(
            ["session", "bars.other-app-activity", "--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--answers", "answers.txt"])
        #expect(session.stdout.contains("  state: failing: failed on ") && session.stdout.contains("; known: \(Self.issue)\n"), "\(session.stdout)")

        // A second issue on the same result, by its short name; the same one again changes nothing.
        let linked = try run(["result", "link", String(result.prefix(8)), "https://github.com/example/duo/issues/14"])
        #expect(linked.stderr.contains("Linked result \(result.prefix(8))"), "\(linked.stderr)")
        #expect(try run(["result", "link", String(result.prefix(8)), Self.issue]).stderr.contains("linked to \(Self.issue) already"))
        let bad = try run(["result", "link", String(result.prefix(8)), "not a url"], expect: 64)
        #expect(bad.stderr.contains("invalid issue URL 'not a url'"), "\(bad.stderr)")
        #expect(try run(["claim", "show", "bars.other-app-activity"]).stdout
            .contains("known: https://github.com/example/duo/issues/12, https://github.com/example/duo/issues/14"))

        // Links travel through export and import.
        try run(["export", "shared"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "shared", "--store", "other.sqlite"])
        #expect(try run(["claim", "show", "bars.other-app-activity", "--store", "other.sqlite"]).stdout.contains("known: \(Self.issue)"))
        let links = try run(["query", "--store", "other.sqlite", "--format", "csv", "SELECT claim, url FROM claim_known_issues ORDER BY url"]).stdout
        #expect(links == "claim,url\nbars.other-app-activity,\(Self.issue)\nbars.other-app-activity,https://github.com/example/duo/issues/14\n")

        // A pass ends the failure; a new failure is not known by the old issue.
        try run(["log", "bars.other-app-activity", "--result", "pass"] + Self.duo)
        #expect(!(try run(["claim", "show", "bars.other-app-activity"]).stdout.contains("state:     failing")))
        try run(["log", "bars.other-app-activity", "--result", "fail"] + Self.duo)
        let again = try run(["claim", "show", "bars.other-app-activity"]).stdout
        #expect(again.contains("state:     failing") && !again.contains("known:"), "\(again)")
        // Against the builds before: still failing, with the issue that tracks the new failure.
        try run(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-11-02T10:00:00Z", "--simulator", "iPhone Duo",
                 "--os", "iOS 27.2", "--xcode", "27.2", "--issue", "https://github.com/example/duo/issues/20"])
        let moved = try run(["compare", "--model", "iPhone Duo", "--from", "27.1", "--to", "27.2", "--format", "csv"]).stdout
        #expect(moved.contains("claim,bars.other-app-activity,simulator,still-failing,fail,fail,"), "\(moved)")
        #expect(moved.contains(",https://github.com/example/duo/issues/20\n") && !moved.contains(Self.issue), "\(moved)")
    }

    /// A link made by mistake is removed (issue 46): the claim's reason and
    /// the listings stop naming it, the removal keeps who, when and why, and
    /// it travels: a clone that had the link drops it on import, a new store
    /// never shows it, and importing again changes nothing.
    @Test func aWrongLinkIsRemovedAndTheRemovalTravels() throws {
        let wrong = "https://github.com/example/duo/issues/99"
        let logged = try run(
            ["log", "bars.other-app-activity", "--result", "fail", "--issue", Self.issue, "--issue", wrong,
             "--date", "2026-11-01T10:00:00Z", "--format", "json"] + Self.duo)
        let result = String(try #require(logged.stdout.split(separator: "\"result\": \"").dropFirst().first?.prefix(36)))
        try run(["export", "shared"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "shared", "--store", "other.sqlite"])
        #expect(try run(["claim", "show", "bars.other-app-activity", "--store", "other.sqlite"]).stdout.contains(wrong))

        let refused = try run(["result", "unlink", String(result.prefix(8)), "https://github.com/example/duo/issues/7", "--reason", "x"], expect: 64)
        #expect(
            refused.stderr.contains("is not linked to https://github.com/example/duo/issues/7; its links: ")
                && refused.stderr.contains(Self.issue) && refused.stderr.contains(wrong), "\(refused.stderr)")
        try run(["result", "unlink", String(result.prefix(8)), wrong], expect: 64)
        let removed = try run(["result", "unlink", String(result.prefix(8)), wrong, "--reason", "the wrong bug"])
        #expect(removed.stderr.contains("Removed the link of result \(result.prefix(8))"), "\(removed.stderr)")
        let show = try run(["claim", "show", "bars.other-app-activity"]).stdout
        #expect(show.contains("known: \(Self.issue)") && !show.contains(wrong), "\(show)")
        #expect(!(try run(["untested", "--failing", "--format", "csv"]).stdout.contains(wrong)))
        let kept = "SELECT url, unlinked_by, reason FROM result_unlinks"
        #expect(try run(["query", "--format", "csv", kept]).stdout == "url,unlinked_by,reason\n\(wrong),qa,the wrong bug\n")
        #expect(try run(["result", "unlink", String(result.prefix(8)), wrong, "--reason", "again"], expect: 64).stderr.contains("its links: \(Self.issue)"))

        // The clone that had it drops it; a new store never shows it; again, nothing changes.
        try run(["export", "shared"])
        try run(["import", "shared", "--store", "other.sqlite"])
        #expect(!(try run(["claim", "show", "bars.other-app-activity", "--store", "other.sqlite"]).stdout.contains(wrong)))
        try run(["init", "--store", "fresh.sqlite"])
        try run(["import", "shared", "--store", "fresh.sqlite"])
        #expect(!(try run(["claim", "show", "bars.other-app-activity", "--store", "fresh.sqlite"]).stdout.contains(wrong)))
        #expect(try run(["query", "--store", "fresh.sqlite", "--format", "csv", kept]).stdout == "url,unlinked_by,reason\n\(wrong),qa,the wrong bug\n")
        let again = try run(["import", "shared", "--store", "other.sqlite"])
        #expect(again.stderr.contains("0 records added"), "\(again.stderr)")
        // The clone exports the same files: nothing to commit.
        try run(["export", "shared", "--store", "other.sqlite"])
        try run(["export", "shared"])
        // A removal edited in the folder is a conflict: it is never replaced.
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder.path("shared/runs"))
        for name in runs {
            let path = folder.path("shared/runs/" + name)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            if text.contains("the wrong bug") {
                try text.replacingOccurrences(of: "the wrong bug", with: "another reason").write(toFile: path, atomically: true, encoding: .utf8)
            }
        }
        let edited = try run(["import", "shared"], expect: 65)
        #expect(edited.stderr.contains("differs: 'reason' is 'the wrong bug' here and 'another reason' in the folder; it is never replaced"), "\(edited.stderr)")
    }

    // MARK: - Owners

    @Test func ownersFilterListsSessionsAndTravelThroughExportAndMerge() throws {
        try run(["claim", "edit", "standby.presentation", "--owner", "Ana"])
        try run(["claim", "edit", "standby.either-display", "--owner", "Ana"])
        try run(["claim", "add", "notes.new", "--statement", "A new claim.", "--document", "duo-system-surfaces", "--area", "Notes",
                 "--label", "unverified", "--owner", "Bo"])
        #expect(try run(["claim", "show", "standby.presentation"]).stdout.contains("owner:     Ana"))
        let untested = try run(["untested", "--owner", "Ana", "--format", "csv"]).stdout
        #expect(untested.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }.sorted()
            == ["standby.either-display", "standby.presentation"], "\(untested)")
        let unknown = try run(["untested", "--owner", "Anna"], expect: 65)
        #expect(unknown.stderr.contains("unknown owner 'Anna'; did you mean 'Ana'?"), "\(unknown.stderr)")
        let byOwner = try run(["status", "--by", "owner", "--format", "csv"]).stdout
        #expect(byOwner.hasPrefix("owner,qa_work,label,state,claims,known\n"), "\(byOwner)")
        #expect(byOwner.contains("Ana,yes,sourced,needs-device,2,\n") && byOwner.contains("Bo,yes,unverified,untested,1,\n"), "\(byOwner)")
        #expect(try run(["claim", "list", "--owner", "Bo", "--format", "csv"]).stdout.contains("notes.new,"))
        _ = try folder.write("answers.txt", "quit\n")
        let session = try run(["session", "--owner", "Ana", "--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--answers", "answers.txt"])
        #expect(session.stdout.contains(": 2 claims to check."), "\(session.stdout)")
        #expect(try run(["report"]).stdout.contains("owner: Ana"))
        try run(["report", "--format", "html", "--output", "report.html"])
        let page = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
        #expect(page.contains("<select name=\"owner\"><option value=\"\">all</option><option>Ana</option><option>Bo</option></select>"))
        #expect(page.contains("data-owner=\"Ana\""))

        // Through export and import, and merged with another change of the same claim.
        try run(["export", "shared"])
        try run(["init", "--store", "other.sqlite"])
        try run(["import", "shared", "--store", "other.sqlite"])
        #expect(try run(["claim", "show", "notes.new", "--store", "other.sqlite"]).stdout.contains("owner:     Bo"))
        try run(["claim", "edit", "notes.new", "--owner", "Cy", "--store", "other.sqlite"])
        try run(["claim", "edit", "notes.new", "--area", "Notes and more"])
        try run(["sync", "shared", "--store", "other.sqlite"])
        try run(["sync", "shared"])
        let merged = try run(["claim", "show", "notes.new"]).stdout
        #expect(merged.contains("owner:     Cy") && merged.contains("area:      Notes and more"), "\(merged)")
        try run(["claim", "edit", "notes.new", "--no-owner"])
        #expect(!(try run(["claim", "show", "notes.new"]).stdout.contains("owner:")))
    }

    // MARK: - Papercuts

    @Test func usageLinesMarkTheEnvironmentAndErrorsSayWhichOptionsNameOne() throws {
        let help = try run(["help", "run", "start"]).stdout
        #expect(help.contains("USAGE: evidence run start (--device <model> | --simulator <model>) --os <os>"), "\(help)")
        let log = try run(["help", "log"]).stdout
        #expect(log.contains("(--run <id> | (--device <model>"), "\(log)")
        let missing = try run(["log", "bars.other-app-activity", "--result", "pass"], expect: 64)
        #expect(missing.stderr.contains("an environment named by --device or --simulator, --os and --xcode"), "\(missing.stderr)")
        #expect(missing.stderr.hasPrefix("Error: "))
    }

    @Test func theGuidesSessionExampleWorksWithItsAnswersFile() throws {
        let readme = try String(contentsOf: EvidenceBinary.packageRoot.appendingPathComponent("docs/guide.md"), encoding: .utf8)
        let answers = try #require(readme.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```").first)
        _ = try folder.write("answers.txt", answers)
        let line = try #require(readme.split(separator: "\n").first { $0.contains("evidence session") && $0.contains("--answers answers.txt") })
        // The words as a shell splits them: spaces apart, double quotes kept together.
        var words: [String] = []
        var word = ""
        var quoted = false
        for character in line.split(separator: "#")[0] {
            if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { words.append(word) }
        let session = try run(Array(words.dropFirst()))
        #expect(session.stdout.contains("logged: standby.background-tint pass"), "\(session.stdout)")
        // A session that takes no claim says why.
        let none = try run(["session", "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--area", "StandBy", "--answers", "answers.txt"], expect: 65)
        #expect(none.stdout.contains("0 claims to check. No claim to check: a simulator session takes claims that are untested by default"), "\(none.stdout)")
        #expect(none.stdout.contains("of the 4 claims of area StandBy: "), "\(none.stdout)")
        #expect(none.stderr.contains("is not among the session's claims: it has none, as a simulator session takes"), "\(none.stderr)")
    }

    @Test func outputMakesItsFoldersTesterFallsBackToTheLoginAndRatiosHaveAUnit() throws {
        try run(["report", "--output", "references/deep/evidence.md"])
        #expect(FileManager.default.fileExists(atPath: folder.path("references/deep/evidence.md")))
        try run(["sources", "--output", "references/sources.md"])

        // Neither $USER nor $LOGNAME: the login name of the user id.
        let logged = try EvidenceBinary.run(
            ["log", "bars.other-app-activity", "--result", "pass", "--measure", "scroll speed=2.5x"] + Self.duo,
            environment: ["EVIDENCE_STORE": store, "USER": "", "LOGNAME": ""], in: folder.url)
        #expect(logged.status == 0, "\(logged.stderr)")
        let tester = try run(["query", "--format", "csv", "SELECT tester FROM runs ORDER BY id DESC LIMIT 1"]).stdout
        #expect(tester != "tester\n\n" && tester.hasPrefix("tester\n"), "\(tester)")
        #expect(try run(["claim", "show", "bars.other-app-activity"]).stdout.contains("scroll speed = 2.5x"))
        // Suggestions only for close matches.
        #expect(!(try run(["result", "retract", "9999", "--reason", "x"], expect: 65)).stderr.contains("did you mean"))
    }
}
