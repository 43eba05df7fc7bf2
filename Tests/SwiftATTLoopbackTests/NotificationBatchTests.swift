@testable import SwiftATTHost
import Testing

/// `NotificationBatch`: values of every length come back byte for byte and in order,
/// through appends, joins and drops of the oldest, each as an array of its own.
@Suite struct NotificationBatchTests {
    /// Value `n` of a test: `length(n)` bytes counting up from `n`.
    static func bytes(_ n: Int, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: n &+ $0) }
    }

    static func lengths(_ n: Int) -> Int { [0, 1, 20, 244, 512, 3][n % 6] }

    static func batch(_ range: Range<Int>) -> NotificationBatch {
        var batch = NotificationBatch()
        for n in range {
            bytes(n, length: lengths(n)).withUnsafeBufferPointer {
                batch.append(handle: UInt16(0x100 + n), value: $0, isIndication: n % 2 == 1)
            }
        }
        return batch
    }

    static func expected(_ range: Range<Int>) -> [GATTNotification] {
        range.map { GATTNotification(handle: UInt16(0x100 + $0), value: bytes($0, length: lengths($0)), isIndication: $0 % 2 == 1) }
    }

    static func notifications(_ batch: NotificationBatch) -> [GATTNotification] {
        (0..<batch.count).map { batch.notification(at: $0) }
    }

    @Test func valuesOfEveryLengthComeBackWithTheirHandlesAndKindInOrder() {
        let batch = Self.batch(0..<14)
        #expect(batch.count == 14)
        #expect(Self.notifications(batch) == Self.expected(0..<14))
        #expect(batch.bytes.count == (0..<14).reduce(0) { $0 + Self.lengths($1) })
    }

    @Test func joiningBatchesKeepsEachValueWhereItWas() {
        var joined = Self.batch(0..<5)
        joined.append(contentsOf: Self.batch(5..<11))
        joined.append(contentsOf: NotificationBatch())
        #expect(Self.notifications(joined) == Self.expected(0..<11))
        var intoEmpty = NotificationBatch()
        intoEmpty.append(contentsOf: Self.batch(3..<7))
        #expect(Self.notifications(intoEmpty) == Self.expected(3..<7))
    }

    @Test func droppingTheOldestKeepsTheNewestByteForByte() {
        for drop in 0...12 {
            var batch = Self.batch(0..<12)
            batch.removeFirst(drop)
            #expect(Self.notifications(batch) == Self.expected(min(drop, 12)..<12), "dropping \(drop)")
            #expect(batch.bytes.count == (min(drop, 12)..<12).reduce(0) { $0 + Self.lengths($1) })
        }
        var batch = Self.batch(0..<4)
        batch.removeFirst(40)
        #expect(batch.isEmpty && batch.bytes.isEmpty)
    }

    @Test func emptyingKeepsTheCapacityForTheNextBatch() {
        var batch = Self.batch(0..<30)
        let capacity = batch.bytes.capacity
        batch.removeAll()
        #expect(batch.isEmpty && batch.bytes.isEmpty)
        #expect(batch.bytes.capacity == capacity)
        batch = Self.batch(0..<2)
        #expect(Self.notifications(batch) == Self.expected(0..<2))
    }

    /// A value handed out owns its bytes: the batch emptied and refilled (as the
    /// iterator does with the next batch) leaves it as it was.
    @Test func aValueHandedOutOutlivesItsBatch() {
        var batch = Self.batch(0..<6)
        let kept = batch.notification(at: 4)
        batch.removeAll()
        batch.append(contentsOf: Self.batch(20..<26))
        #expect(kept == Self.expected(4..<5)[0])
    }
}
