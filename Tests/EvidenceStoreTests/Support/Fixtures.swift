import Foundation

/// Real outputs of Apple tooling and the three seed documents, copied into the
/// repository from ../shared so that a clean clone tests the same files.
enum Fixtures {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    static func apple(_ name: String) -> URL {
        folder.appendingPathComponent("apple").appendingPathComponent(name)
    }

    static func seedDocument(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("seeds").appendingPathComponent(name), encoding: .utf8)
    }
}
