import Foundation

/// Bytes to parse: a file read in chunks, or data held in memory.
enum ByteSource {
    case data(Data)
    /// A file, refused when it turns out longer than `limit` bytes.
    case file(String, limit: Int)

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
            let file = try FileChunks(path: path, limit: limit)
            while let chunk = try file.next(upTo: size) {
                try chunk.withUnsafeBytes { try body($0) }
            }
        }
    }
}

/// A file read a chunk at a time, refused when it turns out longer than `limit`
/// bytes (it may have grown since its size was checked).
final class FileChunks {
    let path: String
    private let handle: FileHandle
    private let limit: Int
    private var total = 0

    init(path: String, limit: Int) throws {
        self.path = path
        self.handle = try InputFile.open(path)
        self.limit = limit
    }

    deinit {
        try? handle.close()
    }

    /// The next chunk of at most `size` bytes, or nil at the end.
    func next(upTo size: Int) throws -> Data? {
        let chunk = try InputFile.read(from: handle, upTo: size, path: path)
        if chunk.isEmpty { return nil }
        total += chunk.count
        if total > limit {
            throw EvidenceError.badFile(path: path, location: nil, reason: "is over the limit of \(limit) bytes")
        }
        return chunk
    }
}
