#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// `evidence lint`, `lint --write`, `lint --sync` and `annotate`: a Markdown
/// document checked against the store, its generated parts regenerated, its
/// words and labels carried into the store, its claims marked.
public enum DocumentLint {
    /// What the store says about one document, read once.
    struct Facts {
        var document: String
        var claims: [String: ReportClaim]
        var order: [String]
        /// Every claim's document, by key.
        var documents: [String: String]
        /// Keys claims were renamed from, to their keys now.
        var renamed: [String: String] = [:]
        /// The retired claims, by key, with the record that retired each.
        var retired: [String: TextFormat.Retirement] = [:]
        /// Every mismatch of each claim: a label's and the evidence's may both stand.
        var mismatches: [String: [Mismatch]]
        /// Stale claims whose present words passed on an older build.
        var provenOnOlderBuilds: Set<String>
        var measurements: [String: [DecisiveMeasurement]]
        var verifiedLine: String
        /// The text of each generated block the document holds, by its place.
        var blocks: [BlockPlace: String]
    }

    /// The document's name: `--document`, else the front matter's `name:`, else the file's name.
    public static func documentName(_ parsed: MarkedDocument, file: String, override: String?) -> String {
        override ?? parsed.name ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    }

    /// A generated block's place: its kind, and the level of the section it sits in.
    struct BlockPlace: Hashable {
        var kind: String
        var sectionLevel: Int

        init(_ block: MarkedDocument.Block) {
            kind = block.kind
            sectionLevel = block.sectionLevel
        }
    }

    static func facts(_ store: Store, document name: String, blocks wanted: Set<BlockPlace> = []) throws -> Facts {
        var renamed: [String: String] = [:]
        var retired: [String: TextFormat.Retirement] = [:]
        let (document, claims, documents, mismatches, older, measurements) = try store.read { reader in
            renamed = try reader.claimRenames()
            retired = try reader.retiredClaims()
            let document = try reader.resolveDocument(name) ?? name
            return (
                document, try reader.reportClaims(document: document),
                try reader.claimDocuments(),
                Dictionary(grouping: try reader.mismatches(document: document), by: \.claim),
                try reader.provenOnOlderBuilds(document: document),
                try reader.decisiveMeasurements(document: document)
            )
        }
        // Only the blocks the document holds are made, each with its headings
        // below the section it sits in (its title left out); a document with
        // no checklist in the store can hold no checklist block.
        var blocks: [BlockPlace: String] = [:]
        for place in wanted {
            var options = Reports.Options(document: document)
            options.headingBase = place.sectionLevel + 1
            switch place.kind {
            case "checklist":
                blocks[place] = try markdown { try Reports.markdown(.checklist, of: store, options: options, into: $0) }
            case "sources":
                blocks[place] = try markdown { try Reports.markdown(.sources, of: store, options: options, into: $0) }
            case "untested":
                blocks[place] = try markdown { sink in
                    let writer = MarkdownWriter(into: sink)
                    let untested = claims.filter { $0.label.isQAWork && ($0.state == .untested || $0.state == .needsDevice) }
                    if untested.isEmpty {
                        writer.paragraph("Every claim has a pass or a fail.")
                    } else {
                        writer.table(
                            columns: ["claim", "label", "state", "reason"], rows: untested.map { [$0.key, $0.label.rawValue, $0.state.rawValue, $0.reason] })
                    }
                    try writer.finish()
                }
            default:
                continue
            }
        }
        return Facts(
            document: document, claims: Dictionary(claims.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first }),
            order: claims.map(\.key), documents: documents, renamed: renamed, retired: retired, mismatches: mismatches,
            provenOnOlderBuilds: older, measurements: measurements,
            verifiedLine: try store.verifiedLine(document: document), blocks: blocks)
    }

    /// Markdown written through a sink that keeps it in memory.
    private static func markdown(_ body: (TextSink) throws -> Void) throws -> String {
        let sink = TextSink(keepingAs: "generated block")
        try body(sink)
        try sink.flush()
        return sink.keptText
    }

    /// A generated block's text between its two comments.
    static func blockText(_ generated: String) -> String { "\n" + generated + "\n" }

    /// What lint says of a marker of a retired claim.
    static func retiredMarker(_ key: String, _ retirement: TextFormat.Retirement) -> String {
        "claim \(key) is retired (\(retirement.at) by \(retirement.by): \(retirement.reason)): remove the marker, or bring "
            + "the claim back with 'evidence claim restore \(key)'"
    }

    // MARK: - Lint

    /// The findings of one document, in line order.
    public static func lint(file: String, text: String, store: Store, document override: String?) throws -> [LintFinding] {
        let parsed = MarkedDocument(text: text)
        let facts = try facts(store, document: documentName(parsed, file: file, override: override), blocks: Set(parsed.blocks.map(BlockPlace.init)))
        return findings(parsed, file: file, facts: facts)
    }

    static func findings(_ parsed: MarkedDocument, file: String, facts: Facts) -> [LintFinding] {
        var findings: [LintFinding] = []
        func add(_ line: Int, _ column: Int, _ rule: LintRule, _ message: String) {
            findings.append(LintFinding(file: file, line: line, column: column, rule: rule, message: message))
        }
        for problem in parsed.problems { add(problem.line, problem.column, problem.rule, problem.message) }
        var seen: [String: Int] = [:]
        for (index, marker) in parsed.markers.enumerated() {
            guard let label = marker.label else {
                add(marker.line, marker.column, .marker, "unknown label '\(marker.labelText)' for \(marker.key): use \(Label.names.joined(separator: ", "))")
                continue
            }
            guard let claim = facts.claims[marker.key] else {
                if let now = facts.renamed[marker.key] {
                    add(
                        marker.line, marker.column, .unknownKey,
                        "claim \(marker.key) was renamed \(now): change the marker to <!-- evidence: \(now) (\(label.rawValue)) -->")
                } else if let retirement = facts.retired[marker.key] {
                    add(marker.line, marker.column, .unknownKey, Self.retiredMarker(marker.key, retirement))
                } else if let other = facts.documents[marker.key] {
                    add(marker.line, marker.column, .unknownKey, "\(marker.key) is a claim of \(other), not of \(facts.document)")
                } else {
                    let near = Suggestions.closest(to: marker.key, in: Array(facts.documents.keys))
                    add(marker.line, marker.column, .unknownKey, "no claim \(marker.key) in the store"
                        + (near.isEmpty ? "" : "; did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"))
                }
                continue
            }
            if let first = seen[marker.key] {
                add(marker.line, marker.column, .duplicate, "\(marker.key) is marked already on line \(first)")
            }
            seen[marker.key] = seen[marker.key] ?? marker.line
            // A marker alone marks the claim's own sentences at the end of its
            // words; a group's words are shared, so not compared.
            let own = marker.group.count == 1 ? MarkedDocument.trailingSentences(of: marker.text, stating: MarkedDocument.normalized(claim.statement)) : nil
            if marker.group.count == 1 && own == nil {
                add(marker.line, marker.column, .words, "the words of \(marker.key) differ from the store's: \"\(MarkedDocument.normalized(marker.text))\" here, \"\(claim.statement)\" in the store")
            }
            if label != claim.label {
                add(marker.line, marker.column, .label, "the document labels \(marker.key) \(label.rawValue); the store labels it \(claim.label.rawValue)")
            }
            for mismatch in facts.mismatches[marker.key] ?? [] {
                // "Measured" with proof of these words on an older build is shown,
                // and fails only --strict; every other mismatch (no pass, a fail,
                // changed words, a sourced claim that cites nothing, an unverified
                // one that passed) is an error, as the report lists it.
                let old = mismatch.kind == .measured && mismatch.state == .stale && facts.provenOnOlderBuilds.contains(marker.key)
                add(marker.line, marker.column, old ? .staleProof : .unsupported, "\(marker.key): \(mismatch.text)")
            }
            let words = own.map(String.init) ?? marker.text
            if label == .sourced || claim.label == .sourced {
                for problem in linkProblems(marker.inTable ? marker.context : words, claim: claim) { add(marker.line, marker.column, .links, problem) }
            }
            // Numbers once per group, at its first marker, against every claim of the group.
            if marker.group.first == index {
                let keys = marker.group.map { parsed.markers[$0].key }
                for problem in numberProblems(words, keys: keys, facts: facts) { add(marker.line, marker.column, .numbers, problem) }
            }
        }
        for key in facts.order where seen[key] == nil {
            add(1, 1, .unmarked, "\(key) (\(facts.claims[key]?.label.rawValue ?? "")) is a claim of \(facts.document) that no marker mentions")
        }
        if let verified = parsed.verified, let value = verified.value {
            if comparable(value) != facts.verifiedLine {
                add(verified.line, verified.column, .verified, "verified: says \"\(value)\"; the evidence says \"\(facts.verifiedLine)\"")
            } else if let invalid = verified.invalidYAML {
                add(verified.line, verified.column, .verified, "verified: is not valid YAML (\(invalid)); evidence lint --write writes it quoted")
            }
        }
        for block in parsed.blocks where facts.blocks[BlockPlace(block)].map(blockText) != block.content {
            add(block.startLine, 1, .block, "the \(block.kind) block is out of date (evidence lint --write rewrites it)")
        }
        return findings.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    // MARK: - Links

    /// Made once and only read: `nonisolated(unsafe)` as in `MarkedDocument`.
    nonisolated(unsafe) private static let link = #/\]\(([^)\s]+)\)/#.matchingSemantics(.unicodeScalar)

    /// The links of `text` (a table row, or a claim's words) against the claim's sources.
    private static func linkProblems(_ text: String, claim: ReportClaim) -> [String] {
        let links = text.matches(of: link).map { String($0.1) }.filter { $0.hasPrefix("http") }
        var problems: [String] = []
        for source in claim.sources where !links.contains(where: { $0 == source.fullURL || $0.hasPrefix(source.url) }) {
            problems.append("\(claim.key) cites \(source.fullURL) in the store, and its words do not link to it")
        }
        for url in links where !claim.sources.contains(where: { url == $0.fullURL || url.hasPrefix($0.url) }) {
            problems.append("the words of \(claim.key) link to \(url), which is not among its sources")
        }
        return problems
    }

    // MARK: - Numbers

    /// A quantity as written: "from 87 to 171 pt", "about 84 pt", "951 pt".
    struct Quantity: Equatable {
        var from: Double?
        var value: Double
        var decimals: Int
        var about: Bool
        var unit: String
        var written: String
    }

    /// The store's units as a document writes them after a number, in the
    /// patterns below: every unit but "count" (a word of its own in prose,
    /// not a unit a quantity is written with) and "x" (which prose uses for
    /// more than ratios: "3 x 4"). Written out so that the patterns are
    /// checked when the tool is compiled; a test holds them to the vocabulary.
    static let quantityUnits = ["pt", "px", "mm", "ms", "s", "%", "fps", "B", "KB", "MB"]

    /// "from 87 to 171 pt", "87 pt to 171 pt".
    nonisolated(unsafe) private static let range =
        #/(?:\bfrom\s+)?(-?\d+(?:\.\d+)?)(?:\s*(?:pt|px|mm|ms|s|%|fps|B|KB|MB))?\s+to\s+(-?\d+(?:\.\d+)?)\s*(pt|px|mm|ms|s|%|fps|B|KB|MB)(?![A-Za-z])/#
        .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)
    /// "about 84 pt", "~84 pt", "951 pt". The number must not follow a digit
    /// or a dot ("1.5" holds no "5"), which `single(in:)` checks: Swift's
    /// patterns have no lookbehind.
    nonisolated(unsafe) private static let single = #/(\babout\s+|~\s*)?(-?\d+(?:\.\d+)?)\s*(pt|px|mm|ms|s|%|fps|B|KB|MB)(?![A-Za-z0-9])/#
        .matchingSemantics(.unicodeScalar).wordBoundaryKind(.simple)

    static func quantities(in text: String) -> [Quantity] {
        var text = text
        var found: [Quantity] = []
        for match in text.matches(of: range).reversed() {
            guard let from = Double(match.1), let to = Double(match.2) else { continue }
            found.append(Quantity(
                from: from, value: to, decimals: decimals(match.2), about: false, unit: String(match.3), written: String(match.0)))
            text.replaceSubrange(match.range, with: String(repeating: " ", count: match.0.count))
        }
        // Searched from each place the last search left, as a lookbehind
        // would: a number refused for what stands before it ("-5" in "1-5")
        // may hold one that is not ("5"), so the search goes on inside it.
        var cursor = text.startIndex
        while cursor < text.endIndex, let match = text[cursor...].firstMatch(of: single) {
            if match.2.startIndex > text.startIndex {
                let before = text.unicodeScalars[text.unicodeScalars.index(before: match.2.startIndex)]
                if before == "." || before.properties.numericType == .decimal {
                    cursor = text.unicodeScalars.index(after: match.range.lowerBound)
                    continue
                }
            }
            cursor = match.range.upperBound
            guard let value = Double(match.2) else { continue }
            found.append(Quantity(
                from: nil, value: value, decimals: decimals(match.2), about: match.1 != nil,
                unit: String(match.3), written: match.0.trimmingWhitespace()))
        }
        return found
    }

    private static func decimals(_ number: Substring) -> Int {
        number.firstIndex(of: ".").map { number.distance(from: $0, to: number.endIndex) - 1 } ?? 0
    }

    /// Whether a measured number reads as the written one: exactly, or
    /// rounded to the written precision after "about".
    static func matches(_ measured: Double, _ written: Double, decimals: Int, about: Bool) -> Bool {
        if abs(measured - written) < 1e-9 { return true }
        guard about else { return false }
        let scale = Math.power(10, Double(decimals))
        return abs((measured * scale).rounded() / scale - written) < 1e-9
    }

    static func numberProblems(_ text: String, keys: [String], facts: Facts) -> [String] {
        let measured = keys.flatMap { key in (facts.measurements[key] ?? []).map { (key, $0) } }
        guard !measured.isEmpty else { return [] }
        var problems: [String] = []
        for quantity in quantities(in: text) {
            let candidates = measured.filter { $0.1.unit.rawValue == quantity.unit }
            let fits = candidates.contains { _, m in
                if let from = quantity.from {
                    return m.baseline.map { matches($0, from, decimals: quantity.decimals, about: false) } == true
                        && matches(m.value, quantity.value, decimals: quantity.decimals, about: false)
                }
                let numbers = [m.value] + (m.baseline.map { [$0, m.value - $0] } ?? [])
                return numbers.contains { matches($0, quantity.value, decimals: quantity.decimals, about: quantity.about) }
            }
            guard !fits else { continue }
            let said = candidates.isEmpty ? measured : candidates
            let what = said.map { key, m in
                "\(key): \(m.name) \(MeasurementDraft.summary(value: m.value, unit: m.unit.rawValue, baseline: m.baseline)) on \(m.environment.description), run \(m.run.prefix(8))"
            }.joined(separator: "; ")
            problems.append("the document says \(quantity.written); measured: \(what)")
        }
        return problems
    }
}

// MARK: - Writing documents

extension DocumentLint {
    /// Rewrites the generated blocks and the `verified:` field in place, whole
    /// or not at all; nothing else changes. Returns what changed.
    public static func write(file: String, store: Store, document override: String?, breakingHardLinks: Bool = false) throws -> [DocumentChange] {
        let original = try UserFile.read(file)
        let parsed = MarkedDocument(text: try original.text())
        try refuseProblems(parsed, file: file, command: "lint --write")
        let facts = try facts(store, document: documentName(parsed, file: file, override: override), blocks: Set(parsed.blocks.map(BlockPlace.init)))
        var text = parsed.source
        var changes: [DocumentChange] = []
        // Blocks from the last, so the lines above keep their numbers; the
        // front matter, above every block, last of all.
        for block in parsed.blocks.reversed() {
            guard let generated = facts.blocks[BlockPlace(block)], blockText(generated) != block.content else { continue }
            var fresh = blockText(generated).pieces(separatedBy: "\n")
            fresh.removeLast()
            text.replaceSubrange(block.startLine..<(block.endLine - 1), with: fresh)
            changes.append(DocumentChange(file: file, line: block.startLine, description: "rewrote the \(block.kind) block"))
        }
        if let verified = parsed.verified, let value = verified.value,
            comparable(value) != facts.verifiedLine || verified.invalidYAML != nil
        {
            let (range, line) = FrontMatter.replacement(of: verified, with: facts.verifiedLine, in: text.lines)
            text.replaceSubrange(range, with: [line])
            changes.append(DocumentChange(
                file: file, line: verified.line,
                description: value == facts.verifiedLine ? "verified: quoted" : "verified: \"\(value)\" → \"\(facts.verifiedLine)\""))
        }
        if !changes.isEmpty {
            try original.replace(with: text.text, by: "lint --write", breakingHardLinks: breakingHardLinks)
        }
        return changes.sorted { $0.line < $1.line }
    }

    /// A `verified:` value as compared with the verified line: a block scalar's final line breaks aside.
    private static func comparable(_ value: String) -> String {
        var value = value
        while value.hasSuffix("\n") { value.removeLast() }
        return value
    }

    /// Refuses to rewrite a document whose markers, blocks or front matter
    /// cannot be read for certain: what is between them could be a person's text.
    private static func refuseProblems(_ parsed: MarkedDocument, file: String, command: String) throws {
        guard let first = parsed.problems.first else { return }
        let more = parsed.problems.count > 1 ? " (and \(parsed.problems.count - 1) more; evidence lint lists them)" : ""
        throw EvidenceError.refused(
            reason: "\(file):\(first.line):\(first.column): \(first.message)\(more); \(command) writes nothing while a marker, block or front-matter field is broken")
    }

    /// The document leads: words and labels that differ go into the store
    /// (a changed statement makes earlier proof stale), markers of claims the
    /// store lacks add them. Everything is checked before anything is written.
    public static func sync(file: String, store: Store, document override: String?, dryRun: Bool, by author: String) throws
        -> [DocumentChange]
    {
        let parsed = MarkedDocument(text: try readDocument(file))
        try refuseProblems(parsed, file: file, command: "lint --sync")
        let facts = try facts(store, document: documentName(parsed, file: file, override: override), blocks: [])
        var changes: [DocumentChange] = []
        var actions: [() throws -> Void] = []
        var seen: Set<String> = []
        let areas = sectionAreas(parsed, facts: facts)
        for marker in parsed.markers where seen.insert(marker.key).inserted {
            guard let label = marker.label else {
                throw EvidenceError.invalidValue(field: "label", value: marker.labelText, expected: "one of \(Label.names.joined(separator: ", ")) (\(file):\(marker.line))")
            }
            let words = MarkedDocument.normalized(marker.text)
            let place = "\(file):\(marker.line)"
            guard let claim = facts.claims[marker.key] else {
                if let now = facts.renamed[marker.key] {
                    throw EvidenceError.refused(
                        reason: "\(place): claim \(marker.key) was renamed \(now); change the marker to <!-- evidence: \(now) "
                            + "(\(label.rawValue)) --> rather than add a claim of the old key")
                }
                if let retirement = facts.retired[marker.key] {
                    throw EvidenceError.refused(reason: "\(place): " + Self.retiredMarker(marker.key, retirement))
                }
                if let other = facts.documents[marker.key] {
                    throw EvidenceError.invalidValue(field: "claim", value: marker.key, expected: "a claim of \(facts.document), not of \(other) (\(place))")
                }
                // A new claim states the sentence its marker ends (a table cell or list item is one), in the area
                // the section's other claims have, so that the next lint finds the document and the store agree.
                let sentence = marker.inTable || marker.inListItem
                    ? words : MarkedDocument.normalized(String(MarkedDocument.lastSentence(of: marker.text)))
                let area = areas[marker.section] ?? (marker.section.isEmpty ? facts.document : MarkedDocument.normalized(marker.section))
                let draft = ClaimDraft(key: marker.key, statement: sentence, document: facts.document, area: area, label: label)
                changes.append(DocumentChange(
                    file: file, line: marker.line, description: "added \(marker.key) (\(label.rawValue), area \(area)): \(sentence)"))
                actions.append { _ = try store.addClaim(draft, by: author) }
                continue
            }
            if marker.group.count == 1 && MarkedDocument.trailingSentences(of: marker.text, stating: MarkedDocument.normalized(claim.statement)) == nil {
                changes.append(DocumentChange(file: file, line: marker.line, description: "\(marker.key): statement \"\(claim.statement)\" → \"\(words)\""))
                actions.append { _ = try store.editClaim(key: marker.key, ClaimChanges(statement: words), by: author) }
            }
            if label != claim.label {
                changes.append(DocumentChange(file: file, line: marker.line, description: "\(marker.key): label \(claim.label.rawValue) → \(label.rawValue)"))
                actions.append { try store.relabelClaim(key: marker.key, to: label, reason: "from \(place)", by: author) }
            }
        }
        // All of it or none: the store's writes nest as savepoints in one transaction.
        if !dryRun && !actions.isEmpty {
            try store.write { _ in
                for action in actions { try action() }
            }
        }
        return changes
    }

    /// The area of each section's claims the store holds already (the one most
    /// of them have; the first met on a tie), by the section's heading.
    private static func sectionAreas(_ parsed: MarkedDocument, facts: Facts) -> [String: String] {
        var counts: [String: [(area: String, count: Int)]] = [:]
        for marker in parsed.markers {
            guard let area = facts.claims[marker.key]?.area else { continue }
            var tally = counts[marker.section] ?? []
            if let at = tally.firstIndex(where: { $0.area == area }) { tally[at].count += 1 } else { tally.append((area, 1)) }
            counts[marker.section] = tally
        }
        return counts.mapValues { tally in
            tally.enumerated().max { ($0.element.count, -$0.offset) < ($1.element.count, -$1.offset) }?.element.area ?? ""
        }
    }

    /// Places a marker after each claim of the document whose words the
    /// document states as a table row's first cell, or as whole sentences of
    /// a list item or paragraph; returns what it placed and the claims it
    /// could not place.
    public static func annotate(file: String, store: Store, document name: String, breakingHardLinks: Bool = false) throws -> (changes: [DocumentChange], unplaced: [String]) {
        let original = try UserFile.read(file)
        let parsed = MarkedDocument(text: try original.text())
        try refuseProblems(parsed, file: file, command: "annotate")
        let facts = try facts(store, document: name, blocks: [])
        let marked = Set(parsed.markers.map(\.key))
        var text = parsed.source
        var lines = parsed.lines
        var changes: [DocumentChange] = []
        var unplaced: [String] = []
        let skipped = parsed.skippedLines
        // Each line's words as lint compares them, made once, to find the
        // lines worth a closer look: a table row's first cell (while the row
        // has no marker), else the item's or paragraph's words.
        var words = lines.indices.map { skipped.contains($0) ? nil : comparableWords(lines[$0]) }
        // Searched once per claim, a whole document at a time; a line marked
        // since keeps its words or loses them, so what it finds is checked again.
        let search = WordSearch(words)
        for key in facts.order where !marked.contains(key) {
            guard let claim = facts.claims[key] else { continue }
            let statement = MarkedDocument.normalized(claim.statement)
            let marker = "<!-- evidence: \(key) (\(claim.label.rawValue)) -->"
            let candidates = search.lines(containing: statement).lazy.filter { words[$0]?.contains(statement) ?? false }
            guard let (index, updated) = candidates.compactMap({ index in
                place(marker, statement: statement, in: lines[index]) { keepsOthers(lines[index], $0, key: key, facts: facts) }
                    .map { (index, $0) }
            }).first
            else {
                unplaced.append(key)
                continue
            }
            lines[index] = updated
            text.replaceSubrange(index..<(index + 1), with: [updated])
            words[index] = comparableWords(updated)
            changes.append(DocumentChange(file: file, line: index + 1, description: "marked \(key)"))
        }
        if !changes.isEmpty {
            try original.replace(with: text.text, by: "annotate", breakingHardLinks: breakingHardLinks)
        }
        return (changes.sorted { $0.line < $1.line }, unplaced)
    }

    /// A line's words, normalised: a table row's first cell (nil once the
    /// row has a marker), else the item's or paragraph's text.
    private static func comparableWords(_ line: String) -> String? {
        let trimmed = line.trimmingWhitespace()
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        if trimmed.hasPrefix("|") {
            return line.contains("<!-- evidence:") ? nil : MarkedDocument.normalized(MarkedDocument.firstCell(line))
        }
        return MarkedDocument.normalized(String(line[MarkedDocument.bodyStart(line)...]))
    }

    /// The marked line, when `statement` is the line's first table cell, or
    /// whole sentences of one stretch of its words between markers: the
    /// marker goes right after them, where `accept` takes the line so marked.
    private static func place(_ marker: String, statement: String, in line: String, accept: (String) -> Bool) -> String? {
        if line.trimmingWhitespace().hasPrefix("|") {
            guard MarkedDocument.normalized(MarkedDocument.firstCell(line)) == statement else { return nil }
            var row = line
            while row.last == " " { row.removeLast() }
            guard row.hasSuffix("|") else { return nil }
            row.removeLast()
            while row.last == " " { row.removeLast() }
            return row + " " + marker + " |"
        }
        for stretch in stretches(of: line) {
            let (starts, ends) = MarkedDocument.sentenceBoundaries(line[stretch])
            for start in starts {
                for end in ends where end > start && MarkedDocument.normalized(String(line[start..<end])) == statement {
                    var marked = line
                    marked.insert(contentsOf: " " + marker, at: end)
                    if accept(marked) { return marked }
                }
            }
        }
        return nil
    }

    /// Whether a new marker for `key` in a line stands alone (it ends no other
    /// marker's words) and leaves every marker of the line whose words agreed
    /// with its claim agreeing: a marker after the new one keeps only the
    /// words between them.
    private static func keepsOthers(_ old: String, _ new: String, key: String, facts: Facts) -> Bool {
        func agreeing(_ parsed: MarkedDocument) -> Set<String> {
            Set(parsed.markers.filter { marker in
                marker.key != key && marker.group.count == 1
                    && facts.claims[marker.key].map {
                        MarkedDocument.trailingSentences(of: marker.text, stating: MarkedDocument.normalized($0.statement)) != nil
                    } ?? false
            }.map(\.key))
        }
        let marked = MarkedDocument(text: new)
        guard marked.markers.first(where: { $0.key == key })?.group.count == 1 else { return false }
        return agreeing(MarkedDocument(text: old)).isSubset(of: agreeing(marked))
    }

    /// The stretches of an item's or paragraph's line that markers leave:
    /// from after its bullet to the first marker, between markers, and after the last.
    private static func stretches(of line: String) -> [Range<String.Index>] {
        var start = MarkedDocument.bodyStart(line)
        var found: [Range<String.Index>] = []
        while let open = line[start...].firstRange(of: "<!--") {
            found.append(start..<open.lowerBound)
            guard let close = line[open.upperBound...].firstRange(of: "-->") else { return found }
            start = close.upperBound
        }
        found.append(start..<line.endIndex)
        return found
    }

    /// A document's text, for reading only (lint, lint --sync).
    public static func readDocument(_ file: String) throws -> String {
        try UserFile.read(file).text()
    }
}

/// Every line's words in one buffer, a NUL after each, so that finding the
/// lines that hold a statement is one search of the document (`memmem`),
/// not a comparison per line.
private struct WordSearch {
    private var bytes: [UInt8] = []
    /// Where each line's words start in `bytes`, with the line's index.
    private var starts: [(offset: Int, line: Int)] = []

    init(_ words: [String?]) {
        for (line, text) in words.enumerated() {
            guard let text else { continue }
            starts.append((bytes.count, line))
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        }
    }

    /// The lines whose words hold `needle`, in order.
    func lines(containing needle: String) -> [Int] {
        let target = Array(needle.utf8)
        guard !target.isEmpty else { return starts.map(\.line) }
        var found: [Int] = []
        bytes.withUnsafeBytes { haystack in
            target.withUnsafeBytes { needle in
                var from = 0
                while let at = Bytes.firstIndex(of: needle, in: haystack, from: from) {
                    // The line whose words start last at or before `at`.
                    var low = 0
                    var high = starts.count - 1
                    while low < high {
                        let middle = (low + high + 1) / 2
                        if starts[middle].offset <= at { low = middle } else { high = middle - 1 }
                    }
                    found.append(starts[low].line)
                    guard low + 1 < starts.count else { break }
                    from = starts[low + 1].offset
                }
            }
        }
        return found
    }
}
