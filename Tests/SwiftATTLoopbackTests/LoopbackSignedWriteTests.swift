import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Testing
import TestSupport

/// Signed Write Without Response between two swift-att hosts (Core 5.4 Vol 3 Part G
/// §4.9.2, Part H §2.4.5): each side's CSRK distributed when bonding, the signature
/// checked by the server against the bond, the SignCounter guarding against replay.
@Suite struct LoopbackSignedWriteTests {
    typealias SecurePair = LoopbackPairingTests.SecurePair

    /// Bonds, then reconnects without encrypting: a signature is the only protection.
    static func bondedPlainLink(_ pair: SecurePair) async throws -> (Peer, GATTClient.Characteristic) {
        var peer = try await pair.connect()
        try await peer.pair()
        _ = try await pair.settledBonds()
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        peer = try await pair.connect()
        #expect(await peer.securityLevel == .none)
        return (peer, try await pair.characteristic(LoopbackPairingTests.signedUUID, of: peer))
    }

    /// Waits until the server has handled everything sent before (a read answers after).
    static func settle(_ peer: Peer, _ pair: SecurePair) async throws {
        _ = try await peer.read(handle: 0x0001)
    }

    static let plain = SecurityConfiguration(encryptsBondedLinks: false)

    @Test func signedWritesReachTheServerWithRisingCounters() async throws {
        let pair = try await SecurePair.start(central: Self.plain)
        let (peer, characteristic) = try await Self.bondedPlainLink(pair)
        try await peer.write([0x01], to: characteristic, type: .signedWithoutResponse)
        try await peer.write([0x02], to: characteristic, type: .signedWithoutResponse)
        try await Self.settle(peer, pair)
        #expect(pair.writes.values == [[0x01], [0x02]])
        #expect(pair.writes.kinds == [.signedCommand, .signedCommand])
        let (central, peripheral) = pair.bonds()
        #expect(central?.localSignCounter == 2)
        #expect(peripheral?.peerSignCounter == 1)
        #expect(central?.localSignatureKey != nil && central?.localSignatureKey == peripheral?.peerSignatureKey)
        await pair.stop()
    }

    @Test func aReplayedCounterOrAWrongKeyIsDropped() async throws {
        let pair = try await SecurePair.start(central: Self.plain)
        let (peer, characteristic) = try await Self.bondedPlainLink(pair)
        try await peer.write([0x01], to: characteristic, type: .signedWithoutResponse)
        try await peer.write([0x02], to: characteristic, type: .signedWithoutResponse)
        try await Self.settle(peer, pair)
        let address = pair.peripheral.info.randomAddress
        var bond = try #require(pair.central.controller.bonds.bond(for: address))
        // The central signs with a counter the server has seen (as a replay would).
        bond.localSignCounter = 1
        try pair.central.controller.bonds.save(bond)
        try await peer.write([0x03], to: characteristic, type: .signedWithoutResponse)
        // And with a key the server never received.
        bond.localSignCounter = 10
        bond.localSignatureKey = (bond.localSignatureKey ?? 0) ^ 1
        try pair.central.controller.bonds.save(bond)
        try await peer.write([0x04], to: characteristic, type: .signedWithoutResponse)
        try await Self.settle(peer, pair)
        #expect(pair.writes.values == [[0x01], [0x02]])
        #expect(pair.bonds().peripheral?.peerSignCounter == 1)
        await pair.stop()
    }

    @Test func onAnEncryptedLinkAPlainCommandGoes() async throws {
        let pair = try await SecurePair.start()
        let peer = try await pair.connect()
        try await peer.pair()
        let characteristic = try await pair.characteristic(LoopbackPairingTests.signedUUID, of: peer)
        try await peer.write([0x09], to: characteristic, type: .signedWithoutResponse)
        try await Self.settle(peer, pair)
        #expect(pair.writes.kinds == [.command])
        #expect(pair.bonds().central?.localSignCounter == 0)
        await pair.stop()
    }

    @Test func withoutABondThereIsNoKeyToSignWith() async throws {
        let pair = try await SecurePair.start()
        let peer = try await pair.connect()
        let characteristic = try await pair.characteristic(LoopbackPairingTests.signedUUID, of: peer)
        await #expect {
            try await peer.write([0x01], to: characteristic, type: .signedWithoutResponse)
        } throws: { error in
            guard case let .notSupported(reason) = error as? GATTClientError else { return false }
            return reason.contains("CSRK")
        }
        #expect(pair.writes.values.isEmpty)
        await pair.stop()
    }
}
