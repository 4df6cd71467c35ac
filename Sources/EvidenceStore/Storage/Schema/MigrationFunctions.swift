import CSQLite
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Functions the binary lends SQLite while migrations run, where plain SQL
/// cannot compute what the Swift code of the store computes the same way:
/// a marketing version's sort key, and the UUIDs of results and label changes
/// recorded before they had their own. No view, trigger or column calls them, so a store
/// needs nothing but SQLite afterwards.
enum MigrationFunctions {
    static func register(on database: Database) throws {
        let connection = try database.connection
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        var code = sqlite3_create_function_v2(
            connection, "evidence_version_order", 1, flags, nil,
            { context, _, arguments in
                let text = arguments.map { MigrationFunctions.text($0[0]) } ?? ""
                MigrationFunctions.result(context, MarketingVersion.order(text))
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(connection: connection) }
        code = sqlite3_create_function_v2(
            connection, "evidence_legacy_result_uuid", 2, flags, nil,
            { context, _, arguments in
                guard let arguments else { return }
                let run = MigrationFunctions.text(arguments[0])
                let n = sqlite3_value_int64(arguments[1])
                MigrationFunctions.result(context, ResultIdentity.legacyUUID(runUUID: run, n: n))
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(connection: connection) }
        code = sqlite3_create_function_v2(
            connection, "evidence_legacy_label_change_uuid", 2, flags, nil,
            { context, _, arguments in
                guard let arguments else { return }
                let key = MigrationFunctions.text(arguments[0])
                let n = sqlite3_value_int64(arguments[1])
                MigrationFunctions.result(context, ResultIdentity.legacyLabelChangeUUID(claimKey: key, n: n))
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(connection: connection) }
    }

    private static func text(_ value: OpaquePointer?) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        return String(cString: bytes)
    }

    private static func result(_ context: OpaquePointer?, _ text: String) {
        text.withCString { sqlite3_result_text(context, $0, -1, csqlite_transient()) }
    }
}
