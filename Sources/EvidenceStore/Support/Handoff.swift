import Foundation

/// Runs a producer on a thread of its own while the caller consumes what it
/// makes, in order, in batches: reading and writing overlap on two cores.
/// Errors keep their place: one the producer meets is thrown only after every
/// element made before it was consumed. The producer never outlives the call:
/// when the consumer stops (by throwing), the producer is cancelled and waited for.
enum Handoff {
    /// `produce` calls `emit` with each element; `consume` gets them in order.
    static func run<Element>(
        batchSize: Int, produce: @escaping @Sendable (_ emit: (Element) throws -> Void) throws -> Void,
        consume: (Element) throws -> Void
    ) throws {
        let queue = BatchQueue<Element>(capacity: 16)
        let finished = DispatchSemaphore(value: 0)
        let producer = Thread {
            defer { finished.signal() }
            do {
                var batch: [Element] = []
                batch.reserveCapacity(batchSize)
                try produce { element in
                    batch.append(element)
                    if batch.count == batchSize {
                        // Once a batch, not once an element: the check takes the queue's lock.
                        if queue.isCancelled { throw CancellationError() }
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
        defer {
            queue.cancel()
            finished.wait()
        }
        while true {
            switch queue.take() {
            case .items(let items):
                // Each element is lent to `consume` where it lies: iterating
                // the array would copy it (retaining every reference it holds,
                // on this thread, what the producer's thread just released).
                try items.withUnsafeBufferPointer { buffer in
                    for index in buffer.indices { try consume(buffer[index]) }
                }
            case .end:
                return
            case .failure(let error):
                throw error
            }
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
