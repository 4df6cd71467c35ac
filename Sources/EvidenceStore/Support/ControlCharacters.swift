/// Characters that do something instead of showing: C0 and C1 controls, DEL,
/// the line and paragraph separators, and the marks that reorder text (the
/// Arabic letter mark U+061C among them). The one set: input refuses it,
/// every output escapes or drops it. A name,
/// a version or a build holds none; free text holds none but line breaks and
/// tabs. Output that may still meet one (an older store, a failure message of
/// a test) shows it escaped, never raw.
public enum ControlCharacters {
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The first control in `text`, line breaks and tabs passed over when allowed.
    public static func first(in text: String, allowingLineBreaks: Bool) -> Unicode.Scalar? {
        // Printable ASCII, nearly every value, holds none: a byte scan says so.
        if isPrintableASCII(text) { return nil }
        return text.unicodeScalars.first { scalar in
            isControl(scalar) && !(allowingLineBreaks && (scalar == "\n" || scalar == "\t" || scalar == "\r"))
        }
    }

    /// Whether every byte of `text` is printable ASCII, scanned eight bytes at
    /// a time (a short string's bytes copied out of it first).
    static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { ByteWords.allPrintableASCII(UnsafeRawBufferPointer($0)) }
    }

    /// Why `text` cannot stand where one line (or, allowing line breaks, free
    /// text) is expected, naming the text escaped and the first control in it:
    /// "'a\u{1B}b' holds the control character U+001B; it must be one line of
    /// text". Nil when it holds none. Every boundary (command line, import,
    /// ingest, the model's validation) says it this way.
    public static func problem(in text: String, allowingLineBreaks lines: Bool) -> Problem? {
        guard let control = first(in: text, allowingLineBreaks: lines) else { return nil }
        return Problem(
            shown: escaped(text, keepingLineBreaks: lines), control: name(control),
            rule: lines ? "free text may hold line breaks and tabs, no other control characters" : "it must be one line of text")
    }

    /// A text that holds a control character where it may not.
    public struct Problem: CustomStringConvertible, Sendable {
        /// The text with its controls escaped.
        public var shown: String
        /// The first control, as U+001B.
        public var control: String
        /// What the text may hold instead.
        public var rule: String

        public var description: String { "'\(shown)' holds the control character \(control); \(rule)" }
    }

    /// How a control is named in an error: U+001B.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        "U+" + String(scalar.value, radix: 16, uppercase: true).zeroPadded(to: 4)
    }

    /// The text with each control shown as `\u{1B}`; line breaks and tabs kept when asked.
    public static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        guard first(in: text, allowingLineBreaks: keepingLineBreaks) != nil else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingLineBreaks && (scalar == "\n" || scalar == "\t")) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
