import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import SwiftATTSMP
import Synchronization
import Testing
import TestSupport

/// Two swift-att hosts pairing over the loopback link, through the public API: the
/// Security Manager in both roles, the controller's encryption, the bonds each side
/// stores, and the GATT server's permissions against the level the link reached.
///
/// The loopback controllers compare the two hosts' keys as a real link's MIC check
/// would, so a pairing that ends with different LTKs on the two sides fails here.
@Suite struct LoopbackPairingTests {
    static let service = BluetoothUUID(0x5EC0)
    static let encryptedUUID = BluetoothUUID(0x5EC1)
    static let authenticatedUUID = BluetoothUUID(0x5EC2)
    static let streamUUID = BluetoothUUID(0x5EC3)
    static let signedUUID = BluetoothUUID(0x5EC4)

    /// What centrals wrote to the signed-writes characteristic, and how.
    final class Writes: Sendable {
        let received = Mutex<[(kind: GATTWriteContext.Kind, value: [UInt8])]>([])
        var values: [[UInt8]] { received.withLock { $0.map(\.value) } }
        var kinds: [GATTWriteContext.Kind] { received.withLock { $0.map(\.kind) } }
    }
    static let secret = Array("secret".utf8)

    /// A peripheral with one value that needs encryption and one that needs an
    /// authenticated key, and a central; each host with its own security settings.
    struct SecurePair {
        let link: LoopbackLink
        let peripheral: Peripheral
        let central: Central
        /// A value anyone may subscribe to.
        let stream: GATTCharacteristic
        /// Writes to the characteristic that takes authenticated signed writes.
        let writes: Writes
        /// Every security event of each side, in order, collected from the start.
        let centralEvents: EventLog
        let peripheralEvents: EventLog
        /// The emulated controllers under each host.
        let peripheralController: LoopbackController
        let centralController: LoopbackController

        /// `linkLayerPrivacy: false`: controllers without a resolving list, so the hosts resolve.
        static func start(central: SecurityConfiguration = SecurityConfiguration(),
                          centralDelegate: (any PairingDelegate)? = AutomaticPairingDelegate(),
                          peripheral: SecurityConfiguration = SecurityConfiguration(),
                          peripheralDelegate: (any PairingDelegate)? = AutomaticPairingDelegate(),
                          linkLayerPrivacy: Bool = true) async throws -> SecurePair {
            let link = LoopbackLink()
            let peripheralController = link.addController()
            let centralController = link.addController()
            if !linkLayerPrivacy {
                peripheralController.withholdLinkLayerPrivacy()
                centralController.withholdLinkLayerPrivacy()
            }
            let encrypted = GATTCharacteristic(uuid: LoopbackPairingTests.encryptedUUID, properties: [.read],
                                               permissions: AttributePermissions(read: .encrypted), value: .fixed(LoopbackPairingTests.secret))
            let authenticated = GATTCharacteristic(uuid: LoopbackPairingTests.authenticatedUUID, properties: [.read],
                                                   permissions: AttributePermissions(read: .authenticated), value: .fixed(LoopbackPairingTests.secret))
            let stream = GATTCharacteristic(uuid: LoopbackPairingTests.streamUUID, properties: [.notify])
            let writes = Writes()
            let signed = GATTCharacteristic(uuid: LoopbackPairingTests.signedUUID,
                                            properties: [.authenticatedSignedWrites, .writeWithoutResponse],
                                            value: .bytes([], onWrite: { context in
                                                writes.received.withLock { $0.append((context.kind, context.value)) }
                                                return nil
                                            }))
            let database = try GATTDatabase(services: [GATTService(uuid: service, characteristics: [encrypted, authenticated, stream, signed])],
                                            genericAccess: GATTGenericAccess(deviceName: "secure", appearance: 0))
            let p = try await Peripheral.start(transport: peripheralController.specification, database: database)
            try await p.controller.configureSecurity(peripheral, delegate: peripheralDelegate)
            let peripheralEvents = EventLog(p.controller.securityEvents())
            try await advertise(p)
            let c = try await Central.start(transport: centralController.specification)
            try await c.controller.configureSecurity(central, delegate: centralDelegate)
            return SecurePair(link: link, peripheral: p, central: c, stream: stream, writes: writes,
                              centralEvents: EventLog(c.controller.securityEvents()), peripheralEvents: peripheralEvents,
                              peripheralController: peripheralController, centralController: centralController)
        }

        /// Starts (or starts again) the peripheral's advertising of the service.
        static func advertise(_ peripheral: Peripheral) async throws {
            var builder = AdvertisingDataBuilder()
            try builder.append(.flags(.leGeneralDiscoverableLEOnly))
            try builder.append(.serviceUUIDs(ServiceUUIDList([service])))
            try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
        }

        func connect() async throws -> Peer {
            let device = try #require(try await first(central.scan(services: [service])) { $0 })
            return try await central.connect(device.address)
        }

        func characteristic(_ uuid: BluetoothUUID, of peer: Peer) async throws -> GATTClient.Characteristic {
            try #require(try await peer.discoverDatabase().characteristics(uuid: uuid).first)
        }

        /// The peripheral's events from now on. A round trip through its loop follows the
        /// request, so that no event of a connection made next comes before the stream
        /// is in place (the loopback link connects within one turn of the loop).
        func peripheralEvents() async throws -> AsyncStream<PeripheralEvent> {
            let events = peripheral.events()
            _ = await peripheral.value(of: stream)
            return events
        }

        /// The bond each side stored for the other.
        func bonds() -> (central: Bond?, peripheral: Bond?) {
            (central.controller.bonds.bond(for: peripheral.info.randomAddress),
             peripheral.controller.bonds.bond(for: central.info.randomAddress))
        }

        /// The bonds once both sides finished pairing: the initiator distributes its keys
        /// last (Part H §3.6.1), so the peripheral may still be receiving them when the
        /// central's `pair()` returns.
        func settledBonds() async throws -> (central: Bond?, peripheral: Bond?) {
            let count = await centralEvents.pairings(reaching: 1).count
            try await peripheralEvents.log.first("the peripheral's pairing number \(count)") { _ in
                peripheralEvents.pairings.count >= count ? true : nil
            }
            return bonds()
        }

        func stop() async {
            await central.close()
            await peripheral.close()
        }
    }

    /// Collects a security event stream as it arrives, for tests that look back.
    final class EventLog: Sendable {
        let log = ArrivalLog<SecurityEvent>()
        private let task: Task<Void, Never>

        init(_ stream: AsyncStream<SecurityEvent>) {
            let log = self.log
            task = Task { for await event in stream { log.append(event) } }
        }

        deinit { task.cancel() }

        var pairings: [PairingResult] {
            log.elements.compactMap { if case let .paired(result, _) = $0.change { return result }; return nil }
        }

        /// The pairings once `expected` of them have arrived (or what arrived within the
        /// bound): the log fills from a task of its own, so a pairing the caller just saw
        /// end may not be in it yet.
        func pairings(reaching expected: Int) async -> [PairingResult] {
            _ = try? await log.first("pairing number \(expected)") { _ in pairings.count >= expected ? true : nil }
            return pairings
        }

        var failures: [PairingFailure] {
            log.elements.compactMap { if case let .pairingFailed(failure) = $0.change { return failure }; return nil }
        }

        /// Waits (bounded) until an event satisfies `predicate`.
        func wait(for what: String, _ predicate: (SecurityEvent) -> Bool) async throws {
            try await log.first(what) { predicate($0) ? true : nil }
        }
    }

    /// A user on each side of Passkey Entry or Numeric Comparison: what one device shows
    /// the other's user types; every number either device asked about is kept.
    final class Users: Sendable {
        let shown = Mutex<[UInt32]>([])
        let compared = Mutex<[UInt32]>([])
        /// What the typing user enters instead of what is shown (a typo), when set.
        let typo: UInt32?

        init(typo: UInt32? = nil) { self.typo = typo }

        struct Side: PairingDelegate {
            let users: Users
            func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }
            func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool {
                users.compared.withLock { $0.append(number) }
                return true
            }
            func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {
                users.shown.withLock { $0.append(passkey) }
            }
            func enterPasskey(for peer: BluetoothAddress) async -> UInt32? {
                // The user reads the other device's display.
                try? await eventually("a passkey on the other device's display") { !users.shown.withLock { $0 }.isEmpty }
                return users.typo ?? users.shown.withLock { $0.first }
            }
        }

        var side: Side { Side(users: self) }
    }

    static func configuration(_ io: IOCapability, mitm: Bool = false,
                              secureConnections: SecureConnectionsMode = .preferred) -> SecurityConfiguration {
        SecurityConfiguration(pairing: PairingConfiguration(ioCapability: io, requiresMITM: mitm,
                                                            secureConnections: secureConnections))
    }

    @Test func secureConnectionsJustWorksGivesBothSidesTheSameBondAndEncryptsTheLink() async throws {
        let pair = try await SecurePair.start()
        let peer = try await pair.connect()
        #expect(await peer.securityLevel == .none)
        let level = try await peer.pair()
        #expect(level == .encrypted(keySize: 16))
        #expect(await peer.securityLevel == .encrypted(keySize: 16))
        #expect(await pair.peripheral.securityLevel(of: peer.handle) == .encrypted(keySize: 16))

        let (central, peripheral) = try await pair.settledBonds()
        let centralKey = try #require(central?.centralKey)
        let peripheralKey = try #require(peripheral?.peripheralKey)
        // One derived LTK, EDIV and Rand zero (Part H §2.4.2.3), and the link uses it.
        #expect(centralKey == peripheralKey)
        #expect(centralKey.ediv == 0 && centralKey.rand == 0)
        #expect(pair.link.encryption(ofConnection: peer.handle) == .encrypted(longTermKey: centralKey.key))
        #expect(central?.secureConnections == true && central?.authenticated == false && central?.keySize == 16)
        let results = await pair.centralEvents.pairings(reaching: 1)
        #expect(results.map(\.method) == [.justWorks])
        await pair.stop()
    }

    @Test func anEncryptedValueIsRefusedThenReadAfterTheClientPairsByItself() async throws {
        let pair = try await SecurePair.start()
        let peer = try await pair.connect()
        let value = try await pair.characteristic(Self.encryptedUUID, of: peer)
        // The read is refused with Insufficient Encryption; the client pairs and retries.
        #expect(try await peer.read(value) == Self.secret)
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        #expect(await peer.securityLevel.isEncrypted)
        await pair.stop()
    }

    @Test func withoutAutomaticPairingTheRefusalReachesTheCaller() async throws {
        let pair = try await SecurePair.start(central: SecurityConfiguration(pairsOnSecurityError: false))
        let peer = try await pair.connect()
        let value = try await pair.characteristic(Self.encryptedUUID, of: peer)
        await #expect(throws: GATTClientError.self) { _ = try await peer.read(value) }
        do {
            _ = try await peer.read(value)
        } catch {
            guard case let .attributeError(code, _, _) = error else { throw error }
            #expect(code == .insufficientEncryption)
        }
        #expect(pair.centralEvents.pairings.isEmpty)
        await pair.stop()
    }

    @Test func passkeyEntryAuthenticatesAndTheAuthenticatedValueIsRead() async throws {
        let users = Users()
        let pair = try await SecurePair.start(central: Self.configuration(.keyboardOnly, mitm: true), centralDelegate: users.side,
                                              peripheral: Self.configuration(.displayOnly, mitm: true),
                                              peripheralDelegate: users.side)
        let peer = try await pair.connect()
        let value = try await pair.characteristic(Self.authenticatedUUID, of: peer)
        #expect(try await peer.read(value) == Self.secret)
        #expect(users.shown.withLock { $0 }.count == 1)
        #expect(await peer.securityLevel == .secureConnections(keySize: 16))
        #expect(await pair.centralEvents.pairings(reaching: 1).map(\.method) == [.passkeyEntry(initiatorInputs: true, responderInputs: false)])
        let (central, peripheral) = try await pair.settledBonds()
        #expect(central?.authenticated == true && peripheral?.authenticated == true)
        await pair.stop()
    }

    @Test func aMistypedPasskeyFailsWithConfirmValueFailedOnBothSides() async throws {
        let users = Users(typo: 123_456)
        let pair = try await SecurePair.start(central: Self.configuration(.keyboardOnly, mitm: true), centralDelegate: users.side,
                                              peripheral: Self.configuration(.displayOnly, mitm: true),
                                              peripheralDelegate: users.side)
        let peer = try await pair.connect()
        do {
            try await peer.pair()
            Issue.record("pairing with a wrong passkey succeeded")
        } catch {
            guard case let .failed(failure) = error else { throw error }
            #expect([.sent(.confirmValueFailed), .received(.confirmValueFailed)].contains(failure))
        }
        // Each side's event reaches its log on its own: `pair()` throwing says nothing
        // of when the central's arrives (in a ThreadSanitizer run it came after the
        // peripheral's, and the set held one failure).
        try await pair.peripheralEvents.wait(for: "the peripheral's failure") { if case .pairingFailed = $0.change { return true }; return false }
        try await pair.centralEvents.wait(for: "the central's failure") { if case .pairingFailed = $0.change { return true }; return false }
        let both = pair.centralEvents.failures + pair.peripheralEvents.failures
        #expect(Set(both) == [.sent(.confirmValueFailed), .received(.confirmValueFailed)])
        #expect(pair.bonds().central == nil && pair.bonds().peripheral == nil)
        #expect(await peer.securityLevel == .none)
        await pair.stop()
    }

    @Test func numericComparisonShowsBothUsersTheSameNumber() async throws {
        let users = Users()
        let pair = try await SecurePair.start(central: Self.configuration(.displayYesNo), centralDelegate: users.side,
                                              peripheral: Self.configuration(.keyboardDisplay), peripheralDelegate: users.side)
        let peer = try await pair.connect()
        #expect(try await peer.pair() == .secureConnections(keySize: 16))
        let compared = users.compared.withLock { $0 }
        #expect(compared.count == 2 && compared[0] == compared[1] && compared[0] <= 999_999)
        await pair.stop()
    }

    @Test func aBondedPeerIsEncryptedOnReconnectionWithoutPairingAgain() async throws {
        let pair = try await SecurePair.start()
        var peer = try await pair.connect()
        try await peer.pair()
        let key = try #require(pair.bonds().central?.centralKey)
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }

        peer = try await pair.connect()
        // The central encrypts with the bond as soon as it connects.
        let handle = peer.handle
        try await pair.centralEvents.wait(for: "encryption on the new link") {
            if $0.handle == handle, case .levelChanged(.encrypted(keySize: 16)) = $0.change { return true }
            return false
        }
        let value = try await pair.characteristic(Self.encryptedUUID, of: peer)
        #expect(try await peer.read(value) == Self.secret)
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        #expect(await pair.peripheralEvents.pairings(reaching: 1).count == 1)
        #expect(pair.link.encryption(ofConnection: handle) == .encrypted(longTermKey: key.key))
        await pair.stop()
    }

    @Test func aPeripheralThatLostTheBondIsPairedAgainWhenAValueNeedsIt() async throws {
        let pair = try await SecurePair.start()
        var peer = try await pair.connect()
        try await peer.pair()
        let oldKey = try #require(pair.bonds().central?.centralKey)
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        try pair.peripheral.controller.bonds.removeAll()

        peer = try await pair.connect()
        let handle = peer.handle
        // The bond's key is refused (negative reply: PIN or Key Missing).
        try await pair.centralEvents.wait(for: "the bond refused") {
            if $0.handle == handle, case .encryptionFailed(HCIStatus.pinOrKeyMissing.rawValue) = $0.change { return true }
            return false
        }
        // The next read that needs encryption pairs afresh, and the new bond replaces the old.
        let value = try await pair.characteristic(Self.encryptedUUID, of: peer)
        #expect(try await peer.read(value) == Self.secret)
        let (central, peripheral) = try await pair.settledBonds()
        let newKey = try #require(central?.centralKey)
        #expect(newKey != oldKey && newKey == peripheral?.peripheralKey)
        #expect(await pair.centralEvents.pairings(reaching: 2).count == 2)
        await pair.stop()
    }

    @Test func aPeripheralAsksForSecurityOnConnectionAndTheCentralPairs() async throws {
        let pair = try await SecurePair.start(peripheral: SecurityConfiguration(requestsSecurityOnConnection: true))
        let peer = try await pair.connect()
        let handle = peer.handle
        try await pair.peripheralEvents.wait(for: "pairing the central started") {
            if $0.handle == handle, case .paired = $0.change { return true }
            return false
        }
        try await eventually("the central's level") { await peer.securityLevel == .encrypted(keySize: 16) }
        #expect(pair.bonds().central != nil)
        await pair.stop()
    }

    @Test func aPeripheralsSecurityRequestIsAnsweredWithTheBond() async throws {
        let pair = try await SecurePair.start(central: SecurityConfiguration(encryptsBondedLinks: false))
        var peer = try await pair.connect()
        try await peer.pair()
        _ = try await pair.settledBonds()
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        peer = try await pair.connect()
        #expect(await pair.peripheral.securityLevel(of: peer.handle) == .none)
        // The peripheral asks; the central encrypts with its bond instead of pairing.
        #expect(try await pair.peripheral.secure(peer.handle) == .encrypted(keySize: 16))
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    /// Privacy: the central connects from resolvable private addresses made from its
    /// IRK, a new one each time the last has expired; the peripheral, bonded, knows it
    /// under each by the identity it distributed. Controllers without LL Privacy, so the
    /// peripheral's host resolves (the controller's list: LoopbackResolvingListTests).
    @Test func withPrivacyTheCentralConnectsFromPrivateAddressesItsBondResolves() async throws {
        let irk: UInt128 = 0x0F1E_2D3C_4B5A_6978_8796_A5B4_C3D2_E1F0
        let identity = LocalIdentity(identityResolvingKey: irk, address: BluetoothAddress(0xC123_4567_89AB, kind: .random))
        let pair = try await SecurePair.start(central: SecurityConfiguration(
            pairing: PairingConfiguration(identity: identity), privateAddressLifetime: .milliseconds(1)), linkLayerPrivacy: false)
        #expect(pair.peripheral.controller.addressResolution == .host)
        var events = try await pair.peripheralEvents()
        var peer = try await pair.connect()
        let firstAddress = try #require(try await first(events) { event -> BluetoothAddress? in
            if case let .connected(_, address) = event { return address }
            return nil
        })
        #expect(firstAddress.randomSubtype == .resolvablePrivate && ResolvablePrivateAddress.resolves(firstAddress, with: irk))
        #expect(firstAddress != pair.central.info.randomAddress)
        try await peer.pair()
        try await pair.peripheralEvents.wait(for: "the peripheral's pairing") { if case .paired = $0.change { return true }; return false }
        let bond = try #require(pair.peripheral.controller.bonds.bond(for: identity.address))
        #expect(bond.peerIdentityResolvingKey == irk)
        #expect(pair.peripheralEvents.log.elements.contains { $0.peer == identity.address })

        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        events = try await pair.peripheralEvents()
        peer = try await pair.connect()
        let secondAddress = try #require(try await first(events) { event -> BluetoothAddress? in
            if case let .connected(_, address) = event { return address }
            return nil
        })
        #expect(secondAddress != firstAddress && ResolvablePrivateAddress.resolves(secondAddress, with: irk))
        // The peripheral answers the central's encryption from the bond it finds by IRK,
        // and names the peer by its identity.
        let handle = peer.handle
        try await pair.peripheralEvents.wait(for: "the second link encrypted with the bond") {
            if $0.handle == handle, $0.peer == identity.address, case .levelChanged(.encrypted(keySize: 16)) = $0.change { return true }
            return false
        }
        #expect(await pair.peripheralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    @Test func legacyPairingBondsWithEachSidesDistributedKey() async throws {
        let legacy = Self.configuration(.noInputNoOutput, secureConnections: .disabled)
        let pair = try await SecurePair.start(central: legacy, peripheral: legacy)
        let peer = try await pair.connect()
        #expect(try await peer.pair() == .encrypted(keySize: 16))
        let (central, peripheral) = try await pair.settledBonds()
        let key = try #require(central?.centralKey)
        // The central encrypts later links with the key the peripheral distributed,
        // named by its EDIV and Rand (Part H §2.4.2.3).
        #expect(key == peripheral?.peripheralKey)
        #expect(key.rand != 0)
        #expect(central?.secureConnections == false)
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        let again = try await pair.connect()
        #expect(try await again.secure() == .encrypted(keySize: 16))
        #expect(pair.link.encryption(ofConnection: again.handle) == .encrypted(longTermKey: key.key))
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    @Test func secureConnectionsOnlyRefusesALegacyPeer() async throws {
        let pair = try await SecurePair.start(central: Self.configuration(.noInputNoOutput, secureConnections: .disabled),
                                              peripheral: Self.configuration(.noInputNoOutput, secureConnections: .only))
        let peer = try await pair.connect()
        do {
            try await peer.pair()
            Issue.record("a Secure-Connections-only peripheral paired with legacy pairing")
        } catch {
            guard case let .failed(failure) = error else { throw error }
            #expect(failure == .received(.authenticationRequirements))
        }
        #expect(await peer.securityLevel == .none)
        await pair.stop()
    }

    @Test func aDeclinedRequestFailsWithPairingNotSupported() async throws {
        var refusing = SecurityConfiguration()
        refusing.pairing.confirmsIncomingPairing = true
        let pair = try await SecurePair.start(peripheral: refusing, peripheralDelegate: Refuser())
        let peer = try await pair.connect()
        do {
            try await peer.pair()
            Issue.record("a declined pairing succeeded")
        } catch {
            guard case let .failed(failure) = error else { throw error }
            #expect(failure == .received(.pairingNotSupported))
        }
        await pair.stop()
    }

    @Test func aConfigurationThatCouldNeverPairIsRefusedAndTheOneBeforeItStays() async throws {
        var twelve = SecurityConfiguration()
        twelve.pairing.maximumKeySize = 12
        let pair = try await SecurePair.start(central: twelve)
        var impossible = twelve
        impossible.pairing.maximumKeySize = 17
        await #expect(throws: PairingConfigurationError.keySizeOutOfRange(17)) {
            try await pair.central.controller.configureSecurity(impossible, delegate: AutomaticPairingDelegate())
        }
        #expect(pair.central.controller.securityConfiguration.pairing.maximumKeySize == 12)
        // The security floor still pairs with the configuration before: a 12-octet key.
        let peer = try await pair.connect()
        #expect(try await peer.pair() == .encrypted(keySize: 12))
        await pair.stop()
    }

    struct Refuser: PairingDelegate {
        func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { false }
        func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool { false }
        func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {}
        func enterPasskey(for peer: BluetoothAddress) async -> UInt32? { nil }
    }
}
