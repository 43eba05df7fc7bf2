@testable import SwiftATTCore
import Testing

@Suite struct FIFOQueueTests {
    @Test func elementsLeaveInOrderAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var out: [Int] = []
        var next = 0
        // Never quite empty: two in, one out, then drain.
        for _ in 0..<500 {
            queue.append(next); queue.append(next + 1)
            next += 2
            out.append(queue.popFirst()!)
        }
        while let n = queue.popFirst() { out.append(n) }
        #expect(out == Array(0..<1000))
        #expect(queue.isEmpty && queue.count == 0)
    }

    /// The storage of a queue that never empties stays near its count, not its history.
    @Test func aQueueThatNeverEmptiesDoesNotGrowItsStorage() {
        var queue = FIFOQueue<Int>()
        queue.append(contentsOf: 0..<10)
        for n in 10..<100_000 {
            queue.append(n)
            _ = queue.popFirst()
        }
        #expect(queue.count == 10)
        #expect(queue.elements.count <= 64)
        #expect(Array(queue.removeAll()) == Array(99_990..<100_000))
    }

    final class Box {}

    /// `popFirst` moves the element out: the queue keeps no reference to it, so it goes
    /// as soon as the caller is done, not when the storage is next compacted.
    @Test func aPoppedElementIsNoLongerHeldByTheQueue() {
        var queue = FIFOQueue<Box>()
        weak var first: Box?
        do {
            let box = Box()
            first = box
            queue.append(box)
        }
        queue.append(Box())
        _ = queue.popFirst()
        #expect(first == nil)
        #expect(queue.count == 1)
    }
}
