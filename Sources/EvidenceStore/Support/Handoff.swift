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
        let running = Running(batchSize: batchSize, batches: 16, produce: produce)
        defer { running.stop() }
        try running.consume(consume)
    }

    /// A producer started on a thread of its own, to be consumed once, now or
    /// later: up to `batches` batches are made ahead while no one consumes.
    /// It is stopped (cancelled and waited for) by `stop()`, or when let go.
    final class Running<Element>: @unchecked Sendable {
        private let queue: BatchQueue<Element>
        private let finished = DispatchSemaphore(value: 0)
        private var stopped = false

        init(batchSize: Int, batches: Int, produce: @escaping @Sendable (_ emit: (Element) throws -> Void) throws -> Void) {
            let queue = BatchQueue<Element>(capacity: batches)
            self.queue = queue
            let finished = self.finished
            let producer = Thread {
                defer { finished.signal() }
                var batch = HandoffBatch<Element>(capacity: batchSize)
                do {
                    try produce { element in
                        batch.append(element)
                        if batch.isFull {
                            // Once a batch, not once an element: the check takes the queue's lock.
                            if queue.isCancelled { throw CancellationError() }
                            queue.put(.items(batch))
                            batch = HandoffBatch(capacity: batchSize)
                        }
                    }
                    queue.put(.items(batch))
                    queue.put(.end)
                } catch is CancellationError {
                    return
                } catch {
                    // What was made before the error is consumed before it is thrown.
                    queue.put(.items(batch))
                    queue.put(.failure(error))
                }
            }
            producer.stackSize = 8 << 20
            producer.start()
        }

        /// Gives each element to `consume`, in order, until the producer ends
        /// or fails (its error thrown after every element made before it).
        func consume(_ consume: (Element) throws -> Void) throws {
            while true {
                switch queue.take() {
                case .items(let batch):
                    // Each element is moved out of the batch, not copied: a copy
                    // would retain every reference it holds, on this thread, only
                    // to release them again.
                    while let element = batch.takeNext() { try consume(element) }
                case .end:
                    return
                case .failure(let error):
                    throw error
                }
            }
        }

        /// Cancels the producer and waits for its thread to end.
        func stop() {
            guard !stopped else { return }
            stopped = true
            queue.cancel()
            finished.wait()
        }

        deinit {
            stop()
        }
    }
}

/// A bounded queue between one producer and one consumer.
final class BatchQueue<Element>: @unchecked Sendable {
    enum Message {
        case items(HandoffBatch<Element>)
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

/// Elements handed from one thread to the other: filled by one, then, once
/// passed through the queue's lock, taken by the other, each moved out.
final class HandoffBatch<Element>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    private let capacity: Int
    private var count = 0
    private var taken = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    var isFull: Bool { count == capacity }

    func append(_ element: Element) {
        (base + count).initialize(to: element)
        count += 1
    }

    /// The next element, moved out; nil once every one is taken.
    func takeNext() -> Element? {
        guard taken < count else { return nil }
        defer { taken += 1 }
        return (base + taken).move()
    }

    deinit {
        // What was not taken (the consumer stopped) is released here.
        (base + taken).deinitialize(count: count - taken)
        base.deallocate()
    }
}
