/// The Markdown that writers publish: the evidence report, the checklist and
/// the source list. Same store, same bytes: nothing depends on the clock
/// unless a stamp is asked for, and every value is escaped.
public enum MarkdownReports {
    public struct Options: Sendable {
        public var document: String?
        /// A time to print as the generation time; nil for none.
        public var stamp: String?

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
        try store.checkDocument(options.document)
        let documents = try options.document.map { [$0] } ?? store.documents()
        let counts = try store.stateCounts(document: options.document)
        let total = counts.reduce(0) { $0 + $1.count }
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

        writeSummary(counts, into: out)
        try writeClaims(store, options, into: out)
        try writeRunLog(store, options, into: out)
        try writeDeviceNeeds(store, options, into: out)
        try writeStale(store, options, into: out)
        try writeNotPublished(store, options, into: out)
        try writeMismatches(store, options, into: out)
    }

    private static func writeSummary(_ counts: [StateCount], into out: TextSink) {
        out.write("\n## Summary\n\nClaims by label and state.\n\n")
        let states = stateMeanings.map(\.0)
        out.write(Markdown.header(["label"] + states + ["total"]))
        var columnTotals = [Int](repeating: 0, count: states.count)
        for (label, _) in labelMeanings {
            var cells = [label]
            var rowTotal = 0
            for (index, state) in states.enumerated() {
                let n = counts.filter { $0.label == label && $0.state == state }.reduce(0) { $0 + $1.count }
                cells.append(String(n))
                rowTotal += n
                columnTotals[index] += n
            }
            out.write(Markdown.row(cells + [String(rowTotal)]))
        }
        out.write(Markdown.row(["total"] + columnTotals.map(String.init) + [String(columnTotals.reduce(0, +))]))
    }

    private static func writeClaims(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Claims\n")
        var document = ""
        var area = ""
        try store.reportClaims(document: options.document) { claim in
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
            var evidence = claim.evidence.map { item in
                var text = "\(item.result) on \(item.environment), run \(item.run), "
                text += item.checkedAt ?? "date not recorded"
                if let posture = item.posture { text += ", \(posture)" }
                return Markdown.escape(text)
            }
            if claim.resultCount > claim.evidence.count {
                evidence.append(Markdown.escape("(\(claim.resultCount) results in all; the latest per environment above)"))
            }
            out.write(Markdown.rawRow([
                Markdown.escape(claim.key), Markdown.escape(claim.statement), Markdown.escape(label),
                Markdown.escape(claim.state + ": " + claim.reason), sources.isEmpty ? "none" : sources,
                evidence.isEmpty ? "none" : evidence.joined(separator: "<br>"),
            ]))
        }
    }

    private static func writeRunLog(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Run log\n")
        var any = false
        try store.reportRuns(document: options.document) { run in
            any = true
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
            if !run.entries.isEmpty {
                out.write("\n" + Markdown.header(["claim", "result", "posture", "note", "measurements"]))
                for entry in run.entries {
                    var note = entry.note
                    if let test = entry.testID {
                        note = "test \(test)" + (entry.duration.map { " (\(SQLValue.format($0)) s)" } ?? "")
                            + (note.isEmpty ? "" : ": " + note)
                    }
                    if let message = entry.message, !message.isEmpty {
                        note += (note.isEmpty ? "" : "\n") + message
                    }
                    if let checked = entry.checkedAt, checked != run.startedAt {
                        note = "checked \(checked)" + (note.isEmpty ? "" : "\n" + note)
                    }
                    out.write(Markdown.rawRow([
                        Markdown.escape(entry.claim), Markdown.escape(entry.result), Markdown.escape(entry.posture ?? ""),
                        Markdown.escape(note), entry.measurements.map(Markdown.escape).joined(separator: "<br>"),
                    ]))
                }
            }
            if !run.unmappedCounts.isEmpty {
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
        }
        if !any { out.write("\nNo runs yet.\n") }
    }

    /// "iOS 27.1, build 23B85"; whatever is missing is said to be.
    private static func version(_ name: String, _ version: String, _ build: String) -> String {
        if name.isEmpty && version.isEmpty && build.isEmpty { return "not recorded" }
        var text = name.isEmpty ? "name not recorded" : name
        text += version.isEmpty ? ", version not recorded" : " " + version
        return text + (build.isEmpty ? ", build not recorded" : ", build " + build)
    }

    private static func writeDeviceNeeds(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Still needs a device\n\n")
        let needs = try store.deviceNeeds(document: options.document)
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

    private static func writeStale(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Stale\n\n")
        let stale = try store.staleClaims(document: options.document)
        guard !stale.isEmpty else {
            out.write("None.\n")
            return
        }
        out.write(Markdown.header(["claim", "last verified"]))
        for claim in stale { out.write(Markdown.row([claim.claim, claim.reason])) }
    }

    private static func writeNotPublished(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Not published\n\n")
        let claims = try store.notPublished(document: options.document)
        guard !claims.isEmpty else {
            out.write("None.\n")
            return
        }
        out.write(Markdown.header(["claim", "as of", "statement"]))
        for claim in claims { out.write(Markdown.row([claim.claim, claim.asOf ?? "not recorded", claim.statement])) }
    }

    private static func writeMismatches(_ store: Store, _ options: Options, into out: TextSink) throws {
        out.write("\n## Mismatches\n\n")
        let mismatches = try store.mismatches(document: options.document)
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
