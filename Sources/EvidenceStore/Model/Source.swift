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
