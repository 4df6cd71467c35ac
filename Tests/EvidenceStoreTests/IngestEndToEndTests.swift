import Foundation
import Testing

/// CI's path: map a test to a claim, ingest result files, read the report.
@Suite struct IngestEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "ci"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    @Test func ciIngestsAndTheReportSummarisesUnmappedTests() throws {
        try run(["map", "add", "OutputHandlerTests/testEarlyReturnIfEmptyString*", "deep-links.closed-and-open"])
        let listed = try run(["map", "list", "--format", "csv"]).stdout
        #expect(listed == "pattern,claim\nOutputHandlerTests/testEarlyReturnIfEmptyString*,deep-links.closed-and-open\n")
        let file = Fixtures.apple("junit-xcbeautify-1.xml").path
        let ingested = try run([
            "ingest", file, "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode-version-file",
            Fixtures.apple("xcodebuild-version-1.txt").path, "--date", "2026-10-21", "--verbose",
        ])
        #expect(ingested.stdout.hasPrefix("\(file): 85 test cases, 85 results (JUnit XML): 81 passed, 3 failed, 1 skipped; 1 mapped to claims, 84 not.\n"))
        #expect(ingested.stdout.contains(" (local #6) on iPhone Duo simulator"))
        #expect(ingested.stdout.contains(") on iPhone Duo simulator, iOS 27.1, Xcode 13.2.1 (13C100)\n"))
        #expect(ingested.stdout.contains("  unmapped: XcbeautifyLibTests.OutputHandlerTests/testPrintAllOutputTypeByDefault\n"))
        let again = try run(["ingest", file, "--simulator", "iPhone Duo", "--os", "iOS 27.1"])
        #expect(again.stdout.contains("already ingested on "))

        let claim = try run(["claim", "list", "--format", "csv", "--area", "Deep links"]).stdout
        // Xcode 13C100 is older than the 27A9275 the seed recorded for the Duo simulator.
        #expect(claim.contains("deep-links.closed-and-open,unverified,stale,"))
        let report = try run(["report"]).stdout
        #expect(report.contains("Automated tests that map to no claim: 84 (3 fail, 80 pass, 1 skipped).\n"))
        #expect(report.contains("- Ingested from: junit-xcbeautify-1.xml\n"))
        let shown = try run(["run", "show", "6"]).stdout
        #expect(shown.contains("ingested from: junit-xcbeautify-1.xml (junit, sha256 "))
    }

    /// A JUnit file of `count` cases in suites of 100, the one at `bad` (if any) named with a line break.
    private func junit(_ count: Int, badAt bad: Int? = nil) -> String {
        var xml = "<?xml version=\"1.0\"?>\n<testsuites>\n"
        for suite in 0..<(count / 100) {
            xml += "<testsuite name=\"Suite\(suite)\" tests=\"100\">\n"
            for index in (suite * 100)..<(suite * 100 + 100) {
                let name = index == bad ? "test\(index)&#10;again" : "test\(index)"
                xml += "<testcase classname=\"Suite\(suite)\" name=\"\(name)\" time=\"0.01\"/>\n"
            }
            xml += "</testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    @Test func aBadCaseDeepInALargeFileWritesNothingAndGoodOnesKeepTheirOrder() throws {
        try run(["map", "add", "Suite7/test7*", "deep-links.closed-and-open"])
        let bad = try folder.write("bad.xml", junit(3_000, badAt: 2_500))
        let refused = try run(["ingest", bad, "--simulator", "iPhone Duo", "--os", "iOS 27.1"], expect: 65)
        #expect(refused.stderr.contains("the test identifier 'Suite25/test2500\\u{A}again' holds the control character U+000A"), "\(refused.stderr)")
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM results WHERE test_id IS NOT NULL"]).stdout == "n\n0\n")
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM runs"]).stdout == "n\n5\n")

        let good = try folder.write("good.xml", junit(3_000))
        try run(["ingest", good, "--simulator", "iPhone Duo", "--os", "iOS 27.1"])
        // One row per case; the 100 of Suite7 (test700 to test799) map to the claim.
        let rows = try run(["query", "--format", "csv", """
            SELECT count(*) AS n, count(DISTINCT uuid) AS uuids, count(claim_id) AS mapped FROM results WHERE test_id IS NOT NULL
            """]).stdout
        #expect(rows == "n,uuids,mapped\n3000,3000,100\n", "\(rows)")
        // Recorded in the file's order, a microsecond apart.
        let order = try run(["query", "--format", "csv", """
            SELECT count(*) AS n FROM results AS a JOIN results AS b ON b.id = a.id + 1
            WHERE a.test_id IS NOT NULL AND b.test_id IS NOT NULL AND b.recorded_at <= a.recorded_at
            """]).stdout
        #expect(order == "n\n0\n")
    }

    @Test func badFilesExitWithTheirCodeAndWriteNothing() throws {
        let doctype = try folder.write("bad.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE x>\n<testsuites/>\n")
        let rejected = try run(["ingest", doctype, "--simulator", "iPhone Duo"], expect: 65)
        #expect(rejected.stderr == "Error: \(doctype):2: the file has a <!DOCTYPE declaration; result files with DTDs or entities are refused\n")
        try run(["ingest", folder.path("missing.xml"), "--simulator", "iPhone Duo"], expect: 66)
        try run(["ingest", Fixtures.apple("junit-swiftpm-1.xml").path, "--format", "xml"], expect: 64)
        let noDevice = try run(["ingest", Fixtures.apple("junit-swiftpm-1.xml").path], expect: 65)
        #expect(noDevice.stderr.contains("pass --simulator MODEL or --device MODEL"))
        #expect(try run(["query", "--format", "csv", "SELECT count(*) AS n FROM ingested_files"]).stdout == "n\n0\n")
    }
}
