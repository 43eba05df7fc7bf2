#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import Synchronization
import Testing
import TestSupport

/// `HostEventLoop`: hosts that share one loop thread, and tasks that prefer it.
@Suite struct HostEventLoopTests {
    typealias Pair = LoopbackEndToEndTests.Pair

    /// Where a task preferring `loop` runs, after an await that went through the hosts.
    static func threadOfATask(on loop: HostEventLoop?, writingThrough peer: Peer, _ setting: GATTClient.Characteristic) async throws -> pthread_t {
        try await withTaskExecutorPreference(loop) {
            try await peer.write([0x01], to: setting)
            return pthread_self()
        }
    }

    @Test func twoHostsAndTheTasksThatPreferTheLoopRunOnOneThread() async throws {
        let loop = try HostEventLoop()
        let pair = try await Pair.start(on: loop)
        let peer = try await pair.connect()
        let setting = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.settingUUID).first)
        let taskThread = try await Self.threadOfATask(on: loop, writingThrough: peer, setting)
        // The peripheral's write callback ran on its loop thread: the same one.
        let serverThreads = pair.writes.threads.withLock { $0 }
        #expect(serverThreads.count == 1)
        #expect(serverThreads.allSatisfy { pthread_equal($0, taskThread) != 0 })
        await pair.stop()
    }

    @Test func withoutASharedLoopEachHostHasAThreadOfItsOwn() async throws {
        // The counterpart of the test above: the assertion it makes can fail.
        let pair = try await Pair.start()
        let peer = try await pair.connect()
        let setting = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.settingUUID).first)
        let taskThread = try await Self.threadOfATask(on: nil, writingThrough: peer, setting)
        let serverThreads = pair.writes.threads.withLock { $0 }
        #expect(serverThreads.count == 1)
        #expect(serverThreads.allSatisfy { pthread_equal($0, taskThread) == 0 })
        await pair.stop()
    }

    @Test func aStreamProducedAndConsumedOnTheLoopArrivesWholeAndInOrder() async throws {
        let loop = try HostEventLoop()
        let pair = try await Pair.start(on: loop)
        let events = pair.peripheral.events()
        let peer = try await pair.connect()
        let values = try await NotificationStreamTests.subscribe(pair, peer, events: events)
        let sent = (0..<3_000).map { n in [UInt8(n & 0xFF), UInt8(n >> 8), 0xAB] }
        let consumer = Task(executorPreference: loop) {
            var received: [[UInt8]] = []
            for try await notification in values {
                received.append(notification.value)
                if received.count == sent.count { break }
            }
            return received
        }
        await withTaskExecutorPreference(loop) {
            await NotificationStreamTests.send(sent, from: pair, events: pair.peripheral.events())
        }
        let received = try await consumer.value
        #expect(received == sent)
        await pair.stop()
    }

    @Test func oneHostClosingLeavesTheOthersOnTheLoopRunning() async throws {
        let loop = try HostEventLoop()
        let link = LoopbackLink()
        let pair = try await Pair.start(link, on: loop)
        let bystander = try await Central.start(transport: link.addController().specification, on: loop)
        await pair.central.close()
        // The loop still runs the peripheral and the other central: it connects and reads.
        let device = try #require(try await first(bystander.scan(services: [LoopbackFixture.service])) { $0 })
        let peer = try await bystander.connect(device.address)
        let label = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.labelUUID).first)
        #expect(try await peer.read(label) == Array("loopback".utf8))
        // A host started after others closed joins the same loop.
        await bystander.close()
        let late = try await Central.start(transport: link.addController().specification, on: loop)
        #expect(try await first(late.scan(services: [LoopbackFixture.service])) { $0 } != nil)
        await late.close()
        await pair.peripheral.close()
        // Closed hosts refuse calls rather than hang.
        await #expect(throws: CentralError.self) { try await pair.central.connect(device.address) }
    }

    @Test func theLoopIsReleasedOnceItsHostsAndTasksAreDone() async throws {
        weak var released: HostEventLoop?
        do {
            let loop = try HostEventLoop()
            released = loop
            let pair = try await Pair.start(on: loop)
            _ = try await pair.connect()
            let threadInTask = await Task(executorPreference: loop) { pthread_self() }.value
            #expect(pthread_equal(threadInTask, pthread_self()) == 0)
            await pair.stop()
        }
        // The hosts held it while they ran; nothing does now.
        #expect(released == nil)
    }
}
