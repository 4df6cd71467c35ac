/// The health of a store: SQLite's own integrity checks, foreign keys, the
/// schema version, and the attachments kept beside it.
public struct StoreCheck: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var ok: Bool
        public var detail: String
    }

    public var items: [Item]

    public var ok: Bool { items.allSatisfy(\.ok) }

    public static func run(_ store: Store, migrator: Migrator = Migrator()) throws -> StoreCheck {
        let database = store.database
        var items: [Item] = []

        let quick = try database.query("PRAGMA quick_check").map { $0[0].description }
        items.append(Item(name: "quick_check", ok: quick == ["ok"], detail: summary(quick)))

        let integrity = try database.query("PRAGMA integrity_check").map { $0[0].description }
        items.append(Item(name: "integrity_check", ok: integrity == ["ok"], detail: summary(integrity)))

        let violations = try database.query("PRAGMA foreign_key_check")
        let tables = Set(violations.map { $0.text("table") }).sorted()
        items.append(Item(
            name: "foreign_key_check", ok: violations.isEmpty,
            detail: violations.isEmpty ? "ok" : "\(violations.count) rows break foreign keys in " + tables.joined(separator: ", ")))

        let version = try migrator.currentVersion(of: database)
        let applied = try migrator.status(of: database).filter { $0.appliedAt != nil }.map(\.migration.version)
        let expected = Array(1...max(version, 1)).filter { $0 <= version }
        var schemaOK = version == migrator.latestVersion && applied == expected
        var schemaDetail = "version \(version) of \(migrator.latestVersion)"
        if version < migrator.latestVersion {
            schemaDetail += "; run 'evidence init' to upgrade"
        } else if applied != expected {
            schemaDetail += "; schema_migrations lists versions \(applied.map(String.init).joined(separator: ", "))"
        }
        if version > migrator.latestVersion {
            schemaOK = false
        }
        items.append(Item(name: "schema", ok: schemaOK, detail: schemaDetail))

        let (checked, problems) = try store.verifyAttachments()
        items.append(Item(
            name: "attachments", ok: problems.isEmpty,
            detail: problems.isEmpty
                ? "\(checked) files unchanged"
                : problems.prefix(5).map { "\($0.path) \($0.kind.rawValue)" }.joined(separator: "; ")
                    + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")))

        let mode = try store.journalMode()
        items.append(Item(name: "journal_mode", ok: mode == "wal", detail: mode))
        return StoreCheck(items: items)
    }

    private static func summary(_ lines: [String]) -> String {
        guard lines != ["ok"] else { return "ok" }
        let shown = lines.prefix(5).joined(separator: "; ")
        return lines.count > 5 ? shown + "; and \(lines.count - 5) more" : shown
    }
}
