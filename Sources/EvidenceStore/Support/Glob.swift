/// Shell-style patterns for test identifiers: `*` matches any run of
/// characters, `?` any one character (one Unicode scalar); everything else
/// matches itself. A pattern is compiled once and matched on UTF-8 bytes, since
/// an ingest tries every rule against every test.
public struct Glob: Sendable {
    private let pattern: [UInt8]

    public init(_ pattern: String) {
        self.pattern = Array(pattern.utf8)
    }

    public static func matches(_ pattern: String, _ text: String) -> Bool {
        Glob(pattern).matches(text)
    }

    public func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { matches($0) }
    }

    /// Matches valid UTF-8; `*` backtracks by whole scalars.
    public func matches(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        let any = UInt8(ascii: "?")
        var pi = 0
        var ti = 0
        var starAt = -1
        var mark = 0
        while ti < t.count {
            if pi < pattern.count && pattern[pi] == any {
                pi += 1
                ti = Self.nextScalar(t, after: ti)
            } else if pi < pattern.count && pattern[pi] == t[ti] && pattern[pi] != star {
                pi += 1
                ti += 1
            } else if pi < pattern.count && pattern[pi] == star {
                starAt = pi
                mark = ti
                pi += 1
            } else if starAt >= 0 {
                pi = starAt + 1
                mark = Self.nextScalar(t, after: mark)
                ti = mark
            } else {
                return false
            }
        }
        while pi < pattern.count && pattern[pi] == star { pi += 1 }
        return pi == pattern.count
    }

    /// The index of the scalar after the one starting at `index`.
    private static func nextScalar(_ bytes: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
        var next = index + 1
        while next < bytes.count && bytes[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }
}
