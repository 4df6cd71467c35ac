import Foundation
import Testing

@testable import EvidenceStore

/// Renders into a string through a real file sink.
func rendered(_ folder: TemporaryFolder, _ body: (TextSink) throws -> Void) throws -> String {
    let path = folder.path("render-\(UUID().uuidString).md")
    let sink = try TextSink(path: path)
    try body(sink)
    try sink.close()
    return try String(contentsOfFile: path, encoding: .utf8)
}

@Suite struct ReportGoldenTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try StoreImporter(store: fixture.store).run(BundledSeed())
    }

    func render(_ body: (TextSink) throws -> Void) throws -> String {
        try rendered(fixture.folder, body)
    }

    /// Update mode rewrites golden files, except where CI is set: there it fails.
    @Test func updatingGoldenFilesIsRefusedInCI() throws {
        #expect(try Golden.updating(environment: ["EVIDENCE_UPDATE_GOLDEN": "1"]))
        #expect(try !Golden.updating(environment: ["CI": "true"]))
        #expect(try Golden.updating(environment: ["EVIDENCE_UPDATE_GOLDEN": "1", "CI": "false"]))
        for ci in ["true", "1", "yes", "github-actions"] {
            #expect(throws: Golden.UpdateRefused.self) { try Golden.updating(environment: ["EVIDENCE_UPDATE_GOLDEN": "1", "CI": ci]) }
        }
    }

    @Test func theEvidenceReportOfTheSeed() throws {
        let report = try render { try Reports.markdown(.report, of: store, into: $0) }
        try Golden.check(report, against: "report-seed.md")
        #expect(try render { try Reports.markdown(.report, of: store, into: $0) } == report, "the same store gives the same bytes")
    }

    @Test func theReportOfOneDocument() throws {
        let report = try render {
            try Reports.markdown(.report, of: store, options: .init(document: "shell-by-window-width"), into: $0)
        }
        try Golden.check(report, against: "report-shell-by-window-width.md")
        #expect(!report.contains("duo-system-surfaces"))
    }

    @Test func theChecklistOfTheSeed() throws {
        try Golden.check(try render { try Reports.markdown(.checklist, of: store, into: $0) }, against: "checklist-seed.md")
    }

    @Test func theSourceListOfTheSeed() throws {
        try Golden.check(try render { try Reports.markdown(.sources, of: store, into: $0) }, against: "sources-seed.md")
    }

    @Test func theListingsOfTheSeed() throws {
        try Golden.check(try Tabular(store.reader.untestedList()).render(.table), against: "untested-seed.txt")
        try Golden.check(try Tabular(store.reader.untestedList(needsDevice: true)).render(.json), against: "untested-needs-device-seed.json")
        try Golden.check(try Tabular(store.reader.stateCounts()).render(.csv), against: "status-seed.csv")
    }

    /// A table fits a terminal's width: the widest columns cut first, the
    /// first kept whole while the others can make the room, no column under
    /// 8 characters; each cut cell ends in "…".
    @Test func aTableFitsTheWidthItIsGiven() throws {
        #expect(TableRenderer.fitted([10, 12], into: 80) == [10, 12])
        let wide = TableRenderer.fitted([40, 12, 22, 20, 20, 200], into: 160)
        #expect(wide[0] == 40 && wide.reduce(0, +) + 10 <= 160 && wide[5] < 200 && wide[1] == 12, "\(wide)")
        let narrow = TableRenderer.fitted([40, 12, 22, 20, 20, 200], into: 80)
        #expect(narrow.allSatisfy { $0 >= 8 } && narrow.reduce(0, +) + 10 <= 80, "\(narrow)")
        let table = Tabular(columns: ["key", "statement"], rows: [[.text("a.key"), .text(String(repeating: "word ", count: 30))]])
        let lines = table.render(.table, width: 40).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 } && lines[2].hasPrefix("a.key") && lines[2].hasSuffix("…"), "\(lines)")
        #expect(table.render(.csv, width: 40).contains(String(repeating: "word ", count: 30)))
    }

    @Test func theVerifiedLinesMatchTheDocuments() throws {
        // The line duo-system-surfaces carries in its front matter.
        #expect(try store.verifiedLine(document: "duo-system-surfaces") == "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no")
        // The other two were checked on iPhone Duo with Xcode 27.1 RC, or with
        // no Xcode recorded; the store holds Xcode 27.1 (27A9275) for that
        // simulator since, so their Duo claims are stale and no longer count.
        // The shell article's iPad and Pro Max claims are verified on their
        // own models, each named.
        #expect(
            try store.verifiedLine(document: "shell-by-window-width")
                == "iPad Pro 13: Xcode 27.1 RC, iPadOS 27 simulator; iPhone 18 Pro Max: Xcode 27.1 RC, iOS simulator; device: no")
        #expect(try store.verifiedLine(document: "everything-that-breaks") == "simulator: no, device: no")
    }

    @Test func aStampIsPrintedOnlyWhenAskedFor() throws {
        let plain = try render { try Reports.markdown(.report, of: store, into: $0) }
        #expect(!plain.contains("Generated"))
        let stamped = try render {
            try Reports.markdown(.report, of: store, options: .init(stamp: "2026-11-29T10:00:00Z"), into: $0)
        }
        #expect(stamped.contains("Generated 2026-11-29T10:00:00Z.\n"))
    }

    @Test func anUnknownDocumentSuggestsTheClosest() throws {
        #expect(throws: EvidenceError.notFound(kind: "document", value: "duo-system-surface", suggestions: ["duo-system-surfaces"])) {
            _ = try render { try Reports.markdown(.report, of: store, options: .init(document: "duo-system-surface"), into: $0) }
        }
    }

    func syntheticStore() throws -> Store {
        let folder = fixture.folder.url.appendingPathComponent("synthetic")
        try SyntheticExport.write(to: folder, claims: 300, runs: 120, results: 6_000)
        let other = try Store.initialize(at: fixture.folder.path("synthetic.sqlite")).0
        try StoreImporter(store: other).run(try FolderRecordFiles(folder: folder))
        return other
    }

    @Test func theStreamedRunLogHoldsEveryRunAndResultInOrder() throws {
        let other = try syntheticStore()
        var every = Reports.Options()
        every.runs = nil
        let report = try render { try Reports.markdown(.report, of: other, options: every, into: $0) }
        for _ in 0..<3 {
            #expect(try render { try Reports.markdown(.report, of: other, options: every, into: $0) } == report)
        }
        func runLog(_ report: String) throws -> String {
            try #require(report.components(separatedBy: "\n## Run log\n").last?.components(separatedBy: "\n## Still needs a device\n").first)
        }
        let all = try runLog(report)
        let headings = all.split(separator: "\n").filter { $0.hasPrefix("### Run ") }
        #expect(headings.count == 120)
        // "### Run 00000000, 2026-10-28, iPhone Duo simulator, iOS 27.1 (24B85)": newest first, each naming its setup.
        let dates = headings.map { $0.split(separator: ",").dropFirst().first.map(String.init) ?? "" }
        #expect(dates == dates.sorted(by: >), "runs newest first")
        #expect(headings.allSatisfy { $0.contains(" simulator, ") || $0.contains(" device, ") }, "\(headings.prefix(2))")
        #expect(all.split(separator: "\n").filter { $0.hasPrefix("| synthetic.claim-") }.count == 6_000)
        #expect(!all.contains("left out"))

        // By default the newest 20, newest first, and a sentence says what was left out and where it is.
        let newest = try runLog(try render { try Reports.markdown(.report, of: other, into: $0) })
        let shown = newest.split(separator: "\n").filter { $0.hasPrefix("### Run ") }
        #expect(shown.map(String.init) == headings.prefix(20).map(String.init))
        #expect(newest.contains("The newest 20 runs, newest first; 100 older runs left out: evidence run list lists every run"))
        #expect(newest.split(separator: "\n").filter { $0.hasPrefix("| synthetic.claim-") }.count == 1_000)
    }

    @Test func aRoundTrippedStoreGivesTheSameReport() throws {
        let folder = fixture.folder.url.appendingPathComponent("export")
        _ = try StoreExporter.export(store, to: folder)
        let other = try Store.initialize(at: fixture.folder.path("other.sqlite")).0
        try StoreImporter(store: other).run(try FolderRecordFiles(folder: folder))
        let first = try render { try Reports.markdown(.report, of: store, into: $0) }
        let second = try render { try Reports.markdown(.report, of: other, into: $0) }
        #expect(first == second)
    }
}

@Suite struct MarkdownEscapingTests {
    @Test func everySpecialCharacterIsEscapedBackslashFirst() {
        #expect(Markdown.escape(#"a\b"#) == #"a\\b"#)
        #expect(Markdown.escape("a | b") == #"a \| b"#)
        #expect(Markdown.escape("`code` *em* _em_ ~~del~~") == #"\`code\` \*em\* \_em\_ \~\~del\~\~"#)
        #expect(Markdown.escape("[link](https://x.y)") == #"\[link\](https\://x.y)"#)
        #expect(Markdown.escape("<script>&amp;</script>") == #"\<script\>\&amp;\</script\>"#)
        #expect(Markdown.escape("see www.example.com") == #"see www\.example.com"#)
        #expect(Markdown.escape("mail a@b.c") == "mail a\u{2060}@b.c")
    }

    @Test func lineBreaksBecomeSpacesAndControlsGo() {
        #expect(Markdown.escape("one\ntwo\r\nthree\rfour") == "one two three four")
        #expect(Markdown.escape("tab\there\u{0}\u{7}\u{1B}[31m") == #"tab herered"#.replacingOccurrences(of: "red", with: "\\[31m"))
        #expect(Markdown.escape("abc\u{202E}def") == "abcdef")
    }

    @Test func linkDestinationsCannotEndEarlyOrBreakATable() {
        #expect(Markdown.link("a]b", to: "https://x.y/p(1)|q<r> s") == #"[a\]b](https://x.y/p%281%29%7Cq%3Cr%3E%20s)"#)
        #expect(Markdown.link("t", to: "https://x.y/?time=94#StandBy") == "[t](https://x.y/?time=94#StandBy)")
    }

    /// Values that try to break out of their cell, add rows, or bring in HTML,
    /// links, code or emphasis: rendered by cmark-gfm, every table keeps its
    /// shape, every value reads back as the text it was, and no tag appears
    /// that the report did not write itself.
    @Test(.enabled(if: ExternalTool.cmark.shouldRun)) func hostileValuesRenderAsInertText() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let hostile = "pipe | here\n| injected | row |\n<img src=x onerror=alert(1)> [link](javascript:alert(1)) `tick` **bold** https://evil.example www.evil.example a@b.example &amp; ~~gone~~ \\| end"
        try store.addSource(SourceDraft(url: "https://example.com/a|b(c)", title: "Title | with break] <b>", publisher: "P|Q", kind: .doc))
        try store.addClaim(
            ClaimDraft(key: "hostile.one", statement: hostile, document: "doc|x", area: "area ## heading", label: .measured,
                sources: ["https://example.com/a|b(c)"]), by: "w")
        // One-line values with line breaks, as an older version or a hand edit left them (every writer refuses them now).
        try store.database.execute("UPDATE sources SET title = 'Title | with' || char(10) || 'break] <b>'")
        try store.database.execute("UPDATE claims SET area = 'area' || char(10) || '## heading' WHERE key = 'hostile.one'")
        try store.log(
            Observation(claimKey: "hostile.one", outcome: .pass, note: hostile, checkedAt: "2026-10-20"),
            run: .matching(StoreFixture.duoSimulator, tester: "eve|<b>"))
        let report = try rendered(fixture.folder) { try Reports.markdown(.report, of: store, into: $0) }
        let html = try CommonMark.html(report)

        for table in CommonMark.tables(html) {
            #expect(table.rows.allSatisfy { $0 == table.headerCells }, "every row has as many cells as its header")
        }
        let claimTable = try #require(CommonMark.tables(html).first { $0.cellTexts.first?.first == "hostile.one" })
        #expect(claimTable.rows.count == 1)
        let oneLine = hostile.replacingOccurrences(of: "\n", with: " ")
        // The statement's well-formed code span stays code; the note has none.
        #expect(CommonMark.text(claimTable.cellTexts[0][1]) == oneLine.replacingOccurrences(of: "`tick`", with: "<code>tick</code>"))
        let runTable = try #require(CommonMark.tables(html).first { $0.headerCells == 5 })
        #expect(runTable.rows.count == 1)
        #expect(CommonMark.text(runTable.cellTexts[0][3]) == oneLine)

        let tags = CommonMark.tagCounts(html)
        #expect(Set(tags.keys).isSubset(of: ["h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "a", "ul", "li", "code"]), "\(tags.keys.sorted())")
        #expect(tags["code"] == 1, "the statement's one code span")
        for tag in ["img", "em", "strong", "del", "script", "b", "br"] {
            #expect(tags[tag] == nil, "no <\(tag)> may come from a value")
        }
        // The only link is the one the report makes for the source.
        #expect(tags["a"] == 1)
        #expect(html.contains("<a href=\"https://example.com/a%7Cb%28c%29\">Title | with break] &lt;b&gt;</a>"))
        #expect(!html.contains("<h2>heading"))
    }
}
