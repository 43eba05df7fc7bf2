import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing
import TestSupport

/// The link ends in the middle of a multi-request procedure (Core 5.4 Vol 3 Part G §4):
/// a `RawPeer` peripheral answers the first request of a discovery, a long read, a long
/// write or a reliable write, sees the next one go out, and disconnects. The call fails
/// with the disconnection's reason, not the 30 s transaction timeout, and the link's
/// later calls fail at once. On the server side, the link's prepared writes and (for a
/// peer that is not bonded) its subscriptions go with it.
@Suite struct MidProcedureDisconnectionTests {
    /// What the central reports: the reason the peer sent (Remote User Terminated).
    static let reason = ATTBearerError.DisconnectReason(code: 0x13, name: HCIStatus(0x13).name)

    /// The peripheral ends the link, then the call must fail with the reason, and so must
    /// a call made after it.
    static func disconnect<T: Sendable>(_ c: HostilePeripheralTarget, failing call: Task<T, any Error>) async throws {
        try await c.raw.expectSuccess(Disconnect(connectionHandle: c.handle).packet)
        #expect(try await c.raw.disconnection() == .connectionTerminatedByLocalHost)
        await #expect(throws: GATTClientError.disconnected(reason)) { _ = try await call.value }
        await #expect(throws: GATTClientError.self) { _ = try await c.peer.read(handle: 0x0010) }
        await c.stop()
    }

    @Test func aDiscovery() async throws {
        let c = try await HostilePeripheralTarget.start()
        let discovery = Task { try await c.peer.discoverDatabase() }
        #expect(try await c.raw.nextATT("Read By Group Type Request") == [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        try c.raw.sendATT([0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18])    // one service, 0001–0005
        #expect(try await c.raw.nextATT("the next Read By Group Type Request") == [0x10, 0x06, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        try await Self.disconnect(c, failing: discovery)
    }

    @Test func aLongRead() async throws {
        let c = try await HostilePeripheralTarget.start()
        let read = Task { try await c.peer.read(handle: 0x0010) }
        #expect(try await c.raw.nextATT("Read Request") == [0x0A, 0x10, 0x00])
        try c.raw.sendATT([0x0B] + [UInt8](repeating: 0x11, count: 22))        // fills ATT_MTU−1: more to read
        #expect(try await c.raw.nextATT("Read Blob Request") == [0x0C, 0x10, 0x00, 0x16, 0x00])
        try await Self.disconnect(c, failing: read)
    }

    @Test func aLongWrite() async throws {
        let c = try await HostilePeripheralTarget.start()
        let value = (0..<40).map { UInt8($0) }
        let write = Task { try await c.peer.write(value, handle: 0x0010) }
        let first = [0x16, 0x10, 0x00, 0x00, 0x00] + value[0..<18]
        #expect(try await c.raw.nextATT("the first Prepare Write Request") == first)
        try c.raw.sendATT([0x17] + first.dropFirst())
        #expect(try await c.raw.nextATT("the second Prepare Write Request") == [0x16, 0x10, 0x00, 0x12, 0x00] + value[18..<36])
        try await Self.disconnect(c, failing: write)
    }

    @Test func aReliableWrite() async throws {
        let c = try await HostilePeripheralTarget.start()
        let writes = [GATTClient.ReliableWrites.Write(handle: 0x0010, value: [1, 2, 3]),
                      GATTClient.ReliableWrites.Write(handle: 0x0011, value: [4, 5, 6])]
        let write = Task { try await c.peer.reliableWrite(writes) }
        let first: [UInt8] = [0x16, 0x10, 0x00, 0x00, 0x00, 1, 2, 3]
        #expect(try await c.raw.nextATT("the first Prepare Write Request") == first)
        try c.raw.sendATT([0x17] + first.dropFirst())
        #expect(try await c.raw.nextATT("the second Prepare Write Request") == [0x16, 0x11, 0x00, 0x00, 0x00, 4, 5, 6])
        try await Self.disconnect(c, failing: write)
    }

    /// The server's side: a raw central prepares a write and subscribes, then the link
    /// ends. Reconnected, it finds no queue (Execute Write writes nothing) and no
    /// subscription (the CCCD reads 0000: it is not bonded, Core 5.4 Vol 3 Part G §3.3.3.3).
    @Test func theServerDropsTheLinksPreparedWritesAndSubscriptions() async throws {
        let target = try await HostileCentralTarget.start()
        let raw = target.raw
        let setting = try target.handle(FaultFixture.setting)
        let cccd = try #require(target.peripheral.database.clientConfigurationHandle(of: FaultFixture.stream))
        let prepare = [0x16] + le(setting) + le(0) + [0xAB, 0xCD]
        #expect(try await raw.request(prepare) == [0x17] + prepare.dropFirst())
        #expect(try await raw.request([0x12] + le(cccd) + [0x01, 0x00]) == [0x13])
        // Subscribed before the next call on the peripheral's loop, which runs after the
        // subscription (its jobs run in order): in place before the disconnection comes.
        let events = target.peripheral.events()
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == .init(writes: 1, octets: 2))

        try await raw.expectSuccess(Disconnect(connectionHandle: target.connection).packet)
        _ = try await raw.disconnection()
        // The host tells its GATT server before it reports the disconnection, in the same
        // turn of its loop: once the event is out, the server has forgotten the link.
        let connection = target.connection
        _ = try await first("the disconnection at the peripheral", in: events) { event -> Bool? in
            if case let .disconnected(handle, _) = event, handle == connection { return true }
            return nil
        }
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == nil)

        // The peripheral advertises again (its default re-advertising policy).
        let again = try await raw.connect(to: target.peripheral.info.randomAddress)
        // The raw central hears of the link first; the peripheral's server starts serving
        // it when the peripheral's own host does, which it announces.
        _ = try await first("the new connection at the peripheral", in: events) { event -> Bool? in
            if case let .connected(handle, _) = event, handle == again { return true }
            return nil
        }
        #expect(await target.peripheral.prepareQueueUsage(on: again) == .init(writes: 0, octets: 0))
        #expect(try await raw.request([0x18, 0x01]) == [0x19])
        #expect(await target.peripheral.value(of: FaultFixture.setting) == [0x00], "nothing prepared before was written")
        #expect(try await raw.request([0x0A] + le(cccd)) == [0x0B, 0x00, 0x00])
        await target.stop()
    }
}
