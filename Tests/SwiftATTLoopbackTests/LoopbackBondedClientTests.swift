import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Testing
import TestSupport

/// What a GATT server keeps for a bonded client between connections (Core 5.4 Vol 3
/// Part G §2.5.2, §7.1): its subscriptions come back when it reconnects, and a database
/// that changed while it was away is announced to it with Service Changed. A client that
/// did not bond starts afresh.
@Suite struct LoopbackBondedClientTests {
    typealias SecurePair = LoopbackPairingTests.SecurePair

    /// Connects, pairs (bonding or not), discovers (which enables Service Changed
    /// indications) and subscribes to the stream; then disconnects.
    static func visit(_ pair: SecurePair, bonding: Bool) async throws {
        let peer = try await pair.connect()
        try await peer.pair()
        let events = try await pair.peripheralEvents()
        let stream = try await pair.characteristic(LoopbackPairingTests.streamUUID, of: peer)
        // Kept until the link is gone: a stream dropped earlier would unsubscribe.
        let values = try await peer.notifications(of: stream)
        _ = try await first(events) { event -> Bool? in
            if case let .subscriptionChanged(change) = event, change.cause == .written,
               change.characteristic.uuid == LoopbackPairingTests.streamUUID { return true }
            return nil
        }
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        withExtendedLifetime(values) {}
    }

    static func configuration(bonding: Bool) -> SecurityConfiguration {
        SecurityConfiguration(pairing: PairingConfiguration(bonding: bonding))
    }

    @Test func aBondedClientsSubscriptionsComeBackWhenItReconnects() async throws {
        let pair = try await SecurePair.start()
        try await Self.visit(pair, bonding: true)
        let events = try await pair.peripheralEvents()
        let peer = try await pair.connect()
        let restored = try await first(events) { event -> GATTSubscriptionChange? in
            if case let .subscriptionChanged(change) = event, change.cause == .restored,
               change.characteristic.uuid == LoopbackPairingTests.streamUUID { return change }
            return nil
        }
        #expect(restored?.configuration == .notification)
        #expect(restored?.connection == GATTServer.ConnectionID(peer.handle))
        await pair.stop()
    }

    @Test func aClientThatDidNotBondStartsAfresh() async throws {
        let pair = try await SecurePair.start(central: Self.configuration(bonding: false))
        try await Self.visit(pair, bonding: false)
        #expect(pair.bonds().peripheral == nil)
        let events = try await pair.peripheralEvents()
        let peer = try await pair.connect()
        // The first event after connecting that concerns subscriptions is the client's own
        // write, not a restoration.
        let stream = try await pair.characteristic(LoopbackPairingTests.streamUUID, of: peer)
        _ = try await peer.notifications(of: stream)
        let change = try await first(events) { event -> GATTSubscriptionChange? in
            if case let .subscriptionChanged(change) = event, change.cause != .disconnected,
               change.characteristic.uuid == LoopbackPairingTests.streamUUID {
                return change
            }
            return nil
        }
        #expect(change?.cause == .written)
        await pair.stop()
    }

    @Test func aDatabaseChangedWhileABondedClientWasAwayIsIndicatedWhenItReturns() async throws {
        let pair = try await SecurePair.start()
        try await Self.visit(pair, bonding: true)
        // A service added while the central is away.
        var services = pair.peripheral.database.services
        services.append(GATTService(uuid: BluetoothUUID(0xFEE7), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0xFEE8), properties: [.read], value: .fixed([0x42])),
        ]))
        let changed = try GATTDatabase(services: services, genericAccess: GATTGenericAccess(deviceName: "secure", appearance: 0))
        await pair.peripheral.replaceDatabase(changed)
        #expect(pair.peripheral.database.services.count == changed.services.count)

        let events = try await pair.peripheralEvents()
        let peer = try await pair.connect()
        // The server owed the bonded client a Service Changed indication and sent it at
        // once; the central's bearer confirmed it.
        let database = pair.peripheral.database
        let serviceChanged = try #require(database.serviceChanged.flatMap { database.valueHandle(of: $0) })
        let confirmed = try await first(events) { event -> UInt16? in
            if case let .indicationConfirmed(handle, valueHandle) = event, handle == peer.handle { return valueHandle }
            return nil
        }
        #expect(confirmed == serviceChanged)
        // And the central finds the new service.
        let discovered = try await peer.discoverDatabase()
        #expect(discovered.services.contains { $0.service.uuid == BluetoothUUID(0xFEE7) })
        await pair.stop()
    }

    // MARK: The bond store's say

    /// What the peripheral's bond store keeps for its one bond, once the host has
    /// written what the last visit left.
    static func keptState(_ pair: SecurePair) async throws -> (Bond, GATTBondedClient) {
        let store = pair.peripheral.controller.bonds
        let bond = try #require(store.bonds.first)
        try await eventually("the visit's state in the store") {
            store.gattClient(of: bond.peer)?.subscriptions.contains { $0.characteristic == LoopbackPairingTests.streamUUID } == true
        }
        return (bond, try #require(store.gattClient(of: bond.peer)))
    }

    /// The Client Characteristic Configuration of the stream as the server has it for
    /// the central on `peer`: the descriptor follows the value.
    static func streamConfiguration(_ pair: SecurePair, _ peer: Peer) async throws -> [UInt8] {
        let stream = try await pair.characteristic(LoopbackPairingTests.streamUUID, of: peer)
        return try await peer.read(handle: stream.valueHandle + 1)
    }

    @Test func aBondRemovedWhileRunningTakesTheServersStateWithIt() async throws {
        let pair = try await SecurePair.start()
        try await Self.visit(pair, bonding: true)
        let (bond, _) = try await Self.keptState(pair)
        let store = pair.peripheral.controller.bonds
        #expect(try store.remove(bond.peer))
        #expect(store.gattClient(of: bond.peer) == nil)
        // The same keys again at once (an application restoring the bond), before the
        // peripheral's loop has run: the central encrypts as before, but what the server
        // kept for it went with the removal, which was queued on that loop before
        // `remove` returned, ahead of the connection.
        try store.save(bond)
        let peer = try await pair.connect()
        #expect(try await Self.streamConfiguration(pair, peer) == [0x00, 0x00])
        await pair.stop()
    }

    @Test func aStoreSwappedInReplacesWhatTheServerKept() async throws {
        let pair = try await SecurePair.start()
        try await Self.visit(pair, bonding: true)
        let (bond, kept) = try await Self.keptState(pair)
        // The store as another run left it: Service Changed, and not the stream.
        var reloaded = kept
        reloaded.subscriptions.removeAll { $0.characteristic == LoopbackPairingTests.streamUUID }
        #expect(reloaded.subscriptions.count == 1)
        let store = BondStore([bond], gattClients: [bond.peer: reloaded])
        try await pair.peripheral.controller.configureSecurity(SecurityConfiguration(), bonds: store,
                                                           delegate: AutomaticPairingDelegate())
        let events = try await pair.peripheralEvents()
        let peer = try await pair.connect()
        let restored = try await first("the store's subscription restored", in: events) { event -> GATTSubscriptionChange? in
            if case let .subscriptionChanged(change) = event, change.cause == .restored { return change }
            return nil
        }
        #expect(restored.characteristic.uuid == GATTAttributeType.serviceChanged)
        #expect(try await Self.streamConfiguration(pair, peer) == [0x00, 0x00])
        await pair.stop()
    }
}
