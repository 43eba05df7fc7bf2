import SwiftATTCore

/// The Security Manager's cryptographic toolbox: Core 5.4 Vol 3 Part H §2.2.
///
/// LE legacy pairing uses e, c1 and s1; address resolution uses ah; LE Secure
/// Connections uses f4, f5, f6 and g2; cross-transport key derivation uses h6 and h7.
/// Every value is in the spec's numeric convention: a `UInt128` is the number the spec
/// prints, most significant octet first, and a byte array is in the order the spec
/// concatenates it, most significant octet first. The Security Manager converts to and
/// from the wire's least-significant-first order at its PDUs, never here.
///
/// Arguments typed as octet arrays have a fixed length in the spec (a 32-octet
/// coordinate, a 7-octet PDU, 3 octets of IOcap). They come from PDUs whose decoder has
/// already checked those lengths, so any other length is a programmer error and
/// stops with a precondition naming the argument.
public enum SecurityFunctions {
    /// e (§2.2.1): AES-128 encryption of `plaintext` under `key`.
    public static func e(key: UInt128, plaintext: UInt128) -> UInt128 {
        AES128(key: key).encrypt(plaintext)
    }

    /// ah (§2.2.2): the random address hash, e(irk, 0¹⁰⁴ ‖ prand) mod 2²⁴.
    ///
    /// `prand` is the 24-bit random part of a resolvable private address (its two top
    /// bits are the address's 0b01 subtype; Vol 6 Part B §1.3.2.2); bits above 24 are
    /// ignored. The result is the 24-bit hash in the low bits.
    public static func ah(irk: UInt128, prand: UInt32) -> UInt32 {
        let rPrime = UInt128(prand & 0xFF_FFFF)
        return UInt32(truncatingIfNeeded: e(key: irk, plaintext: rPrime)) & 0xFF_FFFF
    }

    /// c1 (§2.2.3): the LE legacy pairing confirm value,
    /// e(k, e(k, r ⊕ p1) ⊕ p2) with p1 = pres ‖ preq ‖ rat′ ‖ iat′ and
    /// p2 = 0³² ‖ ia ‖ ra.
    ///
    /// `preq` and `pres` are the 7 octets of the Pairing Request and Pairing Response
    /// PDUs as sent on the wire, code first (§3.5.1, §3.5.2); the spec's 56-bit values
    /// are those octets read least significant first, so the code is the low octet.
    /// iat′ and rat′ are the addresses' kinds (public 0, random 1) and ia, ra their
    /// 48-bit values.
    public static func c1(k: UInt128, r: UInt128, pairingRequest preq: [UInt8], pairingResponse pres: [UInt8],
                          initiator ia: BluetoothAddress, responder ra: BluetoothAddress) -> UInt128 {
        precondition(preq.count == 7, "c1: the Pairing Request is 7 octets, not \(preq.count)")
        precondition(pres.count == 7, "c1: the Pairing Response is 7 octets, not \(pres.count)")
        let p1 = wireValue(pres) << 72 | wireValue(preq) << 16
            | UInt128(ra.kind.rawValue) << 8 | UInt128(ia.kind.rawValue)
        let p2 = UInt128(ia.value) << 48 | UInt128(ra.value)
        return e(key: k, plaintext: e(key: k, plaintext: r ^ p1) ^ p2)
    }

    /// s1 (§2.2.4): the LE legacy pairing STK, e(k, r1′ ‖ r2′) where r1′ and r2′ are
    /// the least significant 64 bits of r1 and r2.
    public static func s1(k: UInt128, r1: UInt128, r2: UInt128) -> UInt128 {
        let low64: UInt128 = 0xFFFF_FFFF_FFFF_FFFF
        return e(key: k, plaintext: (r1 & low64) << 64 | (r2 & low64))
    }

    /// f4 (§2.2.6): the LE Secure Connections confirm value, AES-CMAC_X(U ‖ V ‖ Z).
    ///
    /// `u` and `v` are public-key X coordinates, 32 octets each, most significant first
    /// (`P256PublicKey.x`); `z` is 0 for Just Works and Numeric Comparison, or 0x80 | r
    /// for the Passkey Entry bit r.
    public static func f4(u: [UInt8], v: [UInt8], x: UInt128, z: UInt8) -> UInt128 {
        precondition(u.count == 32, "f4: U is a 32-octet X coordinate, not \(u.count)")
        precondition(v.count == 32, "f4: V is a 32-octet X coordinate, not \(v.count)")
        return CMAC.tag(key: x, message: u + v + [z])
    }

    /// The SALT of f5 (§2.2.7).
    static let f5Salt: UInt128 = 0x6C88_8391_AAF5_A538_6037_0BDB_5A60_83BE
    /// f5's keyID, "btle" in ASCII.
    static let f5KeyID: [UInt8] = Array("btle".utf8)

    /// f5 (§2.2.7): the LE Secure Connections key generation function. T =
    /// AES-CMAC_SALT(W); then AES-CMAC_T(Counter ‖ keyID ‖ N1 ‖ N2 ‖ A1 ‖ A2 ‖ Length)
    /// with Counter 0 gives the MacKey and with Counter 1 the LTK (Length is 256).
    ///
    /// A1 and A2 are 56 bits each: the address kind (public 0, random 1) in the top
    /// octet, then the 48-bit address; the initiator's is a1 and the responder's a2.
    public static func f5(w: DHKey, n1: UInt128, n2: UInt128, a1: BluetoothAddress,
                          a2: BluetoothAddress) -> (macKey: UInt128, longTermKey: UInt128) {
        let t = CMAC(key: CMAC.tag(key: f5Salt, message: w.bytes))
        let tail = f5KeyID + n1.bigEndianBytes + n2.bigEndianBytes
            + addressOctets(a1) + addressOctets(a2) + [0x01, 0x00]
        return (t.tag([0x00] + tail), t.tag([0x01] + tail))
    }

    /// f6 (§2.2.8): the LE Secure Connections check value (Ea, Eb),
    /// AES-CMAC_W(N1 ‖ N2 ‖ R ‖ IOcap ‖ A1 ‖ A2), with W the MacKey.
    ///
    /// `ioCap` is the spec's 24-bit IOcap, most significant octet first, which is
    /// exactly `[AuthReq, OOB data flag, IO Capability]` of the device whose check value
    /// this is: the reverse of the order those three fields have in the Pairing Request
    /// or Response PDU (IO Capability, OOB data flag, AuthReq). A1 and A2 are as in f5.
    public static func f6(w: UInt128, n1: UInt128, n2: UInt128, r: UInt128, ioCap: [UInt8],
                          a1: BluetoothAddress, a2: BluetoothAddress) -> UInt128 {
        precondition(ioCap.count == 3, "f6: IOcap is 3 octets (AuthReq, OOB data flag, IO Capability), not \(ioCap.count)")
        let message = n1.bigEndianBytes + n2.bigEndianBytes + r.bigEndianBytes + ioCap
            + addressOctets(a1) + addressOctets(a2)
        return CMAC.tag(key: w, message: message)
    }

    /// g2 (§2.2.9): the Numeric Comparison value, AES-CMAC_X(U ‖ V ‖ Y) mod 2³²; the
    /// six digits the user compares are this value mod 10⁶ (§2.3.5.6.2).
    public static func g2(u: [UInt8], v: [UInt8], x: UInt128, y: UInt128) -> UInt32 {
        precondition(u.count == 32, "g2: U is a 32-octet X coordinate, not \(u.count)")
        precondition(v.count == 32, "g2: V is a 32-octet X coordinate, not \(v.count)")
        return UInt32(truncatingIfNeeded: CMAC.tag(key: x, message: u + v + y.bigEndianBytes))
    }

    /// h6 (§2.2.10): the link key conversion function, AES-CMAC_W(keyID), the keyID a
    /// four-character ASCII tag such as "tmp1" (0x746D7031) or "lebr" (0x6C656272).
    public static func h6(w: UInt128, keyID: UInt32) -> UInt128 {
        let id: [UInt8] = [UInt8(truncatingIfNeeded: keyID >> 24), UInt8(truncatingIfNeeded: keyID >> 16),
                           UInt8(truncatingIfNeeded: keyID >> 8), UInt8(truncatingIfNeeded: keyID)]
        return CMAC.tag(key: w, message: id)
    }

    /// h7 (§2.2.11): the link key conversion function with a SALT,
    /// AES-CMAC_SALT(W), used when both devices support CT2.
    public static func h7(salt: UInt128, w: UInt128) -> UInt128 {
        CMAC.tag(key: salt, message: w.bigEndianBytes)
    }

    /// The number a PDU's wire octets spell, least significant first (c1's preq, pres).
    private static func wireValue(_ octets: [UInt8]) -> UInt128 {
        octets.reversed().reduce(0) { $0 << 8 | UInt128($1) }
    }

    /// An address as f5 and f6 take it: its kind's octet, then its 48 bits, most
    /// significant first.
    private static func addressOctets(_ address: BluetoothAddress) -> [UInt8] {
        [address.kind.rawValue] + (0..<6).map { UInt8(truncatingIfNeeded: address.value >> (40 - 8 * UInt64($0))) }
    }
}
