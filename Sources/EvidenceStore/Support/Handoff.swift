import Dispatch
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs a producer on a thread of its own while the caller consumes what it
/// makes, in order, in batches: reading and writing overlap on two cores.
/// Errors keep their place: one the producer meets is thrown only after every
/// element made before it was consumed. The producer never outlives the call:
/// when the consumer stops (by throwing), the producer is cancelled and waited for.
/// A batch the consumer is done with goes back to the producer, which frees
/// its elements (their strings and arrays) as it fills it again: the
/// consumer, which writes, is the busier thread.
enum Handoff {
    /// `produce` calls `emit` with each element; `consume` gets them in order.
    static func run<Element: Sendable>(
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
    final class Running<Element: Sendable>: @unchecked Sendable {
        private let queue: BatchQueue<Element>
        private let finished = DispatchSemaphore(value: 0)
        private var stopped = false

        init(batchSize: Int, batches: Int, produce: @escaping @Sendable (_ emit: (Element) throws -> Void) throws -> Void) {
            let queue = BatchQueue<Element>(capacity: batches)
            self.queue = queue
            let finished = self.finished
            DetachedThread.start(stackSize: 8 << 20) {
                defer { finished.signal() }
                var batch = HandoffBatch<Element>(capacity: batchSize)
                do {
                    try produce { element in
                        batch.append(element)
                        if batch.isFull {
                            // Once a batch, not once an element: the check takes the queue's lock.
                            if queue.isCancelled { throw CancellationError() }
                            queue.put(.items(batch))
                            // A batch consumed, its elements freed here, or a new one.
                            batch = queue.takeReturned() ?? HandoffBatch(capacity: batchSize)
                            batch.clear()
                        }
                    }
                    queue.put(.items(batch))
                    queue.put(.end)
                } catch is CancellationError where queue.isCancelled {
                    // The consumer stopped: no one is waiting.
                    return
                } catch {
                    // Any other error, a CancellationError of the producer's own included,
                    // reaches the consumer, which would otherwise wait for it forever.
                    // What was made before the error is consumed before it is thrown.
                    queue.put(.items(batch))
                    queue.put(.failure(error))
                }
            }
        }

        /// Gives each element to `consume`, in order, until the producer ends
        /// or fails (its error thrown after every element made before it).
        func consume(_ consume: (Element) throws -> Void) throws {
            while true {
                switch queue.take() {
                case .items(let batch):
                    // Each element is lent to `consume` where it lies, not copied
                    // (a copy would retain every reference it holds, only to
                    // release them again), and freed by the producer.
                    try batch.forEach(consume)
                    queue.giveBack(batch)
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

/// A bounded queue between one producer and one consumer. Its lock orders
/// every access to its state: `@unchecked Sendable` for that, and its
/// elements are Sendable themselves.
final class BatchQueue<Element: Sendable>: @unchecked Sendable {
    enum Message {
        case items(HandoffBatch<Element>)
        case end
        case failure(Error)
    }

    private let condition = ThreadCondition()
    private var messages: [Message] = []
    private let capacity: Int
    private var cancelled = false
    /// Batches the consumer is done with, for the producer to empty and fill again.
    private var returned: [HandoffBatch<Element>] = []

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

    /// Hands a consumed batch back to the producer; kept only while it is
    /// fewer than the queue holds, which is as many as the producer can use.
    func giveBack(_ batch: HandoffBatch<Element>) {
        condition.lock()
        defer { condition.unlock() }
        if !cancelled, returned.count < capacity { returned.append(batch) }
    }

    /// A batch handed back, if any.
    func takeReturned() -> HandoffBatch<Element>? {
        condition.lock()
        defer { condition.unlock() }
        return returned.popLast()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        messages.removeAll()
        returned.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

/// Elements handed from one thread to the other: filled by one, then, once
/// passed through the queue's lock, lent by the other element by element,
/// and given back for the first to free them as it fills the batch again.
final class HandoffBatch<Element: Sendable>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    var isFull: Bool { count == capacity }

    func append(_ element: Element) {
        (base + count).initialize(to: element)
        count += 1
    }

    /// Lends each element to `body`, in order, where it lies.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for index in 0..<count { try body(base[index]) }
    }

    /// Frees every element, on the calling thread, for the batch to be filled again.
    func clear() {
        base.deinitialize(count: count)
        count = 0
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
