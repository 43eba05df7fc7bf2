import SwiftATTPDU
import BenchSupport
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import Testing
import SwiftATTTransport

/// The client's faults against Bumble's GATT server: a server that never answers, a peer
/// that disconnects with calls pending, a controller that vanishes. Every pending call
/// must fail promptly with a typed error; nothing may hang.
@Suite(.serialized) struct PeerFaultTests {
    static let hangs = PeerTests.test(7)

    /// Bumble's server on controller 0, swift-att connected from controller 1, with the
    /// database discovered.
    static func connect(transactionTimeout: Duration = .seconds(30)) async throws
        -> (BumbleBench, BumblePeer, Central, Peer, GATTClientDatabase) {
        let bench = try await BumbleBench(controllers: 2)
        let server = try BumblePeer(bench: bench, controller: 0, address: PeerTests.serverAddress, arguments: [], script: "bumble_server.py")
        _ = try await server.next("ready")
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]), transactionTimeout: transactionTimeout)
        let peer = try await central.connect(try #require(BluetoothAddress(PeerTests.serverAddress, kind: .random)))
        let database = try await peer.discoverDatabase()
        return (bench, server, central, peer, database)
    }

    @Test func anUnansweredRequestTimesOutAndTheLinkEnds() async throws {
        let (bench, server, central, peer, database) = try await Self.connect(transactionTimeout: .seconds(1))
        defer { server.stop(); bench.stop() }
        let hangs = try #require(database.characteristics(uuid: Self.hangs).first)
        let started = ContinuousClock.now
        await #expect(throws: GATTClientError.timedOut) { _ = try await peer.read(hangs) }
        let waited = ContinuousClock.now - started
        #expect(waited >= .seconds(1) && waited < .seconds(5), "\(waited)")
        // Core 5.4 Vol 3 Part F §3.3.3: no more ATT on this link; swift-att ends it.
        _ = try await server.next("disconnected", timeout: .seconds(5))
        await #expect(throws: GATTClientError.self) { _ = try await peer.read(hangs) }
        await central.close()
    }

    @Test func aDisconnectionFailsEveryPendingCall() async throws {
        let (bench, server, central, peer, database) = try await Self.connect()
        defer { server.stop(); bench.stop() }
        let hangs = try #require(database.characteristics(uuid: Self.hangs).first)
        let measurement = try #require(database.characteristics(uuid: BluetoothUUID(0x2A37)).first)
        let long = try #require(database.characteristics(uuid: PeerTests.test(2)).first)
        let values = try await peer.notifications(of: measurement)
        // One request the server sits on, and two procedures queued behind it. Each
        // Task.immediate runs its call up to its first suspension, which comes after the
        // procedure is handed to the loop: when it returns, the call is queued, in order.
        // (The write is queued through `run`: `write` asks the loop for ATT_MTU first,
        // so it would not be queued yet when its task returned.)
        let read = Task.immediate { try await peer.read(hangs) }
        let discovery = Task.immediate { try await peer.discoverDatabase() }
        let write = Task.immediate {
            try await peer.run { mtu in GATTClient.WriteLongCharacteristicValues(handle: long.valueHandle, value: Array(repeating: 7, count: 300), mtu: mtu) }
        }
        _ = try await server.next("read-held")
        let started = ContinuousClock.now
        server.send("disconnect")
        let reason = ATTBearerError.DisconnectReason(code: 0x13, name: HCIStatus(0x13).name)
        await #expect(throws: GATTClientError.disconnected(reason)) { _ = try await read.value }
        await #expect(throws: GATTClientError.disconnected(reason)) { _ = try await discovery.value }
        await #expect(throws: GATTClientError.disconnected(reason)) { try await write.value }
        await #expect(throws: GATTClientError.disconnected(reason)) { for try await _ in values {} }
        // Failed by the disconnection, not by the 30 s transaction timeout (the bound is
        // loose: these machines are shared and slow, and this is not a benchmark).
        #expect(ContinuousClock.now - started < .seconds(10))
        // New calls fail at once too.
        await #expect(throws: GATTClientError.self) { _ = try await peer.read(measurement) }
        await central.close()
    }

    @Test func aVanishedControllerFailsEveryPendingCall() async throws {
        let (bench, server, central, peer, database) = try await Self.connect()
        defer { server.stop() }
        let hangs = try #require(database.characteristics(uuid: Self.hangs).first)
        let read = Task { try await peer.read(hangs) }
        _ = try await server.next("read-held")   // the read is outstanding at the server
        bench.stop()   // the controllers' process is gone: the transport hits EOF
        do {
            _ = try await read.value
            Issue.record("a read succeeded with the controller gone")
        } catch let error as GATTClientError {
            guard case let .disconnected(reason) = error else { return #expect(Bool(false), "\(error)") }
            #expect(reason.name.hasPrefix("the controller stopped"), "\(reason)")
        }
        await #expect(throws: GATTClientError.self) { _ = try await peer.discoverServices() }
        await central.close()
    }
}
