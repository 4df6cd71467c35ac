import Foundation
import Testing

@testable import evidence

/// The README documents the commands with their real help text.
@Suite struct ReadmeTests {
    static let readme = EvidenceBinary.packageRoot.appendingPathComponent("README.md")

    @Test func theCommandReferenceMatchesTheHelpText() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        guard let start = text.range(of: HelpReference.begin), let end = text.range(of: HelpReference.end) else {
            Issue.record("README.md lacks the command reference markers")
            return
        }
        let current = String(text[start.lowerBound..<end.upperBound])
        let expected = HelpReference.markdown()
        if current != expected, try Golden.updating() {
            try Data(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: expected).utf8)
                .write(to: Self.readme)
            return
        }
        #expect(current == expected, "README.md's command reference is out of date; run the tests with EVIDENCE_UPDATE_GOLDEN=1")
    }

    @Test func theReadmeOpensWithTheTwoCommands() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let firstBlock = try #require(text.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("swift run evidence demo"))
        #expect(firstBlock.contains("swift test"))
    }
}
