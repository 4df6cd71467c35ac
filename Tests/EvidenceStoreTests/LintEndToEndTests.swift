import Foundation
import Testing

@testable import EvidenceStore

/// `evidence lint`, `--write`, `--sync` and `annotate` through the binary, on
/// copies of the seed documents annotated against the bundled data set.
@Suite struct LintEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "writer"
    /// Copies of the three seed documents (../shared/seeds), as they were written.
    static let seeds = EvidenceBinary.packageRoot.appendingPathComponent("Tests/EvidenceStoreTests/Fixtures/documents")
    /// The same, annotated: what `annotate` placed, then checked by hand, with the markers it cannot place added.
    static let annotated = seeds.appendingPathComponent("annotated")
    static let documents = ["duo-system-surfaces", "everything-that-breaks", "shell-by-window-width"]
    /// The seed's measured sentence that carries two claims.
    static let twoClaims = "The status bar's clock moved down from 87 to 171 pt closed (about 84 pt) and from 34 to 128 pt open, held wide (about 94 pt)."
    /// The markers placed by hand: several claims that end one sentence, whose words are shared.
    static let placedByHand = [
        "duo-system-surfaces": [
            "island.clock-offset.closed (measured)", "island.clock-offset.open-wide (measured)",
            "island.vertical.several-activities (unverified)", "widgets.home-pages-today-view (unverified)",
        ],
        "shell-by-window-width": [
            "shell.fold-unfold-keeps-section (measured)", "shell.rotation-keeps-section (measured)",
            "shell.book-posture-keeps-section (measured)", "shell.pro-max-switches-on-rotation (measured)",
            "shell.ipad-unchanged (measured)",
        ],
    ]
    /// The seed's measured claims whose only proof is on builds older than
    /// the newest recorded for their simulator (the report's mismatches).
    static let provenOnOlderBuilds: Set<String> = [
        "breaks.legacy-window-taps", "breaks.right-safe-area-inset", "breaks.left-pane-inherits-inset",
        "breaks.geometry-reader-width", "shell.fold-unfold-keeps-section", "shell.rotation-keeps-section",
        "shell.book-posture-keeps-section",
    ]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
        for name in Self.documents {
            try FileManager.default.copyItem(
                atPath: Self.annotated.appendingPathComponent(name + ".md").path, toPath: folder.path(name + ".md"))
        }
    }

    private func edit(_ file: String, _ change: (String) -> String) throws {
        let text = try String(contentsOfFile: folder.path(file), encoding: .utf8)
        let changed = change(text)
        #expect(changed != text, "the edit changes \(file)")
        try changed.write(toFile: folder.path(file), atomically: true, encoding: .utf8)
    }

    private func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOfFile: folder.path(file), encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    /// The rules of the findings of a lint's output, by claim key.
    private func findings(_ output: String) -> [(key: String, rule: String, severity: String)] {
        output.split(separator: "\n").compactMap { line in
            guard let rule = line.split(separator: "[").last?.dropLast(), let severity = line.split(separator: ":").dropFirst(3).first,
                let key = line.split(separator: ":").dropFirst(4).first?.split(separator: " ").first
            else { return nil }
            return (String(key), String(rule), severity.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Lint is as strict as the report (issue 44, point 5): a stale claim
    /// relabelled sourced that cites no source is a label mismatch, an error,
    /// not a stale-proof warning because it is also stale.
    @Test func aLabelMismatchIsAnErrorWhateverElseIsTrue() throws {
        try run(["claim", "label", "breaks.geometry-reader-width", "sourced", "--reason", "the page says so"])
        try edit("everything-that-breaks.md") {
            $0.replacingOccurrences(of: "breaks.geometry-reader-width (measured)", with: "breaks.geometry-reader-width (sourced)")
        }
        let result = try run(["lint", "everything-that-breaks.md"], expect: 1)
        let found = findings(result.stdout).filter { $0.key == "breaks.geometry-reader-width" }
        #expect(found.contains { $0.rule == "unsupported-label" && $0.severity == "error" }, "\(result.stdout)")
        #expect(result.stdout.contains("labelled sourced but cites no source"), "\(result.stdout)")
        let mismatches = try run(["report"]).stdout
        #expect(mismatches.contains("breaks.geometry-reader-width"))
    }

    @Test func theAnnotatedSeedDocumentsLintCleanButForProofOnOlderBuilds() throws {
        var stale: Set<String> = []
        var markers = 0
        for name in Self.documents {
            let result = try run(["lint", name + ".md"])
            #expect(result.stderr.contains("0 errors"), "\(result.stdout)")
            for finding in findings(result.stdout) {
                #expect(finding.rule == "stale-proof" && finding.severity == "warning", "\(finding)")
                stale.insert(finding.key)
            }
            let text = try String(contentsOfFile: folder.path(name + ".md"), encoding: .utf8)
            markers += text.components(separatedBy: "<!-- evidence: ").count - 1
        }
        #expect(stale == Self.provenOnOlderBuilds)
        #expect(markers == 44, "every claim of the data set is marked once")
        // Shown, and failing CI that asks for --strict.
        try run(["lint", "shell-by-window-width.md", "--strict"], expect: 1)
        // A pass on the newest build is current proof again.
        try run([
            "log", "shell.rotation-keeps-section", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275",
        ])
        let after = findings(try run(["lint", "shell-by-window-width.md"]).stdout)
        #expect(Set(after.map(\.key)) == ["shell.fold-unfold-keeps-section", "shell.book-posture-keeps-section"])
    }

    @Test func annotatePlacesEveryMarkerButThoseThatShareASentence() throws {
        for name in Self.documents {
            let plain = "plain-" + name + ".md"
            try FileManager.default.copyItem(atPath: Self.seeds.appendingPathComponent(name + ".md").path, toPath: folder.path(plain))
            let placed = try run(["annotate", plain, "--document", name])
            var expected = try String(contentsOfFile: folder.path(name + ".md"), encoding: .utf8)
            for marker in Self.placedByHand[name] ?? [] {
                expected = expected.replacingOccurrences(of: " <!-- evidence: \(marker) -->", with: "")
                #expect((placed.stdout + placed.stderr).contains("not placed: \(marker.split(separator: " ")[0])"), "\(placed.stderr)")
            }
            #expect(try String(contentsOfFile: folder.path(plain), encoding: .utf8) == expected, "\(name)")
            // Twice changes nothing, on its own output or on the checked copy.
            for file in [plain, name + ".md"] {
                let before = try Data(contentsOf: URL(fileURLWithPath: folder.path(file)))
                #expect(try run(["annotate", file, "--document", name]).stderr.contains("Marked 0 claims"))
                #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path(file))) == before)
            }
        }
        let duo = try String(contentsOfFile: folder.path("duo-system-surfaces.md"), encoding: .utf8)
        // A second claim in one item goes right after the first one's marker.
        #expect(duo.contains("in the side column. <!-- evidence: home-screen.closed-dock-side-column (measured) --> The widget gallery opened on the outer display and listed the app's widget. <!-- evidence: widgets.gallery-outer-display (measured) -->"))
        #expect(duo.contains("(https://developer.apple.com/videos/play/tech-talks/111466/?time=336) <!-- evidence: bars.share-column.overflow (sourced) --> |"), "a table row's marker ends its last cell")
        // A claim in the middle of a paragraph: the marker follows its own sentences.
        let breaks = try String(contentsOfFile: folder.path("everything-that-breaks.md"), encoding: .utf8)
        #expect(breaks.contains("at least 600pt wide. But a root GeometryReader reports the safe-area width, about 867pt unfolded instead of 951. <!-- evidence: breaks.geometry-reader-width (measured) --> Add the insets back"))
    }

    @Test func annotateNeverTakesWordsFromAMarkerAlreadyPlaced() throws {
        for (key, statement) in [
            ("notes.both", "The first sentence. The second sentence."), ("notes.first", "The first sentence."),
            ("notes.second", "The second sentence."), ("notes.third", "A third one."),
        ] {
            try run(["claim", "add", key, "--statement", statement, "--document", "notes", "--area", "Notes", "--label", "unverified"])
        }
        let text = "Intro. The first sentence. The second sentence. <!-- evidence: notes.both (unverified) --> A third one.\n"
        try text.write(toFile: folder.path("notes.md"), atomically: true, encoding: .utf8)
        let placed = try run(["annotate", "notes.md", "--document", "notes"])
        // notes.first would take the words of notes.both; notes.second would end them too.
        #expect(placed.stdout.contains("not placed: notes.first") && placed.stdout.contains("not placed: notes.second"), "\(placed.stdout)")
        let after = try String(contentsOfFile: folder.path("notes.md"), encoding: .utf8)
        #expect(after == "Intro. The first sentence. The second sentence. <!-- evidence: notes.both (unverified) --> A third one. <!-- evidence: notes.third (unverified) -->\n")
        #expect(!(try run(["lint", "notes.md"]).stdout.contains("[words]")))
    }

    /// Annotate places markers only where lint reads them: after front
    /// matter closed by "..." as well as "---", and not in a code fence,
    /// which only a fence of its own kind closes.
    @Test func annotatePlacesMarkersWhereLintReadsThemOnly() throws {
        try run(["claim", "add", "notes.code", "--statement", "The sentence in the code.", "--document", "notes", "--area", "Notes", "--label", "unverified"])
        let fenced = "~~~\n```\nThe sentence in the code.\n~~~\n"
        try fenced.write(toFile: folder.path("fenced.md"), atomically: true, encoding: .utf8)
        #expect(try run(["annotate", "fenced.md", "--document", "notes"]).stdout.contains("not placed: notes.code"))
        #expect(try String(contentsOfFile: folder.path("fenced.md"), encoding: .utf8) == fenced)
        #expect(MarkedDocument(text: fenced).skippedLines == [0, 1, 2, 3])

        let afterFrontMatter = "---\nname: notes\n...\nThe sentence in the code.\n"
        try afterFrontMatter.write(toFile: folder.path("front.md"), atomically: true, encoding: .utf8)
        try run(["annotate", "front.md", "--document", "notes"])
        let marked = try String(contentsOfFile: folder.path("front.md"), encoding: .utf8)
        #expect(marked == "---\nname: notes\n...\nThe sentence in the code. <!-- evidence: notes.code (unverified) -->\n")
        #expect(MarkedDocument(text: marked).markers.map(\.key) == ["notes.code"])
    }

    @Test func aClaimNoMarkerMentionsIsAWarning() throws {
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(of: " <!-- evidence: bars.other-app-activity (unverified) -->", with: "")
        }
        let result = try run(["lint", "duo-system-surfaces.md"])
        #expect(result.stdout.contains("duo-system-surfaces.md:1:1: warning: bars.other-app-activity (unverified) is a claim of duo-system-surfaces that no marker mentions [unmarked-claim]"), "\(result.stdout)")
        try run(["lint", "duo-system-surfaces.md", "--strict"], expect: 1)
    }

    @Test func onlyTheClaimsOwnSentencesAreItsWords() throws {
        // The sentence before the geometry claim says 600pt; it is no claim's number.
        #expect(!(try run(["lint", "everything-that-breaks.md"]).stdout.contains("[numbers]")))
        try edit("everything-that-breaks.md") {
            $0.replacingOccurrences(of: "about 867pt unfolded instead of 951.", with: "about 870pt unfolded instead of 951.")
        }
        let result = try run(["lint", "everything-that-breaks.md"], expect: 1).stdout
        #expect(result.contains("warning: the words of breaks.geometry-reader-width differ from the store's: \"The usual"), "the words run from the paragraph's start when no trailing sentences state the claim: \(result)")
        #expect(result.contains("error: the document says about 870pt; measured: breaks.geometry-reader-width: root GeometryReader width 951 pt → 867 pt"), "\(result)")
    }

    @Test func aFailOnAnOlderBuildIsAnErrorNotStaleProof() throws {
        // The iPad claim passed on Xcode 27.1 RC; a later fail there, then a newer build recorded for iPad Pro 13.
        try run([
            "log", "shell.ipad-unchanged", "--result", "fail", "--simulator", "iPad Pro 13", "--os", "iPadOS 27",
            "--xcode", "27.1 RC",
        ])
        try run([
            "log", "shell.pro-max-switches-on-rotation", "--result", "pass", "--simulator", "iPad Pro 13", "--os", "iPadOS 27",
            "--xcode", "27.1", "--xcode-build", "27A9275",
        ])
        // No current environment has a pass or fail: the newest decisive result, the fail, decides.
        #expect(try run(["claim", "show", "shell.ipad-unchanged"]).stdout.contains("state:     failing"))
        let result = try run(["lint", "shell-by-window-width.md"], expect: 1).stdout
        #expect(findings(result).contains { $0.key == "shell.ipad-unchanged" && $0.rule == "unsupported-label" && $0.severity == "error" }, "\(result)")
    }

    @Test func aNewMeasurementOnANewerBuildIsANumbersErrorAtItsLine() throws {
        #expect(!(try run(["lint", "duo-system-surfaces.md"]).stdout.contains("[numbers]")))
        try run([
            "log", "island.clock-offset.closed", "--result", "pass", "--simulator", "iPhone Duo", "--os", "iOS 27.2",
            "--os-build", "24C50", "--xcode", "27.2", "--posture", "closed", "--measure", "status-bar clock y=173pt from 87pt",
        ])
        let result = try run(["lint", "duo-system-surfaces.md"], expect: 1)
        let line = try line(of: Self.twoClaims, in: "duo-system-surfaces.md")
        let numbers = result.stdout.split(separator: "\n").filter { $0.hasSuffix("[numbers]") }
        #expect(numbers.contains { $0.hasPrefix("duo-system-surfaces.md:\(line):") && $0.contains("from 87 to 171 pt") && $0.contains("173 pt") && $0.contains("24C50") }, "\(result.stdout)")
        // The open-wide numbers still hold.
        #expect(!numbers.contains { $0.contains("34 to 128") })
    }

    @Test func aFailureMakesTheLabelUnsupported() throws {
        try run([
            "log", "live-activity.request-active", "--result", "fail", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
            "--xcode", "27.1", "--xcode-build", "27A9275",
        ])
        let result = try run(["lint", "duo-system-surfaces.md"], expect: 1)
        let line = try line(of: "evidence: live-activity.request-active (measured)", in: "duo-system-surfaces.md")
        #expect(result.stdout.contains("duo-system-surfaces.md:\(line):"), "\(result.stdout)")
        #expect(result.stdout.contains("error: live-activity.request-active: its latest decisive result failed: failed on "), "\(result.stdout)")
        #expect(result.stdout.contains("[unsupported-label]"))
    }

    @Test func changedWordsWarnAndSyncCarriesThemIntoTheStore() throws {
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(of: "reported `.active`. <!--", with: "reported `.active` at once. <!--")
        }
        let result = try run(["lint", "duo-system-surfaces.md"])
        #expect(result.stdout.contains("warning: the words of live-activity.request-active differ from the store's"), "\(result.stdout)")
        let dry = try run(["lint", "--sync", "--dry-run", "duo-system-surfaces.md"])
        #expect(dry.stdout.contains("live-activity.request-active: statement"))
        #expect(try run(["claim", "show", "live-activity.request-active"]).stdout.contains("state:     verified-in-simulator"))
        try run(["lint", "--sync", "duo-system-surfaces.md"])
        let shown = try run(["claim", "show", "live-activity.request-active"]).stdout
        #expect(shown.contains("reported `.active` at once."))
        #expect(shown.contains("state:     stale"), "\(shown)")
        // The words agree now; the stale proof no longer supports "measured".
        let after = try run(["lint", "duo-system-surfaces.md"], expect: 1).stdout
        #expect(!after.contains("[words]") && after.contains("[unsupported-label]"), "\(after)")
    }

    /// A new marker's claim states the sentence the marker ends (a list item
    /// counts as one), in the area its section's claims have; with --write in
    /// the same step the next lint finds nothing to say about it (issue 46:
    /// three sentences became one statement and the heading a new area).
    @Test func syncAddsTheSentenceAMarkerEndsAndTheNextLintIsClean() throws {
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(
                of: "Rank items so the important ones stay:",
                with: "Rank items so the important ones stay. The overflow menu keeps the rest in order. <!-- evidence: bars.overflow-order (unverified) -->")
                .replacingOccurrences(
                    of: "so it reads well in the overflow menu.",
                    with: "so it reads well in the overflow menu. It stays readable. <!-- evidence: bars.item-titles (unverified) -->")
        }
        let synced = try run(["lint", "--sync", "--write", "duo-system-surfaces.md"])
        #expect(synced.stdout.contains("added bars.overflow-order (unverified, area Bars): The overflow menu keeps the rest in order."), "\(synced.stdout)")
        let rows = try run(["query", "--format", "csv", "SELECT key, area, statement FROM claims WHERE key IN ('bars.overflow-order', 'bars.item-titles') ORDER BY key"]).stdout
        #expect(rows == """
            key,area,statement
            bars.item-titles,Bars,"Give every item a symbol and a title, so it reads well in the overflow menu. It stays readable."
            bars.overflow-order,Bars,The overflow menu keeps the rest in order.

            """, "\(rows)")
        let after = try run(["lint", "duo-system-surfaces.md"])
        #expect(!after.stdout.contains("bars.overflow-order") && !after.stdout.contains("bars.item-titles") && !after.stdout.contains("out of date"), "\(after.stdout)")
    }

    @Test func aMovedLabelIsALabelErrorAndSyncRelabels() throws {
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(of: "live-activity.request-active (measured)", with: "live-activity.request-active (unverified)")
        }
        let result = try run(["lint", "duo-system-surfaces.md"], expect: 1)
        #expect(result.stdout.contains("error: the document labels live-activity.request-active unverified; the store labels it measured [label]"))
        try run(["lint", "--sync", "duo-system-surfaces.md"])
        #expect(try run(["claim", "show", "live-activity.request-active"]).stdout.contains("label:     unverified"))
    }

    @Test func writeRegeneratesBlocksAndTheVerifiedLineAndASecondWriteChangesNoByte() throws {
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(of: "verified: \"Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no\"", with: "verified: \"Xcode 26\"")
                + "\n<!-- evidence:checklist -->\nold\n<!-- /evidence:checklist -->\n\n<!-- evidence:untested -->\n<!-- /evidence:untested -->\n"
        }
        let result = try run(["lint", "duo-system-surfaces.md"], expect: 1)
        #expect(result.stdout.contains("duo-system-surfaces.md:5:13: error: verified: says \"Xcode 26\""), "\(result.stdout)")
        #expect(result.stdout.contains("error: the checklist block is out of date"))
        let written = try run(["lint", "--write", "duo-system-surfaces.md"])
        #expect(written.stdout.contains("rewrote the checklist block") && written.stdout.contains("rewrote the untested block"))
        let text = try String(contentsOfFile: folder.path("duo-system-surfaces.md"), encoding: .utf8)
        #expect(text.contains("verified: \"Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no\""))
        // The block sits in the document's sections: no title of its own, no second H1.
        #expect(text.contains("<!-- evidence:checklist -->\n\n- [ ] "))
        #expect(!text.contains("# duo-system-surfaces: Checklist"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("# ") }.count == 1)
        let clean = try run(["lint", "duo-system-surfaces.md"])
        #expect(!clean.stdout.contains("[stale-block]") && !clean.stdout.contains("[verified]"))
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.path("duo-system-surfaces.md")))
        #expect(try run(["lint", "--write", "duo-system-surfaces.md"]).stderr.contains("up to date"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("duo-system-surfaces.md"))) == before)
    }

    /// One small document with one finding of each kind that needs no store
    /// change, in every output format.
    @Test func everyFormatHasItsGoldenFile() throws {
        let text = """
            ---
            name: duo-system-surfaces
            ---
            | Claim | Source |
            |---|---|
            | The spec page lists volume buttons, Camera Control and the side button, and no Action button. <!-- evidence: controls.no-action-buton (sourced) --> | [Specs](https://www.apple.com/iphone-duo/specs/) |

            - `Activity.request` succeeded from the app, and the activity reported `.active`. <!-- evidence: live-activity.request-active (unverified) -->
            - Something else, measured at 12 pt. <!-- evidence: standby.presentation (sourced) --> <!-- evidence: x (maybe) -->

            """
        try text.write(toFile: folder.path("small.md"), atomically: true, encoding: .utf8)
        for format in ["text", "json", "github"] {
            let result = try run(["lint", "small.md", "--format", format], expect: 1)
            try Golden.check(result.stdout, against: "lint-small.\(format == "text" ? "txt" : format == "json" ? "jsonl" : "github.txt")")
        }
        let unknown = try run(["lint", "small.md"], expect: 1).stdout
        #expect(unknown.contains("no claim controls.no-action-buton in the store; did you mean 'controls.no-action-button'?"))
    }

    @Test func aMarkerThatCannotBeReadAndABlockThatNeverClosesAreBadMarkers() throws {
        try edit("duo-system-surfaces.md") {
            $0 + "\n- A claim without its label. <!-- evidence: live-activity.request-active -->\n\n<!-- evidence:untested -->\n"
        }
        let result = try run(["lint", "duo-system-surfaces.md"], expect: 1).stdout
        let marker = try line(of: "A claim without its label.", in: "duo-system-surfaces.md")
        let block = try line(of: "<!-- evidence:untested -->", in: "duo-system-surfaces.md")
        #expect(result.contains("duo-system-surfaces.md:\(marker):30: error: a claim marker reads <!-- evidence: KEY (LABEL) -->"), "\(result)")
        #expect(result.contains("duo-system-surfaces.md:\(block):1: error: the untested block is never closed with <!-- /evidence:untested --> [bad-marker]"), "\(result)")
    }

    @Test func aClaimMarkedTwiceIsADuplicate() throws {
        try edit("duo-system-surfaces.md") {
            $0 + "\n- `Activity.request` succeeded from the app, and the activity reported `.active`. <!-- evidence: live-activity.request-active (measured) -->\n"
        }
        let first = try line(of: "evidence: live-activity.request-active", in: "duo-system-surfaces.md")
        let result = try run(["lint", "duo-system-surfaces.md"]).stdout
        #expect(result.contains("warning: live-activity.request-active is marked already on line \(first) [duplicate-marker]"), "\(result)")
    }

    @Test func aSourcedClaimsLinksAreItsSources() throws {
        // The row of controls.no-action-button links to the specs page, its one source.
        #expect(!(try run(["lint", "duo-system-surfaces.md"]).stdout.contains("[links]")))
        try edit("duo-system-surfaces.md") {
            $0.replacingOccurrences(of: "[Specs](https://www.apple.com/iphone-duo/specs/)", with: "[Specs](https://example.com/specs)")
        }
        let result = try run(["lint", "duo-system-surfaces.md"]).stdout
        #expect(result.contains("warning: controls.no-action-button cites https://www.apple.com/iphone-duo/specs/ in the store, and its words do not link to it [links]"), "\(result)")
        #expect(result.contains("warning: the words of controls.no-action-button link to https://example.com/specs, which is not among its sources [links]"))
    }

    @Test func badUsageAndFilesAreRefused() throws {
        try run(["lint", "--write", "--sync", "--dry-run", "duo-system-surfaces.md"], expect: 64)
        try run(["lint", "--dry-run", "duo-system-surfaces.md"], expect: 64)
        try run(["lint", "missing.md"], expect: 66)
        try run(["lint", "duo-system-surfaces.md", "--document", "duo-sytem-surfaces"], expect: 65)
    }
}

/// How lint reads quantities in a document's words, and when a measured number reads as a written one.
@Suite struct LintQuantityTests {
    /// The patterns are Swift regex literals, checked when the tool is
    /// compiled; the units they write out are the store's (but "count" and
    /// "x"), so a unit added to the vocabulary cannot be missed by lint.
    @Test func theQuantityPatternsKnowEveryUnit() {
        let units = MeasurementUnit.allCases.filter { $0 != .count && $0 != .ratio }.map(\.rawValue)
        #expect(DocumentLint.quantityUnits == units)
        for unit in units {
            #expect(DocumentLint.quantities(in: "about 4 \(unit); from 1 to 2 \(unit)").map(\.unit) == [unit, unit], "\(unit)")
        }
    }

    /// What a lookbehind said, the search says: a number after a digit or a
    /// dot is part of another, and one inside a refused number is still found.
    @Test func aNumberAfterADigitOrADotIsPartOfAnother() {
        #expect(DocumentLint.quantities(in: "1.5 pt and .5 pt").map(\.written) == ["1.5 pt"])
        #expect(DocumentLint.quantities(in: "1-5 pt").map(\.written) == ["5 pt"])
        #expect(DocumentLint.quantities(in: "v2.12pt, ~3 px").map(\.written) == ["2.12pt", "~3 px"])
    }

    /// Emphasis goes, and an underscore inside a word stays.
    @Test func normalizingDropsEmphasisButNotAWordsUnderscores() {
        #expect(MarkedDocument.normalized("**Bold** and _it_ and snake_case and __x__ *y* ([a](http://a), [b](http://b)) [text](u) (see [c](v)) .") == "Bold and it and snake_case and x y text (see c).")
        #expect(MarkedDocument.normalized("a <!-- evidence: k (measured) --> b\r\nc") == "a b c")
    }

    @Test func rangesApproximationsAndPlainQuantities() {
        let found = DocumentLint.quantities(in: "moved down from 87 to 171 pt closed (about 84 pt); 867pt instead of 951 pt, on iOS 27.1 in 2 s")
        #expect(found.map(\.written) == ["from 87 to 171 pt", "about 84 pt", "867pt", "951 pt", "2 s"])
        #expect(found[0].from == 87 && found[0].value == 171 && !found[0].about)
        #expect(found[1].about && found[1].value == 84)
        #expect(DocumentLint.quantities(in: "a 5.4-inch display, iOS 27, the simulator").isEmpty)
    }

    @Test func plainNumbersMatchExactlyAndAboutRoundsToThePrecisionWritten() {
        #expect(DocumentLint.matches(171, 171, decimals: 0, about: false))
        #expect(!DocumentLint.matches(171.4, 171, decimals: 0, about: false))
        #expect(DocumentLint.matches(84.4, 84, decimals: 0, about: true))
        #expect(!DocumentLint.matches(84.6, 84, decimals: 0, about: true))
        #expect(DocumentLint.matches(84.46, 84.5, decimals: 1, about: true))
    }
}
