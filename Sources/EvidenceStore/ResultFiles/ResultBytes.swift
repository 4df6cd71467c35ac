#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Bytes read in order: a result file, or, in the tests and the fuzz target,
/// the same bytes handed over in pieces of any size (where a reader meets the
/// end of a chunk in the middle of a tag, a character or a number).
protocol ChunkReader: AnyObject {
    /// Fills the start of `buffer` with the next bytes: how many, at least
    /// one before the end, none at it.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A result file read once, start to end: each byte hashed as it passes (its
/// SHA-256 names the file, its runs and its results) and counted against the
/// size limit (the file may have grown since its size was checked).
final class ResultFileBytes: ChunkReader {
    let path: String
    private let file: OpenFile
    private let limit: Int
    private let hasher = SHA256()
    private var total = 0

    init(path: String, limit: Int) throws {
        self.path = path
        self.limit = limit
        file = try InputFile.open(path)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try InputFile.read(from: file, into: buffer, path: path)
        total += count
        if total > limit {
            throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(limit) bytes (--max-size)")
        }
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        return count
    }

    /// The SHA-256 of every byte read, as hex; once the file is read to its end.
    func digest() -> String {
        hasher.finalizeHex()
    }
}

/// The bytes of a reader a chunk at a time, checked as text (valid UTF-8,
/// no NUL) as they come. After an error in what they say, the rest is still
/// read for a text problem, which is said first: however the bytes were cut
/// into chunks, a file with a NUL byte anywhere is refused for it.
final class TextChunks {
    let reader: ChunkReader
    private(set) var text: UTF8Stream
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read before the reader's own (the format's detection read them).
    private var first: [UInt8]

    init(_ reader: ChunkReader, first: [UInt8], path: String, what: String, size: Int = 256 << 10) {
        self.reader = reader
        self.first = first
        text = UTF8Stream(path: path, what: what)
        buffer = .allocate(byteCount: size, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Whether the text check failed: the error thrown was a text problem.
    private var textFailed = false

    /// The next chunk, checked, valid until the next call; nil at the end.
    func next() throws -> UnsafeRawBufferPointer? {
        var count: Int
        if !first.isEmpty {
            count = min(first.count, buffer.count)
            first.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            first.removeFirst(count)
        } else {
            count = try reader.read(into: buffer)
        }
        do {
            guard count > 0 else {
                try text.finish()
                return nil
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            try text.check(chunk)
            return chunk
        } catch {
            textFailed = true
            throw error
        }
    }

    /// Runs `read`; an error of the file's it throws gives way to a text
    /// problem in the rest of the file, read to its end for one.
    func textProblemsFirst<T>(_ read: () throws -> T) throws -> T {
        do {
            return try read()
        } catch let error as EvidenceError where !textFailed {
            do {
                while try next() != nil {}
            } catch let problem as EvidenceError where textFailed {
                throw problem
            } catch {
                // The rest could not be read: the first error stands.
            }
            throw error
        }
    }
}

/// Checks text as it streams by: no NUL byte, valid UTF-8 (across chunk
/// boundaries), and which line the input is on, for errors that name it.
struct UTF8Stream {
    private(set) var line = 1
    private var pending: [UInt8] = []
    /// Where in the input `pending` starts, and how many bytes came before this chunk.
    private var pendingStart = 0
    private var offset = 0
    let path: String
    let what: String

    init(path: String, what: String) {
        self.path = path
        self.what = what
    }

    /// The characters after the input's last line feed so far: with `line`,
    /// where the input ends (counted as libxml2 counts columns, one per
    /// character).
    private(set) var lastLineCharacters = 0

    /// Where the input ends so far: after its last character.
    var end: XMLLocation { XMLLocation(line: line, column: lastLineCharacters + 1) }

    /// Checks the next chunk.
    mutating func check(_ bytes: UnsafeRawBufferPointer) throws {
        countLastLine(bytes)
        if offset == 0, let first = bytes.first, first == 0xFE || first == 0xFF {
            // A UTF-16 byte order mark, perhaps cut after its first byte:
            // said as such however the file is cut. (0xFE and 0xFF are
            // never UTF-8, so a first chunk of one such byte is held.)
            guard bytes.count >= 2 else {
                markStart = first
                offset = 1
                return
            }
            try refuseByteOrderMark(first, bytes[1])
        } else if offset == 1, let held = markStart, let next = bytes.first {
            try refuseByteOrderMark(held, next)
        }
        let start = offset
        offset += bytes.count
        var index = 0
        // A sequence split by the last chunk's end is finished first.
        while !pending.isEmpty, index < bytes.count {
            pending.append(bytes[index])
            index += 1
            if let length = UTF8Bytes.sequenceLength(pending[0]), pending.count == length {
                try pending.withUnsafeBytes { if !UTF8Bytes.isValidSequence($0, at: 0, length: length) { throw invalid(at: pendingStart) } }
                pending.removeAll()
            }
        }
        while index < bytes.count {
            index = Self.asciiRun(in: bytes, from: index, lines: &line)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0 {
                    throw EvidenceError.badFile(
                        path: path, location: location(at: start + index), reason: "a NUL byte; the file is not \(what) text")
                }
                if byte == 0x0A { line += 1 }
                index += 1
                continue
            }
            guard let length = UTF8Bytes.sequenceLength(byte) else { throw invalid(at: start + index) }
            if index + length > bytes.count {
                pending = Array(bytes[index...])
                pendingStart = start + index
                return
            }
            guard UTF8Bytes.isValidSequence(bytes, at: index, length: length) else { throw invalid(at: start + index) }
            index += length
        }
    }

    /// The characters after the chunk's last line feed (all of them, added,
    /// when it has none): each byte but UTF-8's continuation bytes.
    private mutating func countLastLine(_ bytes: UnsafeRawBufferPointer) {
        var start = bytes.count
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var characters = 0
        for index in start..<bytes.count where bytes[index] & 0xC0 != 0x80 { characters += 1 }
        lastLineCharacters = start == 0 ? lastLineCharacters + characters : characters
    }

    /// Past the ASCII bytes at `index` that are not NUL (the usual case),
    /// eight at a time; the line feeds among them are counted, not stepped
    /// through. Stops at most seven bytes short of a byte that is not.
    private static func asciiRun(in bytes: UnsafeRawBufferPointer, from start: Int, lines: inout Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = ByteWords.word(bytes, at: index)
            if !isPlainASCII(word) { break }
            lines += ByteWords.bytes(word, equalTo: 0x0A).nonzeroBitCount
            index += 8
        }
        return index
    }

    /// Whether a word's eight bytes are ASCII and none is NUL.
    @inline(__always)
    private static func isPlainASCII(_ word: UInt64) -> Bool {
        (word & ByteWords.highBits) | ByteWords.zeroBytes(word) == 0
    }

    /// At the end of the input: nothing may be left half a character.
    func finish() throws {
        if markStart != nil, offset == 1 { throw invalid(at: 0) }
        if !pending.isEmpty { throw invalid(at: pendingStart) }
    }

    /// A first byte 0xFE or 0xFF, held while the second is not yet read.
    private var markStart: UInt8?

    /// Refuses UTF-16's byte order mark; any other start with 0xFE or 0xFF is invalid UTF-8.
    private func refuseByteOrderMark(_ first: UInt8, _ second: UInt8) throws {
        if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) {
            throw EvidenceError.badFile(path: path, location: "1", reason: "the \(what) is UTF-16; only UTF-8 is read")
        }
        throw invalid(at: 0)
    }

    private func location(at byte: Int) -> String {
        String(line)
    }

    private func invalid(at byte: Int) -> EvidenceError {
        EvidenceError.badFile(path: path, location: location(at: byte), reason: "invalid UTF-8")
    }
}
