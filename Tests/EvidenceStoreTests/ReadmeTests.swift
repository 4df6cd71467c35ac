import Foundation
import Testing

@testable import evidence
@testable import EvidenceStore

/// The README is short enough to read in ten minutes and its quick start
/// runs as written; the command reference in docs/ is the real help text.
@Suite struct ReadmeTests {
    static let readme = EvidenceBinary.packageRoot.appendingPathComponent("README.md")
    static let commands = EvidenceBinary.packageRoot.appendingPathComponent("docs/commands.md")

    @Test func theCommandReferenceMatchesTheHelpText() throws {
        let text = try String(contentsOf: Self.commands, encoding: .utf8)
        guard let start = text.range(of: HelpReference.begin), let end = text.range(of: HelpReference.end) else {
            Issue.record("docs/commands.md lacks the command reference markers")
            return
        }
        let current = String(text[start.lowerBound..<end.upperBound])
        let expected = HelpReference.markdown()
        if current != expected, try Golden.updating() {
            try Data(text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: expected).utf8)
                .write(to: Self.commands)
            return
        }
        #expect(current == expected, "docs/commands.md is out of date; run the tests with EVIDENCE_UPDATE_GOLDEN=1")
    }

    @Test func theReadmeOpensWithTheTwoCommandsAndStaysShort() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let firstBlock = try #require(text.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("swift run evidence demo"))
        #expect(firstBlock.contains("swift test"))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count < 500)
        // Every link to a file of the repository leads to one.
        for match in text.matches(of: /\]\(((?:docs\/)?[a-z-]+\.(?:md|sql))\)/) {
            let path = String(match.1)
            #expect(FileManager.default.fileExists(atPath: EvidenceBinary.packageRoot.appendingPathComponent(path).path), "\(path)")
        }
    }

    /// The UI-test snippet attaches what `ingest` reads: its name, and a
    /// string that (with a number for its interpolation) parses as a
    /// measurement in `--measure`'s syntax.
    @Test func theUITestSnippetAttachesWhatIngestReads() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let snippet = try #require(text.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        #expect(snippet.contains("attachment.name = \"\(TestAttachments.measurementsName)\""), "\(snippet)")
        let literal = try #require(snippet.firstMatch(of: /XCTAttachment\(string: "((?:[^"\\]|\\\([^)]*\)\))*)"\)/)?.1)
        let line = String(literal).replacing(/\\\([^)]*\)\)/, with: "171")
        let measurement = try MeasurementDraft(parsing: line)
        #expect(measurement == MeasurementDraft(name: "status-bar clock y", value: 171, unit: .pt, baseline: 87, posture: .closed))
    }

    /// The shell blocks of "Quick start", in order, in one empty folder, with
    /// the built binary first on PATH and Xcode's tools faked: each must
    /// succeed, as a newcomer would run them.
    @Test func theQuickStartRunsAsWritten() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Quick start\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count >= 5, "the quick start has a block for everyone, QA, writers, leads and teams")
        let folder = try TemporaryFolder()
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("home"), withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "EVIDENCE_STORE")
        let fakes = EvidenceBinary.packageRoot.appendingPathComponent("Tests/EvidenceStoreTests/Fixtures/fake-xcode").path
        environment["PATH"] = EvidenceBinary.url.deletingLastPathComponent().path + ":" + fakes + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = folder.path("home")
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["TZ"] = "UTC"
        for (index, block) in blocks.enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-euo", "pipefail", "-c", block]
            process.currentDirectoryURL = work
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "quick start block \(index + 1) failed:\n\(block)\n\(printed)")
        }
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("references/evidence.html").path))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("shared/evidence/format.json").path))
    }
}
