import Foundation
import Testing

@testable import EvidenceStore

/// How lint reads a document's lines, code, generated blocks and front
/// matter: as CommonMark and YAML do, so nothing a person wrote is taken for
/// something the tool may rewrite.
@Suite struct MarkdownStructureTests {
    // MARK: - Lines

    @Test func everyLineEndingEndsALineAndTheTextComesBackByteForByte() {
        for text in ["a\nb\n", "a\r\nb\r\n", "a\rb\r", "a\nb", "\u{FEFF}a\r\nb", "", "\n", "a\r\n\r\nb\r\n"] {
            let lines = TextLines(text)
            #expect(lines.text == text, "\(text.debugDescription)")
        }
        #expect(TextLines("a\r\nb\r\n").lines == ["a", "b"])
        #expect(TextLines("a\rb\rc").lines == ["a", "b", "c"])
        #expect(TextLines("a\r\nb").ending == .crlf)
        #expect(TextLines("\u{FEFF}x\n").byteOrderMark && TextLines("\u{FEFF}x\n").lines == ["x"])
        var edited = TextLines("\u{FEFF}one\r\ntwo\r\n")
        edited.replaceSubrange(1..<2, with: ["2"])
        edited.replaceSubrange(2..<2, with: ["three"])
        #expect(edited.text == "\u{FEFF}one\r\n2\r\nthree\r\n")
        // Mixed endings stay mixed, and a lone CR stays a CR (issue 45, point 10).
        var mixed = TextLines("a\nb\r\n```\nx\ry\n```\nlast")
        mixed.replaceSubrange(1..<2, with: ["B", "B2"])
        #expect(mixed.text == "a\nB\nB2\r\n```\nx\ry\n```\nlast")
    }

    // MARK: - Code

    @Test func fencedCodeFollowsCommonMark() {
        // A longer fence is closed only by one at least as long; a fence indented four columns is code, not a fence.
        let text = """
            ````
            ```
            <!-- evidence: a.b (measured) -->
            ````
            Prose. <!-- evidence: c.d (measured) -->
            """
        let parsed = MarkedDocument(text: text)
        #expect(parsed.markers.map(\.key) == ["c.d"])
        #expect(parsed.skippedLines == [0, 1, 2, 3])
        // A backtick fence whose info string holds a backtick is no fence.
        #expect(MarkedDocument(text: "``` a`b\nWords. <!-- evidence: x.y (measured) -->\n").markers.map(\.key) == ["x.y"])
        // A fence left open runs to the end: nothing after it is read.
        #expect(MarkedDocument(text: "~~~\nWords. <!-- evidence: x.y (measured) -->\n").markers.isEmpty)
    }

    @Test func indentedCodeIsCodeAfterABlankLineAndInListItems() {
        let text = """
            Paragraph.

                <!-- evidence:checklist -->
                Words. <!-- evidence: in.code (measured) -->
                <!-- /evidence:checklist -->

            - An item.

                  Words. <!-- evidence: in.item-code (measured) -->

              Item prose. <!-- evidence: item.prose (measured) -->
            A paragraph
                continued. <!-- evidence: lazy.line (measured) -->
            """
        let parsed = MarkedDocument(text: text)
        #expect(parsed.blocks.isEmpty)
        #expect(parsed.problems.isEmpty)
        #expect(parsed.markers.map(\.key) == ["item.prose", "lazy.line"])
        #expect(parsed.skippedLines.isSuperset(of: [2, 3, 4, 8]))
        // Tabs indent to the next multiple of four.
        #expect(MarkedDocument(text: "\n\tWords. <!-- evidence: x.y (measured) -->\n").markers.isEmpty)
    }

    @Test func markersInBackticksOrInAMultiLineCommentAreNotRead() {
        let text = """
            Write `<!-- evidence: KEY (measured) -->` after the words. <!-- evidence: real.one (measured) -->
            <!--
            Draft. <!-- evidence: draft.one (measured) -->
            -->
            """
        let parsed = MarkedDocument(text: text)
        #expect(parsed.markers.map(\.key) == ["real.one"])
        #expect(parsed.problems.isEmpty)
        #expect(parsed.markers.first?.text == "Write `<!-- evidence: KEY (measured) -->` after the words.")
    }

    // MARK: - Generated blocks

    @Test func aBlockWithoutItsCloserNeverRunsOnToAnotherBlocksCloser() {
        // The mistyped closer was read as text, so the first block ran to the second's closer.
        let text = """
            <!-- evidence:checklist -->
            old
            <!-- /evidence:checklst -->

            Hand-written prose.

            <!-- evidence:checklist -->
            old
            <!-- /evidence:checklist -->
            """
        let parsed = MarkedDocument(text: text)
        let messages = parsed.problems.map(\.message)
        #expect(messages.contains { $0.contains("<!-- /evidence:checklst --> is neither a claim marker") })
        #expect(messages.contains { $0.contains("<!-- evidence:checklist --> opens a block inside the checklist block opened on line 1") })
        #expect(parsed.problems.allSatisfy { $0.rule == .marker })
    }

    @Test func closersWithoutOpenersAndOfAnotherKindAreBadMarkers() {
        let parsed = MarkedDocument(text: "<!-- /evidence:sources -->\n<!-- evidence:untested -->\n<!-- /evidence:sources -->\n")
        #expect(parsed.problems.map(\.line) == [1, 2, 3])
        #expect(parsed.problems[0].message.contains("closes no block: nothing opened it"))
        #expect(parsed.problems[1].message.contains("never closed"))
        #expect(parsed.problems[2].message.contains("closes no sources block: the untested block opened on line 2 is open"))
    }

    @Test func spacesInsideABlocksCommentsDoNotMatter() {
        let parsed = MarkedDocument(text: "<!-- evidence:checklist -->\nold\n<!-- /evidence:checklist  -->\n<!--evidence: sources-->\n<!-- / evidence : sources -->\n")
        #expect(parsed.problems.isEmpty)
        #expect(parsed.blocks.map(\.kind) == ["checklist", "sources"])
        #expect(parsed.blocks.first?.content == "old\n")
    }

    @Test func aBlockInsideCodeIsNoBlock() {
        let parsed = MarkedDocument(text: "```\n<!-- evidence:checklist -->\n```\n<!-- evidence:sources -->\n```\n<!-- /evidence:sources -->\n```\n<!-- /evidence:sources -->\n")
        #expect(parsed.problems.isEmpty)
        #expect(parsed.blocks.map(\.startLine) == [4])
        #expect(parsed.blocks.first?.content == "```\n<!-- /evidence:sources -->\n```\n")
    }

    // MARK: - Front matter

    private func replacing(_ field: FrontMatter.Field, with value: String, in lines: [String]) -> [String] {
        var lines = lines
        let (range, line) = FrontMatter.replacement(of: field, with: value, in: lines)
        lines.replaceSubrange(range, with: [line])
        return lines
    }

    private func verified(_ front: String) -> FrontMatter.Field? {
        FrontMatter(TextLines("---\n" + front + "\n---\nBody.\n").lines)?.verified
    }

    @Test func everyScalarStyleReadsAsYAMLReadsIt() {
        #expect(verified("verified: Xcode 27.1")?.value == "Xcode 27.1")
        #expect(verified("verified: Xcode 27.1 # a comment")?.value == "Xcode 27.1")
        #expect(verified("verified: \"a \\\"b\\\" \\u00e9 \\x41\"")?.value == "a \"b\" é A")
        #expect(verified("verified: 'it''s # not a comment'")?.value == "it's # not a comment")
        #expect(verified("verified: >-\n  Xcode 27.1,\n  device: no\nname: x")?.value == "Xcode 27.1, device: no")
        #expect(verified("verified: >\n  one\n\n  two\n")?.value == "one\ntwo\n")
        #expect(verified("verified: |\n  one\n  two")?.value == "one\ntwo\n")
        #expect(verified("verified: |+\n  one\n\nname: x")?.value == "one\n\n")
        #expect(verified("verified: |-\n  one\n\nname: x")?.value == "one")
        #expect(verified("verified: \"one\n  two\"")?.value == "one two")
        #expect(verified("verified: plain\n  continued\nother: x")?.value == "plain continued")
        #expect(verified("metadata:\n  verified: \"nested\"")?.value == "nested")
        #expect(verified("- verified: in a list")?.value == "in a list")
        // Written by an older version: read, and flagged as YAML parsers refuse it.
        let old = verified("verified: Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no")
        #expect(old?.value == "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no" && old?.invalidYAML != nil)
        #expect(verified("verified: \"Xcode 27.1, device: no\"")?.invalidYAML == nil)
    }

    @Test func whatCannotBeRewrittenSafelyIsAProblemNotAGuess() {
        for front in [
            "verified: &anchor Xcode", "verified: *alias", "verified: !!str Xcode", "verified: [a, b]",
            "verified: {a: b}", "verified:\n  device: no", "verified: \"never closed", "verified: \"closed\" then words",
        ] {
            let field = verified(front)
            #expect(field?.value == nil && field?.problem != nil, "\(front)")
        }
        let parsed = MarkedDocument(text: "---\nname: &n doc\n---\n")
        #expect(parsed.name == nil && parsed.problems.map(\.rule) == [.frontMatter])
    }

    @Test func aRewriteReplacesTheWholeValueWithAQuotedOne() throws {
        let lines = TextLines("---\nmetadata:\n  verified: >-\n    Xcode 26,\n    device: no\n  sources: x # kept\n---\n").lines
        let field = try #require(FrontMatter(lines)?.verified)
        let written = replacing(field, with: "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no", in: lines)
        #expect(written == ["---", "metadata:", "  verified: \"Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no\"", "  sources: x # kept", "---"])
        #expect(FrontMatter(written)?.verified?.value == "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no")
        // A comment after the value stays; quotes and backslashes are escaped.
        let commented = TextLines("---\nverified: 'old' # why\n---\n").lines
        let replaced = replacing(try #require(FrontMatter(commented)?.verified), with: "a \"b\" \\ c", in: commented)
        #expect(replaced[1] == "verified: \"a \\\"b\\\" \\\\ c\" # why")
        #expect(FrontMatter(replaced)?.verified?.value == "a \"b\" \\ c")
    }

    /// A line that merely looks like `verified:` is another value's text
    /// (issue 45, point 3): inside a block scalar, inside a quoted scalar over
    /// several lines, or in prose under a `---` that is never closed.
    @Test func onlyAKeyIsTheVerifiedField() {
        #expect(verified("notes: |\n  verified: inside a block\nverified: the field")?.value == "the field")
        #expect(verified("notes: |\n  verified: inside a block")?.value == nil)
        #expect(verified("title: \"a title over\n  verified: two lines\"\nverified: ok")?.value == "ok")
        #expect(verified("title: 'it''s\nverified: still the title'")?.value == nil)
        #expect(verified("summary: a plain value\n  verified: continued\nverified: yes")?.value == "yes")
        #expect(verified("meta:\n  verified: nested")?.value == "nested")
        #expect(FrontMatter(TextLines("---\nA rule, then prose.\n\nverified: a sentence in prose\n").lines) == nil)
        let document = "---\nnotes: |\n  verified: keep me\n---\n"
        #expect(MarkedDocument(text: document).verified == nil)
    }

    /// A generated block holding an escaped `\<!--` (a document named
    /// "HTML <!-- comments --> guide") is closed where its closer stands: the
    /// backslash makes it text (issue 45, point 10).
    @Test func anEscapedCommentOpenerIsText() {
        let text = "<!-- evidence:sources -->\n\nCited by claims of HTML \\<!-- comments --\\> guide.\n\n<!-- /evidence:sources -->\n"
        let parsed = MarkedDocument(text: text)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.blocks.count == 1)
        let unescaped = MarkedDocument(text: text.replacingOccurrences(of: "\\<!--", with: "<!--"))
        #expect(!unescaped.problems.isEmpty, "a real comment opener still opens a comment")
    }
}
