import Foundation
import Testing

@testable import EvidenceStore

/// docs/schema.sql holds the whole current schema, views included, as a fresh
/// store has it, so anyone can read today's tables and views in one place.
@Suite struct SchemaDocumentTests {
    static let file = EvidenceBinary.packageRoot.appendingPathComponent("docs/schema.sql")

    /// The schema of a fresh store: tables, indexes, views and triggers, each
    /// kind sorted by name.
    static func schema() throws -> String {
        let folder = try TemporaryFolder()
        let (store, _) = try Store.initialize(at: folder.path("schema.sqlite"))
        defer { store.close() }
        let rows = try store.database.query(
            """
            SELECT type, name, sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
            ORDER BY CASE type WHEN 'table' THEN 1 WHEN 'index' THEN 2 WHEN 'view' THEN 3 ELSE 4 END, name
            """)
        var out = """
            -- The schema of an evidence store at version \(Migrator().latestVersion), as a fresh store holds it:
            -- tables, indexes, views and triggers, each kind sorted by name.
            -- Generated from migrations/ by the tests (SchemaDocumentTests); do not edit.
            -- Refresh it with: EVIDENCE_UPDATE_GOLDEN=1 swift test --filter SchemaDocumentTests

            """
        var kind = ""
        for row in rows {
            let type = try row.text("type")
            if type != kind {
                kind = type
                out += "\n-- MARK: - \(type == "index" ? "Indexes" : type.capitalized + "s")\n"
            }
            out += "\n" + (try row.text("sql")) + ";\n"
        }
        return out
    }

    @Test func theSchemaDocumentIsCurrent() throws {
        let actual = try Self.schema()
        if try Golden.updating() {
            try Data(actual.utf8).write(to: Self.file)
            return
        }
        let expected = try String(contentsOf: Self.file, encoding: .utf8)
        #expect(actual == expected, "docs/schema.sql is stale; refresh it with EVIDENCE_UPDATE_GOLDEN=1")
    }
}
