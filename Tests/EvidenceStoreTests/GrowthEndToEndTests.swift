import Foundation
import Testing

@testable import EvidenceStore

/// Cost in proportion to the work (issue 51), through the built binary:
/// lopsided shapes that once grew faster than their work, and what a long
/// command shows on a terminal meanwhile.
@Suite struct GrowthEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "ci"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    static let simulator = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]

    /// A JUnit file of `count` test cases, every one mapped to one claim.
    func oneClaimFile(_ count: Int) throws -> String {
        var text = "<?xml version=\"1.0\"?>\n<testsuites><testsuite name=\"S\" tests=\"\(count)\">\n"
        for index in 0..<count {
            text += "<testcase classname=\"S\" name=\"test\(index)_claim:island.clock-offset.closed\" time=\"0.01\"/>\n"
        }
        return try folder.write("one-claim.xml", text + "</testsuite></testsuites>\n")
    }

    /// A teammate's run with every result on one claim imports into a store
    /// that has the claim, with a progress line on a terminal as ingest has.
    /// The line shows once the command has run a second; a release build
    /// imports 40,000 results in less, so the test holds the store's write
    /// lock for a moment first, and records every byte the pane was sent (the
    /// line is cleared at the end).
    @Test(.enabled(if: ExternalTool.tmux.shouldRun)) func aRunOnOneClaimImportsWithProgressOnATerminal() throws {
        try run(["ingest", try oneClaimFile(40_000)] + Self.simulator)
        try run(["export", "team"])
        try run(["init", "--store", "teammate.sqlite"])
        try run(["seed", "--store", "teammate.sqlite"])
        let holder = try Database(path: folder.path("teammate.sqlite"), mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        let sent = folder.path("pane.log")
        let terminal = try Tmux(
            folder: folder,
            command: ["/bin/sh", "-c", "sleep 0.5; exec \"$0\" import team --store teammate.sqlite", EvidenceBinary.url.path])
        defer { terminal.close() }
        try terminal.record(to: sent)
        Thread.sleep(forTimeInterval: 2)
        try holder.execute("ROLLBACK")
        holder.close()
        let imported = try terminal.shows("Imported team: 40001 records added", seconds: 120)
        let screen = try terminal.screen()
        #expect(imported, "\(screen)")
        #expect(!screen.contains("results read"), "the progress line is cleared at the end: \(screen)")
        let bytes = try String(contentsOfFile: sent, encoding: .utf8)
        #expect(bytes.contains("team: 2000 results read"), "a progress line while it imports: \(bytes.suffix(300))")
        let count = try EvidenceBinary.run(
            ["query", "--store", folder.path("teammate.sqlite"), "--format", "csv",
             "SELECT count(*) FROM results AS r JOIN claims AS c ON c.id = r.claim_id WHERE c.key = 'island.clock-offset.closed'"])
        #expect(count.stdout.hasSuffix("\n40001\n") || count.stdout.hasSuffix("\n40002\n"), "\(count.stdout)")
    }

    /// The newest environment newer than each (`environment_status`, read by
    /// every report) costs in proportion to the environments: counted in
    /// SQLite's steps, 8x the builds of one simulator take at most 16x the
    /// work (pairing every environment with every other took 64x).
    @Test func theNewestEnvironmentGrowsInProportionToTheEnvironments() throws {
        var steps: [Int] = []
        for count in [15, 120] {
            let store = folder.path("environments-\(count).sqlite")
            try run(["init", "--store", store])
            try run(["seed", "--store", store])
            for n in 0..<count {
                try run(["log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
                         "--os-build", "24A\(1000 + n)", "--xcode", "27.1", "--xcode-build", "27A9275", "--date", "2026-10-20",
                         "--store", store])
            }
            let database = try Database(path: store, mode: .readOnly)
            defer { database.close() }
            steps.append(try database.steps(toRun: "SELECT * FROM environment_status"))
        }
        #expect(Double(steps[1]) / Double(steps[0]) <= 16, "\(steps)")
    }
}
