#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SwiftATTAdvertising
import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Synchronization
import Testing
import TestSupport

/// Bonds that last: two hosts pair with file-backed stores, stop, and two new hosts on
/// the same controllers and files take up where they left off — the same static
/// addresses, and the link encrypted with the stored key without pairing again.
@Suite struct LoopbackBondFileTests {
    /// One side's host over a controller of the link, its bond file and its events.
    struct Side {
        let file: BondFile
        let events: LoopbackPairingTests.EventLog
    }

    static func database() throws -> GATTDatabase {
        let encrypted = GATTCharacteristic(uuid: LoopbackPairingTests.encryptedUUID, properties: [.read],
                                           permissions: AttributePermissions(read: .encrypted),
                                           value: .fixed(LoopbackPairingTests.secret))
        return try GATTDatabase(services: [GATTService(uuid: LoopbackPairingTests.service, characteristics: [encrypted])],
                                genericAccess: GATTGenericAccess(deviceName: "bonded", appearance: 0))
    }

    static func startPeripheral(on controller: LoopbackController, storage: any SecurityStorage) async throws -> Peripheral {
        let peripheral = try await Peripheral.start(transport: controller.specification, database: try database(),
                                                    storage: storage)
        try await peripheral.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
        var builder = AdvertisingDataBuilder()
        try builder.append(.flags(.leGeneralDiscoverableLEOnly))
        try builder.append(.serviceUUIDs(ServiceUUIDList([LoopbackPairingTests.service])))
        try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
        return peripheral
    }

    static func startCentral(on controller: LoopbackController, storage: any SecurityStorage) async throws -> Central {
        let central = try await Central.start(transport: controller.specification, storage: storage)
        try await central.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
        return central
    }

    static func connect(_ central: Central) async throws -> Peer {
        let device = try #require(try await first(central.scan(services: [LoopbackPairingTests.service])) { $0 })
        return try await central.connect(device.address)
    }

    static func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-bonds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    static func adapter(_ controller: LoopbackController) -> AdapterIdentifier {
        AdapterIdentifier(publicAddress: controller.publicAddress, transport: "unused")
    }

    @Test func aBondKeptInFilesEncryptsTheNextRunsLinkWithoutPairing() async throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = LoopbackLink()
        let peripheralController = link.addController()
        let centralController = link.addController()
        let peripheralPath = directory + "/peripheral/bonds.json"
        let centralPath = directory + "/central/bonds.json"

        // First run: pair and bond.
        var peripheralFile = try BondFile.open(atPath: peripheralPath)
        var centralFile = try BondFile.open(atPath: centralPath)
        var peripheral = try await Self.startPeripheral(on: peripheralController, storage: peripheralFile)
        var central = try await Self.startCentral(on: centralController, storage: centralFile)
        let peripheralIdentity = try #require(peripheralFile.document[Self.adapter(peripheralController)]?.identity)
        let centralIdentity = try #require(centralFile.document[Self.adapter(centralController)]?.identity)
        // Each host uses its stored identity's address, and distributes the identity.
        #expect(peripheral.info.randomAddress == peripheralIdentity.address)
        #expect(central.info.randomAddress == centralIdentity.address)
        #expect(central.controller.securityConfiguration.pairing.identity == centralIdentity)

        var peripheralEvents = LoopbackPairingTests.EventLog(peripheral.controller.securityEvents())
        var centralEvents = LoopbackPairingTests.EventLog(central.controller.securityEvents())
        var peer = try await Self.connect(central)
        #expect(peer.address == peripheralIdentity.address)
        try await peer.pair()
        try await peripheralEvents.wait(for: "the peripheral's pairing") { if case .paired = $0.change { return true }; return false }
        #expect(await centralEvents.pairings(reaching: 1).count == 1)

        // Both files hold the bond, made under the identities: each side knows the other
        // by its identity address and IRK.
        let centralBond = try #require(try BondFile.read(atPath: centralPath)?[Self.adapter(centralController)]?.bonds.first)
        let peripheralBond = try #require(try BondFile.read(atPath: peripheralPath)?[Self.adapter(peripheralController)]?.bonds.first)
        #expect(centralBond.peer == peripheralIdentity.address)
        #expect(centralBond.peerIdentityResolvingKey == peripheralIdentity.identityResolvingKey)
        #expect(peripheralBond.peer == centralIdentity.address)
        #expect(peripheralBond.peerIdentityResolvingKey == centralIdentity.identityResolvingKey)
        let key = try #require(centralBond.centralKey)
        #expect(peripheralBond.peripheralKey == key)

        try await peer.disconnect()
        try await eventually("the link gone") { link.connectionCount == 0 }
        await central.close()
        await peripheral.close()
        peripheralFile.close()
        centralFile.close()

        // Second run: new hosts, the same controllers and files.
        peripheralFile = try BondFile.open(atPath: peripheralPath)
        centralFile = try BondFile.open(atPath: centralPath)
        defer {
            peripheralFile.close()
            centralFile.close()
        }
        peripheral = try await Self.startPeripheral(on: peripheralController, storage: peripheralFile)
        central = try await Self.startCentral(on: centralController, storage: centralFile)
        #expect(peripheral.info.randomAddress == peripheralIdentity.address)
        #expect(central.info.randomAddress == centralIdentity.address)
        #expect(central.controller.bonds.bonds == [centralBond])
        #expect(peripheral.controller.bonds.bonds == [peripheralBond])

        peripheralEvents = LoopbackPairingTests.EventLog(peripheral.controller.securityEvents())
        centralEvents = LoopbackPairingTests.EventLog(central.controller.securityEvents())
        peer = try await Self.connect(central)
        #expect(peer.address == peripheralIdentity.address)
        let handle = peer.handle
        // The central encrypts with the stored key as soon as it connects.
        try await centralEvents.wait(for: "encryption with the stored key") {
            if $0.handle == handle, case .levelChanged(.encrypted(keySize: 16)) = $0.change { return true }
            return false
        }
        #expect(link.encryption(ofConnection: handle) == .encrypted(longTermKey: key.key))
        let characteristic = try #require(try await peer.discoverDatabase().characteristics(uuid: LoopbackPairingTests.encryptedUUID).first)
        #expect(try await peer.read(characteristic) == LoopbackPairingTests.secret)
        #expect(centralEvents.pairings.isEmpty)
        #expect(peripheralEvents.pairings.isEmpty)
        await central.close()
        await peripheral.close()
    }

    /// A storage that cannot keep a bond: pairing still succeeds (the link is
    /// encrypted and the bond serves this run), and the loss is an event.
    @Test func aBondTheStorageCouldNotKeepIsReported() async throws {
        let link = LoopbackLink()
        let peripheral = try await Self.startPeripheral(on: link.addController(),
                                                        storage: FailingStorage(address: BluetoothAddress(0xC000_0000_0001, kind: .random)))
        let central = try await Self.startCentral(on: link.addController(),
                                                  storage: FailingStorage(address: BluetoothAddress(0xC000_0000_0002, kind: .random)))
        let events = LoopbackPairingTests.EventLog(central.controller.securityEvents())
        let peer = try await Self.connect(central)
        #expect(try await peer.pair() == .encrypted(keySize: 16))
        let handle = peer.handle
        let address = peer.address
        try await events.wait(for: "the bond not saved") {
            if $0.handle == handle, $0.peer == address, case .bondNotSaved(FailingStorage.failure) = $0.change { return true }
            return false
        }
        #expect(await events.pairings(reaching: 1).count == 1)
        #expect(central.controller.bonds.bond(for: address) != nil)
        await central.close()
        await peripheral.close()
    }

    /// A host that never configured security still lists the bonds pairing made.
    @Test func theBondsAnUnconfiguredHostListsAreTheOnesPairingMade() async throws {
        let link = LoopbackLink()
        let peripheral = try await Peripheral.start(transport: link.addController().specification, database: try Self.database())
        var builder = AdvertisingDataBuilder()
        try builder.append(.serviceUUIDs(ServiceUUIDList([LoopbackPairingTests.service])))
        try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
        let central = try await Central.start(transport: link.addController().specification)
        let events = LoopbackPairingTests.EventLog(peripheral.controller.securityEvents())
        let peer = try await Self.connect(central)
        try await peer.pair()
        try await events.wait(for: "the peripheral's pairing") { if case .paired = $0.change { return true }; return false }
        #expect(peripheral.controller.bonds.bonds.map(\.peer) == [central.info.randomAddress])
        #expect(central.controller.bonds.bonds.map(\.peer) == [peripheral.info.randomAddress])
        await central.close()
        await peripheral.close()
    }

    /// A storage that cannot give an identity stops the start, names why, and lets the
    /// controller go.
    @Test func aStorageThatFailsStopsTheStart() async throws {
        let link = LoopbackLink()
        let controller = link.addController()
        await #expect(throws: ControllerError.securityStorage(FailingStorage.failure)) {
            _ = try await Central.start(transport: controller.specification, storage: FailingStorage(failsToOpen: true))
        }
        let central = try await Central.start(transport: controller.specification)
        await central.close()
    }

    /// The identity address must be static random: a storage that gives another kind is
    /// refused before the controller is told to use it.
    @Test func anIdentityThatIsNotStaticRandomIsRefused() async throws {
        let link = LoopbackLink()
        let controller = link.addController()
        let resolvable = ResolvablePrivateAddress.generate(irk: 1)
        do {
            _ = try await Central.start(transport: controller.specification, storage: FailingStorage(address: resolvable))
            Issue.record("started")
        } catch {
            #expect(error == .securityStorage(SecurityStorageError(
                "the identity stored for F0:F0:F0:F0:00:01 has address \(resolvable), which is not a static random address")))
        }
    }

    /// Gives an identity but keeps nothing.
    struct FailingStorage: SecurityStorage {
        static let failure = SecurityStorageError("the disk is full")
        var failsToOpen = false
        var address = BluetoothAddress(0xC000_0000_0001, kind: .random)

        func security(for adapter: AdapterIdentifier) throws(SecurityStorageError) -> StoredSecurity {
            if failsToOpen { throw Self.failure }
            let store = BondStore { (_: BondStore.Contents) throws(SecurityStorageError) in throw Self.failure }
            return StoredSecurity(identity: LocalIdentity(identityResolvingKey: 1, address: address), bonds: store)
        }
    }
}
