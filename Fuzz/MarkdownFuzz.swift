import Foundation

// libFuzzer target: whatever the text, Markdown.escape must leave no character
// with Markdown meaning unescaped, no line break, no control character, no
// bare "://" or "www." (autolinks), and nothing but <br> and <!-- --> as HTML.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let escaped = Markdown.escape(text)
    let output = Array(escaped.unicodeScalars)
    let special: Set<Unicode.Scalar> = ["\\", "|", "`", "*", "_", "[", "]", "<", ">", "&", "~"]
    let lineBreak = Array("<br>".unicodeScalars)
    let mail = Array("<!-- -->@".unicodeScalars)
    func at(_ index: Int, _ pattern: [Unicode.Scalar]) -> Bool {
        index + pattern.count <= output.count && Array(output[index..<index + pattern.count]) == pattern
    }
    // How many letters w (or W) were written unescaped just before the current position.
    var ws = 0
    var index = 0
    while index < output.count {
        let scalar = output[index]
        if at(index, lineBreak) {
            index += lineBreak.count
            ws = 0
            continue
        }
        if at(index, mail) {
            index += mail.count
            ws = 0
            continue
        }
        if scalar == "\\" {
            FuzzCheck.require(index + 1 < output.count, "a trailing backslash in \(escaped.debugDescription)")
            let next = output[index + 1]
            FuzzCheck.require(special.contains(next) || next == ":" || next == ".", "a stray backslash in \(escaped.debugDescription)")
            index += 2
            ws = 0
            continue
        }
        FuzzCheck.require(!special.contains(scalar), "an unescaped \(scalar) in \(escaped.debugDescription)")
        FuzzCheck.require(scalar != "@", "an @ that could start an e-mail autolink in \(escaped.debugDescription)")
        FuzzCheck.require(
            scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && scalar != "\u{2028}" && scalar != "\u{2029}",
            "a control character or line break in \(escaped.debugDescription)")
        FuzzCheck.require(
            !(scalar == ":" && index + 2 < output.count && output[index + 1] == "/" && output[index + 2] == "/"),
            "a bare :// in \(escaped.debugDescription)")
        FuzzCheck.require(!(scalar == "." && ws >= 3), "a bare www. in \(escaped.debugDescription)")
        ws = scalar == "w" || scalar == "W" ? ws + 1 : 0
        index += 1
    }
    return 0
}
