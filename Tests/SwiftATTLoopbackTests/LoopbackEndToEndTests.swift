import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing
import TestSupport

/// Two swift-att hosts on a loopback link, through the public Host API: scanning,
/// connecting, GATT procedures, notifications and disconnection, with no Python and no
/// sockets. The same paths as the Bumble integration tests, in milliseconds.
@Suite struct LoopbackEndToEndTests {
    struct Pair {
        let link: LoopbackLink
        let peripheral: Peripheral
        let central: Central
        let stream: GATTCharacteristic
        let writes: LoopbackFixture.Writes

        /// Both hosts on `eventLoop` when given, else each on a thread of its own.
        static func start(_ link: LoopbackLink = LoopbackLink(), on eventLoop: HostEventLoop? = nil) async throws -> Pair {
            let writes = LoopbackFixture.Writes()
            let (database, stream) = try LoopbackFixture.database(writes: writes)
            let peripheral = try await Peripheral.start(transport: link.addController().specification, database: database,
                                                        on: eventLoop)
            try await peripheral.startAdvertising(data: LoopbackFixture.advertisement())
            let central = try await Central.start(transport: link.addController().specification, on: eventLoop)
            return Pair(link: link, peripheral: peripheral, central: central, stream: stream, writes: writes)
        }

        func connect() async throws -> Peer {
            let device = try #require(try await first(central.scan(services: [LoopbackFixture.service])) { $0 })
            #expect(device.address == peripheral.info.randomAddress)
            return try await central.connect(device.address)
        }

        func stop() async {
            await central.close()
            await peripheral.close()
        }
    }

    @Test func aCentralScansConnectsAndRunsGATTProcedures() async throws {
        let pair = try await Pair.start()
        // The host chose legacy commands: the loopback controller lists no extended ones.
        #expect(!pair.central.info.usesExtendedAdvertising && pair.central.info.aclBufferLength == 251)
        let device = try #require(try await first(pair.central.scan(services: [LoopbackFixture.service])) { $0 })
        #expect(device.data.localName?.name == "loopback")
        let peerEvents = pair.peripheral.events()
        let peer = try await pair.central.connect(device.address)
        let connected = try await first(peerEvents) { event -> BluetoothAddress? in
            if case let .connected(_, address) = event { return address }
            return nil
        }
        #expect(connected == pair.central.info.randomAddress)
        #expect(await peer.mtu == 517)

        let database = try await peer.discoverDatabase()
        #expect(database.services.map(\.service.uuid).contains(LoopbackFixture.service))
        let label = try #require(database.characteristics(uuid: LoopbackFixture.labelUUID).first)
        #expect(try await peer.read(label) == Array("loopback".utf8))
        let setting = try #require(database.characteristics(uuid: LoopbackFixture.settingUUID).first)
        try await peer.write([0x01, 0x02], to: setting)
        try await peer.write([0x03], to: setting, type: .withoutResponse)
        // A read after the command: the server has handled the command before answering.
        _ = try await peer.read(label)
        #expect(pair.writes.values.withLock { $0 } == [[0x01, 0x02], [0x03]])

        try await peer.disconnect()
        let reason = try await first(peerEvents) { event -> HCIStatus? in
            if case let .disconnected(_, reason) = event { return reason }
            return nil
        }
        #expect(reason == .remoteUserTerminatedConnection)
        #expect(pair.link.connectionCount == 0)
        await pair.stop()
    }

    /// Values larger than the controller's buffers cross in several ACL fragments, and
    /// more values than there are buffers wait for credits: all arrive, in order, and
    /// the hosts never overrun the controller.
    @Test(arguments: [(27, 20), (27, 244), (251, 244)])
    func notificationsArriveInOrderUnderFlowControl(bufferLength: Int, valueLength: Int) async throws {
        let pair = try await Pair.start(LoopbackLink(aclBufferLength: bufferLength, aclBufferCount: 4))
        let peripheralEvents = pair.peripheral.events()
        let peer = try await pair.connect()
        let stream = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackFixture.streamUUID).first)
        let values = try await peer.notifications(of: stream)
        let subscribed = try await first(peripheralEvents) { event -> Bool? in
            if case let .subscriptionChanged(change) = event, change.configuration.contains(.notification) { return true }
            return nil
        }
        #expect(subscribed == true)

        let count = 300
        let sender = Task {
            var ready = peripheralEvents.makeAsyncIterator()
            for n in 0..<count {
                var value = [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: valueLength)
                value[0] = UInt8(n >> 8)
                while !pair.peripheral.updateValue(value, for: pair.stream) {
                    while let event = await ready.next() {
                        if case .readyToUpdate = event { break }
                    }
                }
            }
        }
        var received: [[UInt8]] = []
        for try await notification in values {
            received.append(notification.value)
            if received.count == count { break }
        }
        await sender.value
        #expect(received.count == count)
        #expect(received.allSatisfy { $0.count == valueLength })
        #expect(received.map { Int($0[0]) << 8 | Int($0[1]) } == Array(0..<count))
        let statistics = pair.link.statistics
        #expect(statistics.bufferOverflows == 0)
        #expect(statistics.peakBuffersInUse <= 4)
        #expect(statistics.aclUnknownHandle == 0)
        await pair.stop()
    }

    @Test func aCentralThatVanishesIsTimedOutAtThePeripheral() async throws {
        let pair = try await Pair.start()
        let events = pair.peripheral.events()
        let peer = try await pair.connect()
        // The central's controller goes away without a Disconnect.
        await pair.central.controller.close()
        let reason = try await first(events) { event -> HCIStatus? in
            if case let .disconnected(_, reason) = event { return reason }
            return nil
        }
        #expect(reason == .connectionTimeout)
        do {
            _ = try await peer.read(handle: 0x0003)
            Issue.record("a read on a closed controller succeeded")
        } catch {
            if case .disconnected = error {} else { Issue.record("expected disconnected, got \(error)") }
        }
        await pair.peripheral.close()
    }

    /// Readvertising lets a second central connect to the same peripheral: two links,
    /// each with its own handle, both carrying GATT.
    @Test func twoCentralsShareOnePeripheral() async throws {
        let pair = try await Pair.start()
        let second = try await Central.start(transport: pair.link.addController().specification)
        let first = try await pair.connect()
        // Advertising resumed after the first connection (Readvertising.default).
        let device = try #require(try await TestSupport.first(second.scan(services: [LoopbackFixture.service])) { $0 })
        let other = try await second.connect(device.address)
        #expect(first.handle != other.handle)
        #expect(pair.link.connectionCount == 2)
        #expect(try await first.read(handle: 0x0003) == Array("loopback".utf8))
        #expect(try await other.read(handle: 0x0003) == Array("loopback".utf8))
        await second.close()
        await pair.stop()
    }
}
