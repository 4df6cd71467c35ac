#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Bytes to parse: a file read in chunks, or data held in memory.
enum ByteSource {
    case data(Data)
    /// A file, refused when it turns out longer than `limit` bytes.
    case file(String, limit: Int)
    /// Data handed over in pieces of these sizes, in turn, whatever size is
    /// asked for: how the tests and the fuzz target reach every path where a
    /// reader meets the end of a chunk (a tag, a UTF-8 sequence or a marker cut in two).
    case pieces(Data, sizes: [Int])

    /// The last `count` bytes, or all of them where there are fewer.
    func tail(_ count: Int) throws -> Data {
        switch self {
        case .data(let data), .pieces(let data, _):
            return data.suffix(count)
        case .file(let path, _):
            let handle = try InputFile.open(path)
            defer { handle.close() }
            do {
                let size = try handle.seek(fromEnd: 0)
                try handle.seek(to: size > count ? size - Int64(count) : 0)
            } catch {
                throw EvidenceError.io(path: path, reason: "cannot be read (\(error))")
            }
            return try InputFile.read(from: handle, upTo: count, path: path)
        }
    }

    func forEachChunk(size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch self {
        case .data(let data):
            try data.withUnsafeBytes { raw in
                var start = 0
                repeat {
                    let end = min(start + size, raw.count)
                    try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                    start = end
                } while start < raw.count
            }
        case .file(let path, let limit):
            try FileChunks(path: path, limit: limit).forEach(size: size, body)
        case .pieces(let data, let sizes):
            try data.withUnsafeBytes { raw in
                var start = 0
                var turn = 0
                repeat {
                    let piece = max(1, sizes.isEmpty ? size : sizes[turn % sizes.count])
                    turn += 1
                    let end = min(start + piece, raw.count)
                    try body(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                    start = end
                } while start < raw.count
            }
        }
    }
}

/// A file read a chunk at a time, refused when it turns out longer than `limit`
/// bytes (it may have grown since its size was checked).
final class FileChunks {
    let path: String
    private let handle: OpenFile
    private let limit: Int
    private var total = 0

    init(path: String, limit: Int) throws {
        self.path = path
        self.handle = try InputFile.open(path)
        self.limit = limit
    }

    deinit {
        handle.close()
    }

    /// Each chunk of `size` bytes to the end, the last shorter, all read
    /// into one buffer: valid only during `body`.
    func forEach(size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try InputFile.forEachChunk(of: handle, size: size, path: path) { chunk in
            try count(chunk.count)
            try body(chunk)
        }
    }

    /// Fills `buffer` with the next bytes: how many, fewer at the end, none past it.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let filled = try InputFile.read(from: handle, into: buffer, path: path)
        try count(filled)
        return filled
    }

    private func count(_ bytes: Int) throws {
        total += bytes
        if total > limit {
            throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(limit) bytes")
        }
    }
}
