/// Bytes written as `%XX` (upper-case hex), as URLs, SQLite's file URIs and
/// the text format's file names write them: one encoder, told which bytes
/// stay as they are.
enum PercentEncoding {
    /// `text` with every byte that `keep` refuses written as `%XX`; `keep` is
    /// told whether the byte is the first of the text.
    static func encode(_ text: String, keeping keep: (_ byte: UInt8, _ first: Bool) -> Bool) -> String {
        var out = ""
        for (index, byte) in text.utf8.enumerated() {
            if keep(byte, index == 0) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).zeroPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    /// The text with zeros before it, up to `width` characters.
    func zeroPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
