import SwiftATTCore
import SwiftATTHCI
import SwiftATTLoopback
import Testing
import SwiftATTTransport

/// The emulated controller at the HCI level: what it answers, what it refuses, and how
/// ACL credits come back, with a test speaking the commands itself.
@Suite struct LoopbackHCITests {
    /// Sends `command` and returns the one event that answers it.
    static func exchange(_ transport: any HCITransport, _ command: HCICommandPacket) throws -> HCIEvent {
        try transport.send(command)
        return try #require(try events(transport).first)
    }

    /// Everything waiting for the host, decoded.
    static func events(_ transport: any HCITransport) throws -> [HCIEvent] {
        try transport.receive(timeout: .seconds(1)).filter { $0.type == .event }.map { try HCIEvent(parsing: $0.bytes) }
    }

    static func completeStatus(_ event: HCIEvent) -> HCIStatus? {
        if case let .commandComplete(c) = event { return c.status }
        return nil
    }

    @Test func answersTheStartUpCommandsAndListsOnlyWhatItImplements() throws {
        let link = LoopbackLink(aclBufferLength: 100, aclBufferCount: 5)
        let controller = link.addController()
        let transport = try controller.open()
        defer { transport.close() }

        #expect(Self.completeStatus(try Self.exchange(transport, Reset().packet)) == .success)
        guard case let .commandComplete(commands) = try Self.exchange(transport, ReadLocalSupportedCommands().packet) else {
            Issue.record("no Command Complete"); return
        }
        let bitmap = try commands.returnParameters(for: ReadLocalSupportedCommands.self).supportedCommands
        #expect(bitmap.supports(.leSetAdvertisingParameters) && bitmap.supports(.leCreateConnection) && bitmap.supports(.leReadBufferSize))
        // Extended advertising, scanning and connecting are not implemented, and not listed:
        // a host picks the legacy commands.
        #expect(!bitmap.supports(.leSetExtendedAdvertisingParameters) && !bitmap.supports(.leExtendedCreateConnection))
        #expect(!bitmap.supports(.leReadBufferSizeV2) && !bitmap.supports(.leSetPHY))

        guard case let .commandComplete(buffers) = try Self.exchange(transport, LEReadBufferSize().packet) else {
            Issue.record("no Command Complete"); return
        }
        let sizes = try buffers.returnParameters(for: LEReadBufferSize.self)
        #expect(sizes.leACLDataPacketLength == 100 && sizes.totalNumLEACLDataPackets == 5)
        guard case let .commandComplete(address) = try Self.exchange(transport, ReadBDADDR().packet) else {
            Issue.record("no Command Complete"); return
        }
        #expect(try address.returnParameters(for: ReadBDADDR.self).address == controller.publicAddress)

        // A command it does not implement: Unknown HCI Command, and the host's credit back.
        #expect(Self.completeStatus(try Self.exchange(transport, LESetPHY(connectionHandle: 1, txPHYs: .le2M, rxPHYs: .le2M).packet)) == .unknownCommand)
    }

    @Test func refusesARandomAddressWhileScanningAndASecondHost() throws {
        let link = LoopbackLink()
        let controller = link.addController()
        let transport = try controller.open()
        defer { transport.close() }
        #expect(throws: TransportError.self) { _ = try controller.open() }

        _ = try Self.exchange(transport, LESetScanEnable(scanEnable: true).packet)
        let refused = try Self.exchange(transport, LESetRandomAddress(randomAddress: BluetoothAddress(0xC0_00_00_00_00_01, kind: .random)).packet)
        #expect(Self.completeStatus(refused) == .commandDisallowed)
        _ = try Self.exchange(transport, LESetScanEnable(scanEnable: false).packet)
        let accepted = try Self.exchange(transport, LESetRandomAddress(randomAddress: BluetoothAddress(0xC0_00_00_00_00_01, kind: .random)).packet)
        #expect(Self.completeStatus(accepted) == .success)
        // Cancelling when nothing is being created is disallowed (Core 5.4 Vol 4 Part E §7.8.13).
        #expect(Self.completeStatus(try Self.exchange(transport, LECreateConnectionCancel().packet)) == .commandDisallowed)
    }

    /// Connects two raw hosts: the second scans and initiates to the first's random
    /// address; returns the handle both sides got.
    static func connect(_ advertiser: any HCITransport, _ initiator: any HCITransport) throws -> UInt16 {
        let address = BluetoothAddress(0xC0_00_00_00_00_AA, kind: .random)
        _ = try exchange(advertiser, LESetRandomAddress(randomAddress: address).packet)
        _ = try exchange(advertiser, LESetAdvertisingParameters(advertisingIntervalMin: 32, advertisingIntervalMax: 32).packet)
        _ = try exchange(advertiser, LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x06]).packet)
        _ = try exchange(advertiser, LESetAdvertisingEnable(advertisingEnable: true).packet)

        _ = try exchange(initiator, LESetScanParameters(scanType: .passive, scanInterval: 16, scanWindow: 16).packet)
        try initiator.send(LESetScanEnable(scanEnable: true).packet)
        let scanned = try events(initiator)
        let report = scanned.compactMap { event -> LEAdvertisingReport? in
            if case let .leMeta(.advertisingReport(r)) = event { return r }
            return nil
        }.first
        #expect(report?.reports.map(\.address) == [address])
        #expect(report?.reports.first.map { Array($0.data) } == [0x02, 0x01, 0x06])
        _ = try exchange(initiator, LESetScanEnable(scanEnable: false).packet)

        try initiator.send(LECreateConnection(scanInterval: 16, scanWindow: 16, peerAddress: address, ownAddressType: .public,
                                              connectionParameters: .init(intervalMin: 6, intervalMax: 6, maxLatency: 0, supervisionTimeout: 100)).packet)
        let initiated = try events(initiator)
        guard initiated.count == 2, case let .commandStatus(status) = initiated[0], status.status == .success,
              case let .leMeta(.connectionComplete(central)) = initiated[1] else {
            Issue.record("expected Command Status then LE Connection Complete, got \(initiated)")
            return 0
        }
        #expect(central.role == .central && central.peerAddress == address)
        guard case let .leMeta(.connectionComplete(peripheral)) = try #require(try events(advertiser).first) else {
            Issue.record("the advertiser heard no connection"); return 0
        }
        #expect(peripheral.role == .peripheral && peripheral.connectionHandle == central.connectionHandle)
        return central.connectionHandle
    }

    @Test func carriesACLAndReturnsCreditsOnlyOnceTheReceiverTookThem() throws {
        let link = LoopbackLink(aclBufferLength: 27, aclBufferCount: 2)
        let a = try link.addController().open()
        let b = try link.addController().open()
        defer { a.close(); b.close() }
        let handle = try Self.connect(a, b)

        // Two packets fill the sender's two buffers; nothing is credited until A reads.
        for n: UInt8 in [1, 2] {
            try b.send(HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable, data: [0x01, 0x00, 0x04, 0x00, n]).encoded()[...]))
        }
        #expect(try b.receive(timeout: .milliseconds(50)).isEmpty)
        // A third, with no free buffer, is a flow-control violation: Data Buffer Overflow.
        try b.send(HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable, data: [0x01, 0x00, 0x04, 0x00, 3]).encoded()[...]))
        #expect(try b.receive(timeout: .seconds(1)).map { Array($0.bytes) } == [[0x1A, 0x01, 0x01]])
        #expect(link.statistics.bufferOverflows == 1)

        let received = try a.receive(timeout: .seconds(1))
        let payloads = try received.map { try ACLDataPacket(parsing: $0.bytes) }
        #expect(payloads.map(\.handle) == [handle, handle])
        #expect(payloads.map { $0.data.last } == [1, 2])
        // Both credits come back together, in one Number Of Completed Packets.
        let credits = try Self.events(b)
        guard credits.count == 1, case let .numberOfCompletedPackets(completed) = credits[0] else {
            Issue.record("expected one Number Of Completed Packets, got \(credits)"); return
        }
        #expect(Array(completed.entries) == [.init(connectionHandle: handle, numCompletedPackets: 2)])
        #expect(link.statistics.aclForwarded == 2)
        #expect(link.statistics.peakBuffersInUse == 2)
    }

    /// The link builds Number Of Completed Packets in buffers the hosts hand back: each
    /// event counts exactly what was taken, and one a host still holds reads the same
    /// after later events were built (a held buffer is copied, never written over).
    @Test func completedPacketsEventsAreExactAndAHeldOneIsNeverReused() throws {
        let link = LoopbackLink(aclBufferLength: 27, aclBufferCount: 8)
        let a = try link.addController().open()
        let b = try link.addController().open()
        defer { a.close(); b.close() }
        let handle = try Self.connect(a, b)
        var held: [HCIPacket] = []
        for round in 1...6 {
            for n in 0..<round {
                try b.send(HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable,
                                                                           data: [0x01, 0x00, 0x04, 0x00, UInt8(n)]).encoded()[...]))
            }
            #expect(try a.receive(timeout: .seconds(1)).count == round)
            let events = try b.receive(timeout: .seconds(1)).filter { $0.type == .event }
            #expect(events.count == 1)
            guard let packet = events.first, case let .numberOfCompletedPackets(completed) = try HCIEvent(parsing: packet.bytes) else {
                Issue.record("expected a Number Of Completed Packets in round \(round)"); return
            }
            #expect(Array(completed.entries) == [.init(connectionHandle: handle, numCompletedPackets: UInt16(round))])
            if round.isMultiple(of: 2) { held.append(packet) }  // the odd rounds' buffers go back to the pool
        }
        for (index, packet) in held.enumerated() {
            #expect(Array(packet.bytes) == [0x13, 0x05, 0x01, UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(2 * index + 2), 0x00])
        }
        #expect(link.statistics.completedPacketsEvents == 6)
    }

    @Test func disconnectTellsBothSidesAndFreesTheBuffers() throws {
        let link = LoopbackLink(aclBufferLength: 27, aclBufferCount: 1)
        let a = try link.addController().open()
        let b = try link.addController().open()
        defer { a.close(); b.close() }
        let handle = try Self.connect(a, b)
        try b.send(HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable, data: [0x01, 0x00, 0x04, 0x00, 9]).encoded()[...]))

        try b.send(Disconnect(connectionHandle: handle).packet)
        let local = try Self.events(b)
        guard local.count == 2, case let .disconnectionComplete(mine) = local[1] else {
            Issue.record("expected Command Status then Disconnection Complete, got \(local)"); return
        }
        #expect(mine.reason == .connectionTerminatedByLocalHost)
        // The packet already in the air arrives before the peer hears of the disconnection.
        let remote = try a.receive(timeout: .seconds(1))
        #expect(remote.map(\.type) == [.aclData, .event])
        guard case let .disconnectionComplete(theirs) = try HCIEvent(parsing: remote[1].bytes) else {
            Issue.record("no Disconnection Complete"); return
        }
        #expect(theirs.connectionHandle == handle && theirs.reason == .remoteUserTerminatedConnection)
        // The connection's credit is void: no Number Of Completed Packets for a dead link.
        #expect(try b.receive(timeout: .milliseconds(50)).isEmpty)
        #expect(link.connectionCount == 0)
        // Data on the old handle goes nowhere.
        try b.send(HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable, data: [0x01, 0x00, 0x04, 0x00, 9]).encoded()[...]))
        #expect(link.statistics.aclUnknownHandle == 1)
    }

    @Test func aHostThatGoesAwayTimesOutItsPeers() throws {
        let link = LoopbackLink()
        let a = try link.addController().open()
        let b = try link.addController().open()
        defer { a.close() }
        let handle = try Self.connect(a, b)
        b.close()
        let events = try Self.events(a)
        guard case let .disconnectionComplete(gone) = try #require(events.first) else {
            Issue.record("expected Disconnection Complete, got \(events)"); return
        }
        #expect(gone.connectionHandle == handle && gone.reason == .connectionTimeout)
        #expect(throws: TransportError.self) { try b.send(Reset().packet) }
    }
}
