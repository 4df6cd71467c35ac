#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A document's claims on each OS build, oldest first, as horizontal stacked
/// bars (one row per build, its label in a column of its own so that none is
/// ever cut), followed by the same numbers as a table: the page reads whole
/// without the picture.
struct StateTrendChart {
    var trend: DocumentTrend

    private static let width = 640.0
    private static let row = 24.0
    private static let top = 8.0
    private static let bottom = 8.0

    /// About how wide 11 px text is: what the label column needs.
    static func textWidth(_ text: String) -> Double { Double(text.count) * 6.6 + 8 }

    var html: String {
        let id = "trend-document-" + HTML.anchor(trend.document)
        let labelWidth = min(300, max(60, trend.builds.map { Self.textWidth($0.label) }.max() ?? 60))
        let plot = Self.width - labelWidth - 12
        let height = Self.top + Self.bottom + Self.row * Double(trend.builds.count)
        var html = "<figure class=\"state-trend\" id=\"\(id)\" data-document=\"\(HTML.escape(trend.document))\">\n"
        html += "<figcaption><strong>\(HTML.escape(trend.document))</strong>: \(NumberText.counted(trend.claims, "claim")) to check, "
        html += "by build</figcaption>\n"
        html += "<svg class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" role=\"img\""
        html += " aria-label=\"\(HTML.escape(trend.document)): claims passed, failed and without a pass or fail on each of "
        html += "\(NumberText.counted(trend.builds.count, "build"))\">"
        for (index, build) in trend.builds.enumerated() {
            let y = Self.top + Self.row * Double(index)
            html += "<text x=\"\(Self.number(labelWidth - 6))\" y=\"\(Self.number(y + Self.row / 2))\" text-anchor=\"end\""
            html += " dominant-baseline=\"middle\">\(HTML.escape(build.label))</text>"
            var x = labelWidth
            for (part, count, name) in [("passing", build.passing, "passed"), ("failing", build.failing, "failed"),
                                        ("none", build.untested, "no pass or fail")] where count > 0 {
                let share = trend.claims > 0 ? plot * Double(count) / Double(trend.claims) : 0
                html += "<rect class=\"tr-\(part)\" x=\"\(Self.number(x))\" y=\"\(Self.number(y + 3))\" width=\"\(Self.number(share))\""
                html += " height=\"\(Self.number(Self.row - 6))\"><title>\(HTML.escape(build.label)): \(count) \(name)</title></rect>"
                x += share
            }
        }
        html += "</svg>\n<ul class=\"legend\"><li><span class=\"key tr-passing\"></span>passed there</li>"
        html += "<li><span class=\"key tr-failing\"></span>failed there</li><li><span class=\"key tr-none\"></span>no pass or fail there</li></ul>\n"
        html += "<div class=\"table\"><table>\n<thead><tr><th scope=\"col\">build</th><th scope=\"col\">passed</th>"
        html += "<th scope=\"col\">failed</th><th scope=\"col\">no pass or fail</th></tr></thead>\n<tbody>\n"
        for build in trend.builds {
            html += "<tr><td>\(HTML.escape(build.label))</td><td>\(build.passing)</td><td>\(build.failing)</td><td>\(build.untested)</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n</figure>\n"
    }

    private static func number(_ value: Double) -> String {
        NumberText.format((value * 10).rounded() / 10)
    }
}
