import Foundation
import Testing

/// Two people share evidence through git, with the built binary and real
/// git in temporary folders: one shared export, two clones, work on both
/// sides, a merge with the `evidence` driver, and stores that take it all.
@Suite struct TeamMergeEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    // MARK: - git-setup

    /// git-setup adds its lines through the one safe rewrite of a person's
    /// file: a `.gitattributes` in Latin-1 with CRLF line ends keeps every
    /// byte of its own lines (the LFS and binary ones) and its mode, and git
    /// then sends the records to the driver; a second run writes nothing. A
    /// link is refused and left as it was: git does not read one.
    @Test func gitSetupKeepsAPersonsAttributes() throws {
        try FileManager.default.createDirectory(atPath: folder.path("home"), withIntermediateDirectories: true)
        try git(["init", "-q", "repo"], in: "")
        try FileManager.default.createDirectory(atPath: folder.path("repo/evidence"), withIntermediateDirectories: true)
        // "Caf\u{E9}" in Latin-1: one byte that is not UTF-8.
        let theirs: [UInt8] = Array("# Caf".utf8) + [0xE9] + Array(" screenshots\r\n*.png binary\r\n*.heic filter=lfs diff=lfs merge=lfs -text\r\n".utf8)
        let file = folder.path("repo/evidence/.gitattributes")
        try Data(theirs).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)

        let setup = try evidence(["git-setup", "repo/evidence"], as: "lead", at: "2026-11-01T09:00:00Z")
        #expect((setup.stdout + setup.stderr).contains(".gitattributes"), "\(setup.stdout)\(setup.stderr)")
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Array(written.prefix(theirs.count)) == theirs, "their bytes, as they were")
        #expect(String(decoding: written.dropFirst(theirs.count), as: UTF8.self)
            == "# Written by 'evidence git-setup': git merges the text format record by record.\r\n*.jsonl merge=evidence\r\nformat.json merge=evidence\r\n")
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o640)
        let check = try git(["check-attr", "merge", "--", "evidence/claims/a.jsonl", "evidence/shot.png"], in: "repo")
        #expect(check.output.contains("evidence/claims/a.jsonl: merge: evidence"), "\(check.output)")
        #expect(check.output.contains("evidence/shot.png: merge: unset"), "\(check.output)")

        try evidence(["git-setup", "repo/evidence"], as: "lead", at: "2026-11-01T09:00:00Z")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) == written, "a second run writes nothing")

        try FileManager.default.moveItem(atPath: file, toPath: folder.path("repo/attributes"))
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: "../attributes")
        let refused = try evidence(["git-setup", "repo/evidence"], as: "lead", at: "2026-11-01T09:00:00Z", expect: 74)
        #expect(refused.stderr.contains("is a link, and git (2.32 and later) does not read"), "\(refused.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file) == "../attributes")
    }

    /// A store inside the repository stays out of git: git-setup names its
    /// file, SQLite's files beside it and its attachments in the top
    /// `.gitignore`, once; and in a fresh clone `sync` creates the store
    /// before it imports, so a newcomer's first command works.
    @Test func aStoreInTheRepositoryStaysOutOfGitAndSyncCreatesIt() throws {
        try FileManager.default.createDirectory(atPath: folder.path("home"), withIntermediateDirectories: true)
        try git(["init", "-q", "repo"], in: "")
        try evidence(["init", "--store", "repo/evidence.sqlite"], as: "lead", at: "2026-11-01T09:00:00Z")
        try evidence(["seed", "--store", "repo/evidence.sqlite"], as: "lead", at: "2026-11-01T09:00:00Z")
        try evidence(["git-setup", "evidence"], as: "lead", at: "2026-11-01T09:00:00Z", in: "repo")
        try evidence(["git-setup", "evidence"], as: "lead", at: "2026-11-01T09:00:00Z", in: "repo")
        let ignore = try String(contentsOfFile: folder.path("repo/.gitignore"), encoding: .utf8)
        #expect(ignore == "# Written by 'evidence git-setup': each person's store stays out of git; the export is shared.\n"
            + "/evidence.sqlite\n/evidence.sqlite-wal\n/evidence.sqlite-shm\n/attachments/\n", "\(ignore)")
        try evidence(["sync", "evidence"], as: "lead", at: "2026-11-01T09:00:00Z", in: "repo")
        try git(["add", "-A"], in: "repo")
        let staged = try git(["status", "--porcelain"], in: "repo").output
        #expect(!staged.contains("evidence.sqlite"), "\(staged)")
        #expect(staged.contains("evidence/format.json"), "\(staged)")
        try git(["commit", "-q", "-m", "export"], in: "repo")

        try git(["clone", "-q", "repo", "clone"], in: "")
        #expect(!FileManager.default.fileExists(atPath: folder.path("clone/evidence.sqlite")))
        try evidence(["sync", "evidence"], as: "qa", at: "2026-11-02T09:00:00Z", in: "clone")
        #expect(try query("clone/evidence.sqlite", "SELECT count(*) FROM claims") == query("repo/evidence.sqlite", "SELECT count(*) FROM claims"))
        #expect(try git(["status", "--porcelain"], in: "clone").output.isEmpty, "sync of an unchanged export changes nothing")
    }

    // MARK: - Helpers

    /// Runs git in a folder of the suite; expects it to succeed unless told.
    @discardableResult
    func git(_ arguments: [String], in path: String, expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "init.defaultBranch=main",
                             "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path(path))
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path("home")
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == status, "git \(arguments): \(output)", sourceLocation: sourceLocation)
        return (process.terminationStatus, output)
    }

    /// Runs the binary as a person, at a fixed time.
    @discardableResult
    func evidence(
        _ arguments: [String], as user: String, at time: String, in path: String = "", expect status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try EvidenceBinary.run(
            arguments, environment: ["USER": user, "EVIDENCE_NOW": time, "HOME": folder.path("home")],
            in: URL(fileURLWithPath: folder.path(path)))
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func query(_ store: String, _ sql: String) throws -> String {
        try EvidenceBinary.run(["query", "--store", folder.path(store), "--format", "csv", sql]).stdout
            .split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    static let junit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites>
          <testsuite name="DuoUITests" tests="2" failures="0" timestamp="2026-11-02T08:00:00">
            <testcase classname="DuoUITests" name="testDeepLinksOpenTheRightScreen" time="0.5">
              <properties><property name="claim" value="deep-links.closed-and-open"/></properties>
            </testcase>
            <testcase classname="DuoUITests" name="testLaunches" time="0.1"/>
          </testsuite>
        </testsuites>
        """

    static let simulator = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    /// A bare repository holding one export of the bundled data set, set up
    /// for the driver, and two clones with stores imported from it.
    func setUpTeam() throws {
        try FileManager.default.createDirectory(atPath: folder.path("home"), withIntermediateDirectories: true)
        try git(["init", "--bare", "-q", "shared.git"], in: "")
        try git(["clone", "-q", "shared.git", "setup"], in: "")
        try evidence(["init", "--store", "seed.sqlite"], as: "lead", at: "2026-11-01T09:00:00Z")
        try evidence(["seed", "--store", "seed.sqlite"], as: "lead", at: "2026-11-01T09:00:00Z")
        try evidence(["export", "setup/evidence", "--store", "seed.sqlite"], as: "lead", at: "2026-11-01T09:00:00Z")
        try evidence(["git-setup", "setup/evidence"], as: "lead", at: "2026-11-01T09:00:00Z")
        try git(["add", "-A"], in: "setup")
        try git(["commit", "-q", "-m", "The shared evidence"], in: "setup")
        try git(["push", "-q", "origin", "HEAD:main"], in: "setup")
        for person in ["alice", "bob"] {
            try git(["clone", "-q", "shared.git", person], in: "")
            let setup = try evidence(["git-setup", "\(person)/evidence"], as: person, at: "2026-11-01T09:00:00Z")
            #expect(setup.stderr.contains("already sends"))
            try evidence(["init", "--store", "\(person).sqlite"], as: person, at: "2026-11-01T10:00:00Z")
            try evidence(["import", "\(person)/evidence", "--store", "\(person).sqlite"], as: person, at: "2026-11-01T10:00:00Z")
        }
        try folder.write("DuoUITests.junit", Self.junit)
    }

    /// The same CI file ingested by two clones in the same second (the runs'
    /// records agree to the second; each result was recorded at its own
    /// microsecond) merges without a conflict in either order, and every
    /// store ends with the results recorded first (issue 45, point 4).
    @Test(arguments: [true, false]) func oneFileIngestedByTwoClonesInTheSameSecondMergesClean(alicePushesFirst: Bool) throws {
        try setUpTeam()
        let times = ["alice": "2026-11-02T09:30:00.200000Z", "bob": "2026-11-02T09:30:00.700000Z"]
        for person in ["alice", "bob"] {
            try evidence(["ingest", "DuoUITests.junit", "--tester", "ci", "--store", "\(person).sqlite"] + Self.simulator,
                as: person, at: times[person]!)
            try evidence(["export", "\(person)/evidence", "--store", "\(person).sqlite"], as: person, at: "2026-11-02T10:00:00Z")
            try git(["add", "-A"], in: person)
            try git(["commit", "-q", "-m", "\(person)'s CI run"], in: person)
        }
        let (first, second) = alicePushesFirst ? ("alice", "bob") : ("bob", "alice")
        try git(["push", "-q", "origin", "HEAD:main"], in: first)
        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: second)
        #expect(try git(["grep", "-l", "-e", "^<<<<<<<", "--", "evidence"], in: second, expect: 1).output.isEmpty)
        try evidence(["sync", "\(second)/evidence", "--store", "\(second).sqlite"], as: second, at: "2026-11-02T11:00:00Z")
        try git(["add", "-A"], in: second)
        if try !git(["status", "--porcelain"], in: second).output.isEmpty { try git(["commit", "-q", "-m", "synced"], in: second) }
        try git(["push", "-q", "origin", "HEAD:main"], in: second)
        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: first)
        try evidence(["sync", "\(first)/evidence", "--store", "\(first).sqlite"], as: first, at: "2026-11-02T11:00:00Z")
        let recorded = "SELECT group_concat(recorded_at, ' ') FROM (SELECT r.recorded_at FROM results AS r JOIN runs AS u ON u.id = r.run_id WHERE u.ingested_file_id IS NOT NULL ORDER BY r.recorded_at)"
        #expect(try query("alice.sqlite", recorded) == query("bob.sqlite", recorded))
        let aliceRecorded = try query("alice.sqlite", recorded)
        #expect(aliceRecorded.hasPrefix("2026-11-02T09:30:00.2000"), "Alice's results were recorded first: \(aliceRecorded)")
        #expect(try git(["status", "--porcelain"], in: first).output.isEmpty)
    }

    // MARK: - Screenshots travel

    /// A screenshot attached from outside the store's folder (Simulator puts
    /// them on the Desktop) is kept in the folder, goes out with the export,
    /// through git, and into a teammate's store, whose `attachments verify`
    /// finds it whole.
    @Test func aScreenshotTravelsWithTheTeam() throws {
        try setUpTeam()
        for (person, store) in [("alice", "alice-store"), ("bob", "bob-store")] {
            try FileManager.default.createDirectory(atPath: folder.path(store), withIntermediateDirectories: true)
            try evidence(["init", "--store", "\(store)/evidence.sqlite"], as: person, at: "2026-11-01T10:00:00Z")
            try evidence(["import", "\(person)/evidence", "--store", "\(store)/evidence.sqlite"], as: person, at: "2026-11-01T10:00:00Z")
        }
        let screenshot = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try folder.write("Desktop/Simulator Screenshot.png", screenshot)
        let alice = ["--store", "alice-store/evidence.sqlite"]
        try evidence(["log", "bars.other-app-activity", "--result", "fail", "--date", "2026-11-02",
                      "--attach", "Desktop/Simulator Screenshot.png"] + Self.simulator + alice, as: "alice", at: "2026-11-02T09:00:00Z")
        try evidence(["export", "alice/evidence"] + alice, as: "alice", at: "2026-11-02T09:10:00Z")
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder.path("alice/evidence/attachments"))
        #expect(exported.count == 1 && exported[0].count == 64, "\(exported)")
        try git(["add", "-A"], in: "alice")
        try git(["commit", "-q", "-m", "A failure with its screenshot"], in: "alice")
        try git(["push", "-q", "origin", "HEAD:main"], in: "alice")

        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: "bob")
        let bob = ["--store", "bob-store/evidence.sqlite"]
        try evidence(["import", "bob/evidence"] + bob, as: "bob", at: "2026-11-02T10:00:00Z")
        let verified = try evidence(["attachments", "verify"] + bob, as: "bob", at: "2026-11-02T10:00:00Z")
        #expect(verified.stderr.contains("Checked 1 attachment file"), "\(verified.stderr)")
        let path = try query("bob-store/evidence.sqlite", "SELECT path FROM attachments")
        #expect(path.hasPrefix("attachments/") && path.hasSuffix(".png"), "\(path)")
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("bob-store/" + path)) == screenshot)
        let shown = try evidence(["claim", "show", "bars.other-app-activity"] + bob, as: "bob", at: "2026-11-02T10:00:00Z").stdout
        #expect(shown.contains("attached: " + path), "\(shown)")
        // A second export writes nothing new: the file is named by its content.
        let before = try FileManager.default.attributesOfItem(atPath: folder.path("alice/evidence/attachments/" + exported[0]))[.modificationDate] as? Date
        try evidence(["export", "alice/evidence"] + alice, as: "alice", at: "2026-11-02T11:00:00Z")
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path("alice/evidence/attachments/" + exported[0]))[.modificationDate] as? Date == before)
    }

    // MARK: - The scenario

    @Test func twoPeoplesWorkMergesWithoutConflictAndImportsOnce() throws {
        try setUpTeam()
        // Alice: two results in a new run, the CI file, a relabel, and one claim both relabel.
        let alice = ["--store", "alice.sqlite"]
        try evidence(["log", "widgets.gallery-outer-display", "--result", "pass", "--date", "2026-11-02"] + Self.simulator + alice,
            as: "alice", at: "2026-11-02T09:00:00Z")
        try evidence(["log", "home-screen.two-pages", "--result", "fail", "--date", "2026-11-02"] + Self.simulator + alice,
            as: "alice", at: "2026-11-02T09:01:00Z")
        try evidence(["ingest", "DuoUITests.junit", "--tester", "ci"] + Self.simulator + alice, as: "alice", at: "2026-11-02T09:30:00Z")
        try evidence(["claim", "label", "bars.other-app-activity", "measured", "--reason", "seen on a device"] + alice,
            as: "alice", at: "2026-11-02T10:00:00Z")
        try evidence(["claim", "label", "controls.no-action-button", "unverified", "--reason", "the page changed"] + alice,
            as: "alice", at: "2026-11-02T10:05:00Z")
        try evidence(["export", "alice/evidence"] + alice, as: "alice", at: "2026-11-02T10:10:00Z")
        try git(["add", "-A"], in: "alice")
        try git(["commit", "-q", "-m", "Alice's results"], in: "alice")

        // Bob: the same, on other claims; relabels the shared claim later; retracts a seed result.
        let bob = ["--store", "bob.sqlite"]
        try evidence(["log", "live-activity.request-active", "--result", "pass", "--date", "2026-11-02"] + Self.simulator + bob,
            as: "bob", at: "2026-11-02T09:05:00Z")
        try evidence(["log", "deep-links.closed-and-open", "--result", "blocked", "--date", "2026-11-02"] + Self.simulator + bob,
            as: "bob", at: "2026-11-02T09:06:00Z")
        try evidence(["ingest", "DuoUITests.junit", "--tester", "ci"] + Self.simulator + bob, as: "bob", at: "2026-11-02T11:30:00Z")
        try evidence(["claim", "label", "bars.share-column.overflow", "measured", "--reason", "measured it"] + bob,
            as: "bob", at: "2026-11-02T11:00:00Z")
        try evidence(["claim", "label", "controls.no-action-button", "not-published", "--reason", "Apple took the page down"] + bob,
            as: "bob", at: "2026-11-02T11:05:00Z")
        let seedResult = try query("bob.sqlite", "SELECT r.id FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE c.key = 'island.clock-offset.closed'")
        try evidence(["result", "retract", seedResult, "--reason", "measured with the wrong scale"] + bob,
            as: "bob", at: "2026-11-02T11:10:00Z")
        try evidence(["export", "bob/evidence"] + bob, as: "bob", at: "2026-11-02T11:15:00Z")
        try git(["add", "-A"], in: "bob")
        try git(["commit", "-q", "-m", "Bob's results"], in: "bob")
        try git(["push", "-q", "origin", "HEAD:main"], in: "bob")

        // Alice merges Bob's work: the driver leaves no conflict.
        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: "alice")
        let markers = try git(["grep", "-l", "-e", "^<<<<<<<", "--", "evidence"], in: "alice", expect: 1)
        #expect(markers.output.isEmpty)

        // A fresh store takes the merged folder: every result once, one run for the shared file.
        try evidence(["init", "--store", "fresh.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        try evidence(["import", "alice/evidence", "--store", "fresh.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        #expect(try query("fresh.sqlite", "SELECT count(*) FROM results") == "\(15 + 2 + 2 + 2)")
        #expect(try query("fresh.sqlite", "SELECT count(*) FROM runs WHERE ingested_file_id IS NOT NULL") == "1")
        #expect(try query("fresh.sqlite", "SELECT tester || ' ' || started_at FROM runs WHERE ingested_file_id IS NOT NULL") == "ci 2026-11-02T08:00:00Z")
        #expect(try query("fresh.sqlite", "SELECT ingested_at FROM ingested_files") == "2026-11-02T09:30:00Z", "the earlier ingestion stands")
        #expect(try query("fresh.sqlite", "SELECT label FROM claims WHERE key = 'controls.no-action-button'") == "not-published")
        #expect(try query("fresh.sqlite", "SELECT group_concat(new_label, ' ') FROM (SELECT new_label FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id WHERE c.key = 'controls.no-action-button' ORDER BY h.changed_at)") == "unverified not-published")
        #expect(try query("fresh.sqlite", "SELECT label FROM claims WHERE key IN ('bars.other-app-activity', 'bars.share-column.overflow') ORDER BY key") == "measured\nmeasured")
        #expect(try query("fresh.sqlite", "SELECT count(*) FROM retractions") == "1")

        // Each person's own store takes the merge, and export gives the merged bytes again.
        try evidence(["sync", "alice/evidence"] + alice, as: "alice", at: "2026-11-03T09:10:00Z")
        #expect(try git(["status", "--porcelain"], in: "alice").output == "", "sync rewrites the merge as it is")
        try git(["push", "-q", "origin", "HEAD:main"], in: "alice")
        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: "bob")
        try evidence(["sync", "bob/evidence"] + bob, as: "bob", at: "2026-11-03T09:20:00Z")
        #expect(try git(["status", "--porcelain"], in: "bob").output == "")
        try evidence(["export", "bob/evidence"] + bob, as: "bob", at: "2026-11-03T09:30:00Z")
        #expect(try git(["status", "--porcelain"], in: "bob").output == "", "export again is byte-identical")
        for store in ["alice.sqlite", "bob.sqlite"] {
            #expect(try query(store, "SELECT count(*) FROM results") == "\(15 + 2 + 2 + 2)", "\(store)")
            #expect(try query(store, "SELECT label FROM claims WHERE key = 'controls.no-action-button'") == "not-published")
            #expect(try query(store, "SELECT count(*) FROM retractions") == "1")
        }
        let reports = try ["alice", "bob", "fresh"].map {
            try EvidenceBinary.run(["report", "--store", folder.path("\($0).sqlite")]).stdout
        }
        #expect(reports[0] == reports[1] && reports[1] == reports[2])
    }

    @Test func aStatementEditedTwoWaysIsAConflictAndImportsNothing() throws {
        try setUpTeam()
        try evidence(["claim", "edit", "home-screen.two-pages", "--statement", "Open, two Home Screen pages.", "--store", "alice.sqlite"],
            as: "alice", at: "2026-11-02T10:00:00Z")
        try evidence(["sync", "alice/evidence", "--store", "alice.sqlite"], as: "alice", at: "2026-11-02T10:01:00Z")
        try git(["commit", "-q", "-a", "-m", "Alice's words"], in: "alice")
        try evidence(["claim", "edit", "home-screen.two-pages", "--statement", "Open, the display shows two pages.", "--store", "bob.sqlite"],
            as: "bob", at: "2026-11-02T10:02:00Z")
        try evidence(["sync", "bob/evidence", "--store", "bob.sqlite"], as: "bob", at: "2026-11-02T10:03:00Z")
        try git(["commit", "-q", "-a", "-m", "Bob's words"], in: "bob")
        try git(["push", "-q", "origin", "HEAD:main"], in: "bob")

        let pulled = try git(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: "alice", expect: 1)
        #expect(pulled.output.contains("CONFLICT"), "\(pulled.output)")
        #expect(pulled.output.contains("claim 'home-screen.two-pages' was changed both ways ('statement')"), "\(pulled.output)")
        let text = try String(contentsOfFile: folder.path("alice/evidence/claims/duo-system-surfaces.jsonl"), encoding: .utf8)
        #expect(text.contains("<<<<<<< ours\n{\"key\":\"home-screen.two-pages\""))
        #expect(text.contains("Open, two Home Screen pages.") && text.contains("Open, the display shows two pages."))
        #expect(text.components(separatedBy: "<<<<<<<").count == 2, "only the one claim is in conflict")

        try evidence(["init", "--store", "fresh.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        let imported = try evidence(["import", "alice/evidence", "--store", "fresh.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z", expect: 65)
        #expect(imported.stderr.contains("claims/duo-system-surfaces.jsonl:"), "\(imported.stderr)")
        #expect(try query("fresh.sqlite", "SELECT count(*) FROM claims") == "0")
    }

    /// Two clones relabel one claim in the same second, two ways: merged
    /// through git with the driver, in either order, every clone ends with
    /// the same label (changes ordered by time, then by UUID), and no conflict.
    @Test(arguments: [true, false])
    func twoRelabelsInTheSameSecondMergeTheSameWayInEitherOrder(alicePullsFirst: Bool) throws {
        try setUpTeam()
        let second = "2026-11-02T10:00:00Z"
        try evidence(["claim", "label", "bars.other-app-activity", "measured", "--reason", "seen", "--store", "alice.sqlite"],
            as: "alice", at: second)
        try evidence(["claim", "label", "bars.other-app-activity", "sourced", "--reason", "found a page", "--store", "bob.sqlite"],
            as: "bob", at: second)
        for person in ["alice", "bob"] {
            try evidence(["sync", "\(person)/evidence", "--store", "\(person).sqlite"], as: person, at: "2026-11-02T10:01:00Z")
            try git(["add", "-A"], in: person)
            try git(["commit", "-q", "-m", "\(person)'s label"], in: person)
        }
        let (first, then) = alicePullsFirst ? ("bob", "alice") : ("alice", "bob")
        try git(["push", "-q", "origin", "HEAD:main"], in: first)
        let pulled = try git(["pull", "--no-rebase", "--no-edit", "origin", "main"], in: then)
        #expect(!pulled.output.contains("CONFLICT"), "\(pulled.output)")
        try evidence(["sync", "\(then)/evidence", "--store", "\(then).sqlite"], as: then, at: "2026-11-02T10:02:00Z")
        try git(["add", "-A"], in: then)
        try git(["commit", "-q", "-m", "merged", "--allow-empty"], in: then)
        try git(["push", "-q", "origin", "HEAD:main"], in: then)
        try git(["pull", "-q", "--no-rebase", "--no-edit", "origin", "main"], in: first)
        try evidence(["sync", "\(first)/evidence", "--store", "\(first).sqlite"], as: first, at: "2026-11-02T10:03:00Z")
        let labels = try ["alice", "bob"].map { try query("\($0).sqlite", "SELECT label FROM claims WHERE key = 'bars.other-app-activity'") }
        #expect(labels[0] == labels[1], "\(labels)")
        let latest = try query(
            "alice.sqlite",
            "SELECT new_label FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id WHERE c.key = 'bars.other-app-activity' ORDER BY h.changed_at DESC, h.uuid DESC LIMIT 1")
        #expect(labels[0] == latest, "the label of the latest change by time, then UUID")
        #expect(try query("bob.sqlite", "SELECT count(*) FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id WHERE c.key = 'bars.other-app-activity'") == "2")
    }

    @Test func aVersionOneFolderStillImports() throws {
        try evidence(["init", "--store", "old.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        let fixture = EvidenceBinary.packageRoot.appendingPathComponent("Tests/EvidenceStoreTests/Fixtures/seed-v1").path
        try evidence(["import", fixture, "--store", "old.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        try evidence(["export", "out", "--store", "old.sqlite"], as: "lead", at: "2026-11-03T09:00:00Z")
        let version = try String(contentsOfFile: folder.path("out/format.json"), encoding: .utf8)
        #expect(version == "{\"format\":\"evidence-store\",\"version\":4}\n")
    }
}
