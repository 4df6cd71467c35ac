/// The text form of a whole store: a folder of UTF-8 JSON Lines files, one kind
/// of record per file, in a stable order with stable keys. Records refer to each
/// other by natural keys (claim key, source URL, run UUID), never by row ids.
/// `docs/text-format.md` describes every field.
public enum TextFormat {
    public static let name = "evidence-store"
    public static let version = 1
    public static let manifest = "format.json"

    /// The record files, in the order an import reads them (each refers only to
    /// earlier ones). Export and import switch over these cases, so a new file
    /// cannot be added without both learning it.
    public enum File: String, CaseIterable, Sendable {
        case sources = "sources.jsonl"
        case capabilities = "capabilities.jsonl"
        case claims = "claims.jsonl"
        case environmentLacks = "environment_lacks.jsonl"
        case ingestedFiles = "ingested_files.jsonl"
        case runs = "runs.jsonl"
        case results = "results.jsonl"
        case retractions = "retractions.jsonl"
        case labelHistory = "label_history.jsonl"
        case checklists = "checklists.jsonl"
        case checklistItems = "checklist_items.jsonl"
        case testMappings = "test_mappings.jsonl"
    }

    /// The record files' names, in import order.
    public static let files = File.allCases.map(\.rawValue)
}
