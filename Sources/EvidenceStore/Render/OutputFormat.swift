/// How a listing is written: a table for people, JSON or CSV for scripts.
public enum OutputFormat: String, Vocabulary {
    case table
    case json
    case csv

    public static let field = "format"
}

/// How a `show` command prints one record: readable text or a JSON object.
public enum DetailFormat: String, Vocabulary {
    case table
    case json

    public static let field = "format"
}

/// How a published document is written: Markdown to commit beside the guide,
/// or one self-contained HTML page to look at.
public enum DocumentFormat: String, Vocabulary {
    case markdown
    case html

    public static let field = "format"
}
