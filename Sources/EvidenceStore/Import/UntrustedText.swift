#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Checks every result file gets before a parser sees it: no NUL bytes, valid
/// UTF-8, and where a forbidden construct is, by line.
enum UntrustedText {
    static func check(_ data: Data, path: String, what: String) throws {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            throw EvidenceError.badFile(path: path, location: "1", reason: "the \(what) is UTF-16; only UTF-8 is read")
        }
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            // The first problem in the file's order, as a stream's check finds it.
            let nul = bytes.firstIndex(of: 0)
            let invalid = String(validating: bytes, as: UTF8.self) == nil ? firstInvalidUTF8(bytes) : nil
            if let nul, invalid.map({ nul < $0 }) ?? true {
                throw EvidenceError.badFile(
                    path: path, location: String(line(of: nul, in: bytes)), reason: "a NUL byte; the file is not \(what) text")
            }
            if let invalid {
                throw EvidenceError.badFile(path: path, location: String(line(of: invalid, in: bytes)), reason: "invalid UTF-8")
            }
        }
    }

    static func line(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        1 + Newlines.count(in: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)])))
    }

    /// The offset of the first byte that starts an invalid UTF-8 sequence.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            let sequence = UnsafeBufferPointer(rebasing: bytes[index..<index + length])
            if String(validating: sequence, as: UTF8.self) == nil { return index }
            index += length
        }
        return bytes.count
    }

    /// The first of `needles` (lower-case ASCII) found ignoring case, and its line.
    static func findCaseInsensitive(_ needles: [String], in data: Data) -> (Int, String)? {
        let patterns = needles.map { Array($0.utf8) }
        return data.withUnsafeBytes { raw -> (Int, String)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var line = 1
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { line += 1 }
                if byte == UInt8(ascii: "<") {
                    for (number, pattern) in patterns.enumerated() where index + pattern.count <= bytes.count {
                        var matches = true
                        for offset in 0..<pattern.count {
                            var candidate = bytes[index + offset]
                            if candidate >= 0x41 && candidate <= 0x5A { candidate += 0x20 }
                            if candidate != pattern[offset] {
                                matches = false
                                break
                            }
                        }
                        if matches { return (line, needles[number]) }
                    }
                }
                index += 1
            }
            return nil
        }
    }

    /// The line of the first processing instruction ("<?") other than the XML
    /// declaration at the very start; CDATA sections and comments (test output
    /// that prints XML, say) are skipped.
    static func processingInstruction(in data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func starts(_ prefix: String, at index: Int) -> Bool {
                var at = index
                for byte in prefix.utf8 {
                    guard at < bytes.count, bytes[at] == byte else { return false }
                    at += 1
                }
                return true
            }
            var start = 0
            if starts("\u{FEFF}", at: 0) { start = 3 }
            var line = 1
            var index = start
            /// Moves past `end`, counting lines; false when the file ends first.
            func skip(past end: String) -> Bool {
                while index < bytes.count {
                    if starts(end, at: index) {
                        index += end.utf8.count
                        return true
                    }
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                return false
            }
            while index + 1 < bytes.count {
                if bytes[index] == 0x0A { line += 1 }
                if bytes[index] == UInt8(ascii: "<") {
                    if starts("<![CDATA[", at: index) {
                        if !skip(past: "]]>") { return nil }
                        continue
                    }
                    if starts("<!--", at: index) {
                        if !skip(past: "-->") { return nil }
                        continue
                    }
                    if bytes[index + 1] == UInt8(ascii: "?") {
                        let isDeclaration = index == start && starts("<?xml", at: index) && index + 5 < bytes.count
                            && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 5])
                        if !isDeclaration { return line }
                    }
                }
                index += 1
            }
            return nil
        }
    }
}
