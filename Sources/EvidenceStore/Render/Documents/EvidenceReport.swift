/// The evidence report: a legend of labels and states, claims by label and
/// state, every claim with its state, sources and evidence, the run log, what
/// still needs a device, what went stale, what is not published, and the labels
/// the evidence does not support. Its content is built here once from read
/// models and written through any `DocumentWriter`.
public struct EvidenceReport {
    public var documents: [String]
    /// A time to print as the generation time; nil for none, so the bytes stay stable.
    public var stamp: String?
    public var claims: [ReportClaim]
    public var runLog: any RunLogSource
    public var deviceNeeds: [DeviceNeed]
    public var notPublished: [NotPublishedClaim]
    public var mismatches: [Mismatch]
    /// Claims that both passed and failed on one environment within their last results.
    public var flaky: [FlakyListing]
    /// The older runs the run log leaves out.
    public var runsLeftOut: Int

    public init(
        documents: [String], stamp: String?, claims: [ReportClaim], runLog: any RunLogSource, deviceNeeds: [DeviceNeed],
        notPublished: [NotPublishedClaim], mismatches: [Mismatch], flaky: [FlakyListing] = [], runsLeftOut: Int = 0
    ) {
        self.runsLeftOut = runsLeftOut
        self.flaky = flaky
        self.documents = documents
        self.stamp = stamp
        self.claims = claims
        self.runLog = runLog
        self.deviceNeeds = deviceNeeds
        self.notPublished = notPublished
        self.mismatches = mismatches
    }

    /// Claims verified only on builds older than the newest recorded for their model, by key.
    public var stale: [ReportClaim] {
        // As SQLite orders text: by UTF-8 bytes.
        claims.filter { $0.state == .stale }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    public func write(to writer: DocumentWriter) throws {
        writeOpening(to: writer)
        try writeRuns(to: writer)
        try writeClosing(to: writer)
    }

    /// The runs of the run log, newest first: what a lead opens the log for.
    public func writeRuns(to writer: DocumentWriter) throws {
        for index in (0..<runLog.runCount).reversed() {
            try Self.writeRun(index, of: runLog, to: writer)
        }
    }

    /// Everything before the runs of the run log: the legends, the summary,
    /// then what `beforeClaims` writes (the HTML report's pictures), the
    /// claims, and the run log's heading.
    public func writeOpening(to writer: DocumentWriter, beforeClaims: (DocumentWriter) -> Void = { _ in }) {
        writer.heading(1, "Evidence report")
        writer.beginParagraph()
        let apart = claims.count { !$0.label.isQAWork }
        writer.text(
            "Claims of " + (documents.isEmpty ? "no documents" : documents.listed("and")) + ": \(claims.count) in all"
                + (apart > 0 ? ", \(claims.count - apart) to check and \(apart) not published" : "")
                + ". Every state below is derived from the results in the store.")
        if let stamp {
            writer.lineBreak()
            writer.text("Generated " + stamp + ".")
        }
        writer.endParagraph()
        writeLegends(to: writer)
        writeSummary(to: writer)
        beforeClaims(writer)
        writeClaims(to: writer)
        writer.heading(2, "Run log")
        if runLog.runCount == 0 && runsLeftOut == 0 { writer.paragraph("No runs yet.") }
        if runsLeftOut > 0 {
            writer.paragraph(
                "The newest \(NumberText.counted(runLog.runCount, "run")), newest first; \(NumberText.counted(runsLeftOut, "older run")) "
                    + "left out: evidence run list lists every run, and evidence report --runs all writes them all.")
        }
    }

    /// Everything after the runs of the run log: what still needs a device,
    /// what went stale, what is not published, the mismatches and the flaky.
    public func writeClosing(to writer: DocumentWriter) throws {
        writeDeviceNeeds(to: writer)
        writeStale(to: writer)
        writeNotPublished(to: writer)
        writeMismatches(to: writer)
        writeFlaky(to: writer)
        try writer.finish()
    }

    // MARK: - Sections

    private func writeLegends(to writer: DocumentWriter) {
        writer.heading(2, "Labels")
        writer.paragraph("What a document says about a claim.")
        writer.table(columns: ["label", "meaning"], rows: Label.allCases.map { [$0.rawValue, $0.meaning] })
        writer.heading(2, "States")
        writer.paragraph("What the evidence says about a claim.")
        writer.table(
            columns: ["state", "meaning"], rows: VerificationState.allCases.map { [$0.rawValue, $0.meaning] })
    }

    /// Claims by label and state; every label and every state has a row and a
    /// column, from the Model's enums, so none goes uncounted.
    private func writeSummary(to writer: DocumentWriter) {
        var counts: [Label: [VerificationState: Int]] = [:]
        for claim in claims { counts[claim.label, default: [:]][claim.state, default: 0] += 1 }
        writer.heading(2, "Summary")
        writer.paragraph(
            "Claims by label and state. Not-published claims record what the vendor has not said: they are not QA work, "
                + "so they are counted apart.")
        let states = VerificationState.allCases
        writer.beginTable(columns: ["label"] + states.map(\.rawValue) + ["total"])
        func write(_ name: String, _ row: [Int]) {
            writer.row([name] + row.map(String.init) + [String(row.reduce(0, +))])
        }
        func add(_ a: [Int], _ b: [Int]) -> [Int] { zip(a, b).map { $0 + $1 } }
        let zero = [Int](repeating: 0, count: states.count)
        var work = zero
        var apart = zero
        for label in Label.allCases where label.isQAWork {
            let row = states.map { counts[label]?[$0] ?? 0 }
            work = add(work, row)
            write(label.rawValue, row)
        }
        write("QA work", work)
        for label in Label.allCases where !label.isQAWork {
            let row = states.map { counts[label]?[$0] ?? 0 }
            apart = add(apart, row)
            write(label.rawValue, row)
        }
        write("all claims", add(work, apart))
        writer.endTable()
    }

    private func writeClaims(to writer: DocumentWriter) {
        writer.heading(2, "Claims")
        writer.paragraph(
            "Each claim once: its state and why, the result it rests on and that result's measurements against what the claim "
                + "expects. evidence history KEY lists every result of a claim, evidence claim show KEY everything about it.")
        var document: String?
        var area: String?
        for claim in claims {
            if claim.document != document {
                if area != nil { writer.endTable() }
                document = claim.document
                area = nil
                writer.heading(3, claim.document)
            }
            if claim.area != area {
                if area != nil { writer.endTable() }
                area = claim.area
                writer.heading(4, claim.area)
                writer.beginTable(columns: ["claim", "statement", "label", "state", "sources", "evidence"])
            }
            writer.beginRow(anchor: "claim-" + claim.key)
            writer.beginCell()
            writer.text(claim.key)
            if !claim.owner.isEmpty {
                writer.lineBreak()
                writer.text("owner: " + claim.owner)
            }
            writer.endCell()
            writer.beginCell()
            writer.prose(claim.statement)
            writer.endCell()
            writer.cell(claim.label.rawValue + (claim.asOf.map { " (as of \($0))" } ?? ""))
            writer.beginCell()
            Self.writeReason(claim.state.rawValue + ": " + claim.reason, known: claim.knownIssues, to: writer)
            writer.endCell()
            writer.beginCell()
            if claim.sources.isEmpty { writer.text("none") }
            for (index, source) in claim.sources.enumerated() {
                if index > 0 { writer.lineBreak() }
                writer.link(source.title + (source.locator.isEmpty ? "" : " (\(source.locator))"), to: source.fullURL)
            }
            writer.endCell()
            writer.beginCell()
            // The state's reason names the result it rests on when it is a pass
            // or fail of this run; then only its posture is added.
            var lines: [String] = []
            if let decided = claim.decidedBy {
                if claim.reasonNamesRun {
                    if let posture = decided.posture { lines.append("posture: " + posture) }
                } else {
                    lines.append(Self.evidence("decided by: ", decided))
                }
            }
            // A later result that decides nothing is shown when it could matter:
            // a fail, skip, block or inconclusive; a pass that decides nothing is in the history.
            if let last = claim.lastLogged, last.result != "pass" { lines.append(Self.evidence("last logged: ", last)) }
            lines += claim.measured.map { "measured " + $0.name + ": " + $0.summary + ($0.posture.map { ", " + $0.rawValue } ?? "") }
            lines += claim.unmeasured.map { "expected \($0.name): \($0.summary), not measured in the result it rests on" }
            // Results on other models count for nothing: the first few, failures first, then how many more.
            let others = claim.otherModels.filter { $0.result == "fail" } + claim.otherModels.filter { $0.result != "fail" }
            lines += others.prefix(Self.otherModelsShown).map { Self.evidence("on other models (not counted): ", $0) }
            if others.count > Self.otherModelsShown {
                lines.append("and \(others.count - Self.otherModelsShown) more on other models (not counted): evidence claim show \(claim.key)")
            }
            if claim.resultCount > 1 { lines.append("\(claim.resultCount) results") }
            if lines.isEmpty { writer.text("none") }
            for (index, line) in lines.enumerated() {
                if index > 0 { writer.lineBreak() }
                writer.text(line)
            }
            writer.endCell()
            writer.endRow()
        }
        if area != nil { writer.endTable() }
    }

    /// How many results on other models a claim's row names before it counts the rest.
    static let otherModelsShown = 3

    /// A state's reason, the issues known to track a failure (which it ends
    /// with) as links to them.
    static func writeReason(_ reason: String, known: [String], to writer: DocumentWriter) {
        let tail = "; known: " + known.joined(separator: ", ")
        guard !known.isEmpty, reason.hasSuffix(tail) else { return writer.text(reason) }
        writer.text(String(reason.dropLast(tail.count - "; known: ".count)))
        for (index, url) in known.enumerated() {
            if index > 0 { writer.text(", ") }
            let shown = url.replacingEvery("https://", with: "").replacingEvery("http://", with: "")
            writer.link(shown, to: url)
        }
    }

    /// "latest: pass on iPhone Duo simulator…, run 2cee86e8, 2026-10-20, closed"
    private static func evidence(_ role: String, _ item: ReportClaim.Evidence) -> String {
        var text = role + "\(item.result) on \(item.environment), run \(item.run), "
        text += item.checkedAt ?? "date not recorded"
        if let posture = item.posture { text += ", \(posture)" }
        return text
    }

    // MARK: - The run log

    /// One run of the run log: its header, its results, its automated tests
    /// that map to no claim.
    public static func writeRun(_ index: Int, of log: RunLogSource, to writer: DocumentWriter) throws {
        var tableOpen = false
        var startedAt: String?
        try log.forEachEvent(ofRun: index) { event in
            switch event {
            case .runStart(let run):
                startedAt = run.startedAt
                writeRunHeader(run, to: writer)
            case .entry(let entry):
                if !tableOpen {
                    writer.beginTable(columns: ["claim", "result", "posture", "note", "measurements"])
                    tableOpen = true
                }
                writeRunLogRow(entry, runStartedAt: startedAt, to: writer)
            case .runEnd(let run):
                if tableOpen {
                    writer.endTable()
                    tableOpen = false
                }
                writeUnmapped(run, to: writer)
            }
        }
    }

    private static func writeRunHeader(_ run: RunLogRun, to writer: DocumentWriter) {
        let environment = run.environment
        writer.heading(
            3,
            "Run " + String(run.uuid.prefix(8)) + ", " + (run.startedAt ?? "date not recorded") + ", " + environment.model + " "
                + environment.kind.rawValue + ", " + environment.buildLabel,
            anchor: "run-" + run.uuid)
        var facts: [(String, String)] = [
            ("Environment", "\(environment.model), \(environment.kind.rawValue)"),
            ("OS", version(environment.osName, environment.osVersion, environment.osBuild)),
            ("Tool", version(environment.toolName, environment.toolVersion, environment.toolBuild)),
            ("Tester", run.tester.isEmpty ? "not recorded" : run.tester),
            ("Run", run.uuid),
        ]
        if !run.note.isEmpty { facts.append(("Note", run.note)) }
        if let file = run.sourceFile { facts.append(("Ingested from", file)) }
        if let retraction = run.retraction {
            facts.append(("Retracted", "by \(retraction.by) on \(retraction.at.prefix(10)): \(retraction.reason); its results count for nothing"))
        }
        writer.beginList()
        for (name, value) in facts {
            writer.beginItem(checked: nil)
            writer.text(name + ": ")
            writer.text(value)
            writer.endItem()
        }
        writer.endList()
    }

    /// One result as a table row: claim, result, posture, a note cell (when it
    /// was checked if not when the run started, the automated test and its
    /// duration, the note, a failure message) and its measurements.
    private static func writeRunLogRow(_ entry: RunLogEntry, runStartedAt: String?, to writer: DocumentWriter) {
        writer.beginRow(anchor: nil)
        writer.cell(entry.claimKey)
        writer.cell(entry.result.rawValue + (entry.retraction == nil ? "" : " (retracted)"))
        writer.cell(entry.posture?.rawValue ?? "")
        writer.beginCell()
        var first = true
        func nextLine() {
            if !first { writer.lineBreak() }
            first = false
        }
        if let retraction = entry.retraction, !retraction.wholeRun {
            nextLine()
            writer.text(retraction.summary)
        }
        if let checked = entry.checkedAt, checked != runStartedAt {
            nextLine()
            writer.text("checked ")
            writer.text(checked)
        }
        if let test = entry.testID {
            nextLine()
            writer.text("test ")
            writer.text(test)
            if let duration = entry.duration {
                writer.text(" (")
                writer.text(NumberText.format(duration))
                writer.text(" s)")
            }
            if !entry.note.isEmpty { writer.text(": ") }
            writer.text(entry.note)
        } else if !entry.note.isEmpty {
            nextLine()
            writer.text(entry.note)
        }
        if let message = entry.message, !message.isEmpty {
            nextLine()
            writer.text(message)
        }
        writer.endCell()
        writer.beginCell()
        for (index, measurement) in entry.measurements.enumerated() {
            if index > 0 { writer.lineBreak() }
            writer.text(measurement.name)
            writer.text(": ")
            writer.text(measurement.summary)
            if let posture = measurement.posture {
                writer.text(", ")
                writer.text(posture.rawValue)
            }
        }
        writer.endCell()
        writer.endRow()
    }

    private static func writeUnmapped(_ run: RunLogRun, to writer: DocumentWriter) {
        guard !run.unmappedCounts.isEmpty else { return }
        let total = run.unmappedCounts.reduce(0) { $0 + $1.count }
        let breakdown = run.unmappedCounts.map { "\($0.count) \($0.outcome)" }.joined(separator: ", ")
        writer.paragraph("Automated tests that map to no claim: \(total) (\(breakdown)).")
        guard !run.unmappedFailures.isEmpty else { return }
        writer.paragraph("Their failures:")
        writer.beginList()
        for (test, message) in run.unmappedFailures {
            writer.beginItem(checked: nil)
            writer.text(test)
            if !message.isEmpty {
                writer.text(": ")
                writer.text(message)
            }
            writer.endItem()
        }
        writer.endList()
    }

    /// "iOS 27.1, build 23B85"; whatever is missing is said to be.
    static func version(_ name: String, _ version: String, _ build: String) -> String {
        if name.isEmpty && version.isEmpty && build.isEmpty { return "not recorded" }
        var text = name.isEmpty ? "name not recorded" : name
        text += version.isEmpty ? ", version not recorded" : " " + version
        return text + (build.isEmpty ? ", build not recorded" : ", build " + build)
    }

    // MARK: - What is left to do

    private func writeDeviceNeeds(to writer: DocumentWriter) {
        writer.heading(2, "Still needs a device")
        guard !deviceNeeds.isEmpty else {
            writer.paragraph("None.")
            return
        }
        writer.paragraph(
            "Claims that need a capability the simulator of their models lacks as of the newest record: the record "
                + "that decides, and who says so.")
        writer.beginTable(columns: ["claim", "needs", "lacked by", "says who"])
        for need in deviceNeeds {
            writer.beginRow(anchor: nil)
            writer.cell(need.claim)
            writer.cell(need.capability)
            writer.cell(need.lackedBy)
            writer.beginCell()
            if let title = need.sourceTitle, let url = need.sourceURL {
                writer.link(title, to: url)
            } else {
                writer.text("reported in " + (need.reportedIn ?? "an unnamed document"))
            }
            if !need.note.isEmpty {
                writer.text(": ")
                writer.text(need.note)
            }
            writer.endCell()
            writer.endRow()
        }
        writer.endTable()
    }

    /// The claims are named; why each is stale is its reason in Claims.
    private func writeStale(to writer: DocumentWriter) {
        writer.heading(2, "Stale")
        let keys = stale.map(\.key)
        guard !keys.isEmpty else { return writer.paragraph("None.") }
        writer.paragraph(
            "Verified only on builds older than the newest recorded for their model, or on words the claim no longer has "
                + "(\(NumberText.counted(keys.count, "claim"))): " + keys.joined(separator: ", ") + ".")
    }

    /// The claims are named, their words are in Claims.
    private func writeNotPublished(to writer: DocumentWriter) {
        writer.heading(2, "Not published")
        guard !notPublished.isEmpty else { return writer.paragraph("None.") }
        writer.paragraph("What the vendor had not published as of the date given; each claim's words are in Claims.")
        writer.table(columns: ["claim", "as of"], rows: notPublished.map { [$0.claim, $0.asOf ?? "not recorded"] })
    }

    /// Each problem once with the claims that have it; their labels, states
    /// and reasons are in their rows in Claims.
    private func writeMismatches(to writer: DocumentWriter) {
        writer.heading(2, "Mismatches")
        guard !mismatches.isEmpty else { return writer.paragraph("None: every label agrees with its evidence.") }
        var problems: [String] = []
        var claims: [String: [String]] = [:]
        for mismatch in mismatches {
            if claims[mismatch.problem] == nil { problems.append(mismatch.problem) }
            claims[mismatch.problem, default: []].append(mismatch.claim)
        }
        writer.table(
            columns: ["problem", "claims"],
            rows: problems.sorted().map { problem in
                let keys = claims[problem] ?? []
                return [problem + " (\(keys.count))", keys.joined(separator: ", ")]
            })
    }

    /// Flaky claims by environment, each environment named once.
    private func writeFlaky(to writer: DocumentWriter) {
        writer.heading(2, "Flaky")
        guard !flaky.isEmpty else {
            return writer.paragraph(
                "None: no claim both passed and failed on one environment within its last \(FlakyListing.defaultWindow) results there.")
        }
        writer.paragraph(
            "Claims that both passed and failed on one environment within their last \(FlakyListing.defaultWindow) results there.")
        var environments: [String] = []
        var rows: [String: [[String]]] = [:]
        for listing in flaky {
            if rows[listing.environment] == nil { environments.append(listing.environment) }
            rows[listing.environment, default: []].append(
                [listing.name, String(listing.passes), String(listing.fails), String(listing.results)])
        }
        for environment in environments.sorted() {
            writer.heading(3, environment)
            writer.table(columns: ["claim", "passes", "fails", "of the last"], rows: rows[environment] ?? [])
        }
    }

    /// A section that is a table of plain text, or a sentence when it has no rows.
    private static func section(
        _ title: String, none: String, columns: [String], rows: [[String]], to writer: DocumentWriter
    ) {
        writer.heading(2, title)
        if rows.isEmpty {
            writer.paragraph(none)
        } else {
            writer.table(columns: columns, rows: rows)
        }
    }

}
