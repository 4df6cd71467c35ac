/// A page a claim can cite: a URL with a title, a publisher, a kind and dates.
public struct SourceDraft: Equatable, Sendable {
    public var url: String
    public var title: String
    public var publisher: String
    public var kind: SourceKind
    public var published: String?
    public var updated: String?
    public var retrieved: String?

    public init(
        url: String, title: String, publisher: String, kind: SourceKind, published: String? = nil,
        updated: String? = nil, retrieved: String? = nil
    ) {
        self.url = url
        self.title = title
        self.publisher = publisher
        self.kind = kind
        self.published = published
        self.updated = updated
        self.retrieved = retrieved
    }
}

extension Store {
    public func addSource(_ draft: SourceDraft) throws {
        let url = try Validate.url(draft.url)
        let title = try Validate.nonEmpty(draft.title, field: "title")
        let publisher = try Validate.nonEmpty(draft.publisher, field: "publisher")
        let published = try draft.published.map { try Timestamp.parseDay($0, field: "published date") }
        let updated = try draft.updated.map { try Timestamp.parseDay($0, field: "updated date") }
        let retrieved = try draft.retrieved.map { try Timestamp.parseDay($0, field: "retrieved date") }
        try database.inTransaction(.immediate) {
            if try database.scalar("SELECT 1 FROM sources WHERE url = ?", .text(url)) != .null {
                throw EvidenceError.alreadyExists(kind: "source", value: url)
            }
            try database.execute(
                """
                INSERT INTO sources (url, title, publisher, kind, published, updated, retrieved)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                .text(url), .text(title), .text(publisher), .text(draft.kind.rawValue), SQLValue(published),
                SQLValue(updated), SQLValue(retrieved))
        }
    }
}
