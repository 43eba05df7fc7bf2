@testable import SwiftATTHost
import SwiftATTGATT
import Testing
import TestSupport

/// `NotificationChannel` fed by batches (`NotificationStaging`): order kept across
/// batches, the oldest dropped a quarter of the limit at a time, nothing after the end.
@Suite struct NotificationChannelTests {
    static func values(_ range: Range<Int>) -> NotificationBatch {
        var batch = NotificationBatch()
        for n in range { [UInt8(n)].withUnsafeBufferPointer { batch.append(handle: 0x10, value: $0, isIndication: false) } }
        return batch
    }

    static func firstBytes(_ batch: NotificationBatch) -> [Int] {
        (0..<batch.count).map { Int(batch.notification(at: $0).value[0]) }
    }

    static func taken(from channel: NotificationChannel) async -> [Int] {
        var batch = NotificationBatch()
        guard case .values = await channel.take(into: &batch) else { return [] }
        return firstBytes(batch)
    }

    static func deliver(_ range: Range<Int>, to session: GATTClientSession, staged: inout [NotificationStaging]) {
        for n in range {
            [UInt8(n)].withUnsafeBufferPointer { session.deliver(handle: 0x10, value: $0, isIndication: false, staged: &staged) }
        }
    }

    @Test func batchesArriveWholeAndInOrderAndTheStagingArrayIsLeftEmpty() async {
        let channel = NotificationChannel(limit: 100)
        var first = Self.values(0..<3)
        _ = channel.append(contentsOf: &first)
        #expect(first.isEmpty)
        var second = Self.values(3..<5)
        _ = channel.append(contentsOf: &second)
        #expect(second.isEmpty)
        #expect(await Self.taken(from: channel) == [0, 1, 2, 3, 4])
    }

    @Test func aConsumerFallingBehindLosesTheOldestAQuarterAtATime() async {
        // Limit 8: a quarter is 2. 11 values are 3 too many; 4 go (two quarters).
        let channel = NotificationChannel(limit: 8)
        var batch = Self.values(0..<5)
        _ = channel.append(contentsOf: &batch)
        batch = Self.values(5..<11)
        _ = channel.append(contentsOf: &batch)
        #expect(await Self.taken(from: channel) == [4, 5, 6, 7, 8, 9, 10])
    }

    @Test func aBatchLargerThanTheLimitKeepsItsNewest() async {
        let channel = NotificationChannel(limit: 8)
        var batch = Self.values(0..<20)
        _ = channel.append(contentsOf: &batch)
        // 12 too many: 12 go (six quarters), the newest 8 stay.
        #expect(await Self.taken(from: channel) == Array(12..<20))
    }

    @Test func nothingIsQueuedAfterTheEnd() async {
        let channel = NotificationChannel(limit: 8)
        var batch = Self.values(0..<2)
        _ = channel.append(contentsOf: &batch)
        channel.finish()
        batch = Self.values(2..<4)
        #expect(Self.wakesNobody(channel.append(contentsOf: &batch)))
        #expect(await Self.taken(from: channel) == [0, 1])
        var rest = NotificationBatch()
        guard case .ended(nil) = await channel.take(into: &rest) else {
            Issue.record("the stream did not end after its values")
            return
        }
    }

    @Test func anEmptyBatchWakesNobody() {
        let channel = NotificationChannel(limit: 8)
        var empty = NotificationBatch()
        #expect(Self.wakesNobody(channel.append(contentsOf: &empty)))
    }

    static func wakesNobody(_ wake: NotificationChannel.Wake) -> Bool {
        if case .none = wake { return true }
        return false
    }

    /// A consumer waiting on another thread than the loop's is not woken by the batch
    /// (waking a thread is what the loop pays once per few batches) but owed: the values
    /// wait in the channel, and `wakeOwed` wakes it to find all of them. One waiting on
    /// the appending thread itself (a task that prefers the loop) is handed back to be
    /// woken at once.
    @Test func aConsumerOnAnotherThreadIsOwedAWakeUpAndOneOnTheLoopIsWokenAtOnce() async throws {
        let loop = try HostEventLoop(name: "channel-test")
        let channel = NotificationChannel(limit: 100)
        let elsewhere = Task { await Self.taken(from: channel) }
        try await eventually("the consumer to wait") { channel.hasWaitingConsumer }
        let owed = await Task(executorPreference: loop) { () -> Bool in
            var batch = Self.values(0..<3)
            guard case .owed = channel.append(contentsOf: &batch) else { return false }
            batch = Self.values(3..<5)
            guard case .owed = channel.append(contentsOf: &batch) else { return false }
            return true
        }.value
        #expect(owed)
        #expect(channel.hasWaitingConsumer)
        #expect(channel.wakeOwed() == 5)
        #expect(await elsewhere.value == [0, 1, 2, 3, 4])

        let onLoop = Task(executorPreference: loop) { await Self.taken(from: channel) }
        try await eventually("the consumer on the loop to wait") { channel.hasWaitingConsumer }
        let wokenAtOnce = await Task(executorPreference: loop) { () -> Bool in
            var batch = Self.values(5..<6)
            guard case let .now(waiter) = channel.append(contentsOf: &batch) else { return false }
            waiter.resume()
            return true
        }.value
        #expect(wokenAtOnce)
        #expect(await onLoop.value == [5])
    }

    /// Every listener that wants a value gets it, in order, each in its own batch (a copy
    /// of the bytes); one that wants another handle's values gets none of these.
    /// Listeners are replaced and removed by id.
    @Test func eachListenerGetsTheValuesItWants() async {
        let session = GATTClientSession()
        let all = NotificationChannel(limit: 8), same = NotificationChannel(limit: 8), other = NotificationChannel(limit: 8)
        let gone = NotificationChannel(limit: 8)
        session.setListener(.init(id: 1, handle: nil, staging: NotificationStaging(channel: gone)))
        session.setListener(.init(id: 1, handle: nil, staging: NotificationStaging(channel: all)))
        session.setListener(.init(id: 2, handle: 0x0010, staging: NotificationStaging(channel: same)))
        session.setListener(.init(id: 3, handle: 0x0011, staging: NotificationStaging(channel: other)))
        session.setListener(.init(id: 4, handle: nil, staging: NotificationStaging(channel: gone)))
        session.removeListener(4)
        #expect(session.listeners.map(\.id) == [1, 2, 3])
        var staged: [NotificationStaging] = []
        Self.deliver(0..<3, to: session, staged: &staged)
        #expect(staged.count == 2)
        for staging in staged { _ = staging.flush() }
        for (channel, expected) in [(all, [0, 1, 2]), (same, [0, 1, 2]), (other, []), (gone, [])] {
            channel.finish()
            var batch = NotificationBatch()
            var values: [Int] = []
            while case .values = await channel.take(into: &batch) {
                values += Self.firstBytes(batch)
                batch.removeAll()
            }
            #expect(values == expected)
        }
    }

    /// A link going down in the middle of a batch: the values staged for a consumer that
    /// is waiting reach it, then the error does. The wake-up the staged batch owes must
    /// not be lost when the stream ends in the same breath.
    @Test func aWaitingConsumerGetsTheStagedBatchThenTheErrorWhenTheLinkCloses() async throws {
        let session = GATTClientSession()
        let channel = NotificationChannel(limit: 8)
        let staging = NotificationStaging(channel: channel)
        session.setListener(.init(id: 1, handle: nil, staging: staging))
        // The consumer runs inside the bounded wait, so that a lost wake-up fails the
        // test (the wait cancels it) rather than hanging it.
        async let outcome = withTimeout(.seconds(10)) { () -> (values: [Int], ended: Bool)? in
            var values: [Int] = []
            while true {
                var batch = NotificationBatch()
                switch await channel.take(into: &batch) {
                case .values: values += Self.firstBytes(batch)
                case .ended: return (values, true)
                case .cancelled: return (values, false)
                }
            }
        }
        while !channel.hasWaitingConsumer { await Task.yield() }
        var staged: [NotificationStaging] = []
        Self.deliver(0..<3, to: session, staged: &staged)
        session.close(with: .disconnected(.remoteUserTerminated))
        let result = try await outcome
        #expect(result?.values == [0, 1, 2])
        #expect(result?.ended == true)
    }
}
