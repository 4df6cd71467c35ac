#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a file line by line in fixed-size chunks, so memory stays bounded
/// whatever the file's size, and hands each line over without copying it.
public struct LineReader: Sendable {
    public static let defaultMaxLineLength = 4 << 20

    private enum Origin: Sendable {
        case file(String)
        case bytes([UInt8])
    }

    private let origin: Origin
    public let name: String
    public let maxLineLength: Int

    public init(path: String, maxLineLength: Int = defaultMaxLineLength) {
        origin = .file(path)
        name = path
        self.maxLineLength = maxLineLength
    }

    public init(name: String, text: String, maxLineLength: Int = defaultMaxLineLength) {
        origin = .bytes(Array(text.utf8))
        self.name = name
        self.maxLineLength = maxLineLength
    }

    /// Calls `body` with each line's number (from 1) and bytes, without the line break.
    public func forEachLine(_ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        switch origin {
        case .bytes(let bytes):
            _ = try bytes.withUnsafeBytes { try Self.split($0, firstLine: 1, maxLength: maxLineLength, name: name, body).0 }
        case .file(let path):
            try readFile(path, body)
        }
    }

    private func readFile(_ path: String, _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        let handle = try InputFile.open(path)
        defer { handle.close() }
        var carry: [UInt8] = []
        var lineNumber = 1
        try InputFile.forEachChunk(of: handle, size: 1 << 20, path: path) { chunk in
            carry.append(contentsOf: chunk)
            let consumed = try carry.withUnsafeBytes { buffer -> Int in
                let (lines, used) = try Self.split(
                    buffer, firstLine: lineNumber, maxLength: maxLineLength, name: name, body, keepTail: true)
                lineNumber += lines
                return used
            }
            carry.removeFirst(consumed)
            if carry.count > maxLineLength {
                throw EvidenceError.badFile(
                    path: name, location: String(lineNumber), reason: "a line longer than \(maxLineLength) bytes")
            }
        }
        if !carry.isEmpty {
            try carry.withUnsafeBytes { _ = try Self.split($0, firstLine: lineNumber, maxLength: maxLineLength, name: name, body) }
        }
    }

    /// Splits a buffer at line feeds; with `keepTail` an unfinished last line is
    /// left for the next chunk. Returns the lines handed over and the bytes used.
    private static func split(
        _ buffer: UnsafeRawBufferPointer, firstLine: Int, maxLength: Int, name: String,
        _ body: (Int, UnsafeRawBufferPointer) throws -> Void, keepTail: Bool = false
    ) throws -> (Int, Int) {
        var start = 0
        var count = 0
        var index = 0
        while index < buffer.count {
            if buffer[index] == 0x0A {
                var end = index
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                if end - start > maxLength {
                    throw EvidenceError.badFile(
                        path: name, location: String(firstLine + count), reason: "a line longer than \(maxLength) bytes")
                }
                try deliver(firstLine + count, UnsafeRawBufferPointer(rebasing: buffer[start..<end]), body)
                count += 1
                start = index + 1
            }
            index += 1
        }
        if !keepTail && start < buffer.count {
            if buffer.count - start > maxLength {
                throw EvidenceError.badFile(
                    path: name, location: String(firstLine + count), reason: "a line longer than \(maxLength) bytes")
            }
            try deliver(firstLine + count, UnsafeRawBufferPointer(rebasing: buffer[start..<buffer.count]), body)
            count += 1
            start = buffer.count
        }
        return (count, start)
    }

    /// Hands a line over, or passes it by: a byte-order mark before the first
    /// line is dropped (editors on Windows write one), and a line of only
    /// blanks is passed by as an empty line is.
    private static func deliver(
        _ number: Int, _ line: UnsafeRawBufferPointer, _ body: (Int, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var line = line
        if number == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            line = UnsafeRawBufferPointer(rebasing: line[3...])
        }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        try body(number, line)
    }
}
