import Foundation
import Testing

/// `claim rename`, tried on the built binary with the bundled data set: what
/// follows the claim, what is refused, and a teammate's clone that still
/// names the old key (issue 46).
@Suite struct ClaimRenameEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let old = "widgets.sizes-vary-by-device"
    static let new = "widgets.sizes-per-device"
    static let duo = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    @Test func resultsHistoryChecklistAndMappingsFollowTheNewKey() throws {
        try run(["log", Self.old, "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        try run(["claim", "label", Self.old, "unverified", "--reason", "to be checked again"])
        try run(["map", "add", "WidgetTests/testSizes*", Self.old])
        let before = try claim(Self.old)

        // Refused, naming the bad value, and nothing written.
        let taken = try run(["claim", "rename", Self.old, "bars.other-app-activity"], expect: 64)
        #expect(taken.stderr.contains("a claim 'bars.other-app-activity' exists already"), "\(taken.stderr)")
        let bad = try run(["claim", "rename", Self.old, "-sizes"], expect: 64)
        #expect(bad.stderr.contains("'-sizes'"), "\(bad.stderr)")
        let unknown = try run(["claim", "rename", "widgets.nope", Self.new], expect: 65)
        #expect(unknown.stderr.contains("widgets.nope"), "\(unknown.stderr)")
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM claim_renames"]).stdout == "n\n0\n")

        let renamed = try run(["claim", "rename", Self.old, Self.new, "--reason", "shorter", "--by", "writer"])
        #expect(renamed.stderr.contains("Renamed claim \(Self.old) to \(Self.new)."), "\(renamed.stderr)")
        let after = try claim(Self.new)
        #expect(after["state"] as? String == before["state"] as? String)
        #expect((after["results"] as? [Any])?.count == (before["results"] as? [Any])?.count)
        #expect(after["label"] as? String == "unverified")
        let renames = after["renames"] as? [[String: Any]]
        #expect(renames?.first?["from"] as? String == Self.old && renames?.first?["by"] as? String == "writer", "\(after)")
        let shown = try run(["claim", "show", Self.new]).stdout
        #expect(shown.contains("Keys\n  ") && shown.contains("  writer  \(Self.old) → \(Self.new): shorter"), "\(shown)")
        let oldName = try run(["claim", "show", Self.old], expect: 64)
        #expect(oldName.stderr.contains("claim '\(Self.old)' was renamed; it is '\(Self.new)' now"), "\(oldName.stderr)")
        #expect(try run(["map", "list", "--format", "csv"]).stdout.contains("WidgetTests/testSizes*,\(Self.new)"))
        let items = "SELECT count(*) AS n FROM checklist_item_claims AS x JOIN claims AS c ON c.id = x.claim_id WHERE c.key = '\(Self.new)'"
        #expect(try run(["query", "--format", "csv", items]).stdout == "n\n2\n")
        // Back to its first key is allowed; another claim's old key is not.
        try run(["claim", "rename", Self.new, "widgets.sizes", "--reason", "shorter still"])
        let reused = try run(["claim", "rename", "bars.other-app-activity", Self.old], expect: 64)
        #expect(reused.stderr.contains("was the key of claim 'widgets.sizes'"), "\(reused.stderr)")
    }

    /// A teammate logs on the old key before the rename reaches them; their
    /// run's file joins the shared folder beside the rename (as a git merge
    /// adds it): it imports to the renamed claim, the renamer's next export
    /// goes through, and the teammate's import renames their claim too.
    @Test func aCloneThatStillNamesTheOldKeyImports() throws {
        let shared = folder.path("shared")
        let theirs = folder.path("theirs")
        let other = folder.path("other.sqlite")
        try run(["log", Self.old, "--result", "pass", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        try run(["export", shared])
        try run(["init", "--store", other])
        try run(["import", shared, "--store", other])

        try run(["claim", "rename", Self.old, Self.new, "--reason", "shorter"])
        try run(["export", shared])
        let renames = try String(contentsOfFile: shared + "/renames.jsonl", encoding: .utf8)
        #expect(renames.contains("\"from\":\"\(Self.old)\",\"to\":\"\(Self.new)\""), "\(renames)")

        let logged = try run(["log", Self.old, "--result", "fail", "--date", "2026-11-03T09:00:00Z", "--store", other] + Self.duo)
        try run(["export", theirs, "--store", other])
        let manager = FileManager.default
        let known = Set(try manager.contentsOfDirectory(atPath: shared + "/runs"))
        for name in try manager.contentsOfDirectory(atPath: theirs + "/runs") where !known.contains(name) {
            try manager.copyItem(atPath: theirs + "/runs/" + name, toPath: shared + "/runs/" + name)
        }
        #expect(logged.status == 0)

        let imported = try run(["import", shared])
        #expect(imported.status == 0, "\(imported.stderr)")
        let mine = try claim(Self.new)
        #expect(mine["state"] as? String == "failing", "\(mine)")
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM claims WHERE key = '\(Self.old)'"]).stdout == "n\n0\n")
        let exported = try run(["export", shared])
        #expect(exported.status == 0, "\(exported.stderr)")

        try run(["import", shared, "--store", other])
        let theirsNow = try claim(Self.new, store: other)
        #expect(theirsNow["state"] as? String == "failing")
        #expect((theirsNow["results"] as? [Any])?.count == (mine["results"] as? [Any])?.count)
        let again = try run(["import", shared, "--store", other]).stderr
        #expect(again.contains(": 0 records added"), "\(again)")
        try run(["export", shared, "--store", other])

        // A document whose marker still names the old key is told the new one.
        let document = folder.path("duo-system-surfaces.md")
        try "Widget sizes differ per device. <!-- evidence: \(Self.old) (measured) -->\n".write(toFile: document, atomically: true, encoding: .utf8)
        let linted = try run(["lint", document], expect: 1)
        #expect(linted.stdout.contains("claim \(Self.old) was renamed \(Self.new): change the marker to <!-- evidence: \(Self.new) (measured) -->"), "\(linted.stdout)")
    }
}
