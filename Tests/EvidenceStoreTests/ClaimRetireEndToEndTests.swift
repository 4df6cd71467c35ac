import Foundation
import Testing

/// `claim retire` and `claim restore`, tried on the built binary with the
/// bundled data set: a retired claim leaves every list and report and keeps
/// its history; the retirement travels to a teammate's clone (issue 46).
@Suite struct ClaimRetireEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let key = "widgets.sizes-vary-by-device"
    static let duo = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    /// Every output that lists claims, as a person reads them.
    func outputs() throws -> [String: String] {
        let html = folder.path("report.html")
        try run(["report", "--format", "html", "--output", html])
        return [
            "claim list": try run(["claim", "list"]).stdout, "untested": try run(["untested", "--failing"]).stdout,
            "report": try run(["report"]).stdout, "checklist": try run(["checklist"]).stdout,
            "html": try String(contentsOfFile: html, encoding: .utf8),
            "known issues": try run(["query", "--format", "csv", "SELECT claim FROM claim_known_issues"]).stdout,
        ]
    }

    /// How many claims the status and the document list count.
    func counts() throws -> [String] {
        [try run(["status", "--format", "csv"]).stdout, try run(["document", "list", "--format", "csv"]).stdout]
    }

    @Test func aRetiredClaimLeavesEveryListAndComesBack() throws {
        try run(["log", Self.key, "--result", "fail", "--date", "2026-11-02T09:00:00Z"] + Self.duo)
        let failed = "SELECT r.uuid FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE c.key = '\(Self.key)'"
        let result = try run(["query", "--format", "csv", failed]).stdout.split(separator: "\n").last ?? ""
        try run(["result", "link", String(result), "https://bugs.example.com/FB1"])
        let before = try outputs()
        let countsBefore = try counts()
        for (name, text) in before { #expect(text.contains(Self.key), "\(name) lists it before") }
        let results = (try claim(Self.key)["results"] as? [Any])?.count

        // Refused, naming what is wrong, and nothing written.
        let noReason = try run(["claim", "retire", Self.key], expect: 64)
        #expect(noReason.stderr.contains("--reason"), "\(noReason.stderr)")
        let notRetired = try run(["claim", "restore", Self.key], expect: 64)
        #expect(notRetired.stderr.contains("claim '\(Self.key)' is not retired"), "\(notRetired.stderr)")
        let unknown = try run(["claim", "retire", "widgets.nope", "--reason", "gone"], expect: 65)
        #expect(unknown.stderr.contains("widgets.nope"), "\(unknown.stderr)")
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM claim_retirements"]).stdout == "n\n0\n")

        let retired = try run(["claim", "retire", Self.key, "--reason", "dropped from the guide", "--by", "writer"])
        #expect(retired.stderr.contains("Retired claim \(Self.key)"), "\(retired.stderr)")
        for (name, text) in try outputs() { #expect(!text.contains(Self.key), "\(name) still lists it:\n\(text)") }
        #expect(try counts() != countsBefore)
        #expect(try run(["document", "list", "--format", "csv"]).stdout.contains("duo-system-surfaces,29,"))
        #expect(try run(["claim", "list", "--retired", "--format", "csv"]).stdout.contains("\n\(Self.key),"))
        // Its history stays: claim show says it is retired and shows every result.
        let shown = try claim(Self.key)
        #expect(shown["retired"] as? Bool == true && (shown["results"] as? [Any])?.count == results, "\(shown)")
        let text = try run(["claim", "show", Self.key]).stdout
        #expect(text.contains("retired:") && text.contains("by writer: dropped from the guide"), "\(text)")
        #expect(try run(["history", Self.key]).stdout.contains("fail"))
        let again = try run(["claim", "retire", Self.key, "--reason", "twice"], expect: 64)
        #expect(again.stderr.contains("is retired already"), "\(again.stderr)")
        let logged = try run(["log", Self.key, "--result", "pass"] + Self.duo, expect: 64)
        #expect(logged.stderr.contains("claim '\(Self.key)' is retired") && logged.stderr.contains("claim restore"), "\(logged.stderr)")

        // Restored at once (the same second, ordered by UUID), it is back everywhere it was.
        try run(["claim", "restore", Self.key, "--reason", "back in the guide"])
        #expect(try claim(Self.key)["retired"] as? Bool == false)
        let after = try outputs()
        for (name, text) in before { #expect(after[name] == text, "\(name) differs once the claim is back") }
        #expect(try counts() == countsBefore)
        try run(["claim", "retire", Self.key, "--reason", "dropped again"])
        #expect(try run(["claim", "list", "--retired", "--format", "csv"]).stdout.contains("\n\(Self.key),"))
    }

    /// Retired, restored and retired again within one second (a script's
    /// pace): the last stands. A record from elsewhere at the very end of the
    /// UUID range in that second leaves no room after it: refused, saying so.
    @Test func changesWithinOneSecondKeepTheirOrder() throws {
        let now = "2026-12-01T10:00:00Z"
        @discardableResult func at(_ arguments: [String], expect status: Int32 = 0) throws -> ProcessResult {
            let result = try EvidenceBinary.run(
                arguments, environment: ["EVIDENCE_STORE": store, "USER": user, "EVIDENCE_NOW": now], in: folder.url)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            return result
        }
        for _ in 0..<5 {
            try at(["claim", "retire", Self.key, "--reason", "dropped"])
            try at(["claim", "restore", Self.key])
        }
        try at(["claim", "retire", Self.key, "--reason", "dropped for good"])
        let shown = try claim(Self.key)
        #expect(shown["retired"] as? Bool == true && (shown["retirements"] as? [Any])?.count == 11, "\(shown)")
        #expect(try run(["claim", "list", "--retired", "--format", "csv"]).stdout.contains("\n\(Self.key),"))

        let shared = folder.path("shared")
        try run(["export", shared])
        let last = #"{"retirement":"ffffffff-ffff-ffff-ffff-ffffffffffff","claim":"\#(Self.key)","action":"restore","by":"b","at":"\#(now)"}"#
        let file = shared + "/retirements.jsonl"
        try (try String(contentsOfFile: file, encoding: .utf8) + last + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try run(["import", shared])
        #expect(try claim(Self.key)["retired"] as? Bool == false)
        let refused = try at(["claim", "retire", Self.key, "--reason", "again"], expect: 64)
        #expect(refused.stderr.contains("in this very second"), "\(refused.stderr)")
    }

    /// One clone retires, the other imports the retirement, brings the claim
    /// back, and the first imports that; a document that still marks the
    /// retired claim is told so.
    @Test func aRetirementTravelsBothWays() throws {
        let shared = folder.path("shared")
        let other = folder.path("other.sqlite")
        try run(["export", shared])
        try run(["init", "--store", other])
        try run(["import", shared, "--store", other])

        try run(["claim", "retire", Self.key, "--reason", "dropped from the guide"])
        try run(["export", shared])
        let file = try String(contentsOfFile: shared + "/retirements.jsonl", encoding: .utf8)
        #expect(file.contains("\"claim\":\"\(Self.key)\",\"action\":\"retire\""), "\(file)")
        try run(["import", shared, "--store", other])
        #expect(try claim(Self.key, store: other)["retired"] as? Bool == true)
        #expect(!(try run(["claim", "list", "--store", other]).stdout.contains(Self.key)))

        let document = folder.path("duo-system-surfaces.md")
        try "Widget sizes vary. <!-- evidence: \(Self.key) (sourced) -->\n".write(toFile: document, atomically: true, encoding: .utf8)
        let linted = try run(["lint", document, "--store", other], expect: 1)
        #expect(linted.stdout.contains("claim \(Self.key) is retired"), "\(linted.stdout)")

        try run(["claim", "restore", Self.key, "--reason", "back in the guide", "--store", other])
        try run(["export", shared, "--store", other])
        try run(["import", shared])
        #expect(try claim(Self.key)["retired"] as? Bool == false)
        #expect(try run(["claim", "list"]).stdout.contains(Self.key))
        let again = try run(["import", shared]).stderr
        #expect(again.contains(": 0 records added"), "\(again)")
    }
}
