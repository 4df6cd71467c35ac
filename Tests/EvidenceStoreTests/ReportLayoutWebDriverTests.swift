import Foundation
import Testing


/// The HTML report of a lead's store after a year, laid out by Debian's
/// chromium through chromedriver at 1400 px: 30 environments (three models,
/// device and simulator, five OS builds), measurements with expectations,
/// screenshots on two builds. What a reader sees is measured in the page.
@Suite(.serialized) struct ReportLayoutWebDriverTests {
    /// The store and its report, made once for the suite: ninety results to log.
    final class Fixture: BinarySession, @unchecked Sendable {
        let folder: TemporaryFolder
        let store: String
        let user = "lead"
        let page: String

        init() throws {
            folder = try TemporaryFolder()
            store = folder.path("evidence.sqlite")
            page = folder.path("report.html")
            try run(["init"])
            try run(["seed"])
            try run(["claim", "expect", "island.clock-offset.closed", "status-bar clock y=171pt ±2pt"])
            // A tiny PNG, attached on two builds.
            let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!
            _ = try folder.write("shots/closed.png", png)
            for (index, build) in ReportLayoutWebDriverTests.builds.enumerated() {
                for model in ReportLayoutWebDriverTests.models {
                    for kind in ["--device", "--simulator"] {
                        let os = (model.hasPrefix("iPad") ? "iPadOS " : "iOS ") + build.0
                        let environment = [
                            kind, model, "--os", os, "--os-build", build.1, "--xcode", build.2, "--xcode-build", build.3, "--new-model",
                        ]
                        let date = String(format: "2026-%02d-10", 6 + index)
                        try run(["log", "bars.other-app-activity", "--result", index % 2 == 0 ? "pass" : "fail", "--date", date] + environment)
                        var measured = ["log", "island.clock-offset.closed", "--date", date, "--posture", "closed",
                                        "--measure", "status-bar clock y=\(171 + index)pt from 87pt"] + environment
                        if model == "iPhone Duo" && kind == "--simulator" && index >= 3 { measured += ["--attach", "shots/closed.png"] }
                        try run(measured)
                        try run(["log", "island.clock-offset.open-wide", "--result", "pass", "--date", date,
                                 "--measure", "status-bar clock y=\(128 + index)pt from 34pt"] + environment)
                    }
                }
            }
            try run(["claim", "edit", "standby.presentation", "--owner", "Ana"])
            try run(["report", "--format", "html", "--output", "report.html"])
        }
    }

    static let builds = [
        ("27.0", "23A300", "27.0", "27A5100"), ("27.0.1", "23A320", "27.0", "27A5100"), ("27.1", "23B85", "27.1", "27A9275"),
        ("27.2", "24C5050a", "27.2", "27C5032a"), ("27.2", "24C60", "27.2", "27C5040"),
    ]
    static let models = ["iPhone Duo", "iPhone 18 Pro Max", "iPad Pro 13"]
    nonisolated(unsafe) static var made: Result<Fixture, any Error>?
    static let lock = NSLock()

    let fixture: Fixture
    var folder: TemporaryFolder { fixture.folder }
    var page: String { fixture.page }

    init() throws {
        fixture = try Self.lock.withLock {
            if Self.made == nil { Self.made = Result { try Fixture() } }
            return try Self.made!.get()
        }
    }

    private func browser(width: Int = 1400) throws -> WebDriver {
        let driver = try WebDriver(folder: folder, width: width, height: 1000)
        try driver.open(page)
        return driver
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func thirtyEnvironmentsNeverScrollThePageSideways() throws {
        let driver = try browser()
        // Every build: the 30 made here and the seed's 5.
        #expect(try driver.number("return document.querySelectorAll('details.older table.matrix thead th.env').length") == 35)
        let pageScroll = "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        #expect(try driver.number(pageScroll) <= 0)
        // The every-build matrix open: still no sideways scroll of the page; the matrix scrolls in its box.
        _ = try driver.run("document.querySelector('details.older').open = true")
        #expect(try driver.number(pageScroll) <= 0)
        let box = "document.querySelector('details.older .matrix-box')"
        #expect(try driver.number("var b = \(box); return b.scrollWidth - b.clientWidth") > 0)
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func theClaimColumnAndHeaderStayInViewWhileTheMatrixScrolls() throws {
        let driver = try browser()
        _ = try driver.run("document.querySelector('details.older').open = true")
        let box = "document.querySelector('details.older .matrix-box')"
        _ = try driver.run("var b = \(box); b.scrollLeft = b.scrollWidth; b.scrollTop = 400;")
        let offsets = try #require(try driver.run(
            """
            var b = \(box), box = b.getBoundingClientRect();
            var row = b.querySelector('tbody tr[data-claim] th').getBoundingClientRect();
            var groups = b.querySelector('thead tr.groups th:not(.corner)').getBoundingClientRect();
            var head = b.querySelector('thead th.env').getBoundingClientRect();
            return [row.left - box.left, groups.top - box.top, head.top - groups.bottom, b.scrollLeft];
            """) as? [NSNumber])
        #expect(abs(offsets[0].doubleValue) <= 2, "claim column left of the box: \(offsets)")
        #expect(abs(offsets[1].doubleValue) <= 2, "group row at the top of the box: \(offsets)")
        #expect(abs(offsets[2].doubleValue) <= 2, "build row under the group row: \(offsets)")
        #expect(offsets[3].doubleValue > 0)
    }

    /// A column is as wide as what it shows (issue 43: 30 columns of ~165 px
    /// for one symbol each), its build whole in the header's title, and the
    /// page takes the window's width.
    @Test(.enabled(if: WebDriver.shouldRun)) func matrixColumnsAreAsWideAsTheirBuilds() throws {
        let driver = try browser()
        _ = try driver.run("document.querySelector('details.older').open = true")
        let widths = try #require(try driver.run(
            """
            return Array.prototype.map.call(document.querySelectorAll('details.older table.matrix thead th.env'), function (th) {
              return th.getBoundingClientRect().width;
            });
            """) as? [NSNumber])
        #expect(widths.count == 35)
        #expect(widths.map(\.doubleValue).max() ?? 0 <= 75, "column widths: \(widths)")
        let title = try driver.string("return document.querySelector('details.older thead th.env').getAttribute('title')")
        #expect(title.contains("build ") && title.contains("Xcode"), "the whole build in the title: \(title)")
        // Each group named once, over its columns: 6 groups of 5 builds, and the seed's.
        let spans = try #require(try driver.run(
            "return Array.prototype.map.call(document.querySelectorAll('details.older thead tr.groups th:not(.corner)'), function (th) { return th.colSpan; });")
            as? [NSNumber])
        #expect(spans.map(\.intValue).reduce(0, +) == 35 && spans.count == 6, "\(spans)")
        #expect(try driver.number("return document.querySelector('main').getBoundingClientRect().width") >= 1350)
    }

    /// On a phone (390 px) the claim column takes at most a third of the
    /// matrix's box, and results show beside it at every scroll position
    /// (issue 43: the column was as wide as the box, 373 of 374 px).
    @Test(.enabled(if: WebDriver.shouldRun)) func onAPhoneResultsShowBesideTheClaims() throws {
        let driver = try browser(width: 390)
        #expect(try driver.number("return document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0)
        for scroll in ["0", "b.scrollWidth / 2", "b.scrollWidth"] {
            let figures = try #require(try driver.run(
                """
                var b = document.querySelector('.matrix-box'); b.scrollLeft = \(scroll);
                var box = b.getBoundingClientRect();
                var claim = b.querySelector('tbody tr[data-claim] th').getBoundingClientRect();
                var beside = Array.prototype.filter.call(b.querySelectorAll('tbody tr[data-claim]')[0].querySelectorAll('td'), function (td) {
                  var r = td.getBoundingClientRect(); return r.left >= claim.right - 1 && r.right <= box.right + 1;
                }).length;
                return [claim.width, box.width, beside];
                """) as? [NSNumber])
            #expect(figures[0].doubleValue <= figures[1].doubleValue / 3 + 2, "claim column \(figures[0]) of \(figures[1]) px at \(scroll)")
            #expect(figures[2].intValue >= 2, "results beside the claims at \(scroll): \(figures)")
        }
        let title = try driver.string("return document.querySelector('.matrix tbody tr[data-claim] th').getAttribute('title')")
        #expect(title.contains(": "), "the whole key in the title: \(title)")
    }

    /// Printed on A4 (its printable width, 702 CSS px), no table runs past the
    /// page's edge, the every-build matrix (a screen's scrolling view) is left
    /// out, and the pages grow with the claims (issue 43: 2 of 6 current-build
    /// columns fit, 70 pages).
    @Test(.enabled(if: WebDriver.shouldRun)) func printedNoTableRunsPastThePage() throws {
        let driver = try browser(width: 717)
        try driver.emulatePrint()
        let past = try #require(try driver.run(
            """
            var width = document.documentElement.clientWidth;
            return Array.prototype.filter.call(document.querySelectorAll('table'), function (t) {
              return t.offsetParent !== null && t.getBoundingClientRect().right > width + 1;
            }).map(function (t) { return (t.className || 'table') + ' ' + Math.round(t.getBoundingClientRect().right) + ' of ' + width; });
            """) as? [String])
        #expect(past.isEmpty, "\(past)")
        #expect(try driver.number("return document.querySelector('details.older').getClientRects().length") == 0)
        let pages = WebDriver.pageCount(try driver.printPDF())
        let claims = try driver.number("return document.querySelector('.matrix-box').querySelectorAll('tr[data-claim]').length")
        #expect(pages > 0 && Double(pages) <= claims * 0.75, "\(pages) pages for \(claims) claims")
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func keysAndBadgesNeverBreakMidWord() throws {
        let driver = try browser()
        let broken = try driver.number(
            """
            var count = 0;
            document.querySelectorAll('table.matrix tbody th[scope=row] a, table.matrix span.state').forEach(function (e) {
              if (e.getClientRects().length > 1) { count += 1; }
            });
            return count;
            """)
        #expect(broken == 0)
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func everyChartLabelIsInsideItsPicture() throws {
        let driver = try browser()
        let outside = try #require(try driver.run(
            """
            var out = [];
            document.querySelectorAll('svg.chart').forEach(function (svg) {
              var box = svg.getBoundingClientRect();
              svg.querySelectorAll('text').forEach(function (t) {
                var r = t.getBoundingClientRect();
                if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
                  out.push(t.textContent);
                }
              });
            });
            return out;
            """) as? [String])
        #expect(outside.isEmpty, "labels outside their chart: \(outside)")
        // The expected value is drawn, and a posture-less series is named.
        #expect(try driver.number("return document.querySelectorAll('svg.chart g.expected rect').length") >= 1)
        #expect(try driver.string("return document.getElementById('measurements').parentNode.textContent").contains("no posture"))
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func everyFilterNameNarrowsTheClaimsAndAnUnknownOneSaysSo() throws {
        let driver = try browser()
        let shown = "return document.querySelector('#filters output').value"
        let total = try driver.string(shown)
        for fragment in [
            "filter?document=duo-system-surfaces", "filter?doc=shell-by-window-width", "filter?state=failing",
            "filter?label=measured", "filter?needs=standby", "filter?owner=Ana",
        ] {
            try driver.open(page, fragment: fragment)
            let now = try driver.string(shown)
            #expect(now != total, "\(fragment): \(now)")
            #expect(try driver.number("return document.querySelector('.filter-notice').hidden ? 0 : 1") == 0, "\(fragment)")
        }
        // A model narrows to claims about it or about any model.
        try driver.open(page, fragment: "filter?model=iPad%20Pro%2013")
        #expect(try driver.string(shown) != total)
        for (fragment, said) in [
            ("filter?need=standby", "no filter named 'need'"), ("filter?state=flaky", "no state 'flaky' in this report"),
            ("filter?state=%E0%A4%A", "cannot be read"), ("filter?__proto__=x", "no filter named '__proto__'"),
            ("filter?constructor=x", "no filter named 'constructor'"),
        ] {
            try driver.open(page, fragment: fragment)
            #expect(try driver.number("return document.querySelector('.filter-notice').hidden ? 0 : 1") == 1, "\(fragment)")
            #expect(try driver.string("return document.querySelector('.filter-notice').textContent").contains(said), "\(fragment)")
            #expect(try driver.string(shown) == total)
        }
    }

    /// A filtered link says so at the top of the first screen, with what it
    /// keeps; At a glance counts what it keeps; tables with no match are gone;
    /// the banner jumps to the first match and clears the filter.
    @Test(.enabled(if: WebDriver.shouldRun)) func aFilteredLinkSaysSoInTheFirstScreen() throws {
        let driver = try browser()
        let total = try driver.string("return document.querySelector('#filters output').value")
        try driver.open(page, fragment: "filter?document=duo-system-surfaces&state=untested")
        let banner = "document.querySelector('.filter-banner')"
        #expect(try driver.number("var r = \(banner).getBoundingClientRect(); return !\(banner).hidden && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight ? 1 : 0") == 1)
        let shown = try driver.number("return document.querySelectorAll('table.matrix tbody tr[data-claim]:not([hidden])').length / 2")
        let claims = try driver.number("return document.querySelectorAll('table.matrix tbody tr[data-claim]').length / 2")
        #expect(shown > 0 && shown < claims)
        let said = try driver.string("return \(banner).querySelector('.what').textContent")
        #expect(said == "document duo-system-surfaces, state untested: \(Int(shown)) of \(Int(claims)) claims", "\(said)")
        // At a glance: the document's untested count is what the filter keeps (not-published claims apart); the rest are 0 or hidden.
        let kept = try driver.number("""
            var n = {}; document.querySelectorAll('table.matrix tbody tr[data-claim]:not([hidden])').forEach(function (r) {
              if (r.getAttribute('data-label') !== 'not-published') { n[r.getAttribute('data-claim')] = 1; } });
            return Object.keys(n).length
            """)
        let figure = "document.querySelector(\"figure.bar[data-document='duo-system-surfaces']\")"
        #expect(try driver.number("return Number(\(figure).querySelector(\"li[data-state='untested'] .count\").textContent)") == kept)
        #expect(try driver.number("return Number(\(figure).querySelector(\"li[data-state='needs-device'] .count\").textContent)") == 0)
        #expect(try driver.number("return document.querySelectorAll('figure.bar[data-document]:not([hidden])').length") == 1)
        // No table of claims is left showing none.
        #expect(try driver.number("""
            return Array.prototype.filter.call(document.querySelectorAll('div.table'), function (box) {
              return box.querySelector("tr[id^='claim-']") && !box.hidden && !box.querySelector("tr[id^='claim-']:not([hidden])");
            }).length
            """) == 0)
        _ = try driver.run("document.querySelector('.filter-banner .first').click()")
        #expect(try driver.number("""
            var row = document.querySelector('table.matrix tbody tr[data-claim]:not([hidden])').getBoundingClientRect();
            return row.top >= 0 && row.bottom <= window.innerHeight ? 1 : 0
            """) == 1)
        _ = try driver.run("document.querySelector('.filter-banner .clear').click()")
        #expect(try driver.number("return \(banner).hidden ? 1 : 0") == 1)
        #expect(try driver.string("return document.querySelector('#filters output').value") == total)
        #expect(try driver.string("return location.hash") == "")
        #expect(try driver.consoleProblems().isEmpty)
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func sectionsAreLinkableAndScreenshotsCompareBuilds() throws {
        let driver = try browser()
        for id in ["summary", "matrix", "trends", "measurements", "screenshots", "claims", "claim-island.clock-offset.closed"] {
            #expect(try driver.number("return document.getElementById('\(id)') ? 1 : 0") == 1, "#\(id)")
        }
        let builds = try #require(try driver.run(
            "return Array.prototype.map.call(document.querySelectorAll('.across-builds figure.shot figcaption strong'), function (e) { return e.textContent; })")
            as? [String])
        #expect(builds == ["iOS 27.2 (24C60)", "iOS 27.2 (24C5050a)"], "\(builds)")
        // Side by side, each figure as wide as its picture or its shortest caption width (issue 43: one a row).
        let figures = try #require(try driver.run(
            """
            return Array.prototype.map.call(document.querySelectorAll('.across-builds figure.shot'), function (f) {
              var r = f.getBoundingClientRect(), img = f.querySelector('img').getBoundingClientRect();
              return [r.top, r.width, Math.max(img.width, parseFloat(getComputedStyle(f).minWidth))];
            });
            """) as? [[NSNumber]])
        #expect(figures.count == 2 && Set(figures.map { $0[0].intValue }).count == 1, "\(figures)")
        #expect(figures.allSatisfy { $0[1].doubleValue <= $0[2].doubleValue + 1 }, "\(figures)")
        // Each document's claims by build, oldest first, with its numbers in a table.
        let rows = try driver.number("return document.querySelectorAll('figure.state-trend table tbody tr').length")
        #expect(rows >= 5)
    }

    @Test(.enabled(if: WebDriver.shouldRun)) func darkModeAndPrintStillWork() throws {
        let driver = try browser()
        let light = try driver.string("return getComputedStyle(document.body).backgroundColor")
        #expect(light == "rgb(255, 255, 255)")
        // Printed: a PDF of some pages, the filters left out.
        let printed = try driver.run("return window.matchMedia('print').matches") as? Bool
        #expect(printed == false)
        let css = try driver.string("return document.querySelector('style').textContent")
        #expect(css.contains("@media print") && css.contains("prefers-color-scheme: dark"))
        let dark = try WebDriver(folder: folder, width: 1400, height: 1000, dark: true)
        try dark.open(page)
        #expect(try dark.string("return getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)")
        let pdf = try driver.printPDF()
        #expect(pdf.starts(with: Data("%PDF".utf8)) && pdf.count > 10_000)
    }
}
