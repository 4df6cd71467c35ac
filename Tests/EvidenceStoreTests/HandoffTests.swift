import Foundation
import Synchronization
import Testing

@testable import EvidenceStore

/// The handoff between the reading and the writing thread: every element in
/// order, the producer's error only after what came before it, nothing left
/// alive when the consumer stops early or when it is done (elements are lent
/// from their batches and freed by hand, so a leak or a double release would
/// show here), and consumed elements freed by the producer.
@Suite(.serialized) struct HandoffTests {
    /// Counts its live instances.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        /// How many were freed on the thread that made them.
        static let freedWhereMade = Atomic<Int>(0)
        let number: Int
        let maker = pthread_self()

        init(_ number: Int) {
            self.number = number
            Self.live.add(1, ordering: .relaxed)
        }

        deinit {
            Self.live.subtract(1, ordering: .relaxed)
            if pthread_equal(maker, pthread_self()) != 0 { Self.freedWhereMade.add(1, ordering: .relaxed) }
        }
    }

    struct Failure: Error, Equatable {
        let after: Int
    }

    @Test(arguments: [0, 1, 7, 8, 9, 24, 25])
    func everyElementArrivesInOrder(count: Int) throws {
        var seen: [Int] = []
        try Handoff.run(batchSize: 8, produce: { emit in
            for number in 0..<count { try emit(Tracked(number)) }
        }, consume: { seen.append($0.number) })
        #expect(seen == Array(0..<count))
        #expect(Tracked.live.load(ordering: .relaxed) == 0)
    }

    @Test func theProducerFreesWhatWasConsumed() throws {
        Tracked.freedWhereMade.store(0, ordering: .relaxed)
        var consumed = 0
        try Handoff.run(batchSize: 8, produce: { emit in
            for number in 0..<1000 { try emit(Tracked(number)) }
        }, consume: { _ in consumed += 1 })
        #expect(consumed == 1000)
        #expect(Tracked.live.load(ordering: .relaxed) == 0)
        // All but the batches still out when the producer ended.
        #expect(Tracked.freedWhereMade.load(ordering: .relaxed) >= 1000 - 8 * 18)
    }

    @Test func aProducersErrorComesAfterEveryElementBeforeIt() {
        var seen: [Int] = []
        #expect(throws: Failure(after: 19)) {
            try Handoff.run(batchSize: 8, produce: { emit in
                for number in 0..<20 { try emit(Tracked(number)) }
                throw Failure(after: 19)
            }, consume: { seen.append($0.number) })
        }
        #expect(seen == Array(0..<20))
    }

    /// A CancellationError the producer throws of its own accord (the consumer
    /// did not stop) is an error like any other: it reaches the consumer,
    /// which would otherwise wait for the end forever.
    @Test func aProducersOwnCancellationReachesTheConsumer() {
        var seen: [Int] = []
        #expect(throws: CancellationError.self) {
            try Handoff.run(batchSize: 8, produce: { emit in
                for number in 0..<3 { try emit(Tracked(number)) }
                throw CancellationError()
            }, consume: { seen.append($0.number) })
        }
        #expect(seen == [0, 1, 2])
    }

    @Test func whatTheConsumerLeavesIsReleased() {
        #expect(throws: Failure(after: 10)) {
            try Handoff.run(batchSize: 8, produce: { emit in
                for number in 0..<1000 { try emit(Tracked(number)) }
            }, consume: { element in
                if element.number == 10 { throw Failure(after: 10) }
            })
        }
        #expect(Tracked.live.load(ordering: .relaxed) == 0)
    }
}
