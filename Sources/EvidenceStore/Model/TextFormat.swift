/// The text form of a whole store: a folder of UTF-8 JSON Lines files, one kind
/// of record per file, in a stable order with stable keys. Records refer to each
/// other by natural keys and UUIDs, never by row ids. `docs/text-format.md`
/// describes every field.
public enum TextFormat {
    public static let name = "evidence-store"
    /// The version `export` writes; `import` reads it and every earlier one.
    public static let version = 4
    public static let manifest = "format.json"

    /// The record files of version 1, in the order an import reads them (each
    /// refers only to earlier ones). Its import switches over these cases, so a
    /// file cannot be added without it learning the file.
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

    /// The record files' names of version 1, in import order.
    public static let files = File.allCases.map(\.rawValue)

    /// Version 2, made to merge (version 3 adds the models claims speak about,
    /// what capability records say, and documents' default subjects): records people edit sit one per line in small
    /// files sorted by key; records that are only ever added (a run with its
    /// results and retractions, label changes, statements) are keyed by UUID
    /// or content, and a run has a file of its own.
    public enum Part: Sendable, Equatable, CaseIterable {
        case sources, capabilities, documents, renames, claims, retirements, statements, environmentLacks, runs, labelHistory
        case checklists, checklistItems, testMappings

        /// A file at the top of the folder, or a folder of files.
        public var name: String {
            switch self {
            case .sources: return "sources.jsonl"
            case .capabilities: return "capabilities.jsonl"
            case .documents: return "documents.jsonl"
            case .renames: return "renames.jsonl"
            case .claims: return "claims"
            case .retirements: return "retirements.jsonl"
            case .statements: return "statements"
            case .environmentLacks: return "environment_lacks.jsonl"
            case .runs: return "runs"
            case .labelHistory: return "label_history"
            case .checklists: return "checklists.jsonl"
            case .checklistItems: return "checklist_items.jsonl"
            case .testMappings: return "test_mappings.jsonl"
            }
        }

        /// True for a folder: one file per document (claims, statements, label
        /// history) or per run.
        public var isFolder: Bool { [.claims, .statements, .runs, .labelHistory].contains(self) }
    }

    /// Whether a path relative to an export folder is the format's to write
    /// and remove: its manifest, its files (of either version) and the
    /// `.jsonl` files in its folders. Everything else belongs to the user.
    /// The folder of an export that holds the files results attach (the
    /// screenshots), each named by its SHA-256: written once, never
    /// rewritten, and brought into the importing store's folder.
    public static let attachmentsFolder = "attachments"

    /// Where an export keeps an attached file.
    public static func attachmentPath(sha256: String) -> String {
        attachmentsFolder + "/" + sha256
    }

    public static func isFormatEntry(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return false }
        if parts.count == 2, first == attachmentsFolder {
            return parts[1].utf8.count == 64 && parts[1].utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        }
        if parts.count == 1 {
            return first == manifest || files.contains(first) || Part.allCases.contains { !$0.isFolder && $0.name == first }
        }
        return parts.count == 2 && Part.allCases.contains { $0.isFolder && $0.name == first } && parts[1].hasSuffix(".jsonl")
            && !parts[1].hasPrefix(".")
    }

    /// A document's file name in a folder of per-document files: the name
    /// itself where it is a plain file name, else with every other byte as %XX.
    public static func fileName(ofDocument document: String) -> String {
        PercentEncoding.encode(document) { byte, first in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || (byte == 0x2E && !first)
        } + ".jsonl"
    }
}
