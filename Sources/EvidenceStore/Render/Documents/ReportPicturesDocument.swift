import Foundation

/// What the HTML report draws between its summary and its claims: a bar of
/// claims by state per document, filters, the coverage matrix, a chart per
/// measurement and the attached images. Every value is escaped for where it
/// goes; every picture says in text what it shows.
public struct ReportPicturesDocument {
    public var claims: [ReportClaim]
    public var pictures: ReportPictures

    public init(claims: [ReportClaim], pictures: ReportPictures) {
        self.claims = claims
        self.pictures = pictures
    }

    public func write(to writer: HTMLWriter) {
        writeBars(to: writer)
        writeFilters(to: writer)
        writeCoverage(to: writer)
        writeTrends(to: writer)
        writeImages(to: writer)
    }

    private static func e(_ text: String) -> String { HTML.escape(text) }

    // MARK: - Claims by state

    private func writeBars(to writer: HTMLWriter) {
        writer.heading(2, "At a glance", anchor: "at-a-glance")
        var documents: [String] = []
        var counts: [String: [VerificationState: Int]] = [:]
        for claim in claims {
            if counts[claim.document] == nil { documents.append(claim.document) }
            counts[claim.document, default: [:]][claim.state, default: 0] += 1
        }
        if documents.isEmpty { return writer.paragraph("No claims yet.") }
        var html = ""
        for document in documents {
            let count = counts[document] ?? [:]
            let total = count.values.reduce(0, +)
            let described = VerificationState.allCases.map { "\(count[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            html += "<figure class=\"bar\" data-document=\"\(Self.e(document))\">\n"
            html += "<figcaption><strong>\(Self.e(document))</strong>: \(NumberText.counted(total, "claim"))</figcaption>\n"
            html += "<svg viewBox=\"0 0 1000 24\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(Self.e(document)): \(Self.e(described))\">"
            // Each edge is rounded from the running count, so the parts always fill the bar.
            var before = 0
            for state in VerificationState.allCases {
                let part = count[state] ?? 0
                guard part > 0 else { continue }
                let x = before * 1000 / total
                let end = (before + part) * 1000 / total
                before += part
                html += "<rect class=\"st-\(state.rawValue)\" x=\"\(x)\" y=\"0\" width=\"\(end - x)\" height=\"24\">"
                html += "<title>\(state.rawValue): \(part)</title></rect>"
            }
            html += "</svg>\n<ul class=\"counts\">"
            for state in VerificationState.allCases {
                html += "<li data-state=\"\(state.rawValue)\"><span class=\"key st-\(state.rawValue)\"></span>"
                html += "\(state.rawValue): <span class=\"count\">\(count[state] ?? 0)</span></li>"
            }
            html += "</ul>\n</figure>\n"
        }
        writer.block(html)
    }

    // MARK: - Filters

    /// Hidden until the script shows it: without JavaScript every row shows.
    private func writeFilters(to writer: HTMLWriter) {
        var documents: [String] = []
        for claim in claims where documents.last != claim.document { documents.append(claim.document) }
        func select(_ name: String, _ title: String, _ values: [String]) -> String {
            "<label>\(title) <select name=\"\(name)\"><option value=\"\">all</option>"
                + values.map { "<option>\(Self.e($0))</option>" }.joined() + "</select></label>\n"
        }
        let owners = Array(Set(claims.map(\.owner).filter { !$0.isEmpty })).sorted()
        writer.block(
            "<form id=\"filters\" class=\"filters\" hidden>\n"
                + select("doc", "Document", documents)
                + (owners.isEmpty ? "" : select("owner", "Owner", owners))
                + select("state", "State", VerificationState.allCases.map(\.rawValue))
                + select("label", "Label", Label.allCases.map(\.rawValue))
                + "<label><input type=\"checkbox\" name=\"needs\"> needs a device</label>\n"
                + "<output name=\"shown\"></output>\n</form>\n")
    }

    // MARK: - Coverage

    private func writeCoverage(to writer: HTMLWriter) {
        let matrix = pictures.coverage
        writer.heading(2, "Coverage", anchor: "coverage")
        guard !matrix.columns.isEmpty else { return writer.paragraph("No results yet: no environment to show.") }
        writer.paragraph(
            "Each claim on each environment that holds a result: the latest pass or fail there, newest environments first. "
                + "A symbol says what a colour shows.")
        var html = "<div class=\"table\"><table class=\"matrix\">\n<thead><tr><th scope=\"col\">claim</th>"
        for column in matrix.columns {
            let environment = column.environment
            html += "<th scope=\"col\" class=\"env\">\(Self.e(environment.model + " " + environment.kind.rawValue))"
            html += "<br>" + Self.e(EvidenceReport.version(environment.osName, environment.osVersion, environment.osBuild))
            html += "<br>" + Self.e(EvidenceReport.version(environment.toolName, environment.toolVersion, environment.toolBuild))
            if !column.isCurrent { html += "<br><em>newer builds recorded</em>" }
            html += "</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        writer.block(html)
        var group: String?
        for claim in claims {
            html = ""
            let heading = claim.document + " · " + claim.area
            if heading != group {
                group = heading
                html += "<tr class=\"group\"><th colspan=\"\(matrix.columns.count + 1)\" scope=\"rowgroup\">\(Self.e(heading))</th></tr>\n"
            }
            let anchor = HTML.anchor(claim.key)
            html += "<tr data-claim=\"\(Self.e(claim.key))\" data-anchor=\"\(anchor)\" data-document=\"\(Self.e(claim.document))\""
            html += " data-state=\"\(claim.state.rawValue)\" data-label=\"\(claim.label.rawValue)\""
            if !claim.owner.isEmpty { html += " data-owner=\"\(Self.e(claim.owner))\"" }
            html += " data-needs-device=\"\(pictures.needsDevice.contains(claim.key) ? "yes" : "no")\">"
            html += "<th scope=\"row\"><a href=\"#claim-\(anchor)\">\(Self.e(claim.key))</a>"
            html += " <span class=\"state st-\(claim.state.rawValue)\">\(claim.state.rawValue)</span></th>"
            for cell in matrix.row(claim.key) { html += Self.cell(cell) }
            html += "</tr>\n"
            writer.block(html)
        }
        html = "</tbody>\n</table></div>\n<ul class=\"legend\">"
        for mark in CoverageCell.Mark.allCases {
            html += "<li><span class=\"mark m-\(mark.rawValue)\">\(mark.symbol)</span> \(Self.e(mark.meaning))</li>"
        }
        writer.block(html + "</ul>\n")
    }

    private static func cell(_ cell: CoverageCell) -> String {
        let marks = cell.marks
        var title = marks.map(\.rawValue).joined(separator: ", ")
        if cell.decisive != nil {
            title += cell.checkedAt.map { ", checked " + $0 } ?? ", date not recorded"
            if let run = cell.run { title += ", run " + String(run.prefix(8)) }
        }
        let classes = marks.map { "m-" + $0.rawValue }.joined(separator: " ")
        let symbols = marks.map(\.symbol).joined()
        var html = "<td class=\"\(classes)\" title=\"\(e(title))\">"
        if cell.decisive != nil, let run = cell.run {
            html += "<a href=\"#run-\(HTML.anchor(run))\">\(symbols)</a>"
        } else {
            html += symbols
        }
        return html + "</td>"
    }

    // MARK: - Trends

    private func writeTrends(to writer: HTMLWriter) {
        writer.heading(2, "Measurement trends", anchor: "trends")
        guard !pictures.trends.isEmpty else { return writer.paragraph("No measurements yet.") }
        writer.paragraph(
            "Each measurement by OS build, in the order Apple numbers builds: one series per model and posture; each "
                + "point is the latest such measurement of the latest pass or fail of a claim on an environment. The "
                + "dashed line is the baseline each value was measured from.")
        for trend in pictures.trends { writer.block(TrendChart(trend: trend).html) }
    }

    // MARK: - Images

    private func writeImages(to writer: HTMLWriter) {
        writer.heading(2, "Screenshots", anchor: "screenshots")
        guard !pictures.images.isEmpty else { return writer.paragraph("No files are attached to results.") }
        writer.block("<div class=\"table\"><table class=\"shots\">\n<thead><tr><th scope=\"col\">claim</th>"
            + "<th scope=\"col\">result</th><th scope=\"col\">attachment</th></tr></thead>\n<tbody>\n")
        for image in pictures.images {
            let file = image.attachment
            var html = "<tr><td><a href=\"#claim-\(HTML.anchor(file.claim))\">\(Self.e(file.claim))</a></td><td>"
            html += Self.e(file.result.rawValue + (file.retracted ? " (retracted)" : "")) + " on " + Self.e(file.environment)
            html += "<br><a href=\"#run-\(HTML.anchor(file.run))\">run \(Self.e(String(file.run.prefix(8))))</a>, "
            html += Self.e(file.checkedAt ?? "date not recorded") + "</td><td>"
            let name = "<code>\(Self.e(file.path))</code> (\(Self.e(file.mediaType)), \(Self.e(Self.size(file.size))))"
            switch image.content {
            case .embedded(let mediaType, let bytes):
                html += "<figure class=\"shot\"><img src=\"data:\(Self.e(mediaType));base64,"
                html += Data(bytes).base64EncodedString()
                html += "\" alt=\"\(Self.e(file.path)), attached to the \(file.result.rawValue) of \(Self.e(file.claim))\">"
                html += "<figcaption>\(name)</figcaption></figure>"
            case .notShown(let reason):
                html += name + ": <strong>" + Self.e(reason) + "</strong>"
            }
            writer.block(html + "</td></tr>\n")
        }
        writer.block("</tbody>\n</table></div>\n")
    }

    /// "840 B", "12.5 KB", "3.2 MB"
    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return NumberText.format((value * 10).rounded() / 10) + " " + units[unit]
    }
}
