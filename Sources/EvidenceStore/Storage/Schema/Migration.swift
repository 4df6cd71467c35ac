#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// One numbered step of the schema: a file `migrations/NNNN_description.sql`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The file name the migration came from, such as `0001_initial_schema.sql`.
    public var fileName: String { String(version).zeroPadded(to: 4) + "_\(name).sql" }

    /// The SHA-256 of its text, kept in `schema_migrations` when it is applied, so
    /// that a migration edited after it landed can be told from the one applied.
    public var sha256: String { SHA256.hex(Data(sql.utf8)) }

    /// The migrations built into this binary from `migrations/`, in order.
    public static let bundled: [Migration] = {
        // The plugin embeds every file of migrations/; a malformed name is a build
        // mistake that the migration tests catch, so it is skipped, never a crash here.
        EmbeddedResources.files.compactMap { file in
            guard file.path.hasPrefix("migrations/") else { return nil }
            return Migration(fileName: String(file.path.dropFirst("migrations/".count)), sql: file.text)
        }
        .sorted { $0.version < $1.version }
    }()

    /// Parses `NNNN_description.sql`; nil for any other name.
    public init?(fileName: String, sql: String) {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_"),
            let version = Int(stem[..<underscore]), version > 0,
            stem[..<underscore].count == 4
        else { return nil }
        let name = String(stem[stem.index(after: underscore)...])
        guard !name.isEmpty else { return nil }
        self.init(version: version, name: name, sql: sql)
    }
}
