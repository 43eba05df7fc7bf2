import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP
import Testing
@testable import SwiftATTSecurity

/// Two sessions pair with each other through every association model, both ways round,
/// and end with the same keys.
@Suite("Pairing between two sessions")
struct PairingSessionTests {
    static let identityA = LocalIdentity(identityResolvingKey: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF,
                                         address: BluetoothAddress(0xD0_01_02_03_04_05, kind: .random))
    static let identityB = LocalIdentity(identityResolvingKey: 0xFFEE_DDCC_BBAA_9988_7766_5544_3322_1100,
                                         address: BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public))

    static func configuration(_ io: IOCapability, sc: SecureConnectionsMode = .preferred, identity: LocalIdentity? = nil,
                              csrk: UInt128? = nil) -> PairingConfiguration {
        PairingConfiguration(ioCapability: io, secureConnections: sc, identity: identity, signatureKey: csrk)
    }

    /// Both completed, agreeing on what was done, with keys that cross over.
    static func expectAgreement(_ h: PairingHarness, method: PairingMethod, secureConnections: Bool,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (i, r) = (h.outcome(h.initiatorActions), h.outcome(h.responderActions))
        guard case let .completed(a) = i, case let .completed(b) = r else {
            Issue.record("not completed: initiator \(i), responder \(r)", sourceLocation: sourceLocation)
            return
        }
        #expect(a.method == method, sourceLocation: sourceLocation)
        #expect(b.method == method, sourceLocation: sourceLocation)
        #expect(a.secureConnections == secureConnections && b.secureConnections == secureConnections,
                sourceLocation: sourceLocation)
        #expect(a.authenticated == method.isAuthenticated && b.authenticated == method.isAuthenticated,
                sourceLocation: sourceLocation)
        #expect(a.longTermKey == b.longTermKey, sourceLocation: sourceLocation)
        #expect(a.longTermKey != nil, sourceLocation: sourceLocation)
        #expect(a.localKeys == b.peerKeys, sourceLocation: sourceLocation)
        #expect(a.peerKeys == b.localKeys, sourceLocation: sourceLocation)
        // The controllers encrypted with one key on both sides.
        #expect(h.encryptionKeys[.initiator] != nil, sourceLocation: sourceLocation)
        #expect(h.encryptionKeys[.initiator] == h.encryptionKeys[.responder], sourceLocation: sourceLocation)
        #expect(h.initiator.nextDeadline == nil && h.responder.nextDeadline == nil, sourceLocation: sourceLocation)
    }

    @Test("LE Secure Connections, Just Works: the same LTK on both sides, identities exchanged")
    func secureConnectionsJustWorks() throws {
        var h = PairingHarness(initiator: Self.configuration(.noInputNoOutput, identity: Self.identityA, csrk: 0xA5),
                               responder: Self.configuration(.noInputNoOutput, identity: Self.identityB, csrk: 0x5A))
        _ = h.run()
        try Self.expectAgreement(h, method: .justWorks, secureConnections: true)
        guard case let .completed(a) = h.outcome(h.initiatorActions) else { return }
        #expect(a.peerKeys.identityAddress == Self.identityB.address)
        #expect(a.peerKeys.identityResolvingKey == Self.identityB.identityResolvingKey)
        #expect(a.peerKeys.signatureKey == 0x5A)
        #expect(a.localKeys.signatureKey == 0xA5)
        // Secure Connections distributes no LTK: it is derived on both sides.
        #expect(a.peerKeys.longTermKey == nil && a.localKeys.longTermKey == nil)
        #expect(!h.traffic.contains { $0.pdu.code == .encryptionInformation })
    }

    @Test("LE Secure Connections, Numeric Comparison: both users see the same six digits")
    func numericComparison() throws {
        var h = PairingHarness(initiator: Self.configuration(.displayYesNo), responder: Self.configuration(.keyboardDisplay))
        _ = h.run()
        try Self.expectAgreement(h, method: .numericComparison, secureConnections: true)
        let shown = try #require(h.comparedNumbers[.initiator])
        #expect(h.comparedNumbers[.responder] == shown)
        #expect(shown < 1_000_000)
    }

    @Test("Numeric Comparison rejected by either user fails with Numeric Comparison Failed",
          arguments: [PairingRole.initiator, .responder])
    func numericComparisonRejected(_ rejecting: PairingRole) {
        var h = PairingHarness(initiator: Self.configuration(.displayYesNo), responder: Self.configuration(.displayYesNo))
        h.users.confirms[rejecting] = false
        let (i, r) = h.run()
        let (mine, theirs) = rejecting == .initiator ? (i, r) : (r, i)
        #expect(mine == .failed(.sent(.numericComparisonFailed)))
        #expect(theirs == .failed(.received(.numericComparisonFailed)))
        #expect(h.encryptionKeys.isEmpty)
    }

    struct PasskeyCase: Sendable, CustomTestStringConvertible {
        var initiator: IOCapability
        var responder: IOCapability
        var sc: SecureConnectionsMode
        var testDescription: String { "\(initiator) → \(responder), SC \(sc)" }
    }

    static let passkeyCases: [PasskeyCase] = [
        // The initiator displays, the responder types.
        PasskeyCase(initiator: .displayOnly, responder: .keyboardOnly, sc: .preferred),
        // The responder displays, the initiator types.
        PasskeyCase(initiator: .keyboardOnly, responder: .displayOnly, sc: .preferred),
        // Both type the same passkey.
        PasskeyCase(initiator: .keyboardOnly, responder: .keyboardOnly, sc: .preferred),
        PasskeyCase(initiator: .displayOnly, responder: .keyboardOnly, sc: .disabled),
        PasskeyCase(initiator: .keyboardOnly, responder: .displayOnly, sc: .disabled),
        PasskeyCase(initiator: .keyboardDisplay, responder: .keyboardDisplay, sc: .disabled),
        PasskeyCase(initiator: .keyboardOnly, responder: .keyboardOnly, sc: .disabled),
    ]

    @Test("Passkey Entry, every direction, Secure Connections (20 rounds) and legacy", arguments: passkeyCases)
    func passkeyEntry(_ c: PasskeyCase) throws {
        var h = PairingHarness(initiator: Self.configuration(c.initiator, sc: c.sc),
                               responder: Self.configuration(c.responder, sc: c.sc))
        _ = h.run()
        let sc = c.sc != .disabled
        guard case let .passkeyEntry(iIn, rIn)? = h.initiator.method else {
            Issue.record("method \(String(describing: h.initiator.method))")
            return
        }
        try Self.expectAgreement(h, method: .passkeyEntry(initiatorInputs: iIn, responderInputs: rIn), secureConnections: sc)
        if sc {
            // One confirm and one random each way per passkey bit.
            #expect(h.traffic.filter { $0.pdu.code == .pairingConfirm }.count == 40)
            #expect(h.traffic.filter { $0.pdu.code == .pairingRandom }.count == 40)
        }
    }

    @Test("A wrong passkey fails with Confirm Value Failed on both sides",
          arguments: [SecureConnectionsMode.preferred, .disabled])
    func wrongPasskey(_ sc: SecureConnectionsMode) {
        var h = PairingHarness(initiator: Self.configuration(.displayOnly, sc: sc),
                               responder: Self.configuration(.keyboardOnly, sc: sc))
        // Whatever is displayed, the responder's user types something else.
        h.users.typedPasskey[.responder] = 999_999
        let (i, r) = h.run()
        if h.displayedPasskey == 999_999 { return }  // one in a million
        let failures: Set<PairingFailure> = [
            { if case let .failed(f) = i { return f }; return .disconnected }(),
            { if case let .failed(f) = r { return f }; return .disconnected }(),
        ]
        #expect(failures == [.sent(.confirmValueFailed), .received(.confirmValueFailed)])
        #expect(h.encryptionKeys.isEmpty)
    }

    @Test("A cancelled passkey fails with Passkey Entry Failed")
    func cancelledPasskey() {
        var h = PairingHarness(initiator: Self.configuration(.keyboardOnly), responder: Self.configuration(.displayOnly))
        h.users.typedPasskey[.initiator] = .some(nil)
        let (i, r) = h.run()
        #expect(i == .failed(.sent(.passkeyEntryFailed)))
        #expect(r == .failed(.received(.passkeyEntryFailed)))
    }

    @Test("LE legacy pairing, Just Works: the responder's distributed LTK, EDIV and Rand name the bond")
    func legacyJustWorks() throws {
        var h = PairingHarness(initiator: Self.configuration(.noInputNoOutput, sc: .disabled, identity: Self.identityA),
                               responder: Self.configuration(.noInputNoOutput, identity: Self.identityB))
        _ = h.run()
        try Self.expectAgreement(h, method: .justWorks, secureConnections: false)
        guard case let .completed(a) = h.outcome(h.initiatorActions),
              case let .completed(b) = h.outcome(h.responderActions) else { return }
        let ltk = try #require(a.longTermKey)
        #expect(ltk == b.localKeys.longTermKey)
        #expect(a.localKeys.longTermKey != nil)   // the initiator's, for when roles reverse
        #expect(b.peerKeys.identityAddress == Self.identityA.address)
        // The link was encrypted with the STK, not with the distributed LTK.
        #expect(h.encryptionKeys[.initiator] != ltk.key)
    }

    @Test("A 7-octet maximum key size shortens the keys")
    func shortKeys() throws {
        var small = Self.configuration(.noInputNoOutput)
        small.maximumKeySize = 7
        for sc in [SecureConnectionsMode.preferred, .disabled] {
            var responder = small
            responder.secureConnections = sc
            var h = PairingHarness(initiator: Self.configuration(.noInputNoOutput), responder: responder)
            _ = h.run()
            guard case let .completed(a) = h.outcome(h.initiatorActions) else {
                Issue.record("SC \(sc): \(h.outcome(h.initiatorActions))")
                continue
            }
            #expect(a.keySize == 7)
            let key = try #require(h.encryptionKeys[.initiator])
            #expect(key >> 56 == 0, "only 7 octets: \(String(key, radix: 16))")
            #expect(try #require(a.longTermKey).key >> 56 == 0)
        }
    }

    @Test("Refusals: SC Only against a legacy peer, a short key, MITM required but impossible")
    func refusals() {
        var scOnly = Self.configuration(.noInputNoOutput, sc: .only)
        var h = PairingHarness(initiator: scOnly, responder: Self.configuration(.noInputNoOutput, sc: .disabled))
        #expect(h.run() == (.failed(.sent(.authenticationRequirements)), .failed(.received(.authenticationRequirements))))

        var short = Self.configuration(.noInputNoOutput)
        short.maximumKeySize = 15
        h = PairingHarness(initiator: short, responder: scOnly)
        #expect(h.run() == (.failed(.received(.encryptionKeySize)), .failed(.sent(.encryptionKeySize))))

        scOnly.requiresMITM = true
        h = PairingHarness(initiator: Self.configuration(.displayYesNo), responder: scOnly)
        // DisplayYesNo against NoInputNoOutput can only be Just Works.
        #expect(h.run() == (.failed(.received(.authenticationRequirements)), .failed(.sent(.authenticationRequirements))))
        #expect(h.traffic.count == 2)
    }

    @Test("The application declines an incoming request: Pairing Not Supported")
    func declined() {
        var responder = Self.configuration(.noInputNoOutput)
        responder.confirmsIncomingPairing = true
        var h = PairingHarness(initiator: Self.configuration(.noInputNoOutput), responder: responder)
        h.users.accepts = false
        #expect(h.run() == (.failed(.received(.pairingNotSupported)), .failed(.sent(.pairingNotSupported))))
        #expect(h.responderActions.contains { if case .acceptPairing = $0 { return true }; return false })
    }

    @Test("Out of band: the peer's data checked against its public key")
    func outOfBand() throws {
        // The responder's key and OOB data, given to the initiator beforehand.
        let responderKey = P256KeyPair.generate()
        let r: UInt128 = 0x1234_5678_9ABC_DEF0_0FED_CBA9_8765_4321
        let c = SecurityFunctions.f4(u: responderKey.publicKey.x, v: responderKey.publicKey.x, x: r, z: 0)
        var initiator = Self.configuration(.noInputNoOutput)
        initiator.outOfBand = OutOfBandData(peer: .init(random: r, confirm: c))
        var responder = Self.configuration(.noInputNoOutput)
        responder.outOfBand = OutOfBandData(local: .init(random: r, confirm: c))
        var h = PairingHarness(initiator: initiator, responder: responder)
        h.responder = PairingSession(role: .responder, configuration: responder,
                                     initiatorAddress: PairingHarness.initiatorAddress,
                                     responderAddress: PairingHarness.responderAddress, keyPair: responderKey)
        _ = h.run()
        try Self.expectAgreement(h, method: .outOfBand, secureConnections: true)

        // Data that does not belong to the key the responder sends: Confirm Value Failed.
        initiator.outOfBand = OutOfBandData(peer: .init(random: r &+ 1, confirm: c))
        h = PairingHarness(initiator: initiator, responder: responder)
        h.responder = PairingSession(role: .responder, configuration: responder,
                                     initiatorAddress: PairingHarness.initiatorAddress,
                                     responderAddress: PairingHarness.responderAddress, keyPair: responderKey)
        #expect(h.run() == (.failed(.sent(.confirmValueFailed)), .failed(.received(.confirmValueFailed))))
    }

    @Test("No bonding: nothing distributed, the link still encrypted")
    func noBonding() throws {
        var i = Self.configuration(.noInputNoOutput, identity: Self.identityA)
        i.bonding = false
        var h = PairingHarness(initiator: i, responder: Self.configuration(.noInputNoOutput, identity: Self.identityB))
        _ = h.run()
        try Self.expectAgreement(h, method: .justWorks, secureConnections: true)
        guard case let .completed(a) = h.outcome(h.initiatorActions) else { return }
        #expect(!a.bonding)
        #expect(a.peerKeys.isEmpty && a.localKeys.isEmpty)
    }
}
