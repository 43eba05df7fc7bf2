import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Testing
import TestSupport

/// The controller's resolving list (Core 5.4 Vol 6 Part B §6; Vol 4 Part E §7.8.38–§7.8.45,
/// §7.8.77) over the loopback link, whose controllers resolve with it: what the host
/// programs and when, a bonded peer recognised by its controller, the host resolving
/// what the list has no room for, and a controller that cannot resolve.
@Suite struct LoopbackResolvingListTests {
    typealias SecurePair = LoopbackPairingTests.SecurePair

    static let centralIRK: UInt128 = 0x0F1E_2D3C_4B5A_6978_8796_A5B4_C3D2_E1F0
    static let centralIdentity = LocalIdentity(identityResolvingKey: centralIRK, address: BluetoothAddress(0xC123_4567_89AB, kind: .random))

    /// A bond with `peer` that carries `irk` and no keys: enough for the list.
    static func bond(_ peer: BluetoothAddress, irk: UInt128?) -> Bond {
        Bond(peer: peer, centralKey: nil, peripheralKey: nil, peerIdentityResolvingKey: irk,
             authenticated: false, secureConnections: true, keySize: 16)
    }

    static func isEncrypted(_ event: SecurityEvent) -> Bool {
        if case .levelChanged(.encrypted) = event.change { return true }
        return false
    }

    /// A central with privacy pairs, leaves and comes back from a new private address.
    /// With the resolving list the peripheral's controller names it by its identity at
    /// once; without, the host is handed the private address and resolves it itself.
    @Test(arguments: [true, false])
    func aBondedCentralOnANewPrivateAddressIsKnownByItsIdentity(linkLayerPrivacy: Bool) async throws {
        let identity = Self.centralIdentity
        let pair = try await SecurePair.start(central: SecurityConfiguration(
            pairing: PairingConfiguration(identity: identity), privateAddressLifetime: .milliseconds(1)),
            linkLayerPrivacy: linkLayerPrivacy)
        #expect(pair.peripheral.controller.addressResolution == (linkLayerPrivacy ? .controller(capacity: 8) : .host))
        #expect(pair.peripheral.info.resolvingListSize == (linkLayerPrivacy ? 8 : nil))
        var peer = try await pair.connect()
        try await peer.pair()
        _ = try await pair.settledBonds()
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }

        // A radio start: the list follows the bonds (the central's identity and IRK, no
        // local IRK since the peripheral has no identity, device privacy mode).
        try await SecurePair.advertise(pair.peripheral)
        if linkLayerPrivacy {
            #expect(pair.peripheralController.resolvingList == [LoopbackResolvingListEntry(
                peerIdentity: identity.address, peerIdentityResolvingKey: Self.centralIRK, localIdentityResolvingKey: 0,
                privacyMode: .device)])
            #expect(pair.peripheralController.resolvesAddresses)
            #expect(pair.peripheral.controller.resolvingListEntries == [ResolvingListEntry(
                peerIdentity: identity.address, peerIdentityResolvingKey: Self.centralIRK, localIdentityResolvingKey: 0)])
        } else {
            #expect(pair.peripheral.controller.resolvingListEntries.isEmpty)
            #expect(pair.peripheralController.commandCount(LEAddDeviceToResolvingList.opcode) == 0)
        }

        let events = try await pair.peripheralEvents()
        let before = pair.peripheralEvents.log.count
        peer = try await pair.connect()
        let named = try #require(try await first(events) { event -> BluetoothAddress? in
            if case let .connected(_, address) = event { return address }
            return nil
        })
        let onAir = try #require(pair.central.controller.resolvablePrivateAddress)
        #expect(ResolvablePrivateAddress.resolves(onAir, with: Self.centralIRK))
        #expect(named == (linkLayerPrivacy ? identity.address : onAir))
        let handle = peer.handle
        try await pair.peripheralEvents.log.first("the link encrypted with the bond, the central named by its identity", from: before) {
            $0.handle == handle && $0.peer == identity.address && Self.isEncrypted($0) ? true : nil
        }
        #expect(await pair.peripheralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    /// The list is programmed at radio starts only, with every bonded peer that gave an
    /// identity address and an IRK, again only when the bonds changed, by Clear and Add.
    @Test func theListFollowsTheBondsAtEachRadioStart() async throws {
        let link = LoopbackLink()
        let loopback = link.addController()
        let central = try await Central.start(transport: loopback.specification)
        let localIRK: UInt128 = 0x1111_2222_3333_4444_5555_6666_7777_8888
        let staticPeer = BluetoothAddress(0xC0DE_0000_0001, kind: .random)
        let publicPeer = BluetoothAddress(0x0012_3456_7890, kind: .public)
        let store = BondStore([
            Self.bond(staticPeer, irk: 0xA1),
            Self.bond(BluetoothAddress(0xC0DE_0000_0002, kind: .random), irk: nil),       // no IRK: nothing to resolve
            Self.bond(BluetoothAddress(0x4ADE_0000_0003, kind: .random), irk: 0xA3),      // filed under a private address
            Self.bond(publicPeer, irk: 0xA4),
        ])
        try await central.controller.configureSecurity(SecurityConfiguration(
            pairing: PairingConfiguration(identity: LocalIdentity(identityResolvingKey: localIRK, address: central.info.randomAddress))),
            bonds: store)
        #expect(loopback.resolvingList.isEmpty && !loopback.resolvesAddresses)

        try await central.controller.startScanning()
        try await central.controller.stopScanning()
        let expected = [
            LoopbackResolvingListEntry(peerIdentity: staticPeer, peerIdentityResolvingKey: 0xA1, localIdentityResolvingKey: localIRK, privacyMode: .device),
            LoopbackResolvingListEntry(peerIdentity: publicPeer, peerIdentityResolvingKey: 0xA4, localIdentityResolvingKey: localIRK, privacyMode: .device),
        ]
        #expect(loopback.resolvingList == expected)
        #expect(loopback.resolvesAddresses)
        #expect(central.controller.resolvingListEntries.map(\.peerIdentity) == [staticPeer, publicPeer])

        // The same bonds: the next radio start leaves the list alone.
        let adds = loopback.commandCount(LEAddDeviceToResolvingList.opcode)
        let clears = loopback.commandCount(LEClearResolvingList.opcode)
        try await central.controller.startScanning()
        try await central.controller.stopScanning()
        #expect(loopback.commandCount(LEAddDeviceToResolvingList.opcode) == adds)
        #expect(loopback.commandCount(LEClearResolvingList.opcode) == clears)

        // A bond forgotten: gone from the list at the next radio start, by Clear and Add.
        try store.remove(staticPeer)
        #expect(loopback.resolvingList == expected, "not before a radio start")
        try await central.controller.createConnection(to: BluetoothAddress(0xC0DE_0000_0009, kind: .random))
        try await central.controller.cancelConnection()
        #expect(loopback.resolvingList == [expected[1]])
        #expect(loopback.commandCount(LEClearResolvingList.opcode) == clears + 1)
        #expect(loopback.commandCount(LERemoveDeviceFromResolvingList.opcode) == 0)

        // No bond left: address resolution off.
        try store.removeAll()
        try await central.controller.startScanning()
        try await central.controller.stopScanning()
        #expect(!loopback.resolvesAddresses && loopback.resolvingList.isEmpty)
        #expect(central.controller.resolvingListEntries.isEmpty)
        #expect(central.controller.addressResolution == .controller(capacity: 8))
        await central.close()
    }

    /// Two private peripherals, bonded, and room in the central's list for one: the
    /// controller names the most recent bond by its identity, the host resolves the
    /// other's private address, and the central connects to each by what the scan gave.
    @Test func whenTheListOverflowsTheHostResolvesTheRest() async throws {
        let link = LoopbackLink()
        let older = LocalIdentity(identityResolvingKey: 0xF1F1, address: BluetoothAddress(0xC0F1_0000_0001, kind: .random))
        let newer = LocalIdentity(identityResolvingKey: 0xF2F2, address: BluetoothAddress(0xC0F2_0000_0002, kind: .random))
        var peripherals: [Peripheral] = []
        for (identity, uuid) in [(older, BluetoothUUID(0xF1F1)), (newer, BluetoothUUID(0xF2F2))] {
            let database = try GATTDatabase(services: [GATTService(uuid: uuid, characteristics: [])],
                                            genericAccess: GATTGenericAccess(deviceName: "private", appearance: 0))
            let peripheral = try await Peripheral.start(transport: link.addController().specification, database: database)
            try await peripheral.controller.configureSecurity(SecurityConfiguration(
                pairing: PairingConfiguration(identity: identity), privateAddressLifetime: .seconds(900)))
            var builder = AdvertisingDataBuilder()
            try builder.append(.serviceUUIDs(ServiceUUIDList([uuid])))
            try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
            peripherals.append(peripheral)
        }
        let loopback = link.addController()
        loopback.limitResolvingList(to: 1)
        let central = try await Central.start(transport: loopback.specification)
        try await central.controller.configureSecurity(SecurityConfiguration(), bonds: BondStore([
            Self.bond(older.address, irk: older.identityResolvingKey), Self.bond(newer.address, irk: newer.identityResolvingKey),
        ]))

        // Both from one scan: a loopback controller reports each advertiser once, as its
        // scan starts, and a second `scan` begun before the first one's end reached the
        // loop would join the scan already running and hear neither again.
        let (olderAddress, newerAddress) = (older.address, newer.address)
        let both = try await withTimeout(.seconds(30)) { () -> (found: DiscoveredDevice, resolved: DiscoveredDevice)? in
            var found: DiscoveredDevice?, resolved: DiscoveredDevice?
            for try await device in central.scan(services: []) {
                if device.identity == olderAddress { found = device }
                if device.identity == newerAddress { resolved = device }
                if let found, let resolved { return (found, resolved) }
            }
            return nil
        }
        let (found, resolved) = try #require(both, "both peripherals scanned")
        #expect(central.controller.addressResolution == .controller(capacity: 1))
        #expect(central.controller.resolvingListEntries.map(\.peerIdentity) == [newer.address])
        // Not in the list: reported under its private address, resolved by the host.
        #expect(found.address != older.address && ResolvablePrivateAddress.resolves(found.address, with: older.identityResolvingKey))
        // In the list: the controller names it by its identity.
        #expect(resolved.address == newer.address)

        // Each connects by the address the scan gave: the private one as it is, the
        // identity through the list (LE Create Connection with an identity address type).
        let byIdentity = try await central.connect(resolved.address, timeout: .seconds(5), exchangeMTU: false)
        #expect(byIdentity.address == newer.address)
        let byPrivate = try await central.connect(found.address, timeout: .seconds(5), exchangeMTU: false)
        #expect(await byPrivate.identityAddress == older.address)
        await central.close()
        for peripheral in peripherals { await peripheral.close() }
    }

    /// A controller whose list is fuller than it said answers Memory Capacity Exceeded:
    /// what fits stays programmed and resolving, and the host resolves the rest.
    @Test func aListFullerThanReportedKeepsWhatFits() async throws {
        let link = LoopbackLink()
        let loopback = link.addController()
        let central = try await Central.start(transport: loopback.specification)
        loopback.limitResolvingList(to: 1)
        let peers = [BluetoothAddress(0xC0DE_0000_0001, kind: .random), BluetoothAddress(0xC0DE_0000_0002, kind: .random)]
        try await central.controller.configureSecurity(SecurityConfiguration(), bonds: BondStore(peers.map { Self.bond($0, irk: 0xA5) }))
        try await central.controller.startScanning()
        try await central.controller.stopScanning()
        #expect(central.controller.resolvingListEntries.map(\.peerIdentity) == [peers[0]])
        #expect(loopback.resolvingList.map(\.peerIdentity) == [peers[0]])
        #expect(loopback.resolvesAddresses)
        #expect(central.controller.addressResolution == .controller(capacity: 8))
        await central.close()
    }

    /// A controller that leaves LE Read Resolving List Size unanswered (BENCH.md quirk 1)
    /// does not hold up the start-up sequence beyond that command's bound: the host
    /// resolves, and sends no other list command.
    @Test func anUnansweredListCommandLeavesTheHostResolving() async throws {
        let link = LoopbackLink()
        let loopback = link.addController()
        loopback.leaveUnanswered([LEReadResolvingListSize.opcode])
        let central = try await Central.start(transport: loopback.specification)
        #expect(central.info.resolvingListSize == nil)
        #expect(central.controller.addressResolution == .host)
        try await central.controller.configureSecurity(SecurityConfiguration(), bonds: BondStore([
            Self.bond(BluetoothAddress(0xC0DE_0000_0001, kind: .random), irk: 0xA5),
        ]))
        try await central.controller.startScanning()
        try await central.controller.stopScanning()
        #expect(loopback.commandCount(LEClearResolvingList.opcode) == 0)
        #expect(loopback.commandCount(LEAddDeviceToResolvingList.opcode) == 0)
        await central.close()
    }
}
