#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// One measurement's chart: value by build as an inline SVG, one series per
/// claim, model, kind and posture, each with its own colour and marker shape,
/// its baseline dashed and its claim's expected band in its colour, a failed
/// result's point crossed out, every point titled with its build, values,
/// outcome, claim, run and date, followed by the same points as a table.
struct TrendChart {
    var trend: MeasurementTrend

    static let width = 640.0
    private static let height = 260.0
    private static let right = 16.0
    private static let top = 14.0
    private static let bottom = 44.0

    /// About how wide 11 px text is, to keep every label inside the picture.
    static func textWidth(_ text: String) -> Double { Double(text.count) * 6.6 + 4 }

    var html: String {
        let id = "trend-" + HTML.anchor(trend.name + "-" + trend.unit.rawValue)
        let title = trend.name + " (" + trend.unit.rawValue + ")"
        var html = "<figure class=\"trend\" id=\"\(id)\" data-measurement=\"\(HTML.escape(trend.name))\""
        html += " data-unit=\"\(trend.unit.rawValue)\">\n<figcaption>\(HTML.escape(title)) by build</figcaption>\n"
        html += "<svg class=\"chart\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\""
        html += " aria-label=\"\(HTML.escape(title)) by build, \(NumberText.counted(trend.series.count, "series", plural: "series"))\">"
        let scale = Scale(trend: trend)
        html += bands(scale)
        html += axes(scale)
        for (index, series) in trend.series.enumerated() { html += draw(series, index: index, scale: scale) }
        html += "</svg>\n<ul class=\"series-legend\">"
        for (index, series) in trend.series.enumerated() {
            html += "<li><svg class=\"swatch\" viewBox=\"-6 -6 12 12\" aria-hidden=\"true\"><g class=\"series-\(index % 6)\">"
            html += Self.marker(index: index, x: 0, y: 0, attributes: "", title: nil) + "</g></svg> \(HTML.escape(series.name))</li>"
        }
        for (index, series) in trend.series.enumerated() {
            for expected in series.expected {
                html += "<li><span class=\"key expected series-\(index % 6)\"></span>\(HTML.escape(series.claim)) expects "
                html += HTML.escape(expected.summary) + "</li>"
            }
        }
        if trend.series.contains(where: { $0.points.contains(where: \.failed) }) {
            html += "<li><svg class=\"swatch\" viewBox=\"-6 -6 12 12\" aria-hidden=\"true\">" + Self.cross(x: 0, y: 0)
            html += "</svg> a failed result</li>"
        }
        html += "</ul>\n"
        if trend.lineCount > trend.series.count {
            let failing = trend.series.count { $0.points.contains(where: \.failed) }
            html += "<p class=\"note\">\(trend.series.count) of \(NumberText.counted(trend.lineCount, "line")) drawn"
            html += failing > 0 ? ", the \(NumberText.counted(failing, "line")) with a failed result among them" : ""
            html += "; every claim's measurements are under Claims.</p>\n"
        }
        html += table() + "</figure>\n"
        return html
    }

    /// The y axis's range and ticks, at round steps, and the x position of
    /// each build. Any finite values draw: equal ones get room around them,
    /// a range wider than a Double holds is halved before it is measured,
    /// one narrower than the values' precision gets its two ends as ticks.
    struct Scale {
        var low: Double
        var high: Double
        var ticks: [Double]
        var x: [String: Double] = [:]
        /// The plot's left edge: room for the widest tick label.
        var left = 56.0

        init(trend: MeasurementTrend) {
            let values = trend.series.flatMap { $0.points.flatMap { [$0.value] + ($0.baseline.map { [$0] } ?? []) } }
            // The expected values' bands are drawn whole.
            let bands = trend.series.flatMap(\.expected).flatMap { [$0.range.low, $0.range.high].compactMap { $0 } }
            self.init(values: (values + bands).filter(\.isFinite))
            left = max(40, (ticks.map { TrendChart.textWidth(NumberText.format($0)) }.max() ?? 0) + 10)
            let plot = TrendChart.width - left - TrendChart.right
            for (index, build) in trend.builds.enumerated() {
                x[build] = trend.builds.count == 1
                    ? left + plot / 2 : left + plot * Double(index) / Double(trend.builds.count - 1)
            }
        }

        init(values: [Double]) {
            var low = values.min() ?? 0
            var high = values.max() ?? 1
            if low == high {
                let room = Swift.max(abs(low) / 10, 1)
                (low, high) = (low - room, high + room)
            }
            // A fifth of the range (about five intervals), measured on halves so
            // that ±1e308 stays finite, rounded up to 1, 2, 2.5 or 5 times a power of ten.
            let raw = (high / 2 - low / 2) / 2.5
            let magnitude = Math.power(10, Math.log10(raw).rounded(.down))
            let step = magnitude * ([1.0, 2, 2.5, 5].first { raw / magnitude <= $0 * 1.0000001 } ?? 10)
            let roundLow = (low / step).rounded(.down) * step
            let roundHigh = (high / step).rounded(.up) * step
            let count = ((roundHigh / 2 - roundLow / 2) / step * 2).rounded()
            guard step.isFinite, step > 0, roundLow.isFinite, roundHigh.isFinite, roundLow < roundHigh, count.isFinite, count <= 14,
                roundLow + step > roundLow
            else {
                // Too wide or too narrow for round steps: the two ends.
                self.low = low
                self.high = high
                ticks = [low, high]
                return
            }
            self.low = roundLow
            self.high = roundHigh
            ticks = (0...Int(count)).map { (roundLow / step + Double($0)).rounded() * step }
        }

        /// The y coordinate of a value: the plot's bottom at `low`, its top at `high` (halves again, to stay finite).
        func y(_ value: Double) -> Double {
            let plot = TrendChart.height - TrendChart.top - TrendChart.bottom
            let share = (value / 2 - low / 2) / (high / 2 - low / 2)
            return TrendChart.top + plot * (1 - Swift.min(Swift.max(share.isFinite ? share : 0, 0), 1))
        }
    }

    private func axes(_ scale: Scale) -> String {
        let baseY = Self.height - Self.bottom
        var svg = "<g class=\"axes\">"
        for tick in scale.ticks {
            let y = Self.number(scale.y(tick))
            svg += "<line class=\"grid\" x1=\"\(Self.number(scale.left))\" y1=\"\(y)\" x2=\"\(Int(Self.width - Self.right))\" y2=\"\(y)\"/>"
            svg += "<text x=\"\(Self.number(scale.left - 6))\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            svg += NumberText.format(tick) + "</text>"
        }
        // As many build labels as fit side by side, each whole and inside the picture.
        let widest = trend.builds.map(Self.textWidth).max() ?? 0
        let fit = max(1, Int((Self.width - 4) / (widest + 8)))
        let every = max(1, (trend.builds.count + fit - 1) / fit)
        for (index, build) in trend.builds.enumerated() where index % every == 0 {
            let half = Self.textWidth(build) / 2
            let x = min(max(scale.x[build] ?? scale.left, 2 + half), Self.width - 2 - half)
            svg += "<text x=\"\(Self.number(x))\" y=\"\(Self.number(baseY + 18))\" text-anchor=\"middle\">\(HTML.escape(build))</text>"
        }
        svg += "<text x=\"\(Self.number((Self.width + scale.left) / 2))\" y=\"\(Int(Self.height) - 4)\" text-anchor=\"middle\">"
        svg += "OS build</text></g>"
        return svg
    }

    /// Each value a series' claim expects, with its tolerance, as a band across
    /// the plot in the series' colour: a band belongs to its own claim's line.
    /// An "at most" band runs down to the plot's bottom, an "at least" one up to its top.
    private func bands(_ scale: Scale) -> String {
        var svg = ""
        for (index, series) in trend.series.enumerated() {
            for expected in series.expected where expected.value.isFinite && expected.tolerance.isFinite {
                let top = scale.y(expected.range.high ?? scale.high)
                let bottom = scale.y(expected.range.low ?? scale.low)
                let middle = Self.number(scale.y(expected.value))
                svg += "<g class=\"expected series-\(index % 6)\" data-claim=\"\(HTML.escape(series.claim))\">"
                svg += "<rect x=\"\(Self.number(scale.left))\" y=\"\(Self.number(top))\""
                svg += " width=\"\(Self.number(Self.width - Self.right - scale.left))\" height=\"\(Self.number(max(bottom - top, 1)))\">"
                svg += "<title>\(HTML.escape(series.claim)) expects \(HTML.escape(expected.summary))</title></rect>"
                svg += "<line x1=\"\(Self.number(scale.left))\" y1=\"\(middle)\" x2=\"\(Int(Self.width - Self.right))\" y2=\"\(middle)\"/></g>"
            }
        }
        return svg
    }

    private func draw(_ series: MeasurementTrend.Series, index: Int, scale: Scale) -> String {
        var svg = "<g class=\"series series-\(index % 6)\" data-series=\"\(HTML.escape(series.name))\""
        svg += " data-claim=\"\(HTML.escape(series.claim))\">"
        // What is not a finite number stays out of the picture (it is in the table).
        let points = series.points.filter { $0.value.isFinite && ($0.baseline?.isFinite ?? true) }
        let baselines = points.compactMap { point in
            point.baseline.map { "\(Self.number(scale.x[point.build] ?? 0)),\(Self.number(scale.y($0)))" }
        }
        if !baselines.isEmpty {
            svg += "<polyline class=\"baseline\" points=\"\(baselines.joined(separator: " "))\"/>"
        }
        let line = points.map { "\(Self.number(scale.x[$0.build] ?? 0)),\(Self.number(scale.y($0.value)))" }
        svg += "<polyline class=\"line\" points=\"\(line.joined(separator: " "))\"/>"
        for point in points {
            let x = scale.x[point.build] ?? 0
            var attributes = " data-build=\"\(HTML.escape(point.build))\" data-value=\"\(NumberText.format(point.value))\""
            attributes += " data-result=\"\(point.failed ? "fail" : "pass")\""
            if let baseline = point.baseline {
                attributes += " data-baseline=\"\(NumberText.format(baseline))\""
                let (px, by, vy) = (Self.number(x), Self.number(scale.y(baseline)), Self.number(scale.y(point.value)))
                svg += "<line class=\"delta\" x1=\"\(px)\" y1=\"\(by)\" x2=\"\(px)\" y2=\"\(vy)\"/>"
                svg += "<circle class=\"base-point\" cx=\"\(px)\" cy=\"\(by)\" r=\"2.5\"/>"
            }
            svg += Self.marker(
                index: index, x: x, y: scale.y(point.value), attributes: attributes, title: describe(point, in: series))
            if point.failed { svg += Self.cross(x: x, y: scale.y(point.value)) }
        }
        return svg + "</g>"
    }

    /// "island.clock: iPhone Duo simulator, closed, 23B85: 87 pt → 171 pt (Δ +84 pt), failed; run 2cee86e8, 2026-10-20"
    private func describe(_ point: MeasurementTrend.Point, in series: MeasurementTrend.Series) -> String {
        series.name + ", " + point.build + ": "
            + MeasurementDraft.summary(value: point.value, unit: trend.unit.rawValue, baseline: point.baseline)
            + (point.failed ? ", failed" : ", passed") + "; run " + String(point.run.prefix(8)) + ", "
            + (point.checkedAt ?? "date not recorded")
    }

    /// A failed result's mark: a cross over its point, so a fail never reads as a pass, in colour or without.
    private static func cross(x: Double, y: Double) -> String {
        let (left, right, top, bottom) = (number(x - 5), number(x + 5), number(y - 5), number(y + 5))
        return "<path class=\"fail-mark\" d=\"M\(left) \(top)L\(right) \(bottom)M\(left) \(bottom)L\(right) \(top)\"/>"
    }

    /// Circles, squares, diamonds and triangles in turn, so that no series is told by colour alone.
    private static func marker(index: Int, x: Double, y: Double, attributes: String, title: String?) -> String {
        let (cx, cy) = (number(x), number(y))
        let tag: String
        let shape: String
        switch index % 4 {
        case 0: (tag, shape) = ("circle", "cx=\"\(cx)\" cy=\"\(cy)\" r=\"4.5\"")
        case 1: (tag, shape) = ("rect", "x=\"\(number(x - 4))\" y=\"\(number(y - 4))\" width=\"8\" height=\"8\"")
        case 2:
            (tag, shape) = (
                "polygon",
                "points=\"\(cx),\(number(y - 5.5)) \(number(x + 5.5)),\(cy) \(cx),\(number(y + 5.5)) \(number(x - 5.5)),\(cy)\""
            )
        default:
            (tag, shape) = (
                "polygon", "points=\"\(cx),\(number(y - 5.5)) \(number(x + 5)),\(number(y + 4)) \(number(x - 5)),\(number(y + 4))\""
            )
        }
        let open = "<\(tag) class=\"point\" \(shape)\(attributes)"
        guard let title else { return open + "/>" }
        return open + "><title>\(HTML.escape(title))</title></\(tag)>"
    }

    /// The chart's points as a table, for readers and printers without pictures.
    private func table() -> String {
        var html = "<details><summary>The points as a table</summary><div class=\"table\"><table>\n<thead><tr>"
        for column in ["claim", "environment", "build", "baseline", "value", "change", "result", "run", "checked"] {
            html += "<th scope=\"col\">\(column)</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        let unit = (trend.unit.isAttached ? "" : " ") + trend.unit.rawValue
        for series in trend.series {
            for point in series.points {
                let change = point.baseline.map { (point.value > $0 ? "+" : "") + NumberText.format(point.value - $0) + unit }
                html += "<tr><td><a href=\"#claim-\(HTML.anchor(series.claim))\">\(HTML.escape(series.claim))</a></td>"
                html += "<td>\(HTML.escape("\(series.model) \(series.kind.rawValue), " + (series.posture?.rawValue ?? "no posture")))</td>"
                html += "<td>\(HTML.escape(point.build))</td>"
                html += "<td>\(point.baseline.map { NumberText.format($0) + unit } ?? "")</td>"
                html += "<td>\(NumberText.format(point.value) + unit)</td><td>\(change ?? "")</td>"
                html += point.failed ? "<td class=\"m-fail\">fail</td>" : "<td class=\"m-pass\">pass</td>"
                html += "<td><a href=\"#run-\(HTML.anchor(point.run))\">\(HTML.escape(String(point.run.prefix(8))))</a></td>"
                html += "<td>\(HTML.escape(point.checkedAt ?? "not recorded"))</td></tr>\n"
            }
        }
        return html + "</tbody>\n</table></div></details>\n"
    }

    /// A coordinate to a tenth, with no needless ".0".
    private static func number(_ value: Double) -> String {
        NumberText.format((value * 10).rounded() / 10)
    }
}
