import Foundation
import Testing

@testable import EvidenceStore


/// Reading an open file a chunk at a time, as every importer does.
@Suite struct RegularFileTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test(arguments: [1, 7, 4096, 10_000, 1 << 20])
    func chunksHoldTheWholeFileInOrderThenNothing(size: Int) throws {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let path = folder.path("file.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let handle = try RegularFile.open(path)
        defer { handle.close() }
        var read: [UInt8] = []
        var chunks = 0
        while case let chunk = try RegularFile.read(from: handle, upTo: size), !chunk.isEmpty {
            read += chunk
            chunks += 1
            // Every chunk but the last is full.
            #expect(chunk.count == size || read.count == bytes.count)
        }
        #expect(read == bytes)
        #expect(chunks == (bytes.count + size - 1) / size)
        #expect(try RegularFile.read(from: handle, upTo: size).isEmpty)
        // Read into one buffer, chunk by chunk, the same.
        let again = try RegularFile.open(path)
        defer { again.close() }
        var each: [UInt8] = []
        var sizes: [Int] = []
        try RegularFile.forEachChunk(of: again, size: size) { chunk in
            each += chunk
            sizes.append(chunk.count)
        }
        #expect(each == bytes)
        #expect(sizes.dropLast().allSatisfy { $0 == size } && sizes.count == chunks)
    }

    @Test func aChunkWaitsForEveryPieceOfAPipeUntilItIsFull() throws {
        // A pipe gives what has been written so far: one read is not enough.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let reading = OpenFile(descriptor: ends[0])
        let writingEnd = ends[1]
        Thread.detachNewThread {
            let writing = OpenFile(descriptor: writingEnd)
            for piece in 0..<5 {
                let bytes = [UInt8](repeating: UInt8(piece), count: 300)
                try? bytes.withUnsafeBytes { try writing.write($0) }
                usleep(2_000)
            }
            writing.close()
        }
        let first = try RegularFile.read(from: reading, upTo: 1000)
        let rest = try RegularFile.read(from: reading, upTo: 1000)
        #expect(first.count == 1000)
        #expect(rest.count == 500)
        #expect(Array(first.prefix(300)) == [UInt8](repeating: 0, count: 300))
        #expect(Array(rest.suffix(300)) == [UInt8](repeating: 4, count: 300))
        #expect(try RegularFile.read(from: reading, upTo: 1000).isEmpty)
    }

    @Test func aFailedReadGivesTheSystemsReason() throws {
        let path = folder.path("file.txt")
        try Data("text".utf8).write(to: URL(fileURLWithPath: path))
        let handle = try RegularFile.open(path)
        // A descriptor that reads nothing: this one is open for writing only.
        let writeOnly = open(path, O_WRONLY)
        #expect(writeOnly >= 0)
        let unreadable = OpenFile(descriptor: writeOnly)
        #expect(throws: RegularFile.Failure.unreadable("Bad file descriptor")) {
            try RegularFile.read(from: unreadable, upTo: 16)
        }
        // With the domain's errors, as the importers read: the file is named.
        #expect(throws: EvidenceError.io(path: path, reason: "cannot be read (Bad file descriptor)")) {
            try InputFile.read(from: unreadable, upTo: 16, path: path)
        }
        #expect(try RegularFile.read(from: handle, upTo: 16) == Data("text".utf8))
        handle.close()
        #expect(handle.descriptor == -1)
    }
}
