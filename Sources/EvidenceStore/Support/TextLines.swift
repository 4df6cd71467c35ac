/// A text file as lines, the way people's editors save them: "\r\n", "\r"
/// and "\n" all end a line; a byte-order mark is kept apart. Each line keeps
/// the ending it had, so `text` gives the file back byte for byte, and
/// rewriting some lines (`replaceSubrange`) changes nothing else: a file of
/// mixed endings stays mixed, a lone CR stays a CR. Lines a rewrite adds end
/// with the file's own line ending (the first it uses). One reader for
/// documents and answers files.
public struct TextLines: Equatable, Sendable {
    public enum Ending: String, Sendable {
        case lf = "\n"
        case crlf = "\r\n"
        case cr = "\r"
    }

    public private(set) var lines: [String]
    /// What ends each line: an `Ending`'s text, or "" for a last line without one.
    private var endings: [String]
    /// The file's own line ending: the first it uses (LF for none).
    public var ending: Ending
    /// Whether the text began with a UTF-8 byte-order mark.
    public var byteOrderMark: Bool

    public init(_ text: String) {
        var body = Substring(text)
        byteOrderMark = body.unicodeScalars.first == "\u{FEFF}"
        if byteOrderMark { body = body.dropFirst() }
        var lines: [String] = []
        var endings: [String] = []
        var current = ""
        var scalars = body.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\r" where pending == "\n":
                pending = scalars.next()
                lines.append(current)
                endings.append(Ending.crlf.rawValue)
                current = ""
            case "\r", "\n":
                lines.append(current)
                endings.append(String(Character(scalar)))
                current = ""
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty || (lines.isEmpty && !body.isEmpty) {
            lines.append(current)
            endings.append("")
        }
        self.lines = lines
        self.endings = endings
        ending = endings.first { !$0.isEmpty }.flatMap(Ending.init(rawValue:)) ?? .lf
    }

    /// Whether the last line ends with a line ending.
    public var endsWithNewline: Bool { !(endings.last?.isEmpty ?? true) }

    /// Replaces the lines of `range` with `new`: the last new line takes the
    /// ending of the last line replaced, the others the file's own ending.
    public mutating func replaceSubrange(_ range: Range<Int>, with new: [String]) {
        let closing = range.isEmpty ? ending.rawValue : endings[range.upperBound - 1]
        lines.replaceSubrange(range, with: new)
        endings.replaceSubrange(range, with: new.indices.map { $0 == new.count - 1 ? closing : ending.rawValue })
    }

    /// The text with these lines, each with its ending, and the mark.
    public var text: String {
        var out = byteOrderMark ? "\u{FEFF}" : ""
        for (line, end) in zip(lines, endings) {
            out += line
            out += end
        }
        return out
    }
}
