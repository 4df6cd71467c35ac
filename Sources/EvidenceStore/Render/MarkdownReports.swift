import Foundation

/// The Markdown that writers publish: the evidence report, the checklist and
/// the source list. Same store, same bytes: nothing depends on the clock
/// unless a stamp is asked for, and every value is escaped.
public enum MarkdownReports {
    public struct Options: Sendable {
        public var document: String?
        /// A time to print as the generation time; nil for none.
        public var stamp: String?

        /// From this many results up (by the newest id), the run log is written by two connections
        /// at once; tests lower it to cover that path on small stores.
        var parallelFrom = 50_000

        public init(document: String? = nil, stamp: String? = nil) {
            self.document = document
            self.stamp = stamp
        }
    }

    static let labelMeanings: [(String, String)] = [
        ("measured", "We ran it on a simulator or a device; a passing result in this store must back it."),
        ("unverified", "We could not confirm it."),
        ("not-published", "The vendor had published nothing about it as of the date given."),
        ("sourced", "A vendor page says so; the claim links to it."),
    ]

    static let stateMeanings: [(String, String)] = [
        ("verified-on-device", "Passed on a device with the newest builds recorded for its model, which has every capability the claim needs."),
        ("verified-in-simulator", "Passed on a simulator with the newest builds recorded for its model, which has every capability the claim needs."),
        ("stale", "Passed, but only on OS or Xcode builds older than the newest recorded for that model."),
        ("needs-device", "Needs a capability the simulator lacks, and has not passed where it is present."),
        ("failing", "Its latest result is a failure."),
        ("untested", "No result yet, or neither a pass nor a failure."),
    ]

    static let kindNames: [String: String] = [
        "newsroom": "Newsroom", "doc": "Documentation", "hig": "Human Interface Guidelines", "video": "Videos",
        "tech-talk": "Tech Talks", "specs": "Specifications", "release-notes": "Release notes", "article": "Articles",
        "other": "Other",
    ]

    // MARK: - The evidence report

    public static func report(_ store: Store, options: Options = Options(), into out: TextSink) throws {
        // A large store gets a second connection, to write part of the run log
        // on the other core; both read the same snapshot, as every section does.
        let large = try store.database.scalar("SELECT coalesce(max(id), 0) FROM results").int ?? 0 >= options.parallelFrom
        var partner = large ? try? Store.open(at: store.path, access: .readOnly) : nil
        if let second = partner, (try? Store.beginReading([store, second])) == nil {
            // No write lock to line the snapshots up (a read-only file, say): one
            // connection writes it all.
            second.close()
            partner = nil
        }
        if partner == nil { try Store.beginReading([store]) }
        defer {
            store.endReading()
            partner?.endReading()
            partner?.close()
        }
        try writeReport(store, partner: partner, options: options, into: out)
    }

    private static func writeReport(_ store: Store, partner: Store?, options: Options, into out: TextSink) throws {
        try store.checkDocument(options.document)
        // The run log is most of a large report. The partner writes runs from
        // the last one back while this thread writes the other sections and
        // then runs from the first one on; they stop where they meet.
        let runs = try store.runLogRuns(document: options.document)
        let queue = RunQueue(count: runs.count)
        let helper = partner.flatMap { runs.count > 1 ? PartnerWork($0, runs: runs, queue: queue, document: options.document) : nil }
        helper?.start()
        defer {
            queue.stop()
            _ = try? helper?.finish()
        }

        let documents = try options.document.map { [$0] } ?? store.documents()
        // Every claim with its state, read once: the summary counts them and the
        // stale section picks from them.
        let claims = try store.reportClaims(document: options.document)
        let total = claims.count
        out.write("# Evidence report\n\n")
        out.write(
            "Claims of " + Markdown.escape(list(documents)) + ": \(total) in all. Every state below is derived from the results in the store.\n")
        if let stamp = options.stamp {
            out.write("Generated " + Markdown.escape(stamp) + ".\n")
        }

        out.write("\n## Labels\n\nWhat a document says about a claim.\n\n" + Markdown.header(["label", "meaning"]))
        for (label, meaning) in labelMeanings { out.write(Markdown.row([label, meaning])) }
        out.write("\n## States\n\nWhat the evidence says about a claim.\n\n" + Markdown.header(["state", "meaning"]))
        for (state, meaning) in stateMeanings { out.write(Markdown.row([state, meaning])) }

        writeSummary(claims, into: out)
        writeClaims(claims, into: out)
        // The sections after the run log are read now, while the partner works.
        let needs = try store.deviceNeeds(document: options.document)
        let stale = claims.filter { $0.state == "stale" }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }  // as SQLite orders text
            .map { (claim: $0.key, reason: $0.reason) }
        let notPublished = try store.notPublished(document: options.document)
        let mismatches = try store.mismatches(document: options.document)

        out.write("\n## Run log\n")
        if runs.isEmpty { out.write("\nNo runs yet.\n") }
        let reader = try RunLogReader(store, document: options.document, key: escapedKey)
        while let index = queue.takeFront() {
            try writeRun(runs[index], reader: reader, into: out)
        }
        if let helper {
            // The partner's runs are in its spool last first.
            let chunks = try helper.finish()
            try out.appendFile(helper.spool, ranges: chunks.reversed())
        }

        writeDeviceNeeds(needs, into: out)
        writeStale(stale, into: out)
        writeNotPublished(notPublished, into: out)
        writeMismatches(mismatches, into: out)
    }

    private static func writeSummary(_ claims: [ReportClaim], into out: TextSink) {
        var counts: [String: [String: Int]] = [:]
        for claim in claims { counts[claim.label, default: [:]][claim.state, default: 0] += 1 }
        out.write("\n## Summary\n\nClaims by label and state.\n\n")
        let states = stateMeanings.map(\.0)
        out.write(Markdown.header(["label"] + states + ["total"]))
        var columnTotals = [Int](repeating: 0, count: states.count)
        for (label, _) in labelMeanings {
            var cells = [label]
            var rowTotal = 0
            for (index, state) in states.enumerated() {
                let n = counts[label]?[state] ?? 0
                cells.append(String(n))
                rowTotal += n
                columnTotals[index] += n
            }
            out.write(Markdown.row(cells + [String(rowTotal)]))
        }
        out.write(Markdown.row(["total"] + columnTotals.map(String.init) + [String(columnTotals.reduce(0, +))]))
    }

    private static func writeClaims(_ claims: [ReportClaim], into out: TextSink) {
        out.write("\n## Claims\n")
        var document = ""
        var area = ""
        for claim in claims {
            if claim.document != document {
                document = claim.document
                area = ""
                out.write("\n### " + Markdown.escape(document) + "\n")
            }
            if claim.area != area {
                area = claim.area
                out.write("\n#### " + Markdown.escape(area) + "\n\n")
                out.write(Markdown.header(["claim", "statement", "label", "state", "sources", "evidence"]))
            }
            let label = claim.label + (claim.asOf.map { " (as of \($0))" } ?? "")
            let sources = claim.sources.map { source in
                Markdown.link(source.title + (source.locator.isEmpty ? "" : " (\(source.locator))"), to: source.fullURL)
            }.joined(separator: "<br>")
            var evidence = claim.evidence.enumerated().map { index, item in
                var text = (index == 0 ? "latest: " : "verified by: ") + "\(item.result) on \(item.environment), run \(item.run), "
                text += item.checkedAt ?? "date not recorded"
                if let posture = item.posture { text += ", \(posture)" }
                return Markdown.escape(text)
            }
            if claim.resultCount > 1 {
                evidence.append(Markdown.escape("\(claim.resultCount) results in all, in the run log"))
            }
            out.write(Markdown.rawRow([
                Markdown.escape(claim.key), Markdown.escape(claim.statement), Markdown.escape(label),
                Markdown.escape(claim.state + ": " + claim.reason), sources.isEmpty ? "none" : sources,
                evidence.isEmpty ? "none" : evidence.joined(separator: "<br>"),
            ]))
        }
    }

    /// A claim key as a run log row writes it, escaped once per claim.
    static func escapedKey(_ key: String) -> [UInt8] {
        Array(Markdown.escape(key).utf8)
    }

    /// One run of the run log: its header, its results, its unmapped tests.
    static func writeRun(_ run: RunLogRun, reader: RunLogReader, into out: TextSink) throws {
        var tableOpen = false
        var startedAt: [UInt8]?
        try reader.read(run) { event in
            switch event {
            case .runStart(let run):
                startedAt = run.startedAt.map { Array($0.utf8) }
                writeRunHeader(run, into: out)
            case .entry(let entry):
                if !tableOpen {
                    out.write("\n" + Markdown.header(["claim", "result", "posture", "note", "measurements"]))
                    tableOpen = true
                }
                try writeRunLogRow(entry, runStartedAt: startedAt, into: out)
            case .runEnd(let run):
                writeUnmapped(run, into: out)
            }
        }
    }

    private static func writeRunHeader(_ run: ReportRun, into out: TextSink) {
        let environment = run.environment
        out.write("\n### Run " + String(run.uuid.prefix(8)) + ", " + (run.startedAt ?? "date not recorded") + "\n\n")
        var facts: [(String, String)] = [
            ("Environment", "\(environment.model), \(environment.kind.rawValue)"),
            ("OS", version(environment.osName, environment.osVersion, environment.osBuild)),
            ("Tool", version(environment.toolName, environment.toolVersion, environment.toolBuild)),
            ("Tester", run.tester.isEmpty ? "not recorded" : run.tester),
            ("Run", run.uuid),
        ]
        if !run.note.isEmpty { facts.append(("Note", run.note)) }
        if let file = run.sourceFile { facts.append(("Ingested from", file)) }
        for (name, value) in facts {
            out.write("- " + name + ": " + Markdown.escape(value) + "\n")
        }
    }

    /// One result as a table row, written straight from the cursor's bytes.
    private static func writeRunLogRow(_ entry: RunLogEntry, runStartedAt: [UInt8]?, into out: TextSink) throws {
        // The note cell: when it was checked (if not when the run started), the
        // automated test and its duration, the note, and a failure message.
        var lines: [String] = []
        if let checked = entry.checkedAt(unlessSameAs: runStartedAt) { lines.append("checked " + checked) }
        var noteLine: String?
        if let test = entry.testID {
            noteLine = "test " + test + (entry.duration.map { " (" + SQLValue.format($0) + " s)" } ?? "")
        }
        let message = entry.message.flatMap { $0.isEmpty ? nil : $0 }
        try out.append { buffer in
            func cell(_ bytes: UnsafeBufferPointer<UInt8>) {
                Markdown.escape(bytes, into: &buffer)
            }
            /// An empty cell holds a space, as `Markdown.rawRow` writes it.
            func filledCell(_ bytes: UnsafeBufferPointer<UInt8>) {
                if bytes.isEmpty { buffer.append(UInt8(ascii: " ")) } else { cell(bytes) }
            }
            func text(_ string: String) {
                Markdown.escape(string, into: &buffer)
            }
            func literal(_ string: StaticString) {
                buffer.append(contentsOf: UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
            }
            literal("| ")
            buffer.append(contentsOf: entry.claimKey)
            literal(" | ")
            entry.result(filledCell)
            literal(" | ")
            entry.posture(filledCell)
            literal(" | ")
            var first = true
            for line in lines {
                if !first { literal("<br>") }
                text(line)
                first = false
            }
            entry.note { note in
                if let noteLine {
                    if !first { literal("<br>") }
                    text(noteLine + (note.isEmpty ? "" : ": "))
                    first = false
                    cell(note)
                } else if !note.isEmpty {
                    if !first { literal("<br>") }
                    cell(note)
                    first = false
                }
            }
            if let message {
                if !first { literal("<br>") }
                text(message)
                first = false
            }
            if first { literal(" ") }
            literal(" | ")
            var measured = false
            try entry.forEachMeasurement { name, value, unit, baseline, posture in
                if measured { literal("<br>") }
                measured = true
                cell(name)
                literal(": ")
                // Numbers and a unit from the vocabulary: nothing to escape.
                MeasurementDraft.appendSummary(value: value, unit: unit, baseline: baseline, into: &buffer)
                if let posture { text(", " + posture) }
            }
            if !measured { literal(" ") }
            literal(" |\n")
        }
    }

    private static func writeUnmapped(_ run: ReportRun, into out: TextSink) {
        guard !run.unmappedCounts.isEmpty else { return }
        let total = run.unmappedCounts.reduce(0) { $0 + $1.1 }
        let breakdown = run.unmappedCounts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        out.write("\nAutomated tests that map to no claim: \(total) (\(breakdown)).\n")
        if !run.unmappedFailures.isEmpty {
            out.write("\nTheir failures:\n\n")
            for (test, message) in run.unmappedFailures {
                out.write("- " + Markdown.escape(test) + (message.isEmpty ? "" : ": " + Markdown.escape(message)) + "\n")
            }
        }
    }

    /// "iOS 27.1, build 23B85"; whatever is missing is said to be.
    private static func version(_ name: String, _ version: String, _ build: String) -> String {
        if name.isEmpty && version.isEmpty && build.isEmpty { return "not recorded" }
        var text = name.isEmpty ? "name not recorded" : name
        text += version.isEmpty ? ", version not recorded" : " " + version
        return text + (build.isEmpty ? ", build not recorded" : ", build " + build)
    }

    private static func writeDeviceNeeds(_ needs: [DeviceNeed], into out: TextSink) {
        out.write("\n## Still needs a device\n\n")
        guard !needs.isEmpty else {
            out.write("None.\n")
            return
        }
        out.write("Claims that need a capability the simulator lacks, and who says it lacks it.\n\n")
        out.write(Markdown.header(["claim", "needs", "lacked by", "says who"]))
        for need in needs {
            var witness: String
            if let title = need.sourceTitle, let url = need.sourceURL {
                witness = Markdown.link(title, to: url)
            } else {
                witness = Markdown.escape("reported in " + (need.reportedIn ?? "an unnamed document"))
            }
            if !need.note.isEmpty { witness += ": " + Markdown.escape(need.note) }
            out.write(Markdown.rawRow([
                Markdown.escape(need.claim), Markdown.escape(need.capability), Markdown.escape(need.lackedBy), witness,
            ]))
        }
    }

    private static func writeStale(_ stale: [(claim: String, reason: String)], into out: TextSink) {
        out.write("\n## Stale\n\n")
        guard !stale.isEmpty else {
            out.write("None.\n")
            return
        }
        out.write(Markdown.header(["claim", "last verified"]))
        for claim in stale { out.write(Markdown.row([claim.claim, claim.reason])) }
    }

    private static func writeNotPublished(_ claims: [(claim: String, asOf: String?, statement: String)], into out: TextSink) {
        out.write("\n## Not published\n\n")
        guard !claims.isEmpty else {
            out.write("None.\n")
            return
        }
        out.write(Markdown.header(["claim", "as of", "statement"]))
        for claim in claims { out.write(Markdown.row([claim.claim, claim.asOf ?? "not recorded", claim.statement])) }
    }

    private static func writeMismatches(
        _ mismatches: [(claim: String, label: String, state: String, problem: String)], into out: TextSink
    ) {
        out.write("\n## Mismatches\n\n")
        guard !mismatches.isEmpty else {
            out.write("None: every label agrees with its evidence.\n")
            return
        }
        out.write(Markdown.header(["claim", "label", "state", "problem"]))
        for item in mismatches { out.write(Markdown.row([item.claim, item.label, item.state, item.problem])) }
    }

    // MARK: - The checklist

    public static func checklist(_ store: Store, options: Options = Options(), into out: TextSink) throws {
        let lists = try store.checklists(document: options.document)
        if lists.isEmpty {
            out.write("# Checklists\n\nNo checklists yet.\n")
            return
        }
        for (index, list) in lists.enumerated() {
            if index > 0 { out.write("\n") }
            out.write("# " + Markdown.escape(list.title) + "\n\n")
            if let stamp = options.stamp { out.write("Generated " + Markdown.escape(stamp) + ".\n\n") }
            for item in list.items {
                out.write("- [" + (item.ticked ? "x" : " ") + "] " + Markdown.escape(item.text))
                if let why = item.why { out.write(" (" + Markdown.escape(why) + ")") }
                out.write("\n")
            }
        }
    }

    // MARK: - The source list

    public static func sources(_ store: Store, options: Options = Options(), into out: TextSink) throws {
        try store.checkDocument(options.document)
        out.write("# Sources\n")
        if let document = options.document {
            out.write("\nCited by claims of " + Markdown.escape(document) + ".\n")
        }
        if let stamp = options.stamp { out.write("\nGenerated " + Markdown.escape(stamp) + ".\n") }
        let sources = try store.citedSources(document: options.document)
        if sources.isEmpty { out.write("\nNo sources yet.\n") }
        var publisher: String?
        var kind: String?
        for source in sources {
            if source.publisher != publisher {
                publisher = source.publisher
                kind = nil
                out.write("\n## " + Markdown.escape(source.publisher) + "\n")
            }
            if source.kind != kind {
                kind = source.kind
                out.write("\n### " + Markdown.escape(kindNames[source.kind] ?? source.kind) + "\n\n")
            }
            var line = "- " + Markdown.link(source.title, to: source.url) + "."
            var dates: [String] = []
            if let date = source.published { dates.append("published \(date)") }
            if let date = source.updated { dates.append("updated \(date)") }
            if let date = source.retrieved { dates.append("retrieved \(date)") }
            if !dates.isEmpty { line += " " + Markdown.escape(dates.joined(separator: ", ").capitalizedFirst) + "." }
            if source.citations.isEmpty {
                line += " Cited by no claim."
            } else {
                let cited = source.citations.map { $0.0 + ($0.1.isEmpty ? "" : " (\($0.1))") }
                line += " Cited by " + Markdown.escape(list(cited)) + "."
            }
            if !source.lacks.isEmpty {
                line += " Says: " + Markdown.escape(source.lacks.joined(separator: "; ")) + "."
            }
            out.write(line + "\n")
        }
    }

    /// "a", "a and b", "a, b and c"
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return "no documents"
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
        }
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }
}

/// Hands out the run log's runs from both ends: this thread's from the
/// first on, the partner's from the last back, each run once.
private final class RunQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var front = 0
    private var back: Int

    init(count: Int) { back = count - 1 }

    func takeFront() -> Int? {
        lock.withLock {
            guard front <= back else { return nil }
            front += 1
            return front - 1
        }
    }

    func takeBack() -> Int? {
        lock.withLock {
            guard front <= back else { return nil }
            back -= 1
            return back + 1
        }
    }

    /// Hands out nothing more.
    func stop() {
        lock.withLock { front = back + 1 }
    }
}

/// The part of a run log a second connection writes on its own thread, to a
/// spool file, one chunk per run. The store is handed over whole: only that
/// thread touches it until `finish()` returns.
private final class PartnerWork: @unchecked Sendable {
    let spool: String
    private let store: Store
    private let runs: [RunLogRun]
    private let queue: RunQueue
    private let document: String?
    private let done = DispatchSemaphore(value: 0)
    private var started = false
    private var finished = false
    private var chunks: [Range<Int>] = []
    private var error: Error?

    init(_ store: Store, runs: [RunLogRun], queue: RunQueue, document: String?) {
        self.store = store
        self.runs = runs
        self.queue = queue
        self.document = document
        spool = FileManager.default.temporaryDirectory
            .appendingPathComponent("evidence-report-\(UUID().uuidString).md").path
    }

    deinit { unlink(spool) }

    func start() {
        started = true
        let thread = Thread { [self] in
            work()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the thread; returns the byte ranges of the runs it wrote,
    /// in the order written (the last run first), or throws what it met.
    @discardableResult
    func finish() throws -> [Range<Int>] {
        if started && !finished {
            done.wait()
            finished = true
        }
        if let error { throw error }
        return chunks
    }

    private func work() {
        do {
            let sink = try TextSink(path: spool)
            let reader = try RunLogReader(store, document: document, key: MarkdownReports.escapedKey)
            while let index = queue.takeBack() {
                let start = sink.position
                try MarkdownReports.writeRun(runs[index], reader: reader, into: sink)
                chunks.append(start..<sink.position)
            }
            try sink.close()
        } catch {
            // The other thread must not go on as if the rest were written.
            queue.stop()
            self.error = error
        }
    }
}
