import Foundation
import Testing

@testable import EvidenceStore

/// Values that reach the store are checked in one place, whichever command
/// brings them; what an older version let in is found by `check` and still
/// drawn by every report. Through the binary.
@Suite struct StoreValuesEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    private func sql(_ statement: String) throws {
        let database = try Database(path: store, mode: .readWrite)
        defer { database.close() }
        try database.execute(statement)
    }

    // MARK: - Finding 4: numbers every report can draw

    /// A store written before the range was kept (or edited by hand) holding
    /// 1e16, ±1e308 or equal values: the HTML and Markdown reports are made,
    /// quickly, and `check` names the numbers.
    @Test func reportsDrawHugeAndEqualValuesAndCheckNamesThem() throws {
        let cases: [(String, String)] = [
            ("1e16", "UPDATE measurements SET value = 1e16"),
            ("±1e308", "UPDATE measurements SET value = CASE WHEN id % 2 = 0 THEN 1e308 ELSE -1e308 END, baseline = CASE WHEN baseline IS NULL THEN NULL ELSE -1e308 END"),
            ("equal", "UPDATE measurements SET value = 42, baseline = CASE WHEN baseline IS NULL THEN NULL ELSE 42 END"),
            ("tiny range", "UPDATE measurements SET value = 1 + id * 1e-15, baseline = NULL"),
        ]
        for (name, update) in cases {
            try sql(update)
            let start = Date()
            let html = try run(["report", "--format", "html", "--output", "report.html"])
            let seconds = Date().timeIntervalSince(start)
            #expect(html.status == 0 && seconds < 10, "\(name): \(seconds) s")
            let page = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
            #expect(page.contains("class=\"trend\""), "\(name)")
            for word in ["\"nan\"", ">nan<", "NaN", "\"inf\"", "\"-inf\"", ">inf<"] { #expect(!page.contains(word), "\(name): \(word)") }
            let markdown = try run(["report"])
            #expect(!markdown.stdout.contains("e+"), "\(name): no number is written with an exponent")
            let outOfRange = name == "1e16" || name == "±1e308"
            let check = try run(["check"], expect: outOfRange ? 1 : 0)
            if outOfRange {
                #expect(check.stdout.contains("FAIL  numbers") && check.stdout.contains("measurements.value"), "\(check.stdout)")
            }
        }
    }

    @Test func aNumberOutsideTheRangeIsRefusedNamingIt() throws {
        let before = try fileDigest(store)
        let logged = try run(
            ["log", "bars.other-app-activity", "--result", "pass", "--measure", "offset=10000000000000000pt"]
                + HardeningEndToEndTests.duo, expect: 64)
        #expect(logged.stderr.contains("value 10000000000000000 is outside the range a measurement may hold"), "\(logged.stderr)")
        let tiny = try run(
            ["log", "bars.other-app-activity", "--result", "pass", "--measure", "offset=0.0000000001pt"] + HardeningEndToEndTests.duo,
            expect: 64)
        #expect(tiny.stderr.contains("value 0.0000000001 is outside the range"), "\(tiny.stderr)")
        let expectation = try run(["claim", "expect", "bars.other-app-activity", "offset=1000000000000001pt ±1pt"], expect: 64)
        #expect(expectation.stderr.contains("outside the range"), "\(expectation.stderr)")
        #expect(try fileDigest(store) == before)
        // The ends of the range are kept and printed in plain digits.
        try run(["log", "bars.other-app-activity", "--result", "pass", "--measure", "offset=1000000000000000pt from -1000000000000000pt"] + HardeningEndToEndTests.duo)
        #expect(try run(["report"]).stdout.contains("-1000000000000000 pt → 1000000000000000 pt (Δ +2000000000000000 pt)"))
    }

    @Test func numbersAreNeverWrittenWithAnExponent() {
        #expect(NumberText.format(1e23) == "100000000000000000000000")
        #expect(NumberText.format(Double(1 << 53) + 2) == "9007199254740994")
        #expect(NumberText.format(1.5e-7) == "0.00000015")
        #expect(NumberText.format(-2.5e-10) == "-0.00000000025")
        #expect(NumberText.format(171.5) == "171.5")
        #expect(NumberText.format(-84) == "-84")
        #expect(NumberText.format(1e15) == "1000000000000000")
        #expect(NumberText.format(.infinity) == "inf")
    }

    @Test func chartScalesHoldForAnyFiniteValues() {
        let cases: [[Double]] = [[1e16], [1e308, -1e308], [5, 5, 5], [1, 1 + 2e-16], [0], [], [-1e-300, 1e-300], [.greatestFiniteMagnitude, 0]]
        for values in cases {
            let scale = TrendChart.Scale(values: values)
            #expect(scale.low < scale.high && scale.low.isFinite && scale.high.isFinite, "\(values)")
            #expect(!scale.ticks.isEmpty && scale.ticks.count <= 13 && scale.ticks.allSatisfy(\.isFinite), "\(values)")
            for value in values {
                let y = scale.y(value)
                #expect(y.isFinite && y >= 0 && y <= 260, "\(values): \(value) at \(y)")
            }
        }
        // Round steps where there is room for them.
        #expect(TrendChart.Scale(values: [87, 171]).ticks == [80, 100, 120, 140, 160, 180])
        // A small move is not flattened against zero: the axis fits the data.
        #expect(TrendChart.Scale(values: [169, 171, 173, 176]).ticks == [168, 170, 172, 174, 176])
    }

    // MARK: - Finding 5: control characters

    @Test func lintSyncRefusesControlCharactersAsEveryWriterDoes() throws {
        let escape = "\u{1B}[31m"
        let text = "---\nname: notes\n---\n# Area\(escape)\n\nA new claim\u{07} with a bell. <!-- evidence: notes.bell (unverified) -->\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("notes.md")))
        try run(["claim", "add", "notes.first", "--statement", "First.", "--document", "notes", "--new-document", "--area", "Notes", "--label", "unverified"])
        let before = try fileDigest(store)
        let refused = try run(["lint", "--sync", "notes.md"], expect: 64)
        #expect(refused.stderr.contains("U+0007"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("\u{07}") && !refused.stderr.contains("\u{1B}"))
        #expect(try fileDigest(store) == before)
        // An export still imports anywhere.
        try run(["export", "out"])
        try run(["init", "--store", "copy.sqlite"])
        try run(["import", "out", "--store", "copy.sqlite"])
    }

    @Test func checkFindsControlCharactersAlreadyInAStore() throws {
        try run(["check"])
        try sql("UPDATE claims SET area = area || char(27) || '[0m' WHERE key = 'bars.other-app-activity'")
        let check = try run(["check"], expect: 1)
        #expect(check.stdout.contains("FAIL  text") && check.stdout.contains("claims.area: 1 row holds a control character"), "\(check.stdout)")
        #expect(check.stdout.contains("\\u{1B}[0m") && !check.stdout.contains("\u{1B}"))
    }
}
