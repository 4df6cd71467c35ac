import Foundation
import Synchronization
import Testing

@testable import EvidenceStore

/// The handoff between the reading and the writing thread: every element in
/// order, the producer's error only after what came before it, and nothing
/// left alive when the consumer stops early (elements are moved out of their
/// batches by hand, so a leak or a double release would show here).
@Suite(.serialized) struct HandoffTests {
    /// Counts its live instances.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        let number: Int

        init(_ number: Int) {
            self.number = number
            Self.live.add(1, ordering: .relaxed)
        }

        deinit { Self.live.subtract(1, ordering: .relaxed) }
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
