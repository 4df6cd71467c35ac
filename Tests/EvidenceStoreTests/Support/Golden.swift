import Foundation
import Testing

/// Golden files live in Tests/EvidenceStoreTests/Golden and are compared byte for
/// byte. Run the tests with EVIDENCE_UPDATE_GOLDEN=1 to rewrite them after a
/// deliberate change, then review the diff. Where CI is set, update mode is
/// refused: a run there that rewrote its golden files would pass without
/// comparing anything.
enum Golden {
    struct UpdateRefused: Error, CustomStringConvertible {
        var description: String {
            "EVIDENCE_UPDATE_GOLDEN=1 is refused where CI is set: golden files are compared in CI, never rewritten"
        }
    }

    /// Whether this run rewrites golden files instead of comparing them.
    static func updating(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool {
        guard environment["EVIDENCE_UPDATE_GOLDEN"] == "1" else { return false }
        if let ci = environment["CI"], !["", "0", "false", "no"].contains(ci.lowercased()) { throw UpdateRefused() }
        return true
    }

    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Golden")
    }

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if try updating() {
            try Data(actual.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
    }
}
