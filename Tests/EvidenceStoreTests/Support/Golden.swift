import Foundation
import Testing

/// Golden files live in Tests/EvidenceStoreTests/Golden and are compared byte for
/// byte. Run the tests with EVIDENCE_UPDATE_GOLDEN=1 to rewrite them after a
/// deliberate change, then review the diff.
enum Golden {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden")
    }

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["EVIDENCE_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}
