@testable import SwiftATTHost
import Synchronization
import Testing

/// `MoveQueue`, the loop runner's queue: order kept, nothing leaked or released twice.
@Suite struct MoveQueueTests {
    /// Counts live instances, so that a leak or a double release shows.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        let n: Int
        init(_ n: Int) {
            self.n = n
            Self.live.add(1, ordering: .relaxed)
        }
        deinit { Self.live.subtract(1, ordering: .relaxed) }
    }

    /// Runs `body` and returns how many `Tracked` it left alive. Tests share the counter,
    /// so they take turns.
    static let turn = Mutex(())
    static func leftAlive(_ body: () -> Void) -> Int {
        turn.withLock { _ in
            let before = Tracked.live.load(ordering: .relaxed)
            body()
            return Tracked.live.load(ordering: .relaxed) - before
        }
    }

    @Test func drainHandsOverEveryElementInOrderAndGrowsPastItsCapacity() {
        var seen: [Int] = []
        let alive = Self.leftAlive {
            var queue = MoveQueue<Tracked>(capacity: 2)
            for n in 0..<100 { queue.append(Tracked(n)) }
            let count = queue.count  // #expect cannot take a non-copyable operand
            #expect(count == 100)
            var lasts: [Int] = []
            queue.drain { element, isLast in
                if isLast { lasts.append(element.n) }
                seen.append(element.n)
            }
            #expect(lasts == [99], "only the last element is marked last")
            let empty = queue.isEmpty
            #expect(empty)
            // Still usable after draining, with its capacity.
            queue.append(Tracked(100))
            queue.drain { element, isLast in
                #expect(isLast)
                seen.append(element.n)
            }
        }
        #expect(seen == Array(0...100))
        #expect(alive == 0)
    }

    @Test func whatIsStillQueuedIsReleasedWithTheQueue() {
        let alive = Self.leftAlive {
            var queue = MoveQueue<Tracked>()
            for n in 0..<10 { queue.append(Tracked(n)) }
            _ = queue.count
        }
        #expect(alive == 0)
    }

    @Test func removeAllMovesThePickedOutAndKeepsTheRestInOrder() {
        var removed: [Int] = []
        var kept: [Int] = []
        let alive = Self.leftAlive {
            var queue = MoveQueue<Tracked>(capacity: 4)
            for n in 0..<10 { queue.append(Tracked(n)) }
            queue.removeAll { $0.n % 3 == 0 } _: { removed.append($0.n) }
            let count = queue.count
            #expect(count == 6)
            queue.drain { element, _ in kept.append(element.n) }
        }
        #expect(removed == [0, 3, 6, 9])
        #expect(kept == [1, 2, 4, 5, 7, 8])
        #expect(alive == 0)
    }

    @Test func exchangeTradesContents() {
        var first: [Int] = []
        var second: [Int] = []
        let alive = Self.leftAlive {
            var a = MoveQueue<Tracked>()
            var b = MoveQueue<Tracked>()
            a.append(Tracked(1))
            a.append(Tracked(2))
            b.append(Tracked(3))
            a.exchange(with: &b)
            a.drain { element, _ in first.append(element.n) }
            b.drain { element, _ in second.append(element.n) }
        }
        #expect(first == [3])
        #expect(second == [1, 2])
        #expect(alive == 0)
    }
}
