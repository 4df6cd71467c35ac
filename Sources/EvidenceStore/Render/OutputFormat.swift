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
