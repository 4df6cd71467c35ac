#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Texts copied one after another into one buffer, to be bound in place
/// (`Statement.bindInPlace`) while the buffer is held: a bulk insert binds
/// hundreds of texts per statement, and SQLite would otherwise copy each one
/// into an allocation of its own. Reused from one statement to the next.
///
/// Each text is followed by a NUL byte, and bound as ending there where it
/// has no NUL of its own: SQLite then knows the text is NUL-terminated, and
/// need not copy it to terminate it when a function such as `length()` (in
/// the CHECKs of `results`) reads it as a C string.
struct TextArena {
    /// Where a text is: its first byte and length; -1 for a NULL. `terminated`
    /// when the NUL after it is its first, so it may be bound as a C string.
    struct Span {
        var start: Int
        var count: Int
        var terminated: Bool
    }

    /// The texts' bytes and where each one is.
    struct Texts {
        let bytes: UnsafeBufferPointer<UInt8>
        let spans: [Span]
    }

    private var bytes: [UInt8] = []
    private var spans: [Span] = []

    /// Forgets every text, keeping the memory for the next ones.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }

    /// Adds a text, or NULL; it is the next `n` of `withTexts`.
    mutating func append(_ text: String?) {
        guard var text else { return spans.append(Span(start: 0, count: -1, terminated: false)) }
        let start = bytes.count
        let terminated = text.withUTF8 { utf8 in
            bytes.append(contentsOf: utf8)
            guard let base = utf8.baseAddress else { return true }
            return Bytes.firstIndex(of: 0, in: UnsafeRawBufferPointer(start: base, count: utf8.count)) == nil
        }
        spans.append(Span(start: start, count: bytes.count - start, terminated: terminated))
        bytes.append(0)
    }

    /// Calls `body` with the texts, which stay where they are until it returns.
    func withTexts<T>(_ body: (Texts) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { try body(Texts(bytes: $0, spans: spans)) }
    }
}
