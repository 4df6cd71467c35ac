#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

// What the tool needs of text that the standard library does not give and
// Foundation's full module would (with ICU's data, 34 MB of the binary):
// trimming, literal replacement, splitting at a separator, padding, paths.

extension String {
    /// The text `bytes` hold, or nil where they are not UTF-8. (The standard
    /// library's `String(validating:as:)` needs macOS 15; the tool runs on 13.)
    public init?(validatingUTF8Bytes bytes: some Collection<UInt8>) {
        let valid = bytes.withContiguousStorageIfAvailable { UTF8Bytes.areValid(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes(UTF8Bytes.areValid)
        guard valid else { return nil }
        self.init(decoding: bytes, as: UTF8.self)
    }
}

/// UTF-8's rules, byte by byte: what `String(validatingUTF8Bytes:)` and a
/// result file's streaming check (`UTF8Stream`) both hold text to.
enum UTF8Bytes {
    /// Whether `bytes` are UTF-8 from first to last (a NUL is).
    static func areValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < bytes.count {
            // ASCII, nearly all of it, eight bytes at a time.
            while index + 8 <= bytes.count, ByteWords.word(bytes, at: index) & ByteWords.highBits == 0 { index += 8 }
            guard index < bytes.count else { break }
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            guard let length = sequenceLength(bytes[index]), index + length <= bytes.count,
                isValidSequence(bytes, at: index, length: length)
            else { return false }
            index += length
        }
        return true
    }

    /// How many bytes the character a lead byte starts has; nil for a byte no character starts with.
    static func sequenceLength(_ first: UInt8) -> Int? {
        switch first {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return nil
        }
    }

    /// Whether the `length` bytes at `index`, the first a lead byte of that
    /// length, are one character: continuation bytes, and neither an overlong
    /// form, a surrogate nor past U+10FFFF (RFC 3629's table).
    static func isValidSequence(_ bytes: UnsafeRawBufferPointer, at index: Int, length: Int) -> Bool {
        let first = bytes[index]
        let second = bytes[index + 1]
        let secondRange: ClosedRange<UInt8> =
            switch first {
            case 0xE0: 0xA0...0xBF
            case 0xED: 0x80...0x9F
            case 0xF0: 0x90...0xBF
            case 0xF4: 0x80...0x8F
            default: 0x80...0xBF
            }
        guard secondRange.contains(second) else { return false }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
        return true
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end (what Foundation's
    /// `.whitespaces` trims: tab and every space separator).
    public func trimmingWhitespace() -> String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without white space and line breaks at either end.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { $0.properties.isWhitespace }
    }

    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Every occurrence of `target` replaced by `replacement`, found byte by
    /// byte as Foundation's literal search finds it: "\n" is found inside
    /// "\r\n", which compares as one `Character`.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8)
        let sought = Array(target.utf8)
        guard !sought.isEmpty, bytes.count >= sought.count else { return String(self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == sought[0], index + sought.count <= bytes.count, bytes[index..<index + sought.count].elementsEqual(sought) {
                out.append(contentsOf: replacement.utf8)
                index += sought.count
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The pieces between each `separator`, empty ones kept: "a; ; b" gives
    /// "a", "", "b"; a text without it gives itself.
    public func pieces(separatedBy separator: String) -> [String] {
        split(separator: separator, omittingEmptySubsequences: false).map { String($0) }
    }

    /// Padded with spaces at the end to `width` characters (never cut).
    public func padded(to width: Int) -> String {
        count >= width ? String(self) : String(self) + String(repeating: " ", count: width - count)
    }
}

/// Paths as text, as the shell and Foundation's `NSString` read them.
public enum PathText {
    /// The folder a path is in: "/a/b" → "/a", "b" → "", "/a" → "/".
    public static func folder(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The last part of a path: "/a/b/" → "b", "/" → "/".
    public static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last part, without its dot: "a/b.PNG" → "PNG"; "" when none.
    public static func fileExtension(of path: String) -> String {
        let name = name(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// "~" and "~/…" with the home folder given (`SystemCall.homeFolder`).
    public static func expandingTilde(_ path: String, home: String?) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home, !home.isEmpty else { return path }
        return withoutTrailingSlashes(home) + path.dropFirst()
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}

extension Array where Element == String {
    /// The words as a sentence lists them: "a", "a or b", "a, b or c" (or
    /// another conjunction, such as "and").
    public func listed(_ conjunction: String = "or") -> String {
        guard let last else { return "" }
        return count == 1 ? last : dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
