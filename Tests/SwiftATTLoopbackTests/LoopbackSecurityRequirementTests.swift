import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTSecurity
import Testing
import TestSupport

/// `Peer.require` and `Central.connect(security:)`: a central states the security it
/// needs up front, rather than learning it from a refused request, and the link gets
/// there — with the bond, by pairing, by pairing anew — or the call says how far it got.
@Suite struct LoopbackSecurityRequirementTests {
    typealias Pair = LoopbackPairingTests.SecurePair

    static func passkeyUsers() -> (LoopbackPairingTests.Users, SecurityConfiguration, SecurityConfiguration) {
        (LoopbackPairingTests.Users(), LoopbackPairingTests.configuration(.keyboardOnly, mitm: true),
         LoopbackPairingTests.configuration(.displayOnly, mitm: true))
    }

    @Test func requiringEncryptionPairsAnUnbondedLinkOnce() async throws {
        let pair = try await Pair.start()
        let peer = try await pair.connect()
        #expect(try await peer.require(.encrypted) == .encrypted(keySize: 16))
        // Already met: nothing more happens.
        #expect(try await peer.require(.encrypted) == .encrypted(keySize: 16))
        #expect(try await peer.require(.open) == .encrypted(keySize: 16))
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    @Test func justWorksCannotAuthenticateAndSaysHowFarItGot() async throws {
        let pair = try await Pair.start()
        let peer = try await pair.connect()
        do {
            try await peer.require(.authenticated)
            Issue.record("Just Works met an authentication requirement")
        } catch {
            #expect(error == .insufficientSecurity(reached: .encrypted(keySize: 16), required: .authenticated))
            #expect(error.description == "the link is encrypted (unauthenticated, 16-octet key), short of what was asked: authentication, a key of at least 7 octets")
        }
        // It encrypted, and when that fell short paired anew once: two pairings.
        #expect(await pair.centralEvents.pairings(reaching: 2).count == 2)
        await pair.stop()
    }

    @Test func aJustWorksBondIsReplacedByAnAuthenticatedPairingWhenAuthenticationIsRequired() async throws {
        var (users, central, peripheral) = Self.passkeyUsers()
        // A peripheral with a display that takes Just Works from a central without IO.
        peripheral.pairing.requiresMITM = false
        var justWorks = central
        justWorks.pairing.ioCapability = .noInputNoOutput
        justWorks.pairing.requiresMITM = false
        let pair = try await Pair.start(central: justWorks, centralDelegate: users.side,
                                        peripheral: peripheral, peripheralDelegate: users.side)
        var peer = try await pair.connect()
        // A bond from Just Works (the central has no IO)…
        #expect(try await peer.require(.encrypted) == .encrypted(keySize: 16))
        try await peer.disconnect()
        try await eventually("the link gone") { pair.link.connectionCount == 0 }
        // …then the central gains a keyboard: encrypting with the old bond is not enough.
        try await pair.central.controller.configureSecurity(central, delegate: users.side)
        peer = try await pair.connect()
        #expect(try await peer.require(.secureConnections) == .secureConnections(keySize: 16))
        #expect(users.shown.withLock { $0 }.count == 1)
        let (bond, _) = try await pair.settledBonds()
        #expect(bond?.authenticated == true)
        await pair.stop()
    }

    @Test func connectWithARequirementReturnsASecuredLink() async throws {
        let pair = try await Pair.start()
        let device = try #require(try await first(pair.central.scan(services: [LoopbackPairingTests.service])) { $0 })
        let peer = try await pair.central.connect(device.address, security: .encrypted)
        #expect(await peer.securityLevel == .encrypted(keySize: 16))
        #expect(await pair.peripheral.securityLevel(of: peer.handle) == .encrypted(keySize: 16))
        // The encrypted value is read with no refusal first.
        let value = try await pair.characteristic(LoopbackPairingTests.encryptedUUID, of: peer)
        #expect(try await peer.read(value) == LoopbackPairingTests.secret)
        #expect(await pair.centralEvents.pairings(reaching: 1).count == 1)
        await pair.stop()
    }

    @Test func connectWithARequirementThatCannotBeMetEndsTheLink() async throws {
        let pair = try await Pair.start()
        let device = try #require(try await first(pair.central.scan(services: [LoopbackPairingTests.service])) { $0 })
        do {
            _ = try await pair.central.connect(device.address, security: .authenticated)
            Issue.record("connected with an authentication requirement Just Works cannot meet")
        } catch {
            guard case let .security(reason) = error else { throw error }
            #expect(reason == .insufficientSecurity(reached: .encrypted(keySize: 16), required: .authenticated))
        }
        try await eventually("the link ended") { pair.link.connectionCount == 0 }
        await pair.stop()
    }
}
