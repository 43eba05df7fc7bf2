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

    @Test func aTaskWithoutAPreferenceRunsOffTheLoop() async throws {
        // The counterpart of the test above: the assertion it makes can fail. The hosts
        // run on the process's loop; the task, preferring none, on Swift's pool.
        let pair = try await Pair.start()
        let peer = try await pair.connect()
        let setting = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.settingUUID).first)
        let taskThread = try await Self.threadOfATask(on: nil, writingThrough: peer, setting)
        let loopThread = await Task(executorPreference: try HostEventLoop.shared) { pthread_self() }.value
        #expect(pthread_equal(loopThread, taskThread) == 0)
        let serverThreads = pair.writes.threads.withLock { $0 }
        #expect(serverThreads.count == 1)
        #expect(serverThreads.allSatisfy { pthread_equal($0, taskThread) == 0 && pthread_equal($0, loopThread) != 0 })
        await pair.stop()
    }

    /// A transport opens on a thread of its own: a `tcp-server:` host waiting for its
    /// controller to connect holds up none of the hosts already on the shared loop.
    @Test func aTransportWaitingForItsPeerHoldsUpNoOtherHost() async throws {
        // A port outside the kernel's ephemeral range, which the suite's other sockets
        // (connections to Bumble's controllers, ports picked by binding port 0) draw
        // from: one of them taking it between the pick and the transport's bind made the
        // start fail with EADDRINUSE. Handed out by `FreePorts`, as Bumble's benches'
        // are: a bench given the same port once connected to this server as if to its
        // controller. Should a bind fail anyway, another port is tried.
        var port: UInt16 = 0
        var waiting: Task<Central, any Error>?
        let ended = Flag()
        for _ in 0..<5 where waiting == nil {
            let chosen = try #require(FreePorts.take(1).first, "no free port")
            ended.set(false)
            let attempt = Task {
                defer { ended.set(true) }
                return try await Central.start(transport: .tcpServer(host: "127.0.0.1", port: chosen))
            }
            // Listening first (on a loaded machine the task may start late): otherwise the
            // connect below could come before the listener, and prove nothing.
            try await eventually("the tcp-server transport to listen or fail") {
                isListening(port: chosen) || ended.value
            }
            if isListening(port: chosen) {
                port = chosen
                waiting = attempt
            }
        }
        let start = try #require(waiting, "no port could be listened on")
        let listening = ContinuousClock.now
        // Meanwhile two hosts start on the same loop, connect and write: all of it while
        // the first still waits (opened on the loop, its 30-s wait would have ended first).
        let pair = try await Pair.start()
        let peer = try await pair.connect()
        let setting = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.settingUUID).first)
        try await peer.write([0x02], to: setting)
        await pair.stop()
        // The wait gives up after 30 s (`TransportOpening`): a machine so loaded that the
        // pair's work took longer than that cannot tell a held-up loop from a wait that
        // timed out, so the rest is checked only when the pair finished inside it.
        guard ContinuousClock.now - listening < .seconds(28) else {
            _ = try? await start.value
            return
        }
        #expect(ended.value == false)
        // A "controller" that connects and hangs up ends the wait: the start fails.
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        close(client)
        await #expect(throws: ControllerError.self) { _ = try await start.value }
    }

    /// A flag one task sets and another reads.
    final class Flag: Sendable {
        private let state = Mutex(false)
        var value: Bool { state.withLock { $0 } }
        func set(_ value: Bool) { state.withLock { $0 = value } }
    }

    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
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
