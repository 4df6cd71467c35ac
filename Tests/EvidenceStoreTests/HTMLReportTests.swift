import Foundation
import Testing

@testable import EvidenceStore

/// The HTML report through the binary: byte-stable on the seed store, inert
/// whatever the values hold, honest about every attached file, and checked in
/// a real browser (headless Chromium) with JavaScript on and off, network
/// requests sent nowhere, in light, dark and at a phone's width.
@Suite struct HTMLReportTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "lead"

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    /// A PNG of one pixel.
    static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==") ?? Data()

    @Test func theSeedReportIsByteStableAndTheSameInAFile() throws {
        let printed = try run(["report", "--format", "html"]).stdout
        try Golden.check(printed, against: "report-seed.html")
        try run(["report", "--format", "html", "--output", "evidence.html"])
        #expect(try String(contentsOfFile: folder.path("evidence.html"), encoding: .utf8) == printed)
        // The same content as the Markdown report: every claim has its row and anchor, every run its heading.
        let tree = try HTMLTree(printed)
        let keys = try run(["query", "SELECT key FROM claims ORDER BY key", "--format", "csv"]).stdout
            .split(separator: "\n").dropFirst().map(String.init)
        #expect(Set(tree.all("//tr[starts-with(@id, 'claim-')]").compactMap { $0.attribute("id") }) == Set(keys.map { "claim-" + $0 }))
        let runs = try run(["query", "SELECT count(*) FROM runs", "--format", "csv"]).stdout.split(separator: "\n").last.flatMap { Int($0) }
        #expect(tree.count("//h3[starts-with(@id, 'run-')]") == runs)
        #expect(tree.count("//script") == 1)
        // No picture, script or style comes from elsewhere.
        for node in tree.all("//*[@src]") { #expect(node.attribute("src")?.hasPrefix("data:") == true) }
        for node in tree.all("//a[@href]") {
            let href = node.attribute("href") ?? ""
            #expect(href.hasPrefix("#") || href.hasPrefix("https://") || href.hasPrefix("http://"), "\(href)")
        }
        // Checklists and source lists are pages too, with no script.
        let checklist = try HTMLTree(try run(["checklist", "--format", "html", "--document", "duo-system-surfaces"]).stdout)
        #expect(checklist.count("//li[contains(@class, 'task')]") > 0)
        #expect(checklist.count("//script") == 0)
        #expect(try HTMLTree(try run(["sources", "--format", "html"]).stdout).count("//a[starts-with(@href, 'https://developer.apple.com')]") > 0)
    }

    @Test func formatsAndImageOptionsAreCheckedAtTheCommandLine() throws {
        #expect(try run(["report", "--format", "pdf"], expect: 64).stderr.contains("'pdf'"))
        #expect(try run(["report", "--no-images"], expect: 64).stderr.contains("--no-images goes with --format html"))
        #expect(try run(["report", "--format", "html", "--output", "evidence.sqlite"], expect: 64).status == 64)
    }

    /// The Markdown tests' payloads, in every place a value reaches: no tag,
    /// attribute or link comes from a value.
    @Test func hostileValuesRenderAsInertText() throws {
        let hostile = "<script>alert(1)</script>\"><img src=x onerror=alert(1)> ' onmouseover='x' [a](javascript:alert(1)) &amp; <!-- x"
        try run(["source", "add", "https://example.com/a\"b<c>", "--title", hostile, "--publisher", "P<b>", "--kind", "doc"])
        try run([
            "claim", "add", "hostile.one", "--statement", hostile + " `code`", "--document", "doc\"<x>", "--area", "</th><script>",
            "--label", "sourced", "--source", "https://example.com/a\"b<c>",
        ])
        try run([
            "log", "hostile.one", "--result", "pass", "--simulator", "iPhone <Duo>", "--os", "iOS 27.1", "--xcode", "27.1", "--new-model", "--note", hostile,
            "--measure", "<b>name</b>=3pt from 1pt",
        ])
        let page = try run(["report", "--format", "html"]).stdout
        let tree = try HTMLTree(page)
        #expect(tree.count("//script") == 1, "only the report's own script")
        #expect(tree.count("//img") == 0 && tree.count("//b") == 0)
        for node in tree.all("//*") {
            for name in node.attributes.keys { #expect(!name.hasPrefix("on"), "\(node.name) has \(name)") }
        }
        for node in tree.all("//a[@href]") {
            let href = node.attribute("href") ?? ""
            #expect(href.hasPrefix("#") || href.hasPrefix("https://"), "\(href)")
        }
        let row = try #require(tree.all("//tr[@id='claim-hostile.one']").first)
        #expect(row.text.contains("<script>alert(1)</script>\"><img src=x onerror=alert(1)>"))
        #expect(tree.count("//tr[@id='claim-hostile.one']//code") == 1)
        #expect(tree.all("//figure[@data-measurement='<b>name</b>']").count == 1)
        #expect(tree.all("//tr[@data-claim='hostile.one']").first?.attribute("data-document") == "doc\"<x>")
    }

    /// Pictures are embedded; a HEIC, a file that is not a picture, a changed
    /// and a missing file are named with the reason; --no-images names them all.
    @Test func attachedFilesAreEmbeddedOrNamedWithTheReason() throws {
        let shots = folder.path("shots")
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        try Self.png.write(to: URL(fileURLWithPath: shots + "/closed.png"))
        try Self.png.write(to: URL(fileURLWithPath: shots + "/changed.png"))
        try Self.png.write(to: URL(fileURLWithPath: shots + "/missing.png"))
        try Data([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)).write(to: URL(fileURLWithPath: shots + "/open.heic"))
        try Data("log\n".utf8).write(to: URL(fileURLWithPath: shots + "/console.log"))
        try run([
            "log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275", "--posture", "closed",
            "--attach", "shots/closed.png", "--attach", "shots/open.heic", "--attach", "shots/console.log",
            "--attach", "shots/changed.png", "--attach", "shots/missing.png",
        ])
        try Data(Self.png.reversed()).write(to: URL(fileURLWithPath: shots + "/changed.png"))
        try FileManager.default.removeItem(atPath: shots + "/missing.png")

        let tree = try HTMLTree(try run(["report", "--format", "html"]).stdout)
        let images = tree.all("//div[@class='shots']//img")
        #expect(images.count == 1)
        #expect(images.first?.attribute("src") == "data:image/png;base64," + Self.png.base64EncodedString())
        let cells = tree.all("//div[@class='shots']/figure").map(\.text)
        #expect(cells.count == 5)
        #expect(cells.contains { $0.contains("shots/open.heic") && $0.contains("HEIC, which browsers do not all show") })
        #expect(cells.contains { $0.contains("shots/console.log") && $0.contains("not an image") })
        #expect(cells.contains { $0.contains("shots/changed.png") && $0.contains("the file changed since it was attached") })
        #expect(cells.contains { $0.contains("shots/missing.png") && $0.contains("the file is missing") })

        let bare = try HTMLTree(try run(["report", "--format", "html", "--no-images"]).stdout)
        #expect(bare.count("//img") == 0)
        #expect(bare.all("//div[@class='shots']/figure").filter { $0.text.contains("left out (--no-images)") }.count == 5)
    }

    /// A stale pass, a failure, a skipped-only and a retracted-only cell, and
    /// an environment that lacks a capability the claim needs, each with its symbol.
    @Test func theCoverageMatrixMarksEveryKindOfCell() throws {
        let newer = ["--simulator", "iPhone Duo", "--os", "iOS 27.2", "--os-build", "24A100", "--xcode", "27.2"]
        try run(["log", "bars.other-app-activity", "--result", "skipped"] + newer)
        try run(["log", "bars.share-column.overflow", "--result", "fail"] + newer)
        try run(["log", "deep-links.closed-and-open", "--result", "pass"] + newer)
        let retractable = try run(["query", "SELECT r.uuid FROM results r JOIN claims c ON c.id = r.claim_id WHERE c.key = 'deep-links.closed-and-open'", "--format", "csv"]).stdout
            .split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        try run(["result", "retract", retractable, "--reason", "wrong build"])
        let tree = try HTMLTree(try run(["report", "--format", "html"]).stdout)
        // The every-build matrix, where older builds have their columns.
        let matrix = "//details[@class='older']//table[@class='matrix']"
        func cell(_ claim: String, column: Int) -> HTMLTree.Node? {
            tree.all("\(matrix)/tbody/tr[@data-claim='\(claim)']/td[\(column)]").first
        }
        // Each column's build, whole in its header's title.
        let columns = tree.all("\(matrix)/thead/tr/th[contains(concat(' ', @class, ' '), ' env ')]").map { $0.attribute("title") ?? "" }
        let newest = try #require(columns.firstIndex { $0.contains("iOS 27.2") }) + 1
        let older = try #require(columns.firstIndex { $0.contains("iOS 27.1") && $0.contains("27A9275") }) + 1
        #expect(newest < older, "newest environments first")
        #expect(cell("bars.other-app-activity", column: newest)?.text == "○")
        #expect(cell("bars.share-column.overflow", column: newest)?.text == "✗")
        #expect(cell("deep-links.closed-and-open", column: newest)?.text == "⊖")
        #expect(cell("island.clock-offset.closed", column: older)?.text == "✓◷", "passed on an older build of its model")
        #expect(cell("controls.control-center-lock-screen", column: older)?.attribute("class")?.contains("m-lacks") == true)
        #expect(cell("bars.other-app-activity", column: older)?.text == "·")
    }

    /// Two claims that share a measurement's name: each has its own line with
    /// every build it was measured on, its own expected band, and a judged
    /// fail crossed out; the table under the chart says the same.
    @Test func eachChartLineIsOneClaimsWithAllItsPoints() throws {
        for key in ["chart.first", "chart.second"] {
            try run(["claim", "add", key, "--document", "chart-guide", "--area", "Charts", "--label", "measured",
                     "--statement", "The clock of \(key) sits where it should."])
        }
        try run(["claim", "expect", "chart.first", "chart clock y=171pt ±2pt"])
        try run(["claim", "expect", "chart.second", "chart clock y=128pt ±2pt"])
        let builds = [("iOS 27.0", "24A100"), ("iOS 27.1", "24B85"), ("iOS 27.2", "24C50")]
        for (index, (os, build)) in builds.enumerated() {
            let environment = ["--simulator", "iPhone Duo", "--os", os, "--os-build", build, "--xcode", "27.1", "--xcode-build", "27A9275",
                               "--no-detect", "--date", "2026-11-0\(index + 1)", "--posture", "closed"]
            try run(["log", "chart.first", "--measure", "chart clock y=\(170 + index)pt"] + environment)
            // The newest of the second claim's values is outside its band: judged a fail.
            try run(["log", "chart.second", "--measure", "chart clock y=\(index == 2 ? 140 : 127 + index)pt"] + environment)
        }
        let tree = try HTMLTree(try run(["report", "--format", "html"]).stdout)
        let chart = "//figure[@data-measurement='chart clock y']"
        for (key, values) in [("chart.first", ["170", "171", "172"]), ("chart.second", ["127", "128", "140"])] {
            let points = tree.all("\(chart)//*[@class='series' or starts-with(@class, 'series ')][@data-claim='\(key)']//*[@data-value]")
            #expect(points.compactMap { $0.attribute("data-value") } == values, "\(key): one line with every build's value")
            #expect(tree.count("\(chart)//*[starts-with(@class, 'expected')][@data-claim='\(key)']") == 1, "\(key): its own band")
        }
        #expect(tree.count("\(chart)//*[starts-with(@class, 'series ')]") == 2, "one line per claim")
        let results = tree.all("\(chart)//*[@data-claim='chart.second']//*[@data-value]").map { $0.attribute("data-result") ?? "" }
        #expect(results == ["pass", "pass", "fail"])
        #expect(tree.count("\(chart)//*[@data-claim='chart.second']//*[@class='fail-mark']") == 1)
        #expect(tree.count("\(chart)//*[@data-claim='chart.first']//*[@class='fail-mark']") == 0)
        let rows = tree.all("\(chart)//table/tbody/tr").map { row in row.children.map(\.text).joined(separator: " | ") }
        #expect(rows.count == 6)
        #expect(rows.contains { $0.hasPrefix("chart.second | iPhone Duo simulator, closed | 24C50") && $0.contains("| fail |") }, "\(rows)")
        #expect(rows.filter { $0.contains("| fail |") }.count == 1, "\(rows)")
    }

    /// A measurement shared by many claims draws a bounded number of lines,
    /// every line with a failed point among them, and says how many it left.
    @Test func aCrowdedChartDrawsTheFailuresFirstAndSaysWhatItLeft() throws {
        let keys = (0..<14).map { String(format: "crowd.%02d", $0) }
        for key in keys {
            try run(["claim", "add", key, "--document", "crowd-guide", "--area", "Crowd", "--label", "measured",
                     "--statement", "The value of \(key) is 10 pt."])
            try run(["claim", "expect", key, "crowd y=10pt ±1pt"])
            // The last two claims' values are outside their bands: judged fails.
            let value = key >= "crowd.12" ? 20 : 10
            try run(["log", key, "--measure", "crowd y=\(value)pt", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
                     "--os-build", "24B85", "--xcode", "27.1", "--xcode-build", "27A9275", "--no-detect", "--date", "2026-11-02"])
        }
        let html = try run(["report", "--format", "html"]).stdout
        let tree = try HTMLTree(html)
        let drawn = tree.all("//figure[@data-measurement='crowd y']//*[starts-with(@class, 'series ')]").compactMap { $0.attribute("data-claim") }
        #expect(drawn == Array(keys.prefix(10)) + ["crowd.12", "crowd.13"], "\(drawn)")
        #expect(drawn.count == MeasurementTrend.drawnLines)
        #expect(html.contains("12 of 14 lines drawn, the 2 lines with a failed result among them"))
    }

    // MARK: - In a browser

    @Test(.enabled(if: Chromium.shouldRun)) func aBrowserShowsTheMatrixCountsAndTrendsWithAndWithoutJavaScript() throws {
        let browser = try Chromium(folder: folder)
        try run(["report", "--format", "html", "--output", "evidence.html"])
        let file = folder.path("evidence.html")
        let claims = try run(["query", "SELECT count(*) AS n FROM claims", "--format", "csv"]).stdout
            .split(separator: "\n").last.flatMap { Int($0) }
        let status = try JSONSerialization.jsonObject(with: Data(try run(["status", "--format", "json"]).stdout.utf8)) as? [[String: Any]] ?? []
        for javascript in [true, false] {
            let page = try browser.dumpDOM(file, javascript: javascript)
            #expect(page.console.isEmpty, "console: \(page.console)")
            let tree = try HTMLTree(page.output)
            // The current builds' matrix; every build's is the same below, folded.
            let rows = tree.all("(//table[@class='matrix'])[1]/tbody/tr[@data-claim]")
            #expect(rows.count == claims, "one matrix row per claim")
            let environments = tree.count("(//table[@class='matrix'])[1]/thead/tr/th[contains(concat(' ', @class, ' '), ' env ')]")
            #expect(environments > 0)
            #expect(tree.count("//details[@class='older']//table[@class='matrix']") == 1)
            #expect(rows.allSatisfy { $0.children.filter { $0.name == "td" }.count == environments }, "a cell per environment")
            for figure in tree.all("//figure[@class='bar']") {
                let document = figure.attribute("data-document") ?? ""
                for item in tree.all("//figure[@class='bar'][@data-document='\(document)']//li[@data-state]") {
                    let state = item.attribute("data-state") ?? ""
                    // At a glance counts QA's work, as the Summary and untested do: not-published claims apart.
                    let expected = status.filter {
                        $0["document"] as? String == document && $0["state"] as? String == state && $0["label"] as? String != "not-published"
                    }
                        .reduce(0) { $0 + (($1["claims"] as? Int) ?? 0) }
                    #expect(item.children.last?.text == String(expected), "\(document) \(state)")
                }
            }
            let points = tree.all("//figure[@data-measurement='status-bar clock y']//*[contains(@class, 'point') and @data-value]")
                .map { "\($0.attribute("data-baseline") ?? "none") → \($0.attribute("data-value") ?? "")" }
            #expect(Set(points) == ["87 → 171", "34 → 128"], "\(points)")
            let filters = try #require(tree.all("//form[@id='filters']").first)
            #expect((filters.attribute("hidden") == nil) == javascript, "the filters show only with JavaScript")
            if javascript {
                #expect(filters.text.contains("\(claims ?? 0) of \(claims ?? 0) claims shown"))
            }
        }
    }

    /// The report in a browser with a filter in its address: the page, the matrix's rows, and those shown.
    private func filtered(_ fragment: String) throws -> (tree: HTMLTree, rows: [HTMLTree.Node], shown: [HTMLTree.Node]) {
        let browser = try Chromium(folder: folder)
        try run(["report", "--format", "html", "--output", "evidence.html"])
        let page = try browser.dumpDOM(folder.path("evidence.html"), fragment: fragment)
        #expect(page.console.isEmpty, "console: \(page.console)")
        let tree = try HTMLTree(page.output)
        let rows = tree.all("(//table[@class='matrix'])[1]/tbody/tr[@data-claim]")
        let shown = rows.filter { $0.attribute("hidden") == nil }
        #expect(!shown.isEmpty && shown.count < rows.count)
        return (tree, rows, shown)
    }

    @Test(.enabled(if: Chromium.shouldRun)) func aFilterInTheAddressHidesTheOtherClaims() throws {
        let (tree, rows, shown) = try filtered("filter?state=needs-device&doc=duo-system-surfaces")
        #expect(shown.allSatisfy { $0.attribute("data-state") == "needs-device" && $0.attribute("data-document") == "duo-system-surfaces" })
        // The claims' own rows follow the matrix.
        for row in rows {
            let detail = tree.all("//tr[@id='claim-\(row.attribute("data-anchor") ?? "")']").first
            #expect((detail?.attribute("hidden") == nil) == (row.attribute("hidden") == nil))
        }
    }

    /// A malformed escape in the address is passed over; the rest of the
    /// filter applies and the script runs on.
    @Test(.enabled(if: Chromium.shouldRun)) func aMalformedFilterAddressStopsNothing() throws {
        let (tree, rows, shown) = try filtered("filter?state=%E0%A4%A&doc=duo-system-surfaces&%ZZ=1")
        #expect(shown.allSatisfy { $0.attribute("data-document") == "duo-system-surfaces" })
        let filters = try #require(tree.all("//form[@id='filters']").first)
        #expect(filters.attribute("hidden") == nil && filters.text.contains("\(shown.count) of \(rows.count) claims shown"))
    }

    @Test(.enabled(if: Chromium.shouldRun)) func screenshotsInLightDarkAndAtAPhonesWidth() throws {
        let browser = try Chromium(folder: folder)
        try run(["report", "--format", "html", "--output", "evidence.html"])
        var shots: [String: Data] = [:]
        for (name, width, dark) in [("light", 1280, false), ("dark", 1280, true), ("phone", 390, false)] {
            let png = folder.path("\(name).png")
            let page = try browser.screenshot(folder.path("evidence.html"), to: png, width: width, height: 900, dark: dark)
            #expect(page.console.isEmpty, "console: \(page.console)")
            let data = try Data(contentsOf: URL(fileURLWithPath: png))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name) is a PNG")
            // The width, from the PNG's header.
            #expect(data.count > 24 && data[16..<20].reduce(0) { $0 << 8 | Int($1) } == width, "\(name)")
            shots[name] = data
        }
        #expect(shots["light"] != shots["dark"], "dark mode changes the page")
    }
}

/// HTML escaping on its own: markup characters become references, controls
/// and the characters that reorder text go, and other text stays as it is.
@Suite struct HTMLEscapingTests {
    @Test func markupControlsAndInvisibleCharacters() {
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTML.escape("tab\there\nline\r") == "tab here line ")
        #expect(HTML.escape("bell\u{7}, nul\u{0}, del\u{7F}, c1\u{85}\u{9B}.") == "bell, nul, del, c1.")
        #expect(HTML.escape("\u{202E}evil\u{202C} \u{2066}iso\u{2069} \u{200F}") == "evil iso ")
        #expect(HTML.escape("para\u{2029}line\u{2028}end") == "para line end")
        #expect(HTML.escape("87 pt → 171 pt (Δ +84 pt) — “quoted” é \u{2014}\u{2011}") == "87 pt → 171 pt (Δ +84 pt) — “quoted” é —‑")
        #expect(HTML.escape("") == "")
    }

    @Test func onlyWebAndInPageLinksAreKept() {
        #expect(HTML.href("https://developer.apple.com/a b") == "https://developer.apple.com/a%20b")
        #expect(HTML.href("#claim-x") == "#claim-x")
        #expect(HTML.href("http://example.com/?a=1&b=\"2\"") == "http://example.com/?a=1&amp;b=%222%22")
        for url in ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "file:///etc/passwd", "relative/path", "//evil.example"] {
            #expect(HTML.href(url) == nil, "\(url)")
        }
        #expect(HTML.anchor("claim.one two/<x>") == "claim.one%20two%2F%3Cx%3E")
    }
}
