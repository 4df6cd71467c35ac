/// Texts copied one after another into one buffer, to be bound in place
/// (`Statement.bindInPlace`) while the buffer is held: a bulk insert binds
/// hundreds of texts per statement, and SQLite would otherwise copy each one
/// into an allocation of its own. Reused from one statement to the next.
struct TextArena {
    /// The texts' bytes and where each one is; a NULL has a count of -1.
    struct Texts {
        let bytes: UnsafeBufferPointer<UInt8>
        let spans: [(start: Int, count: Int)]
    }

    private var bytes: [UInt8] = []
    private var spans: [(start: Int, count: Int)] = []

    /// Forgets every text, keeping the memory for the next ones.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    /// Adds a text, or NULL; it is the next `n` of `withTexts`.
    mutating func append(_ text: String?) {
        guard let text else { return spans.append((0, -1)) }
        let start = bytes.count
        bytes.append(contentsOf: text.utf8)
        spans.append((start, bytes.count - start))
    }

    /// Calls `body` with the texts, which stay where they are until it returns.
    func withTexts<T>(_ body: (Texts) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { try body(Texts(bytes: $0, spans: spans)) }
    }
}
