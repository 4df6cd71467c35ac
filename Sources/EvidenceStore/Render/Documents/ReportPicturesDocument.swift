#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

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
        writeDocumentTrends(to: writer)
        writeTrends(to: writer)
        writeImages(to: writer)
    }

    private static func e(_ text: String) -> String { HTML.escape(text) }

    /// The claims the report counts as QA work (not-published claims apart),
    /// as the Summary table, `status` and `untested` count them.
    private var work: [ReportClaim] { claims.filter(\.label.isQAWork) }

    // MARK: - Claims by state

    private func writeBars(to writer: HTMLWriter) {
        writer.heading(2, "At a glance", anchor: "at-a-glance")
        var documents: [String] = []
        var counts: [String: [VerificationState: Int]] = [:]
        var apart: [String: Int] = [:]
        for claim in claims {
            if counts[claim.document] == nil { documents.append(claim.document) }
            if claim.label.isQAWork {
                counts[claim.document, default: [:]][claim.state, default: 0] += 1
            } else {
                counts[claim.document, default: [:]] = counts[claim.document] ?? [:]
                apart[claim.document, default: 0] += 1
            }
        }
        if documents.isEmpty { return writer.paragraph("No claims yet.") }
        writer.paragraph(
            "Each document's claims to check by state, as the Summary table, evidence status and evidence untested count "
                + "them; not-published claims are not QA work and are counted apart.")
        var html = ""
        for document in documents {
            let count = counts[document] ?? [:]
            let total = count.values.reduce(0, +)
            let described = VerificationState.allCases.map { "\(count[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            html += "<figure class=\"bar\" data-document=\"\(Self.e(document))\">\n"
            html += "<figcaption><strong>\(Self.e(document))</strong>: \(NumberText.counted(total, "claim")) to check"
            if let notPublished = apart[document] { html += ", \(notPublished) not published" }
            html += "</figcaption>\n"
            html += "<svg viewBox=\"0 0 1000 24\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(Self.e(document)): \(Self.e(described))\">"
            // Each edge is rounded from the running count, so the parts always fill the bar.
            var before = 0
            for state in VerificationState.allCases where total > 0 {
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

    /// The names a filter address takes, each with its short alias, as the page lists them.
    static let filterNames = [("document", "doc"), ("state", nil), ("label", nil), ("needs", nil), ("model", nil), ("owner", nil)]

    /// Hidden until the script shows it: without JavaScript every row shows.
    private func writeFilters(to writer: HTMLWriter) {
        var documents: [String] = []
        for claim in claims where documents.last != claim.document { documents.append(claim.document) }
        func select(_ name: String, _ title: String, _ values: [String]) -> String {
            "<label>\(title) <select name=\"\(name)\"><option value=\"\">all</option>"
                + values.map { "<option>\(Self.e($0))</option>" }.joined() + "</select></label>\n"
        }
        let owners = Array(Set(claims.map(\.owner).filter { !$0.isEmpty })).sorted()
        let capabilities = Array(Set(pictures.needs.values.flatMap { $0 })).sorted()
        let models = Array(Set(pictures.models.values.flatMap { $0 } + pictures.coverage.columns.map(\.environment.model))).sorted()
        writer.block(
            "<form id=\"filters\" class=\"filters\" hidden>\n"
                + select("document", "Document", documents)
                + select("state", "State", VerificationState.allCases.map(\.rawValue))
                + select("label", "Label", Label.allCases.map(\.rawValue))
                + select("needs", "Needs", capabilities)
                + select("model", "Model", models)
                + (owners.isEmpty ? "" : select("owner", "Owner", owners))
                + "<output name=\"shown\"></output>\n"
                + "<p class=\"filter-help\">A filtered view is a link: <code>#filter?document=NAME&amp;state=STATE&amp;"
                + "label=LABEL&amp;needs=CAPABILITY&amp;model=MODEL&amp;owner=NAME</code> (<code>doc</code> for document; "
                + "any of them, in any order).</p>\n"
                + "<p class=\"filter-notice\" role=\"status\" hidden></p>\n</form>\n"
                // Shown at the top of the window while a filter is active: what it keeps, a jump, a way back.
                + "<div class=\"filter-banner\" role=\"status\" hidden><span class=\"what\"></span> "
                + "<button type=\"button\" class=\"first\">First match</button> "
                + "<button type=\"button\" class=\"clear\">Show every claim</button></div>\n")
    }

    // MARK: - Coverage

    /// The matrix's columns in groups of one kind and model (devices first),
    /// each group's newest build first.
    private func grouped(_ indexes: [Int]) -> [(name: String, columns: [Int])] {
        let columns = pictures.coverage.columns
        var groups: [(String, [Int])] = []
        var place: [String: Int] = [:]
        let sorted = indexes.sorted { a, b in
            let x = columns[a].environment
            let y = columns[b].environment
            return (x.kind == .device ? 0 : 1, x.model, a) < (y.kind == .device ? 0 : 1, y.model, b)
        }
        for index in sorted {
            let environment = columns[index].environment
            let name = environment.model + " " + environment.kind.rawValue
            if let at = place[name] {
                groups[at].1.append(index)
            } else {
                place[name] = groups.count
                groups.append((name, [index]))
            }
        }
        return groups
    }

    private func writeCoverage(to writer: HTMLWriter) {
        let matrix = pictures.coverage
        writer.heading(2, "Coverage", anchor: "matrix")
        guard !matrix.columns.isEmpty else { return writer.paragraph("No results yet: no environment to show.") }
        let current = matrix.columns.indices.filter { matrix.columns[$0].isCurrent }
        let older = matrix.columns.count - current.count
        writer.paragraph(
            "Each claim on each environment that holds a result: the latest pass or fail there. Columns are grouped by "
                + "model and kind, newest build first; this table shows each group's current builds"
                + (older > 0 ? ", and the one below every build." : ".") + " A symbol says what a colour shows.")
        writeMatrix(columns: current.isEmpty ? Array(matrix.columns.indices) : current, to: writer)
        if older > 0 && !current.isEmpty {
            writer.block(
                "<details class=\"older\"><summary>Every build: \(NumberText.counted(matrix.columns.count, "environment")), "
                    + "\(older) of them on older builds</summary>\n")
            writeMatrix(columns: Array(matrix.columns.indices), to: writer)
            writer.block("</details>\n")
        }
        var html = "<ul class=\"legend\">"
        for mark in CoverageCell.Mark.allCases {
            html += "<li><span class=\"mark m-\(mark.rawValue)\">\(mark.symbol)</span> \(Self.e(mark.meaning))</li>"
        }
        writer.block(html + "</ul>\n")
    }

    /// One matrix in its own scrolling box: the claim column and the header
    /// row stay in view while it scrolls.
    private func writeMatrix(columns indexes: [Int], to writer: HTMLWriter) {
        let matrix = pictures.coverage
        let groups = grouped(indexes)
        let order = groups.flatMap(\.columns)
        var html = "<div class=\"matrix-box\"><table class=\"matrix\">\n<colgroup><col class=\"claims\">"
        for group in groups { html += "<colgroup span=\"\(group.columns.count)\" class=\"environments\"></colgroup>" }
        // Two header rows: each group's name once over its columns, then each column's build, short (the OS
        // version and build; the tool's version only where a group holds one OS build twice), whole in its title.
        html += "</colgroup>\n<thead><tr class=\"groups\"><th scope=\"col\" rowspan=\"2\" class=\"corner\">claim</th>"
        for group in groups {
            html += "<th scope=\"colgroup\" colspan=\"\(group.columns.count)\" class=\"group-start\">\(Self.e(group.name))</th>"
        }
        html += "</tr>\n<tr class=\"builds\">"
        for group in groups {
            var builds: [String: Int] = [:]
            for index in group.columns { builds[matrix.columns[index].environment.osBuild, default: 0] += 1 }
            for (position, index) in group.columns.enumerated() {
                let column = matrix.columns[index]
                let environment = column.environment
                let os = EvidenceReport.version(environment.osName, environment.osVersion, environment.osBuild)
                let tool = EvidenceReport.version(environment.toolName, environment.toolVersion, environment.toolBuild)
                var title = group.name + ", " + os + ", " + tool
                if !column.isCurrent { title += ", newer builds recorded" }
                html += "<th scope=\"col\" class=\"env\(position == 0 ? " group-start" : "")\(column.isCurrent ? "" : " older")\""
                html += " title=\"\(Self.e(title))\">" + Self.e(environment.osVersion.isEmpty ? "?" : environment.osVersion)
                html += "<br>" + Self.e(environment.osBuild.isEmpty ? "?" : environment.osBuild)
                if builds[environment.osBuild, default: 0] > 1 {
                    html += "<br>" + Self.e(environment.toolVersion.isEmpty ? "?" : environment.toolVersion)
                }
                html += "</th>"
            }
        }
        html += "</tr></thead>\n<tbody>\n"
        writer.block(html)
        var group: String?
        for claim in claims {
            html = ""
            let heading = claim.document + " · " + claim.area
            if heading != group {
                group = heading
                html += "<tr class=\"group\"><th colspan=\"\(order.count + 1)\" scope=\"rowgroup\"><span>\(Self.e(heading))</span></th></tr>\n"
            }
            let anchor = HTML.anchor(claim.key)
            html += "<tr data-claim=\"\(Self.e(claim.key))\" data-anchor=\"\(anchor)\" data-document=\"\(Self.e(claim.document))\""
            html += " data-state=\"\(claim.state.rawValue)\" data-label=\"\(claim.label.rawValue)\""
            // Lists as JSON arrays, which the filter script reads with JSON.parse.
            html += " data-needs=\"\(Self.e(JSONValue.array((pictures.needs[claim.key] ?? []).map(JSONValue.string)).rendered()))\""
            html += " data-models=\"\(Self.e(JSONValue.array((pictures.models[claim.key] ?? []).map(JSONValue.string)).rendered()))\""
            if !claim.owner.isEmpty { html += " data-owner=\"\(Self.e(claim.owner))\"" }
            html += " data-needs-device=\"\(pictures.needsDevice.contains(claim.key) ? "yes" : "no")\">"
            html += "<th scope=\"row\" title=\"\(Self.e(claim.key)): \(claim.state.rawValue)\"><a href=\"#claim-\(anchor)\">\(Self.e(claim.key))</a>"
            html += " <span class=\"state st-\(claim.state.rawValue)\">\(claim.state.rawValue)</span></th>"
            let row = matrix.row(claim.key)
            for (position, index) in order.enumerated() {
                let first = groups.contains { $0.columns.first == index } && position > 0
                html += cell(row[index], groupStart: first)
            }
            html += "</tr>\n"
            writer.block(html)
        }
        writer.block("</tbody>\n</table></div>\n")
    }

    private func cell(_ cell: CoverageCell, groupStart: Bool) -> String {
        let marks = cell.marks
        var title = marks.map(\.rawValue).joined(separator: ", ")
        if cell.decisive != nil {
            title += cell.checkedAt.map { ", checked " + $0 } ?? ", date not recorded"
            if let run = cell.run { title += ", run " + String(run.prefix(8)) }
        }
        let classes = marks.map { "m-" + $0.rawValue }.joined(separator: " ") + (groupStart ? " group-start" : "")
        let symbols = marks.map(\.symbol).joined()
        var html = "<td class=\"\(classes)\" title=\"\(Self.e(title))\">"
        // A link to the run where the run log shows it.
        if cell.decisive != nil, let run = cell.run, pictures.shownRuns?.contains(run) ?? true {
            html += "<a href=\"#run-\(HTML.anchor(run))\">\(symbols)</a>"
        } else {
            html += symbols
        }
        return html + "</td>"
    }

    // MARK: - Documents by build

    private func writeDocumentTrends(to writer: HTMLWriter) {
        writer.heading(2, "Trends", anchor: "trends")
        guard !pictures.documentTrends.isEmpty else { return writer.paragraph("No pass or fail on any build yet.") }
        writer.paragraph(
            "Each document's claims to check on each OS build, oldest first: how many passed there, how many failed, and "
                + "how many have no pass or fail there (a claim counts by its latest pass or fail on that build; a pass where "
                + "a capability it needs is missing proves nothing).")
        for trend in pictures.documentTrends { writer.block(StateTrendChart(trend: trend).html) }
    }

    // MARK: - Measurements

    private func writeTrends(to writer: HTMLWriter) {
        writer.heading(2, "Measurements", anchor: "measurements")
        guard !pictures.trends.isEmpty else { return writer.paragraph("No measurements yet.") }
        writer.paragraph(
            "Each measurement by OS build, in the order Apple numbers builds: one line per claim, model, kind and posture "
                + "(\"no posture\" for results logged without one); each point is the latest such measurement of the claim's "
                + "latest pass or fail on an environment, crossed out when that result failed. The dashed line is the baseline "
                + "each value was measured from; a shaded band is the value the line's claim expects, with its tolerance. "
                + "A chart draws at most \(MeasurementTrend.drawnLines) lines, those with a failed result first; every claim's "
                + "measurements are also under Claims.")
        for trend in pictures.trends { writer.block(TrendChart(trend: trend).html) }
    }

    // MARK: - Images

    private func writeImages(to writer: HTMLWriter) {
        writer.heading(2, "Screenshots", anchor: "screenshots")
        guard !pictures.images.isEmpty else { return writer.paragraph("No files are attached to results.") }
        // A claim with files on more than one build: its pictures side by side, newest build first.
        var byClaim: [String: [ReportImage]] = [:]
        for image in pictures.images { byClaim[image.attachment.claim, default: []].append(image) }
        var compared: Set<String> = []
        for claim in claims {
            guard let images = byClaim[claim.key], Set(images.map(\.attachment.build)).count > 1 else { continue }
            compared.insert(claim.key)
            let newestFirst = images.sorted {
                ($0.attachment.buildOrder, $0.attachment.checkedAt ?? "") > ($1.attachment.buildOrder, $1.attachment.checkedAt ?? "")
            }
            var html = "<section class=\"across-builds\" id=\"screenshots-\(HTML.anchor(claim.key))\">"
            html += "<h3><a href=\"#claim-\(HTML.anchor(claim.key))\">\(Self.e(claim.key))</a> across builds</h3>\n<div class=\"builds\">"
            for image in newestFirst {
                let file = image.attachment
                html += "<figure class=\"shot\">" + picture(image) + "<figcaption><strong>\(Self.e(file.build))</strong><br>"
                html += Self.e(file.result.rawValue + (file.retracted ? " (retracted)" : "")) + " on " + Self.e(file.environment)
                html += ", " + Self.e(file.checkedAt ?? "date not recorded") + "<br>" + runLink(file.run) + "</figcaption></figure>"
            }
            writer.block(html + "</div></section>\n")
        }
        let rest = pictures.images.filter { !compared.contains($0.attachment.claim) }
        guard !rest.isEmpty else { return }
        // The others in a grid: each picture at its own size, what it shows under it.
        writer.block("<div class=\"shots\">\n")
        for image in rest {
            let file = image.attachment
            var html = "<figure class=\"shot\">" + picture(image) + "<figcaption><a href=\"#claim-\(HTML.anchor(file.claim))\">"
            html += Self.e(file.claim) + "</a><br>" + Self.e(file.result.rawValue + (file.retracted ? " (retracted)" : ""))
            if file.withFailure { html += ", <strong>taken at a failure</strong>" }
            html += " on " + Self.e(file.environment) + ", " + Self.e(file.checkedAt ?? "date not recorded") + "<br>"
            writer.block(html + runLink(file.run) + "</figcaption></figure>\n")
        }
        writer.block("</div>\n")
    }

    /// An image embedded with its name under it, or its name and why it is not shown.
    private func picture(_ image: ReportImage) -> String {
        let file = image.attachment
        let name = "<code>\(Self.e(file.path))</code> (\(Self.e(file.mediaType)), \(Self.e(Self.size(file.size))))"
        switch image.content {
        case .embedded(let mediaType, let bytes):
            return "<img src=\"data:\(Self.e(mediaType));base64," + Data(bytes).base64EncodedString()
                + "\" alt=\"\(Self.e(file.path)), attached to the \(file.result.rawValue) of \(Self.e(file.claim))\"><span class=\"name\">\(name)</span>"
        case .notShown(let reason):
            return "<span class=\"name\">" + name + ": <strong>" + Self.e(reason) + "</strong></span>"
        }
    }

    /// "run 2cee86e8", linked where the run log shows the run.
    private func runLink(_ run: String) -> String {
        let text = "run " + Self.e(String(run.prefix(8)))
        guard pictures.shownRuns?.contains(run) ?? true else { return text }
        return "<a href=\"#run-\(HTML.anchor(run))\">\(text)</a>"
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
