import Foundation

/// Reads, parses and decodes the lines of a file on a second thread while the
/// caller writes the records already decoded, so an import uses both cores.
/// Records arrive in file order, and so do errors: a bad line is reported only
/// after every line before it was written.
enum RecordPipeline {
    static let batchSize = 512

    static func run<T: Sendable>(
        _ reader: LineReader, name: String, decode: @escaping @Sendable (inout FieldReader) throws -> T,
        consume: (T, RecordLocation) throws -> Void
    ) throws {
        let queue = BatchQueue<(T, RecordLocation)>(capacity: 8)
        let finished = DispatchSemaphore(value: 0)
        let producer = Thread {
            defer { finished.signal() }
            do {
                var batch: [(T, RecordLocation)] = []
                batch.reserveCapacity(batchSize)
                try reader.forEachLine { number, bytes in
                    if queue.isCancelled { throw CancellationError() }
                    if bytes.isEmpty { return }
                    var fields = try FieldReader(file: name, line: number, value: try parse(bytes, file: name, line: number))
                    let record = try decode(&fields)
                    // The parsed fields are freed here, on the reading thread.
                    batch.append((record, RecordLocation(fields)))
                    if batch.count == batchSize {
                        queue.put(.items(batch))
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                queue.put(.items(batch))
                queue.put(.end)
            } catch is CancellationError {
                return
            } catch {
                queue.put(.failure(error))
            }
        }
        producer.stackSize = 8 << 20
        producer.start()
        // The producer never outlives this call: it is stopped and waited for.
        defer {
            queue.cancel()
            finished.wait()
        }
        while true {
            switch queue.take() {
            case .items(let items):
                for (record, fields) in items { try consume(record, fields) }
            case .end:
                return
            case .failure(let error):
                throw error
            }
        }
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, file: String, line: Int) throws -> JSONValue {
        do {
            return try JSONReader.parse(bytes)
        } catch let failure as JSONReader.Failure {
            throw EvidenceError.badFile(
                path: file, location: "\(line):\(failure.offset + 1)", reason: "not valid JSON: \(failure.message)")
        }
    }
}

/// A bounded queue between one producer and one consumer.
final class BatchQueue<Element>: @unchecked Sendable {
    enum Message {
        case items([Element])
        case end
        case failure(Error)
    }

    private let condition = NSCondition()
    private var messages: [Message] = []
    private let capacity: Int
    private var cancelled = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    /// Waits while the queue is full; drops the message once cancelled.
    func put(_ message: Message) {
        condition.lock()
        defer { condition.unlock() }
        while messages.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return }
        messages.append(message)
        condition.broadcast()
    }

    func take() -> Message {
        condition.lock()
        defer { condition.unlock() }
        while messages.isEmpty { condition.wait() }
        let message = messages.removeFirst()
        condition.broadcast()
        return message
    }

    func cancel() {
        condition.lock()
        cancelled = true
        messages.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
