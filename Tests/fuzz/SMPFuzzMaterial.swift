import SwiftATTCrypto
import SwiftATTSMP
import SwiftATTSecurity

/// What the `smp` target builds sessions and PDUs from: fixed key pairs, the
/// out-of-band data over them, addresses, configurations and well-formed PDUs read from
/// the input.
///
/// The key pairs are fixed so no execution generates one (a P-256 key generation per
/// input would dominate the run) and a crash input replays the same keys. Random bytes
/// are almost never a point of P-256, so the PDU builder offers these points (and
/// a few invalid ones) instead.
enum SMPFuzzMaterial {
    /// The sessions' own key in the single-session mode, and the initiator's with a man
    /// in the middle: the spec's debug key (Core 5.4 Vol 3 Part H §2.3.5.6.1).
    static let local = P256KeyPair.debug
    /// The scripted peer's key, and the responder's with a man in the middle.
    static let peer = fixedKeyPair(0x1C)
    /// A third valid key: one the man in the middle substitutes for either side's.
    static let intruder = fixedKeyPair(0x2D)

    /// A key pair from a private scalar of 32 equal octets (far below the group order).
    static func fixedKeyPair(_ octet: UInt8) -> P256KeyPair {
        do {
            return try P256KeyPair(privateKey: [UInt8](repeating: octet, count: 32))
        } catch {
            fatalError("a scalar of 32 octets \(octet) is in [1, n - 1]: \(error)")
        }
    }

    /// The public keys a structured Pairing Public Key carries: the three valid ones, a
    /// point off the curve, the point at infinity (all zero), and a coordinate equal to
    /// the field prime (out of range).
    static let publicKeys: [P256PublicKey] = [
        local.publicKey, peer.publicKey, intruder.publicKey,
        P256PublicKey(x: peer.publicKey.x, y: peer.publicKey.y.enumerated().map { $0.offset == 31 ? $0.element ^ 1 : $0.element }),
        P256PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)),
        P256PublicKey(x: [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 12)
                          + [UInt8](repeating: 0xFF, count: 12),
                      y: peer.publicKey.y),
    ]

    /// Out-of-band data over a key, as the device owning it would hand it out: r and
    /// C = f4(PKx, PKx, r, 0) (§2.3.5.6.4). Fixed r, computed once per key.
    static let localOutOfBand = outOfBand(for: local, random: 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210)
    static let peerOutOfBand = outOfBand(for: peer, random: 0x1032_5476_98BA_DCFE_EFCD_AB89_6745_2301)

    static func outOfBand(for key: P256KeyPair, random: UInt128) -> OutOfBandData.Values {
        let x = key.publicKey.x
        return OutOfBandData.Values(random: random, confirm: SecurityFunctions.f4(u: x, v: x, x: random, z: 0))
    }

    /// OOB data whose confirm does not open with its random: Confirm Value Failed.
    static func corrupted(_ values: OutOfBandData.Values) -> OutOfBandData.Values {
        OutOfBandData.Values(random: values.random, confirm: values.confirm ^ 1)
    }

    /// The two ends of the link: a static random initiator (or a public one) and a
    /// public responder, so both address kinds reach c1, f5 and f6.
    static func addresses(initiatorIsPublic: Bool) -> (initiator: BluetoothAddress, responder: BluetoothAddress) {
        (BluetoothAddress(0xC0_11_22_33_44_55, kind: initiatorIsPublic ? .public : .random),
         BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public))
    }

    /// A 128-bit value: one octet n, then n mod 17 octets, most significant first (so
    /// short inputs give small values and the fuzzer may still write all sixteen).
    static func value128(_ input: inout FuzzInput) -> UInt128 {
        let count = Int(input.byte() ?? 0) % 17
        var value: UInt128 = 0
        for _ in 0..<count { value = value << 8 | UInt128(input.byte() ?? 0) }
        return value
    }

    /// A passkey answer: cancelled (`nil`), small, the largest valid, or out of range.
    static func passkey(_ input: inout FuzzInput) -> UInt32? {
        let choice = input.byte() ?? 1
        switch choice % 4 {
        case 0: return nil
        case 1: return UInt32(input.uint16() ?? 0)
        case 2: return 999_999
        default: return 1_000_000 + UInt32(choice)
        }
    }

    /// Pairing Request or Response fields from six octets, every one valid: the fuzzer
    /// spends its mutations on the choices, not on getting past the decoder.
    static func features(_ input: inout FuzzInput) -> PairingFeatures {
        let octets = (0..<6).map { _ in input.byte() ?? 0 }
        return PairingFeatures(
            ioCapability: IOCapability(rawValue: octets[0] % 5) ?? .noInputNoOutput,
            oobDataPresent: octets[1] & 1 != 0,
            authenticationRequirements: AuthenticationRequirements(rawValue: octets[2]),
            maximumEncryptionKeySize: 16 - octets[3] % 10,
            initiatorKeyDistribution: KeyDistribution(rawValue: octets[4]),
            responderKeyDistribution: KeyDistribution(rawValue: octets[5]))
    }

    /// A well-formed SMP PDU of any command: one octet picks the command, the octets
    /// after fill it.
    static func pdu(_ input: inout FuzzInput) -> SMPPDU {
        let kind = input.byte() ?? 0
        switch kind % 14 {
        case 0: return .pairingRequest(features(&input))
        case 1: return .pairingResponse(features(&input))
        case 2:
            let key = publicKeys[Int(input.byte() ?? 0) % publicKeys.count]
            return .pairingPublicKey(x: key.x, y: key.y)
        case 3: return .pairingConfirm(value128(&input))
        case 4: return .pairingRandom(value128(&input))
        case 5: return .pairingFailed(PairingFailureReason(rawValue: 1 + (input.byte() ?? 0) % 15) ?? .unspecifiedReason)
        case 6: return .encryptionInformation(longTermKey: value128(&input))
        case 7:
            let ediv = input.uint16() ?? 0
            return .centralIdentification(ediv: ediv, rand: UInt64(truncatingIfNeeded: value128(&input)))
        case 8: return .identityInformation(identityResolvingKey: value128(&input))
        case 9:
            let kind = input.byte() ?? 0
            let value = UInt64(truncatingIfNeeded: value128(&input))
            return .identityAddressInformation(BluetoothAddress(value, kind: kind & 1 == 0 ? .public : .random))
        case 10: return .signingInformation(signatureKey: value128(&input))
        case 11: return .securityRequest(AuthenticationRequirements(rawValue: input.byte() ?? 0))
        case 12: return .pairingDHKeyCheck(value128(&input))
        default:
            return .pairingKeypressNotification(KeypressNotificationType(rawValue: (input.byte() ?? 0) % 5) ?? .entryStarted)
        }
    }
}

/// Four octets of the input read as one device's `PairingConfiguration`; every octet
/// zero is the default configuration (bonding, Secure Connections preferred, keys 7-16,
/// all three keys asked for).
///
///     octet 0  bits 0-2 IO capability (mod 5), bits 3-4 SC mode (preferred, only,
///              disabled, preferred), bit 5 requires MITM, bit 6 no bonding,
///              bit 7 confirms incoming pairing
///     octet 1  low nibble: maximum key size 16 - (n mod 10); high nibble: minimum key
///              size n + 1 (below 7 the session clamps it; above the maximum nothing pairs)
///     octet 2  requested keys, XOR 0x07 (every bit, the reserved ones included)
///     octet 3  bit 0 an identity (IRK and address; bit 1: static random address, else
///              public), bit 2 a CSRK, bit 3 hands its OOB data to the peer, bit 4 holds
///              the peer's, bit 5 the peer's OOB data is corrupted
///
/// The maximum key size stays in 7-16: a configuration outside it would send a Pairing
/// Request that does not decode, a programmer's error the configuration does not catch.
struct SMPFuzzConfiguration {
    let octets: [UInt8]

    init(_ input: inout FuzzInput) {
        octets = (0..<4).map { _ in input.byte() ?? 0 }
    }

    var givesOutOfBand: Bool { octets[3] & 0x08 != 0 }
    var holdsPeerOutOfBand: Bool { octets[3] & 0x10 != 0 }
    var peerOutOfBandCorrupted: Bool { octets[3] & 0x20 != 0 }

    /// The configuration, with out-of-band data built by the caller (it depends on both ends).
    func configuration(outOfBand: OutOfBandData?) -> PairingConfiguration {
        let modes: [SecureConnectionsMode] = [.preferred, .only, .disabled, .preferred]
        let identityAddress = octets[3] & 0x02 != 0
            ? BluetoothAddress(0xD0_00_00_00_00_01 | UInt64(octets[2]) << 8, kind: .random)
            : BluetoothAddress(0x00_1B_DC_00_00_01 | UInt64(octets[2]) << 8, kind: .public)
        return PairingConfiguration(
            ioCapability: IOCapability(rawValue: (octets[0] & 0x07) % 5) ?? .noInputNoOutput,
            bonding: octets[0] & 0x40 == 0,
            requiresMITM: octets[0] & 0x20 != 0,
            secureConnections: modes[Int(octets[0] >> 3 & 3)],
            maximumKeySize: 16 - (octets[1] & 0x0F) % 10,
            minimumKeySize: (octets[1] >> 4) + 1,
            identity: octets[3] & 0x01 != 0
                ? LocalIdentity(identityResolvingKey: 0x1D1D_0000_0000_0000_0000_0000_0000_1D1D | UInt128(octets[1]),
                                address: identityAddress)
                : nil,
            signatureKey: octets[3] & 0x04 != 0 ? 0xC5_4C_0000_0000_0000_0000_0000_0000_C54C : nil,
            requestedKeys: KeyDistribution(rawValue: octets[2] ^ 0x07),
            confirmsIncomingPairing: octets[0] & 0x80 != 0,
            outOfBand: outOfBand)
    }
}
