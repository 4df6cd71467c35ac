import Foundation
import Testing

@testable import EvidenceStore

/// The bundled data set against the three documents it transcribes.
@Suite struct SeedDataSetTests {
    let fixture: StoreFixture
    var database: Database { fixture.store.database }

    init() throws {
        fixture = try StoreFixture()
        try StoreImporter(store: fixture.store).run(BundledSeed())
    }

    func count(_ sql: String, _ arguments: SQLValue...) throws -> Int {
        try database.scalar(sql, arguments).int ?? -1
    }

    /// The lines of a document between a heading and the next heading.
    func section(_ document: String, _ heading: String) throws -> [String] {
        let lines = try Fixtures.seedDocument(document).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") } ?? rest.endIndex
        return Array(rest[..<end])
    }

    static func links(_ text: String) -> [String] {
        var urls: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let tail = rest[open.upperBound...]
            guard let close = tail.firstIndex(of: ")") else { break }
            urls.append(String(tail[..<close]))
            rest = tail[close...]
        }
        return urls
    }

    @Test func countsMatchTheDocuments() throws {
        let byLabel = try database.query(
            "SELECT document, label, count(*) AS n FROM claims GROUP BY document, label ORDER BY document, label"
        ).map { "\(try $0.text("document")) \(try $0.text("label")) \(try $0.int("n"))" }
        #expect(byLabel == [
            "duo-system-surfaces measured 6", "duo-system-surfaces not-published 6", "duo-system-surfaces sourced 13",
            "duo-system-surfaces unverified 5",
            "everything-that-breaks measured 4", "everything-that-breaks unverified 4",
            "shell-by-window-width measured 5", "shell-by-window-width unverified 1",
        ])
        #expect(try count("SELECT count(*) FROM runs") == 5)
        #expect(try count("SELECT count(*) FROM results") == 15)
        #expect(try count("SELECT count(*) FROM measurements") == 4)
        #expect(try count("SELECT count(*) FROM checklist_items") == 12)
        // Each item links only the claims that prove it; "Live Activities end
        // when the task ends." has none, so only a hand check can tick it.
        let unlinked = try database.query(
            "SELECT key FROM checklist_items AS i WHERE NOT EXISTS (SELECT 1 FROM checklist_item_claims AS x WHERE x.checklist_item_id = i.id)"
        ).map { try $0.text("key") }
        #expect(unlinked == ["surfaces.end-activities"])
    }

    @Test func everyRowOfWhatAppleHasSaidIsASourcedClaimWithItsSources() throws {
        let rows = try section("duo-system-surfaces.md", "## What Apple has said about iPhone Duo")
            .filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Claim") }
        #expect(rows.count == 9)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let statement = cells[0]
            let key = try database.scalar(
                "SELECT key FROM claims WHERE statement = ? AND label = 'sourced'", .text(statement)).string
            #expect(key != nil, "no sourced claim says: \(statement)")
            guard let key else { continue }
            let cited = try fixture.store.reader.claimDetail(key: key).sources.map(\.fullURL).sorted()
            #expect(cited == Self.links(cells[1]).sorted(), "\(key)")
        }
        #expect(try count("SELECT count(*) FROM claim_sources WHERE locator = '?time=94'") == 1)
        #expect(try count("SELECT count(*) FROM claim_sources WHERE locator = '#StandBy'") == 1)
    }

    @Test func everyBulletOfWhatAppleHasNotPublishedIsANotPublishedClaim() throws {
        let bullets = try section("duo-system-surfaces.md", "## What Apple has not published").filter { $0.hasPrefix("- ") }
        #expect(bullets.count == 6)
        let statements = try database.query(
            "SELECT statement, as_of FROM claims WHERE label = 'not-published' AND document = 'duo-system-surfaces'")
        #expect(try statements.allSatisfy { try $0.text("as_of") == "2026-10-20" })
        for bullet in bullets {
            let first = bullet.dropFirst(2).prefix { $0 != "." }
            let plain = first.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "")
            #expect(try statements.contains { try $0.text("statement").hasPrefix(String(plain.prefix(30))) }, "\(bullet)")
        }
    }

    @Test func theMeasuredStatementsAreOneRunWithBothMeasurements() throws {
        let runs = try database.query(
            """
            SELECT u.uuid, u.started_at, e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_version, e.tool_build,
                   u.tester, (SELECT count(*) FROM results AS r WHERE r.run_id = u.id) AS results
            FROM runs AS u JOIN environments AS e ON e.id = u.environment_id
            WHERE u.started_at = '2026-10-20'
            """)
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(try run.text("kind") == "simulator")
        #expect(try run.text("model") == "iPhone Duo")
        #expect(try run.text("os_version") == "27.1")
        #expect(try run.text("os_build") == "")  // the document gives no iOS build
        #expect(try run.text("tool_version") == "27.1")
        #expect(try run.text("tool_build") == "27A9275")
        #expect(try run.text("tester") == "")  // nor a tester
        #expect(try run.int("results") == 6)
        let measured = try database.query(
            "SELECT claim_key, value, baseline, delta, unit, posture FROM measurement_deltas WHERE run_uuid = ? ORDER BY value",
            .text(run.text("uuid"))
        ).map { "\(try $0.text("claim_key")) \(try $0.text("baseline"))→\(try $0.text("value")) Δ\(try $0.text("delta")) \(try $0.text("unit")) \(try $0.text("posture"))" }
        #expect(measured == [
            "island.clock-offset.open-wide 34→128 Δ94 pt open-wide",
            "island.clock-offset.closed 87→171 Δ84 pt closed",
        ])
    }

    @Test func theOtherArticlesKeepTheirNumbersAndWhatTheyDidNotTest() throws {
        let numbers = try database.query(
            "SELECT claim_key, value, baseline FROM measurement_deltas WHERE claim_key LIKE 'breaks.%' ORDER BY claim_key"
        ).map { "\(try $0.text("claim_key")) \(try $0.text("value")) \(try $0.text("baseline"))" }
        #expect(numbers == ["breaks.geometry-reader-width 867 951", "breaks.right-safe-area-inset 84 "])
        let shell = try database.query(
            """
            SELECT e.model, e.tool_version, count(*) AS n FROM results AS r JOIN runs AS u ON u.id = r.run_id
            JOIN environments AS e ON e.id = u.environment_id JOIN claims AS c ON c.id = r.claim_id
            WHERE c.document = 'shell-by-window-width' GROUP BY e.model ORDER BY e.model
            """
        ).map { "\(try $0.text("model")) \(try $0.text("tool_version")) \(try $0.int("n"))" }
        #expect(shell == ["iPad Pro 13 27.1 RC 1", "iPhone 18 Pro Max 27.1 RC 1", "iPhone Duo 27.1 RC 3"])
        #expect(try fixture.state("shell.split-view-two-apps") == "needs-device")
    }

    @Test func theSimulatorLimitsMakeTheirClaimsNeedADevice() throws {
        let lacks = try database.query(
            """
            SELECT k.name, coalesce(s.title, l.reported_in) AS witness FROM environment_lacks AS l
            JOIN capabilities AS k ON k.id = l.capability_id LEFT JOIN sources AS s ON s.id = l.source_id ORDER BY k.name
            """
        ).map { "\(try $0.text("name")): \(try $0.text("witness"))" }
        #expect(lacks.contains("standby: Xcode 27.1 Release Notes"))
        #expect(lacks.contains("app-extension: Xcode 27.1 Release Notes"))
        #expect(lacks.contains("fold-from-cli: shell-by-window-width"))
        #expect(lacks.contains("multi-app-split-view: shell-by-window-width"))
        #expect(lacks.contains("headless-openurl: everything-that-breaks"))
        for key in [
            "standby.either-display", "island.vertical.several-activities", "widgets.home-pages-today-view",
            "controls.control-center-lock-screen", "shell.split-view-two-apps",
        ] {
            #expect(try fixture.state(key) == "needs-device", "\(key)")
        }
    }

    @Test func theChecklistIsTheDocumentsChecklist() throws {
        let lines = try section("duo-system-surfaces.md", "## Checklist").filter { $0.hasPrefix("- [ ] ") }
        let items = try database.query("SELECT text FROM checklist_items ORDER BY position").map { try $0.text("text") }
        #expect(items == lines.map { String($0.dropFirst(6)) })
    }
}
