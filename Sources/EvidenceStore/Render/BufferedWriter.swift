/// What the document writers share: a document's bytes gathered in a buffer
/// of their own, handed to the sink in large pieces between blocks and rows.
public class BufferedWriter {
    final let sink: TextSink
    final var buffer: [UInt8] = []
    static let flushSize = 1 << 16

    init(into sink: TextSink) {
        self.sink = sink
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    final func write(_ literal: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Hands the buffer to the sink once it is large; called between blocks and rows, never inside a cell.
    final func flushIfFull() {
        if buffer.count >= Self.flushSize {
            sink.write(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Hands over what is left and flushes the sink; throws the first write error.
    final func flushAll() throws {
        sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
        try sink.flush()
    }
}
