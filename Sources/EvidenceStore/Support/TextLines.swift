/// A text file as lines, the way people's editors save them: "\r\n", "\r"
/// and "\n" all end a line; a byte-order mark is kept apart. `text`
/// reassembles it with the file's own line ending (the first it uses) and
/// mark, so rewriting some lines changes nothing else. One reader for
/// documents and answers files.
public struct TextLines: Equatable, Sendable {
    public enum Ending: String, Sendable {
        case lf = "\n"
        case crlf = "\r\n"
        case cr = "\r"
    }

    public var lines: [String]
    public var ending: Ending
    /// Whether the text began with a UTF-8 byte-order mark.
    public var byteOrderMark: Bool
    /// Whether the last line ended with a line ending.
    public var endsWithNewline: Bool

    public init(_ text: String) {
        var body = Substring(text)
        byteOrderMark = body.unicodeScalars.first == "\u{FEFF}"
        if byteOrderMark { body = body.dropFirst() }
        var lines: [String] = []
        var ending: Ending?
        var current = ""
        var scalars = body.unicodeScalars.makeIterator()
        var pending = scalars.next()
        var endedWithNewline = false
        while let scalar = pending {
            pending = scalars.next()
            endedWithNewline = false
            switch scalar {
            case "\r" where pending == "\n":
                pending = scalars.next()
                ending = ending ?? .crlf
                fallthrough
            case "\r", "\n":
                if ending == nil { ending = scalar == "\r" ? .cr : .lf }
                lines.append(current)
                current = ""
                endedWithNewline = true
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        if !endedWithNewline && (!current.isEmpty || lines.isEmpty) { lines.append(current) }
        if lines == [""] && body.isEmpty { lines = [] }
        self.lines = lines
        self.ending = ending ?? .lf
        endsWithNewline = endedWithNewline
    }

    /// The text with these lines, the file's line ending and mark.
    public var text: String {
        (byteOrderMark ? "\u{FEFF}" : "") + lines.joined(separator: ending.rawValue)
            + (endsWithNewline && !lines.isEmpty ? ending.rawValue : "")
    }
}
