import Foundation
import SwiftATTAdvertising
import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Testing
import TestSupport

/// What a bonded central leaves with a peripheral outlives the peripheral's process: its
/// subscriptions and change-awareness (Core 5.4 Vol 3 Part G §2.5.2.1, §3.3.3.3), the
/// Service Changed it is owed (§7.1), and the SignCounter that refuses a replayed
/// signed write (Part H §2.4.5). The peripheral is stopped and a new one started on the
/// same controller with the same bond file, while the central stays up.
@Suite struct LoopbackBondRestartTests {
    typealias Writes = LoopbackPairingTests.Writes
    static let service = LoopbackPairingTests.service
    static let streamUUID = LoopbackPairingTests.streamUUID
    static let signedUUID = LoopbackPairingTests.signedUUID

    /// One run of the peripheral: a host on `controller` over the bond file at `path`,
    /// serving the stream, the signed-writes characteristic and `extra` services after
    /// them (a database changed between runs).
    struct PeripheralRun {
        let file: BondFile
        let peripheral: Peripheral
        let stream: GATTCharacteristic
        let writes: Writes
        let security: LoopbackPairingTests.EventLog

        static func start(on controller: LoopbackController, path: String, extra: [GATTService] = []) async throws -> PeripheralRun {
            let file = try BondFile.open(atPath: path)
            let stream = GATTCharacteristic(uuid: LoopbackBondRestartTests.streamUUID, properties: [.notify])
            let writes = Writes()
            let signed = GATTCharacteristic(uuid: LoopbackBondRestartTests.signedUUID,
                                            properties: [.authenticatedSignedWrites, .writeWithoutResponse],
                                            value: .bytes([], onWrite: { context in
                                                writes.received.withLock { $0.append((context.kind, context.value)) }
                                                return nil
                                            }))
            let database = try GATTDatabase(
                services: [GATTService(uuid: LoopbackBondRestartTests.service, characteristics: [stream, signed])] + extra,
                genericAccess: GATTGenericAccess(deviceName: "restarted", appearance: 0))
            let peripheral = try await Peripheral.start(transport: controller.specification, database: database, storage: file)
            try await peripheral.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
            let security = LoopbackPairingTests.EventLog(peripheral.controller.securityEvents())
            var builder = AdvertisingDataBuilder()
            try builder.append(.flags(.leGeneralDiscoverableLEOnly))
            try builder.append(.serviceUUIDs(ServiceUUIDList([LoopbackBondRestartTests.service])))
            try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
            return PeripheralRun(file: file, peripheral: peripheral, stream: stream, writes: writes, security: security)
        }

        /// The peripheral's events from now on, in place before the next connection (a
        /// round trip through its loop follows the request).
        func events() async -> AsyncStream<PeripheralEvent> {
            let events = peripheral.events()
            _ = await peripheral.value(of: stream)
            return events
        }

        /// Stops the host, then lets the file go: what the host kept is written by then.
        func stop() async {
            await peripheral.close()
            file.close()
        }

        /// What the file keeps for the one bond on this adapter.
        func kept(at path: String) throws -> (Bond, GATTBondedClient?) {
            let adapter = try #require(try BondFile.read(atPath: path)?.adapters.first)
            let bond = try #require(adapter.bonds.first)
            return (bond, adapter.gattClients[bond.peer])
        }
    }

    static func central(on controller: LoopbackController, storage: (any SecurityStorage)? = nil,
                        configuration: SecurityConfiguration = SecurityConfiguration()) async throws -> Central {
        let central = try await Central.start(transport: controller.specification, storage: storage)
        try await central.controller.configureSecurity(configuration, delegate: AutomaticPairingDelegate())
        return central
    }

    static func connect(_ central: Central) async throws -> Peer {
        let device = try #require(try await first(central.scan(services: [service])) { $0 })
        return try await central.connect(device.address)
    }

    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bond-restart-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The first run: the central pairs (bonding), discovers — which enables Service
    /// Changed indications — and subscribes to the stream; then the peripheral stops.
    static func firstRun(_ link: LoopbackLink, peripheral controller: LoopbackController, path: String,
                         central: Central) async throws -> PeripheralRun {
        let run = try await PeripheralRun.start(on: controller, path: path)
        let events = await run.events()
        let peer = try await connect(central)
        try await peer.pair()
        try await run.security.wait(for: "the peripheral's pairing") { if case .paired = $0.change { return true }; return false }
        let stream = try #require(try await peer.discoverDatabase().characteristics(uuid: streamUUID).first)
        // Kept until the peripheral stops: a stream dropped earlier would unsubscribe.
        let values = try await peer.notifications(of: stream)
        _ = try await first("the subscription", in: events) { event -> Bool? in
            if case let .subscriptionChanged(change) = event, change.cause == .written,
               change.characteristic.uuid == streamUUID { return true }
            return nil
        }
        await run.stop()
        try await eventually("the link gone") { link.connectionCount == 0 }
        withExtendedLifetime(values) {}
        return run
    }

    // MARK: Subscriptions

    @Test func aBondedCentralIsNotifiedAfterTheRestartWithoutSubscribingAgain() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bonds.json"
        let link = LoopbackLink()
        let peripheralController = link.addController()
        let central = try await Self.central(on: link.addController())
        let earlier = try await Self.firstRun(link, peripheral: peripheralController, path: path, central: central)

        // The file keeps the central's configuration, against the database's hash.
        let (bond, kept) = try earlier.kept(at: path)
        let gatt = try #require(kept)
        #expect(gatt.databaseHash == earlier.peripheral.database.databaseHash)
        #expect(gatt.changeAware)
        #expect(gatt.serviceChangeOwed == nil)
        #expect(gatt.subscriptions.map(\.characteristic) == [GATTAttributeType.serviceChanged, Self.streamUUID])
        #expect(gatt.subscriptions.map(\.configuration) == [.indication, .notification])

        // A new process: the same controller, the same file.
        let second = try await PeripheralRun.start(on: peripheralController, path: path)
        let events = await second.events()
        let peer = try await Self.connect(central)
        let restored = try await first("the subscription restored", in: events) { event -> GATTSubscriptionChange? in
            if case let .subscriptionChanged(change) = event, change.cause == .restored,
               change.characteristic.uuid == Self.streamUUID { return change }
            return nil
        }
        #expect(restored.configuration == .notification)
        #expect(second.peripheral.controller.bonds.bonds.map(\.peer) == [bond.peer])
        // The central listens without writing the descriptor: the server sends because it
        // remembered.
        let values = peer.values(of: restored.valueHandle)
        _ = try await peer.read(handle: 0x0001)
        #expect(second.peripheral.updateValue([0x2A], for: second.stream))
        let value = try await first("the notification", in: values) { $0.value }
        #expect(value == [0x2A])
        await central.close()
        await second.stop()
    }

    @Test func aDatabaseChangedAcrossTheRestartIsIndicatedAndMatchingSubscriptionsStay() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bonds.json"
        let link = LoopbackLink()
        let peripheralController = link.addController()
        let central = try await Self.central(on: link.addController())
        let earlier = try await Self.firstRun(link, peripheral: peripheralController, path: path, central: central)
        let oldHash = earlier.peripheral.database.databaseHash

        // The next run serves one more service, after the others: the stream keeps its
        // handle and UUID, the hash changes.
        let added = GATTService(uuid: BluetoothUUID(0xFEE7), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0xFEE8), properties: [.read], value: .fixed([0x42])),
        ])
        let second = try await PeripheralRun.start(on: peripheralController, path: path, extra: [added])
        let database = second.peripheral.database
        #expect(database.databaseHash != oldHash)
        let serviceChanged = try #require(database.serviceChanged.flatMap { database.valueHandle(of: $0) })
        let events = await second.events()
        let log = ArrivalLog<PeripheralEvent>()
        let collecting = Task { for await event in events { log.append(event) } }
        let peer = try await Self.connect(central)
        // Owed since the start, indicated at the connection, confirmed by the central.
        try await log.first("the Service Changed confirmation") { event -> Bool? in
            if case let .indicationConfirmed(handle, valueHandle) = event, handle == peer.handle,
               valueHandle == serviceChanged { return true }
            return nil
        }
        #expect(log.elements.contains { event in
            if case let .subscriptionChanged(change) = event, change.cause == .restored,
               change.characteristic.uuid == Self.streamUUID { return true }
            return false
        })
        let discovered = try await peer.discoverDatabase()
        #expect(discovered.services.contains { $0.service.uuid == BluetoothUUID(0xFEE7) })
        await central.close()
        await second.stop()
        collecting.cancel()

        // Confirmed: nothing owed, change-aware, recorded against the new hash.
        let gatt = try #require(try second.kept(at: path).1)
        #expect(gatt.databaseHash == database.databaseHash)
        #expect(gatt.changeAware)
        #expect(gatt.serviceChangeOwed == nil)
        #expect(gatt.subscriptions.map(\.characteristic) == [GATTAttributeType.serviceChanged, Self.streamUUID])
    }

    // MARK: Sign counters

    /// Connects to the peripheral without encrypting (the central's bonded links stay
    /// plain: a signature is the only protection) and finds the signed-writes value.
    static func plainLink(_ central: Central) async throws -> (Peer, GATTClient.Characteristic) {
        let peer = try await connect(central)
        #expect(await peer.securityLevel == .none)
        let characteristic = try #require(try await peer.discoverDatabase().characteristics(uuid: signedUUID).first)
        return (peer, characteristic)
    }

    static let plain = SecurityConfiguration(encryptsBondedLinks: false)

    /// Pairs `central` with the running peripheral, connects again on a plain link and
    /// sends two Signed Write Commands (01, then 02; SignCounters 0 and 1), a read after
    /// them so that both have arrived.
    static func pairThenSignTwice(_ central: Central, with run: PeripheralRun,
                                  over link: LoopbackLink) async throws -> (Peer, GATTClient.Characteristic) {
        let bonding = try await connect(central)
        try await bonding.pair()
        try await run.security.wait(for: "the peripheral's pairing") { if case .paired = $0.change { return true }; return false }
        try await bonding.disconnect()
        try await eventually("the link gone") { link.connectionCount == 0 }
        let (peer, characteristic) = try await plainLink(central)
        try await peer.write([0x01], to: characteristic, type: .signedWithoutResponse)
        try await peer.write([0x02], to: characteristic, type: .signedWithoutResponse)
        _ = try await peer.read(handle: 0x0001)
        return (peer, characteristic)
    }

    @Test func aSignedWriteReplayedAfterThePeripheralsRestartIsRefused() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bonds.json"
        let link = LoopbackLink()
        let peripheralController = link.addController()
        let central = try await Self.central(on: link.addController(), configuration: Self.plain)

        var run = try await PeripheralRun.start(on: peripheralController, path: path)
        var (peer, characteristic) = try await Self.pairThenSignTwice(central, with: run, over: link)
        #expect(run.writes.values == [[0x01], [0x02]])
        await run.stop()
        try await eventually("the link gone") { link.connectionCount == 0 }
        #expect(try run.kept(at: path).0.peerSignCounter == 1)

        run = try await PeripheralRun.start(on: peripheralController, path: path)
        (peer, characteristic) = try await Self.plainLink(central)
        // The central signs with a counter the peripheral accepted in its last run, as a
        // replay of a recorded command would: refused. Then one above it goes.
        let address = run.peripheral.info.randomAddress
        var bond = try #require(central.controller.bonds.bond(for: address))
        bond.localSignCounter = 1
        try central.controller.bonds.save(bond)
        try await peer.write([0x03], to: characteristic, type: .signedWithoutResponse)
        bond.localSignCounter = 2
        try central.controller.bonds.save(bond)
        try await peer.write([0x04], to: characteristic, type: .signedWithoutResponse)
        _ = try await peer.read(handle: 0x0001)
        #expect(run.writes.values == [[0x04]])
        await central.close()
        await run.stop()
        #expect(try run.kept(at: path).0.peerSignCounter == 2)
    }

    /// The other side: a central restarted with its bond file signs on from where it
    /// stopped, so the peripheral (which remembers the counter) takes its next write.
    @Test func aCentralRestartedWithItsFileSignsOnFromItsLastCounter() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/peripheral.json"
        let centralPath = directory + "/central.json"
        let link = LoopbackLink()
        let peripheralController = link.addController()
        let centralController = link.addController()
        let run = try await PeripheralRun.start(on: peripheralController, path: path)

        var centralFile = try BondFile.open(atPath: centralPath)
        var central = try await Self.central(on: centralController, storage: centralFile, configuration: Self.plain)
        var (peer, characteristic) = try await Self.pairThenSignTwice(central, with: run, over: link)
        await central.close()
        centralFile.close()
        try await eventually("the link gone") { link.connectionCount == 0 }
        let centralBond = try #require(try BondFile.read(atPath: centralPath)?.adapters.first?.bonds.first)
        #expect(centralBond.localSignCounter == 2)

        centralFile = try BondFile.open(atPath: centralPath)
        central = try await Self.central(on: centralController, storage: centralFile, configuration: Self.plain)
        (peer, characteristic) = try await Self.plainLink(central)
        try await peer.write([0x03], to: characteristic, type: .signedWithoutResponse)
        _ = try await peer.read(handle: 0x0001)
        #expect(run.writes.values == [[0x01], [0x02], [0x03]])
        await central.close()
        centralFile.close()
        await run.stop()
    }
}
