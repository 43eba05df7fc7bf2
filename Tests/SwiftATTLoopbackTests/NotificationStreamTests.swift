import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing
import TestSupport

/// `GATTNotificationStream` and `Peripheral.updateValue` end to end over the loopback
/// link: values a link delivered before it went down still reach the consumer, and a
/// consumer that leaves unsubscribes at the peripheral.
@Suite struct NotificationStreamTests {
    typealias Pair = LoopbackEndToEndTests.Pair

    /// Subscribes to the fixture's stream and waits until the peripheral has seen it.
    static func subscribe(_ pair: Pair, _ peer: Peer, events: AsyncStream<PeripheralEvent>) async throws -> GATTNotificationStream {
        let stream = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.streamUUID).first)
        let values = try await peer.notifications(of: stream)
        let subscribed = try await first(events) { event -> Bool? in
            if case let .subscriptionChanged(change) = event, change.configuration.contains(.notification) { return true }
            return nil
        }
        #expect(subscribed == true)
        return values
    }

    /// The subscription the peripheral next hears of: true when notifications are on.
    static func nextSubscription(_ events: AsyncStream<PeripheralEvent>) async throws -> Bool? {
        try await first(events) { event -> Bool? in
            if case let .subscriptionChanged(change) = event { return change.configuration.contains(.notification) }
            return nil
        }
    }

    /// Sends `values` in order, waiting for `.readyToUpdate` whenever `updateValue` says
    /// the queues are full.
    static func send(_ values: [[UInt8]], from pair: Pair, events: AsyncStream<PeripheralEvent>) async {
        var ready = events.makeAsyncIterator()
        for value in values {
            while !pair.peripheral.updateValue(value, for: pair.stream) {
                while let event = await ready.next() {
                    if case .readyToUpdate = event { break }
                }
            }
        }
    }

    @Test func valuesDeliveredBeforeTheLinkWentDownArriveBeforeTheError() async throws {
        let pair = try await Pair.start()
        let events = pair.peripheral.events()
        let connections = pair.peripheral.events()
        let peer = try await pair.connect()
        let handle = try #require(try await first(connections) { event -> UInt16? in
            if case let .connected(handle, _) = event { return handle }
            return nil
        })
        let values = try await Self.subscribe(pair, peer, events: events)
        let sent = (0..<200).map { n in [UInt8(n), UInt8(truncatingIfNeeded: n &* 7)] }
        await Self.send(sent, from: pair, events: pair.peripheral.events())
        // A read answered after the values, on the same link: once it returns, every value
        // has reached the central's host (not the consumer: nothing has iterated yet).
        // Values still queued at the peripheral when it disconnects would be lost, as over
        // the air.
        #expect(try await peer.read(handle: 0x0003) == Array("loopback".utf8))
        try await pair.peripheral.disconnect(handle)
        var received: [[UInt8]] = []
        var ending: (any Error)?
        do {
            for try await value in values { received.append(value.value) }
        } catch {
            ending = error
        }
        #expect(received == sent)
        guard case let .disconnected(reason)? = ending as? GATTClientError else {
            Issue.record("the stream ended with \(String(describing: ending)), not disconnected")
            return await pair.stop()
        }
        #expect(reason.code == HCIStatus.remoteUserTerminatedConnection.rawValue)
        await pair.stop()
    }

    @Test func releasingTheStreamUnsubscribes() async throws {
        let pair = try await Pair.start()
        let events = pair.peripheral.events()
        let peer = try await pair.connect()
        var values: GATTNotificationStream? = try await Self.subscribe(pair, peer, events: events)
        #expect(values != nil)
        values = nil
        #expect(try await Self.nextSubscription(events) == false)
        await pair.stop()
    }

    @Test func cancellingTheConsumerUnsubscribesAndEndsIteration() async throws {
        let pair = try await Pair.start()
        let events = pair.peripheral.events()
        let peer = try await pair.connect()
        let values = try await Self.subscribe(pair, peer, events: events)
        let consumer = Task {
            var count = 0
            for try await _ in values { count += 1 }
            return count
        }
        _ = pair.peripheral.updateValue([0x01], for: pair.stream)
        consumer.cancel()
        // Iteration ends, without an error, once the task is cancelled.
        #expect(try await consumer.value <= 1)
        #expect(try await Self.nextSubscription(events) == false)
        await pair.stop()
    }

    /// Two streams on one link each get every value: the listener table fans out.
    @Test func twoStreamsOfOneLinkEachGetEveryValue() async throws {
        let pair = try await Pair.start()
        let events = pair.peripheral.events()
        let peer = try await pair.connect()
        let subscribed = try await Self.subscribe(pair, peer, events: events)
        let all = peer.values()
        let sent = (0..<100).map { n in [UInt8(n)] }
        await Self.send(sent, from: pair, events: pair.peripheral.events())
        var fromSubscription = subscribed.makeAsyncIterator()
        var fromAll = all.makeAsyncIterator()
        var a: [[UInt8]] = []
        var b: [[UInt8]] = []
        while a.count < sent.count, let value = try await fromSubscription.next() { a.append(value.value) }
        while b.count < sent.count, let value = try await fromAll.next() { b.append(value.value) }
        #expect(a == sent)
        #expect(b == sent)
        await pair.stop()
    }
}
