/// Escaping for HTML, so that no value from the store can open a tag, end an
/// attribute, or send a link anywhere but the web or this page.
public enum HTML {
    /// Text for an element's content or a quoted attribute's value: `&`, `<`,
    /// `>`, `"` and `'` become references; tabs and line breaks become spaces;
    /// other control characters and the invisible characters that reorder text
    /// are dropped.
    public static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        escape(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same escaping into an output buffer, byte by byte: the text is
    /// valid UTF-8, so the characters dropped are told by their bytes (C1
    /// controls are C2 80–9F; the marks that reorder text and the line and
    /// paragraph separators are E2 80 or E2 81 and one more byte).
    public static func escape(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            var plainFrom = 0
            let count = bytes.count
            // Runs of bytes that need nothing are copied whole.
            func copyPlain() {
                if plainFrom < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainFrom..<index])) }
            }
            while index < count {
                let byte = bytes[index]
                guard needsLook[Int(byte)] else {
                    index += 1
                    continue
                }
                copyPlain()
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                case 0x09, 0x0A, 0x0D: out.append(UInt8(ascii: " "))
                case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]):
                    index += 1
                case 0xE2 where index + 2 < count && (bytes[index + 1] == 0x80 || bytes[index + 1] == 0x81):
                    let scalar = 0x2000 + (UInt32(bytes[index + 1] & 0x3F) << 6) + UInt32(bytes[index + 2] & 0x3F)
                    if scalar == 0x2028 || scalar == 0x2029 {
                        out.append(UInt8(ascii: " "))
                    } else if !Markdown.isDropped(Unicode.Scalar(scalar) ?? " ") {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + 3]))
                    }
                    index += 2
                case 0xD8 where index + 1 < count && bytes[index + 1] == 0x9C:
                    index += 1  // U+061C, the Arabic letter mark
                case 0xC2, 0xE2, 0xD8: out.append(byte)
                default: break  // the other controls
                }
                index += 1
                plainFrom = index
            }
            copyPlain()
        }
    }

    /// The bytes `escape` must look at: markup characters, controls, and the
    /// lead bytes of the characters it may drop.
    private static let needsLook: [Bool] = (0...255).map { (byte: Int) -> Bool in
        let special: Set<Int> = [0x7F, 0xC2, 0xE2, 0xD8, 0x26, 0x3C, 0x3E, 0x22, 0x27]  // DEL, three lead bytes, & < > " '
        return byte < 0x20 || special.contains(byte)
    }

    /// A link's destination, escaped for its attribute, when it is one a
    /// report may hold: an http(s) URL or an in-page anchor. Anything else
    /// (javascript:, data:, a file, a relative path) is nil, and the link's
    /// text is written without it.
    public static func href(_ url: String) -> String? {
        let lower = url.lowercased()
        let allowed = lower.hasPrefix("https://") || lower.hasPrefix("http://") || url.hasPrefix("#")
        guard allowed, url.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
        return escape(Markdown.encodeURL(url))
    }

    /// An anchor (`id`) made of a prefix and a key: characters that are not
    /// letters, digits, `.`, `_` or `-` are percent-encoded, so that the same
    /// key always gives the same id and the id is one word.
    public static func anchor(_ name: String) -> String {
        PercentEncoding.encode(name) { byte, _ in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return true
            default: return false
            }
        }
    }
}
