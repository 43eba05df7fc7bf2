import BenchSupport
import Foundation
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTPDU
import SwiftATTSecurity
import SwiftATTSMP
import SwiftATTTransport
import Synchronization
import Testing
import TestSupport

/// swift-att's Security Manager against Bumble's (Tests/bench/bumble_peer.py, Bumble
/// 0.0.236's SMP), each in both roles, over Bumble's virtual controllers.
///
/// Bumble's controllers encrypt nothing but compare the two hosts' LTKs when a link is
/// encrypted (a mismatch drops the link with MIC Failure), so a successful encryption
/// shows the keys agree. What the controllers never check — the IRK, the identity
/// address, the keys each side stored — is compared here with what Bumble reports it
/// stored (BENCH.md, "Bumble as the pairing peer"). Keys cross as Bumble holds them:
/// hex, least significant octet first, the order of the SMP PDUs.
@Suite(.serialized) struct BumblePairingTests {
    static let bumbleAddress = "C0:B0:00:00:00:21"
    /// The IRK Bumble distributes, as it is given on its command line (octets in PDU order).
    static let bumbleIRK = "101112131415161718191a1b1c1d1e1f"
    /// The IRK swift-att distributes.
    static let ourIRK: UInt128 = 0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100 ^ 0xA5A5_A5A5_A5A5_A5A5_A5A5_A5A5_A5A5_A5A5

    static func hex(_ key: UInt128) -> String { Hex.encode(key.littleEndianBytes) }

    /// Every security event of a controller, in order, collected from the start.
    final class EventLog: Sendable {
        let log = ArrivalLog<SecurityEvent>()
        private let task: Task<Void, Never>

        init(_ stream: AsyncStream<SecurityEvent>) {
            let log = self.log
            task = Task { for await event in stream { log.append(event) } }
        }

        deinit { task.cancel() }

        var pairings: Int { log.elements.filter { if case .paired = $0.change { return true }; return false }.count }

        /// The number of pairings once `expected` have arrived (or what arrived within the
        /// bound): the log fills from a task of its own and may lag the call that paired.
        func pairings(reaching expected: Int) async -> Int {
            _ = try? await log.first("pairing number \(expected)") { _ in pairings >= expected ? true : nil }
            return pairings
        }
    }

    /// swift-att's identity: its static random address on this run and `ourIRK`.
    static func security(_ io: IOCapability, mitm: Bool = false, address: BluetoothAddress,
                         secureConnections: SecureConnectionsMode = .preferred) -> SecurityConfiguration {
        SecurityConfiguration(pairing: PairingConfiguration(
            ioCapability: io, requiresMITM: mitm, secureConnections: secureConnections,
            identity: LocalIdentity(identityResolvingKey: ourIRK, address: address)))
    }

    // MARK: swift-att central, Bumble peripheral

    /// Bumble advertising on controller 0 with `bumble` pairing options; a swift-att
    /// central on controller 1 connected to it.
    struct CentralSide {
        let bench: BumbleBench
        let bumble: BumblePeer
        let central: Central
        let peer: Peer
        let events: EventLog

        static func start(bumble options: [String], io: IOCapability = .noInputNoOutput, mitm: Bool = false,
                          secureConnections: SecureConnectionsMode = .preferred,
                          delegate: (any PairingDelegate)? = AutomaticPairingDelegate()) async throws -> CentralSide {
            let bench = try await BumbleBench(controllers: 2)
            let bumble = try BumblePeer(bench: bench, controller: 0, address: bumbleAddress,
                                        arguments: ["--irk", bumbleIRK] + options + ["advertise", "--name", "bumble-smp", "--service", "FEE0", "--readvertise"])
            _ = try await bumble.next("ready")
            let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
            try await central.controller.configureSecurity(
                security(io, mitm: mitm, address: central.info.randomAddress, secureConnections: secureConnections),
                delegate: delegate)
            let events = EventLog(central.controller.securityEvents())
            let peer = try await connect(central, bumble)
            return CentralSide(bench: bench, bumble: bumble, central: central, peer: peer, events: events)
        }

        static func connect(_ central: Central, _ bumble: BumblePeer) async throws -> Peer {
            let address = try #require(BluetoothAddress(bumbleAddress, kind: .random))
            let device = try #require(try await central.firstDevice(ScanFilter(services: [BluetoothUUID(0xFEE0)]), within: .seconds(10)))
            #expect(device.address == address)
            let peer = try await central.connect(device.address)
            _ = try await bumble.next("connected")
            return peer
        }

        /// The bond swift-att stored for Bumble.
        var bond: Bond? { central.controller.bonds.bond(for: BluetoothAddress(bumbleAddress, kind: .random)!) }

        func stop() async {
            await central.close()
            bumble.stop()
            bench.stop()
        }
    }

    @Test func secureConnectionsJustWorksBondsWithTheSameKeysAndReconnectsEncrypted() async throws {
        let side = try await CentralSide.start(bumble: [])
        #expect(try await side.peer.pair() == .encrypted(keySize: 16))
        let paired = try await side.bumble.next("paired")
        let bond = try #require(side.bond)
        let key = try #require(bond.centralKey)
        // One derived LTK on both sides; each side holds the other's IRK and identity.
        #expect((paired["ltk"] as? [String: Any])?["value"] as? String == Self.hex(key.key))
        #expect(key.ediv == 0 && key.rand == 0)
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        #expect(paired["peer"] as? String == side.central.info.randomAddress.description)
        #expect(bond.peer.description == Self.bumbleAddress)
        #expect(bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        #expect(bond.secureConnections && !bond.authenticated && bond.keySize == 16)
        // Signing keys: Bumble distributes one when asked, always all zeros (its smp.py
        // marks it "FIXME: testing"); the one swift-att distributed is what Bumble stored.
        #expect(bond.peerSignatureKey == 0)
        #expect(paired["csrk"] as? String == bond.localSignatureKey.map(Self.hex))

        // A new connection is encrypted with the bond, without pairing: Bumble's
        // controller would drop the link if the two LTKs differed.
        try await side.peer.disconnect()
        _ = try await side.bumble.next("disconnected")
        let again = try await CentralSide.connect(side.central, side.bumble)
        try await eventually("the bonded link encrypted") { await again.securityLevel == .encrypted(keySize: 16) }
        let encrypted = try await side.bumble.next("encrypted")
        #expect(encrypted["enabled"] as? Bool == true)
        #expect(await side.events.pairings(reaching: 1) == 1)
        // The link carries GATT afterwards: the keys matched.
        #expect(try await again.discoverDatabase().services.isEmpty == false)
        #expect(await again.securityLevel == .encrypted(keySize: 16))
        await side.stop()
    }

    @Test func numericComparisonShowsTheSameNumberOnBothSides() async throws {
        let numbers = Numbers()
        let side = try await CentralSide.start(bumble: ["--io", "display-yesno"], io: .displayYesNo, delegate: numbers)
        #expect(try await side.peer.pair() == .secureConnections(keySize: 16))
        let compared = try await side.bumble.next("compare")
        #expect(numbers.seen.withLock { $0 } == [compared["number"] as? Int].compactMap { $0.map(UInt32.init) })
        _ = try await side.bumble.next("paired")
        #expect(side.bond?.authenticated == true)
        await side.stop()
    }

    @Test func passkeyShownByBumbleAndTypedIntoSwiftATT() async throws {
        let side = try await CentralSide.start(bumble: ["--io", "display", "--passkey", "314159"], io: .keyboardOnly, mitm: true,
                                               delegate: AutomaticPairingDelegate(passkey: 314_159))
        #expect(try await side.peer.pair() == .secureConnections(keySize: 16))
        #expect(try await side.bumble.next("passkey-displayed")["number"] as? Int == 314_159)
        let paired = try await side.bumble.next("paired")
        #expect((paired["ltk"] as? [String: Any])?["authenticated"] as? Bool == true)
        #expect((paired["ltk"] as? [String: Any])?["value"] as? String == side.bond?.centralKey.map { Self.hex($0.key) })
        await side.stop()
    }

    @Test func passkeyShownBySwiftATTAndTypedIntoBumble() async throws {
        let typist = Typist()
        let side = try await CentralSide.start(bumble: ["--io", "keyboard"], io: .displayOnly, mitm: true, delegate: typist)
        typist.bumble.withLock { $0 = side.bumble.stdin.fileHandleForWriting }
        #expect(try await side.peer.pair() == .secureConnections(keySize: 16))
        _ = try await side.bumble.next("passkey-requested")
        _ = try await side.bumble.next("paired")
        #expect(typist.shown.withLock { $0 }.count == 1)
        await side.stop()
    }

    @Test func aWrongPasskeyFailsWithConfirmValueFailedOnBothSides() async throws {
        let side = try await CentralSide.start(bumble: ["--io", "display", "--passkey", "314159"], io: .keyboardOnly, mitm: true,
                                               delegate: AutomaticPairingDelegate(passkey: 271_828))
        do {
            try await side.peer.pair()
            Issue.record("pairing with the wrong passkey succeeded")
        } catch {
            guard case let .failed(failure) = error else { throw error }
            #expect(failure == .sent(.confirmValueFailed) || failure == .received(.confirmValueFailed))
        }
        let failure = try await side.bumble.next("pairing-failure")
        #expect(failure["reason"] as? Int == Int(PairingFailureReason.confirmValueFailed.rawValue))
        #expect(side.bond == nil)
        #expect(await side.peer.securityLevel == .none)
        await side.stop()
    }

    @Test(arguments: [false, true])
    func legacyPairingJustWorksAndPasskey(passkey: Bool) async throws {
        let options = ["--no-sc"] + (passkey ? ["--io", "display", "--passkey", "000042"] : [])
        let side = try await CentralSide.start(bumble: options, io: passkey ? .keyboardOnly : .noInputNoOutput, mitm: passkey,
                                               delegate: AutomaticPairingDelegate(passkey: 42))
        let level = try await side.peer.pair()
        #expect(level == (passkey ? .authenticated(keySize: 16) : .encrypted(keySize: 16)))
        let paired = try await side.bumble.next("paired")
        let bond = try #require(side.bond)
        #expect(!bond.secureConnections && bond.authenticated == passkey)
        // Each side distributed an LTK with its EDIV and Rand (Bumble's are zero, a quirk).
        // swift-att as central encrypts later links with the one the peripheral
        // distributed (Part H §2.4.2.3), which Bumble as responder files as
        // "ltk_central"; the one swift-att distributed it files as "ltk_peripheral".
        let bumbleDistributed = try #require(paired["ltk_central"] as? [String: Any])
        let ourDistributed = try #require(paired["ltk_peripheral"] as? [String: Any])
        #expect(bumbleDistributed["value"] as? String == bond.centralKey.map { Self.hex($0.key) })
        #expect(ourDistributed["value"] as? String == bond.peripheralKey.map { Self.hex($0.key) })
        #expect(ourDistributed["ediv"] as? Int == bond.peripheralKey.map { Int($0.ediv) })
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        // No reconnection here: Bumble 0.0.236 as peripheral answers a legacy LTK request
        // with "ltk_peripheral", the central's own key, where the spec has the central
        // use the peripheral's; the swapped roles below reconnect instead.
        await side.stop()
    }

    @Test func legacyBondWithBumbleAsCentralEncryptsTheNextConnection() async throws {
        let side = try await PeripheralSide.start(bumble: ["--no-sc"], central: ["--pair"])
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        try await side.events.log.first("swift-att's pairing") { if case .paired = $0.change { return true }; return nil }
        let bond = try #require(side.bond)
        let ours = try #require(bond.peripheralKey)
        // Bumble as initiator files the key it will encrypt with (ours) as "ltk_central".
        let stored = try #require(paired["ltk_central"] as? [String: Any])
        #expect(stored["value"] as? String == Self.hex(ours.key))
        #expect(stored["ediv"] as? Int == Int(ours.ediv))
        #expect(stored["rand"] as? String == Hex.encode(withUnsafeBytes(of: ours.rand.littleEndian, Array.init)))
        #expect(ours.rand != 0)

        // Once Bumble's central has finished discovery it takes commands.
        _ = try await side.bumble.next("discovered")
        side.bumble.send("disconnect")
        _ = try await side.bumble.next("disconnected")
        side.bumble.send("reconnect")
        let encrypted = try await side.bumble.next("encrypted", timeout: .seconds(20))
        #expect(encrypted["enabled"] as? Bool == true)
        try await side.events.log.first("the second link encrypted with the bond") {
            if case .levelChanged(.encrypted(keySize: 16)) = $0.change { return true }
            return nil
        }
        #expect(await side.events.pairings(reaching: 1) == 1)
        await side.stop()
    }

    @Test func aBondedPeerOnAResolvablePrivateAddressIsKnownByItsIdentity() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let bumble = try BumblePeer(bench: bench, controller: 0, address: Self.bumbleAddress,
                                    arguments: ["--irk", Self.bumbleIRK, "--privacy",
                                                "advertise", "--name", "bumble-rpa", "--service", "FEE0", "--readvertise"])
        defer { bumble.stop() }
        let ready = try await bumble.next("ready")
        let first = try #require(BluetoothAddress(ready["address"] as? String ?? "", kind: .random))
        let identity = try #require(BluetoothAddress(Self.bumbleAddress, kind: .random))
        #expect(first.randomSubtype == .resolvablePrivate && ready["identity"] as? String == Self.bumbleAddress)

        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
        try await central.controller.configureSecurity(Self.security(.noInputNoOutput, address: central.info.randomAddress),
                                                   delegate: AutomaticPairingDelegate())
        let events = EventLog(central.controller.securityEvents())
        let filter = ScanFilter(services: [BluetoothUUID(0xFEE0)])
        // Before pairing the address is just an address.
        let unknown = try #require(try await central.firstDevice(filter, within: .seconds(10)))
        #expect(unknown.address == first && unknown.identity == nil)
        var peer = try await central.connect(first)
        try await peer.pair()
        _ = try await bumble.next("paired")
        // The bond is filed under the identity Bumble distributed, with its IRK.
        let bond = try #require(central.controller.bonds.bond(for: identity))
        #expect(bond.peer == identity && bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        #expect(await peer.identityAddress == identity)
        try await events.log.first("the pairing named by the identity") {
            if case .paired = $0.change, $0.peer == identity { return true }
            return nil
        }

        // Bumble's controller says it resolves: at the next radio start the host puts
        // the bond in its resolving list (our IRK beside Bumble's).
        #expect(central.controller.addressResolution == .controller(capacity: 8))
        #expect(central.controller.resolvingListEntries.isEmpty, "not before a radio start")

        // Bumble takes a new address, as a phone does every 15 minutes.
        try await peer.disconnect()
        _ = try await bumble.next("disconnected")
        bumble.send("new-rpa")
        let second = try #require(BluetoothAddress(try await bumble.next("rpa")["address"] as? String ?? "", kind: .random))
        #expect(second != first && second.randomSubtype == .resolvablePrivate)
        let known = try #require(try await central.firstDevice(filter, within: .seconds(10)) { $0.address == second })
        #expect(central.controller.resolvingListEntries == [ResolvingListEntry(
            peerIdentity: identity, peerIdentityResolvingKey: bond.peerIdentityResolvingKey ?? 0, localIdentityResolvingKey: Self.ourIRK)])
        // But it resolves nothing: the report names the private address, and the host's
        // resolution with the bond's IRK finds the identity.
        #expect(known.identity == identity)
        // Connecting to the new address finds the bond: encrypted at once, no pairing.
        let before = events.log.count
        peer = try await central.connect(second)
        let handle = peer.handle
        try await events.log.first("the new link encrypted, named by the identity", from: before) {
            if $0.handle == handle, $0.peer == identity, case .levelChanged(.encrypted(keySize: 16)) = $0.change { return true }
            return nil
        }
        #expect(await peer.identityAddress == identity)
        #expect(await events.pairings(reaching: 1) == 1)
        await central.close()
    }

    // MARK: Bumble central, swift-att peripheral

    /// A swift-att peripheral on controller 0; Bumble connects from controller 1 as
    /// central with `bumble` options and `central` arguments.
    struct PeripheralSide {
        let bench: BumbleBench
        let bumble: BumblePeer
        let peripheral: Peripheral
        let events: EventLog
        /// The connection Bumble made.
        let handle: UInt16

        static func start(bumble options: [String], central arguments: [String] = [], io: IOCapability = .noInputNoOutput,
                          mitm: Bool = false, delegate: (any PairingDelegate)? = AutomaticPairingDelegate()) async throws -> PeripheralSide {
            let bench = try await BumbleBench(controllers: 2)
            let service = GATTService(uuid: BluetoothUUID(0xFEE0), characteristics: [
                GATTCharacteristic(uuid: BluetoothUUID(0xFEE1), properties: [.read],
                                   permissions: AttributePermissions(read: .encrypted), value: .fixed(Array("sealed".utf8))),
            ])
            let database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: "swift-att", appearance: 0))
            let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]), database: database)
            try await peripheral.controller.configureSecurity(security(io, mitm: mitm, address: peripheral.info.randomAddress),
                                                          delegate: delegate)
            let events = EventLog(peripheral.controller.securityEvents())
            let connections = peripheral.events()
            var builder = AdvertisingDataBuilder()
            try builder.append(.flags(.leGeneralDiscoverableLEOnly))
            try await peripheral.startAdvertising(data: builder.advertisingData.encoded(), interval: .milliseconds(20))
            let bumble = try BumblePeer(bench: bench, controller: 1, address: bumbleAddress,
                                        arguments: ["--irk", bumbleIRK] + options
                                            + ["central", "--target", peripheral.info.randomAddress.description] + arguments)
            _ = try await bumble.next("connected", timeout: .seconds(20))
            let handle = try await first(connections) { event -> UInt16? in
                if case let .connected(handle, _) = event { return handle }
                return nil
            }
            return PeripheralSide(bench: bench, bumble: bumble, peripheral: peripheral, events: events, handle: try #require(handle))
        }

        var bond: Bond? { peripheral.controller.bonds.bond(for: BluetoothAddress(bumbleAddress, kind: .random)!) }

        /// swift-att's own account of the pairing Bumble started: the result (the
        /// association model it took, among others) and the bond it stored.
        func pairing() async throws -> (result: PairingResult, bond: Bond?) {
            try await events.log.first("swift-att's pairing") { event -> (PairingResult, Bond?)? in
                if case let .paired(result, bond) = event.change { return (result, bond) }
                return nil
            }.value
        }

        func stop() async {
            bumble.stop()
            await peripheral.close()
            bench.stop()
        }
    }

    @Test func bumbleCentralPairsWithSwiftATTAndReadsTheEncryptedValue() async throws {
        let side = try await PeripheralSide.start(bumble: [], central: ["--pair", "--read", "FEE1"])
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        let read = try await side.bumble.next("read")
        #expect(read["value"] as? String == Hex.encode(Array("sealed".utf8)))
        try await side.events.log.first("swift-att's pairing") { if case .paired = $0.change { return true }; return nil }
        let bond = try #require(side.bond)
        #expect((paired["ltk"] as? [String: Any])?["value"] as? String == bond.peripheralKey.map { Self.hex($0.key) })
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        #expect(paired["peer"] as? String == side.peripheral.info.randomAddress.description)
        #expect(bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        #expect(bond.secureConnections && bond.keySize == 16)
        await side.stop()
    }

    @Test func bumbleCentralTypesThePasskeySwiftATTShows() async throws {
        let typist = Typist()
        let side = try await PeripheralSide.start(bumble: ["--io", "keyboard", "--mitm"], central: ["--pair"], io: .displayOnly,
                                                  mitm: true, delegate: typist)
        typist.bumble.withLock { $0 = side.bumble.stdin.fileHandleForWriting }
        _ = try await side.bumble.next("passkey-requested", timeout: .seconds(20))
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        #expect((paired["ltk"] as? [String: Any])?["authenticated"] as? Bool == true)
        try await side.events.log.first("swift-att's pairing") { if case .paired = $0.change { return true }; return nil }
        #expect(side.bond?.authenticated == true)
        await side.stop()
    }

    @Test func aSecurityRequestMakesBumblePair() async throws {
        let side = try await PeripheralSide.start(bumble: [])
        #expect(try await side.peripheral.secure(side.handle) == .encrypted(keySize: 16))
        _ = try await side.bumble.next("paired", timeout: .seconds(20))
        #expect(side.bond != nil)
        await side.stop()
    }

    @Test func bumbleCentralAndSwiftATTConfirmTheSameNumber() async throws {
        let numbers = Numbers()
        let side = try await PeripheralSide.start(bumble: ["--io", "display-yesno"], central: ["--pair", "--read", "FEE1"],
                                                  io: .displayYesNo, delegate: numbers)
        let compared = try await side.bumble.next("compare", timeout: .seconds(20))
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        let (result, stored) = try await side.pairing()
        #expect(result.method == .numericComparison && result.secureConnections && result.authenticated)
        // One question to each user, and the same six digits on both screens.
        let number = try #require(compared["number"] as? Int)
        #expect(numbers.seen.withLock { $0 } == [UInt32(number)])
        let bond = try #require(stored)
        #expect(bond == side.bond)
        #expect(bond.secureConnections && bond.authenticated && bond.keySize == 16)
        let ltk = try #require(paired["ltk"] as? [String: Any])
        #expect(ltk["value"] as? String == bond.peripheralKey.map { Self.hex($0.key) })
        #expect(ltk["authenticated"] as? Bool == true)
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        #expect(paired["peer"] as? String == side.peripheral.info.randomAddress.description)
        #expect(bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        // Level 4 on the link: the value that needs only encryption is served.
        #expect(await side.peripheral.securityLevel(of: side.handle) == .secureConnections(keySize: 16))
        #expect(try await side.bumble.next("read")["value"] as? String == Hex.encode(Array("sealed".utf8)))
        await side.stop()
    }

    @Test func swiftATTTypesThePasskeyBumbleCentralShows() async throws {
        // No --passkey: Bumble draws its own, and the user reads it off Bumble's screen.
        let reader = Reader()
        let side = try await PeripheralSide.start(bumble: ["--io", "display", "--mitm"], central: ["--pair"], io: .keyboardOnly,
                                                  mitm: true, delegate: reader)
        let displayed = try #require(try await side.bumble.next("passkey-displayed", timeout: .seconds(20))["number"] as? Int)
        reader.shown.withLock { $0 = UInt32(displayed) }
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        let (result, stored) = try await side.pairing()
        #expect(result.method == .passkeyEntry(initiatorInputs: false, responderInputs: true))
        #expect(result.secureConnections && result.authenticated)
        #expect(reader.asked.withLock { $0 } == 1)
        let bond = try #require(stored)
        #expect(bond.secureConnections && bond.authenticated && bond.keySize == 16)
        let ltk = try #require(paired["ltk"] as? [String: Any])
        #expect(ltk["value"] as? String == bond.peripheralKey.map { Self.hex($0.key) })
        #expect(ltk["authenticated"] as? Bool == true)
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        #expect(bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        #expect(await side.peripheral.securityLevel(of: side.handle) == .secureConnections(keySize: 16))
        await side.stop()
    }

    /// Legacy Passkey Entry with Bumble initiating, the passkey typed into swift-att
    /// (`swiftATTTypes`) or shown by it and typed into Bumble.
    @Test(arguments: [true, false])
    func legacyPasskeyWithBumbleAsCentral(swiftATTTypes: Bool) async throws {
        let reader = Reader()
        let typist = Typist()
        let side = try await PeripheralSide.start(
            bumble: ["--no-sc", "--mitm", "--io", swiftATTTypes ? "display" : "keyboard"], central: ["--pair"],
            io: swiftATTTypes ? .keyboardOnly : .displayOnly, mitm: true,
            delegate: swiftATTTypes ? reader : typist)
        if swiftATTTypes {
            let displayed = try #require(try await side.bumble.next("passkey-displayed", timeout: .seconds(20))["number"] as? Int)
            reader.shown.withLock { $0 = UInt32(displayed) }
        } else {
            typist.bumble.withLock { $0 = side.bumble.stdin.fileHandleForWriting }
            _ = try await side.bumble.next("passkey-requested", timeout: .seconds(20))
        }
        let paired = try await side.bumble.next("paired", timeout: .seconds(20))
        let (result, stored) = try await side.pairing()
        #expect(result.method == .passkeyEntry(initiatorInputs: !swiftATTTypes, responderInputs: swiftATTTypes))
        #expect(!result.secureConnections && result.authenticated)
        #expect(reader.asked.withLock { $0 } == (swiftATTTypes ? 1 : 0))
        #expect(typist.shown.withLock { $0 }.count == (swiftATTTypes ? 0 : 1))
        let bond = try #require(stored)
        #expect(!bond.secureConnections && bond.authenticated && bond.keySize == 16)
        // Each side distributed an LTK. Bumble as initiator files the one it will encrypt
        // with (ours, the peripheral's) as "ltk_central" and its own as "ltk_peripheral".
        let ours = try #require(bond.peripheralKey)
        let bumbleKept = try #require(paired["ltk_central"] as? [String: Any])
        #expect(bumbleKept["value"] as? String == Self.hex(ours.key))
        #expect(bumbleKept["ediv"] as? Int == Int(ours.ediv))
        #expect(bumbleKept["rand"] as? String == Hex.encode(withUnsafeBytes(of: ours.rand.littleEndian, Array.init)))
        #expect(bumbleKept["authenticated"] as? Bool == true)
        let bumbleDistributed = try #require(paired["ltk_peripheral"] as? [String: Any])
        #expect(bumbleDistributed["value"] as? String == bond.centralKey.map { Self.hex($0.key) })
        #expect(paired["irk"] as? String == Self.hex(Self.ourIRK))
        #expect(bond.peerIdentityResolvingKey.map(Self.hex) == Self.bumbleIRK)
        #expect(await side.peripheral.securityLevel(of: side.handle) == .authenticated(keySize: 16))
        await side.stop()
    }

    /// Bumble shows 314159 and swift-att's user types 271828, in Secure Connections and
    /// legacy pairing. The responder checks the initiator's confirm value first in both
    /// (Part H §2.3.5.6.3, §2.3.5.5), and the passkeys differ in their first bit, so
    /// swift-att finds the mismatch and Bumble is told.
    @Test(arguments: [true, false])
    func aWrongPasskeyTypedIntoSwiftATTFailsWithConfirmValueFailedOnBothSides(secureConnections: Bool) async throws {
        let side = try await PeripheralSide.start(
            bumble: (secureConnections ? [] : ["--no-sc"]) + ["--mitm", "--io", "display", "--passkey", "314159"],
            central: ["--pair", "--read", "FEE1"], io: .keyboardOnly, mitm: true,
            delegate: AutomaticPairingDelegate(passkey: 271_828))
        let failure = try await side.events.log.first("swift-att's pairing failure") { event -> PairingFailure? in
            if case let .pairingFailed(failure) = event.change { return failure }
            return nil
        }.value
        #expect(failure == .sent(.confirmValueFailed))
        let bumbleFailure = try await side.bumble.next("pairing-failure", timeout: .seconds(20))
        #expect(bumbleFailure["reason"] as? Int == Int(PairingFailureReason.confirmValueFailed.rawValue))
        // Nothing half-changed: the link stays unencrypted, so the value that needs
        // encryption is refused, and no bond is stored.
        let read = try await side.bumble.next("read-failed", timeout: .seconds(20))
        #expect(read["code"] as? Int == Int(ATTErrorCode.insufficientEncryption.rawValue))
        #expect(await side.peripheral.securityLevel(of: side.handle) == .none)
        #expect(side.peripheral.controller.bonds.bonds.isEmpty)
        #expect(side.events.pairings == 0)
        await side.stop()
    }

    // MARK: Users

    /// Numeric Comparison: records the number and says yes.
    final class Numbers: PairingDelegate, Sendable {
        let seen = Mutex<[UInt32]>([])
        func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }
        func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool {
            seen.withLock { $0.append(number) }
            return true
        }
        func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {}
        func enterPasskey(for peer: BluetoothAddress) async -> UInt32? { nil }
    }

    /// Passkey Entry with swift-att displaying: the user types what it shows into Bumble.
    final class Typist: PairingDelegate, Sendable {
        /// Bumble's standard input, where the user's typing goes.
        let bumble = Mutex<FileHandle?>(nil)
        let shown = Mutex<[UInt32]>([])
        func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }
        func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool { true }
        func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {
            shown.withLock { $0.append(passkey) }
            try? await eventually("the Bumble peer started") { bumble.withLock { $0 } != nil }
            bumble.withLock { $0 }?.write(Data("passkey \(passkey)\n".utf8))
        }
        func enterPasskey(for peer: BluetoothAddress) async -> UInt32? { nil }
    }

    /// Passkey Entry with Bumble displaying: the user reads what Bumble shows (the test
    /// hands it over once Bumble reports it) and types it into swift-att.
    final class Reader: PairingDelegate, Sendable {
        /// What Bumble shows.
        let shown = Mutex<UInt32?>(nil)
        /// How often swift-att asked for a passkey.
        let asked = Mutex(0)
        func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }
        func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool { true }
        func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {}
        func enterPasskey(for peer: BluetoothAddress) async -> UInt32? {
            asked.withLock { $0 += 1 }
            try? await eventually("Bumble showed its passkey") { shown.withLock { $0 } != nil }
            return shown.withLock { $0 }
        }
    }
}
