/// The text form of a whole store: a folder of UTF-8 JSON Lines files, one kind
/// of record per file, in a stable order with stable keys. Records refer to each
/// other by natural keys (claim key, source URL, run UUID), never by row ids.
/// `docs/text-format.md` describes every field.
public enum TextFormat {
    public static let name = "evidence-store"
    public static let version = 1
    public static let manifest = "format.json"

    /// The record files, in the order an import reads them (each refers only to earlier ones).
    public static let files = [
        "sources.jsonl",
        "capabilities.jsonl",
        "claims.jsonl",
        "environment_lacks.jsonl",
        "ingested_files.jsonl",
        "runs.jsonl",
        "results.jsonl",
        "label_history.jsonl",
        "checklists.jsonl",
        "checklist_items.jsonl",
        "test_mappings.jsonl",
    ]
}
