import SwiftATTCore
import SwiftATTSMP
import Testing
@testable import SwiftATTSecurity

/// The keys a peer distributes are checked before they become a bond (Core 5.4 Vol 3
/// Part H §2.3.4, §3.6.4–§3.6.5): a man in the middle (`PairingHarness.tamper`) rewrites
/// what the responder sends, and the initiator must not store what no link could use.
@Suite("Keys received in the key distribution phase")
struct ReceivedKeyTests {
    static let identity = PairingSessionTests.identityB

    static func harness(responderIdentity: LocalIdentity = identity, sc: SecureConnectionsMode = .preferred,
                        maximumKeySize: UInt8 = 16) -> PairingHarness {
        var responder = PairingSessionTests.configuration(.noInputNoOutput, sc: sc, identity: responderIdentity)
        responder.maximumKeySize = maximumKeySize
        return PairingHarness(initiator: PairingSessionTests.configuration(.noInputNoOutput, sc: sc,
                                                                            identity: PairingSessionTests.identityA),
                              responder: responder)
    }

    @Test("A legacy LTK longer than the negotiated key size is cut to it, as the controller will use it")
    func legacyKeyCutToKeySize() throws {
        var h = Self.harness(sc: .disabled, maximumKeySize: 7)
        h.tamper = { from, pdu in
            guard from == .responder, case let .encryptionInformation(ltk) = pdu else { return pdu }
            return .encryptionInformation(longTermKey: ltk | (UInt128(0xA5A5_A5A5_A5A5_A5A5_A5) << 56))
        }
        let (i, r) = h.run()
        guard case let .completed(a) = i, case let .completed(b) = r else {
            Issue.record("initiator \(i), responder \(r)")
            return
        }
        #expect(a.keySize == 7)
        let sent = try #require(b.localKeys.longTermKey)
        let received = try #require(a.longTermKey)
        #expect(received.key >> 56 == 0, "7 octets kept: \(String(received.key, radix: 16))")
        #expect(received == sent)
    }

    static let notIdentities: [BluetoothAddress] = [
        BluetoothAddress(0x4A_11_22_33_44_55, kind: .random),    // resolvable private
        BluetoothAddress(0x0A_11_22_33_44_55, kind: .random),    // non-resolvable private
        BluetoothAddress(0xC0_00_00_00_00_00, kind: .random),    // static, random bits all 0
        BluetoothAddress(0xFF_FF_FF_FF_FF_FF, kind: .random),    // static, random bits all 1
        BluetoothAddress(0x8A_11_22_33_44_55, kind: .random),    // reserved prefix
        BluetoothAddress(0, kind: .public),
    ]

    @Test("An identity address that cannot identify ends the pairing with Invalid Parameters", arguments: notIdentities)
    func unusableIdentityRefused(_ address: BluetoothAddress) {
        var h = Self.harness()
        h.tamper = { from, pdu in
            guard from == .responder, case .identityAddressInformation = pdu else { return pdu }
            return .identityAddressInformation(address)
        }
        let (i, r) = h.run()
        #expect(i == .failed(.sent(.invalidParameters)))
        #expect(r == .failed(.received(.invalidParameters)))
    }

    @Test("An all-zero IRK is dropped, the identity address kept")
    func zeroIdentityResolvingKeyDropped() throws {
        var h = Self.harness()
        h.tamper = { from, pdu in
            guard from == .responder, case .identityInformation = pdu else { return pdu }
            return .identityInformation(identityResolvingKey: 0)
        }
        let (i, _) = h.run()
        guard case let .completed(a) = i else {
            Issue.record("initiator \(i)")
            return
        }
        #expect(a.peerKeys.identityResolvingKey == nil)
        #expect(a.peerKeys.identityAddress == Self.identity.address)
    }

    @Test("Without tampering the same keys arrive (the checks pass honest peers)")
    func honestPeerUnchanged() throws {
        var h = Self.harness()
        h.tamper = { _, pdu in pdu }
        let (i, r) = h.run()
        guard case let .completed(a) = i, case let .completed(b) = r else {
            Issue.record("initiator \(i), responder \(r)")
            return
        }
        #expect(a.peerKeys == b.localKeys)
        #expect(a.peerKeys.identityResolvingKey == Self.identity.identityResolvingKey)
    }
}

@Suite("PairingConfiguration.validate")
struct PairingConfigurationValidationTests {
    @Test("The default configuration and a full one are valid")
    func validConfigurations() throws {
        try PairingConfiguration().validate()
        try PairingConfiguration(ioCapability: .keyboardDisplay, maximumKeySize: 7, minimumKeySize: 7,
                                 identity: PairingSessionTests.identityA, fixedPasskey: 999_999).validate()
    }

    static let invalid: [(PairingConfiguration, PairingConfigurationError)] = [
        (PairingConfiguration(maximumKeySize: 17), .keySizeOutOfRange(17)),
        (PairingConfiguration(minimumKeySize: 6), .keySizeOutOfRange(6)),
        (PairingConfiguration(maximumKeySize: 8, minimumKeySize: 9), .minimumAboveMaximum(minimum: 9, maximum: 8)),
        (PairingConfiguration(identity: LocalIdentity(identityResolvingKey: 1, address: BluetoothAddress(0x4A_11_22_33_44_55, kind: .random))),
         .identityNotAnIdentityAddress(BluetoothAddress(0x4A_11_22_33_44_55, kind: .random))),
        (PairingConfiguration(identity: LocalIdentity(identityResolvingKey: 0, address: PairingSessionTests.identityA.address)),
         .zeroIdentityResolvingKey),
        (PairingConfiguration(fixedPasskey: 1_000_000), .passkeyOutOfRange(1_000_000)),
    ]

    @Test("Each impossible value is named", arguments: invalid)
    func invalidConfigurations(_ configuration: PairingConfiguration, _ expected: PairingConfigurationError) {
        #expect(throws: expected) { try configuration.validate() }
        #expect(!expected.description.isEmpty)
    }
}
