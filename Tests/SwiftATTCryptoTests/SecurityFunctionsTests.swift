import SwiftATTCore
import SwiftATTCrypto
import Testing

/// The Security Manager's functions (Core 5.4 Vol 3 Part H §2.2) against the spec's own
/// sample values: the worked examples of c1 (§2.2.3) and s1 (§2.2.4), and Appendix D's
/// samples D.2–D.12. Inputs carry the spec's names; values are as the spec prints them,
/// most significant octet first.
@Suite("Security functions")
struct SecurityFunctionsTests {
    // Appendix D's shared inputs.
    static let u = octets("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6")
    static let v = octets("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd")
    static let x: UInt128 = 0xd5cb8454_d177733e_ffffb2ec_712baeab
    static let y: UInt128 = 0xa6e8e7cc_25a75f6e_216583f7_ff3dc4cf
    static let w = DHKey(bytes: octets("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698"))!
    static let n1: UInt128 = 0xd5cb8454_d177733e_ffffb2ec_712baeab
    static let n2: UInt128 = 0xa6e8e7cc_25a75f6e_216583f7_ff3dc4cf
    static let a1 = BluetoothAddress(0x56_12_37_37_bf_ce, kind: .public)  // A1 = 00 561237 37bfce
    static let a2 = BluetoothAddress(0xa7_13_70_2d_cf_c1, kind: .public)  // A2 = 00 a71370 2dcfc1
    static let macKey: UInt128 = 0x2965f176_a1084a02_fd3f6a20_ce636e20
    static let key128: UInt128 = 0xec0234a3_57c8ad05_341010a6_0a397d9b  // D.6–D.8's key
    static let tmp1: UInt32 = 0x746d_7031, tmp2: UInt32 = 0x746d_7032
    static let lebr: UInt32 = 0x6c65_6272, brle: UInt32 = 0x6272_6c65

    /// One sample: what the spec computes and what it prints as the answer.
    struct Sample: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: UInt128
        let compute: @Sendable () -> UInt128
        init(_ name: String, _ expected: UInt128, _ compute: @escaping @Sendable () -> UInt128) {
            self.name = name
            self.expected = expected
            self.compute = compute
        }
        var testDescription: String { name }
    }

    static let samples: [Sample] = [
        // §2.2.4's example, whose last step is e(k, r′).
        Sample("e: §2.2.4's e(0, r′)", 0x9a1fe1f0_e8b0f49b_5b4216ae_796da062) {
            SecurityFunctions.e(key: 0, plaintext: 0x11223344_55667788_99aabbcc_ddeeff00)
        },
        Sample("e: FIPS-197 Appendix C.1", 0x69c4e0d8_6a7b0430_d8cdb780_70b4c55a) {
            SecurityFunctions.e(key: 0x00010203_04050607_08090a0b_0c0d0e0f, plaintext: 0x00112233_44556677_8899aabb_ccddeeff)
        },
        // §2.2.3: preq = 0x07071000000101 and pres = 0x05000800000302 are the PDUs'
        // octets read least significant first, so on the wire each starts with its code.
        Sample("c1: §2.2.3", 0x1e1e3fef_878988ea_d2a74dc5_bef13b86) {
            SecurityFunctions.c1(k: 0, r: 0x5783d521_56ad6f0e_6388274e_c6702ee0,
                                 pairingRequest: [0x01, 0x01, 0x00, 0x00, 0x10, 0x07, 0x07],
                                 pairingResponse: [0x02, 0x03, 0x00, 0x00, 0x08, 0x00, 0x05],
                                 initiator: BluetoothAddress(0xa1a2a3a4a5a6, kind: .random),  // iat = 1
                                 responder: BluetoothAddress(0xb1b2b3b4b5b6, kind: .public))  // rat = 0
        },
        Sample("s1: §2.2.4", 0x9a1fe1f0_e8b0f49b_5b4216ae_796da062) {
            SecurityFunctions.s1(k: 0, r1: 0x000f0e0d_0c0b0a09_11223344_55667788, r2: 0x01020304_05060708_99aabbcc_ddeeff00)
        },
        Sample("D.2 f4(U, V, X, 0)", 0xf2c916f1_07a9bd1c_f1eda1be_a974872d) {
            SecurityFunctions.f4(u: u, v: v, x: x, z: 0)
        },
        // D.3's intermediate T = AES-CMAC_SALT(W), with §2.2.7's SALT.
        Sample("D.3 T", 0x3c128f20_de883288_97624bdb_8dac6989) {
            CMAC.tag(key: 0x6c888391_aaf5a538_60370bdb_5a6083be, message: w.bytes)
        },
        Sample("D.3 f5 MacKey", 0x2965f176_a1084a02_fd3f6a20_ce636e20) {
            SecurityFunctions.f5(w: w, n1: n1, n2: n2, a1: a1, a2: a2).macKey
        },
        Sample("D.3 f5 LTK", 0x69867911_69d7cd23_980522b5_94750a38) {
            SecurityFunctions.f5(w: w, n1: n1, n2: n2, a1: a1, a2: a2).longTermKey
        },
        // D.4: IOcap = 010102, i.e. AuthReq 0x01, OOB data flag 0x01, IO Capability 0x02.
        Sample("D.4 f6", 0xe3c47398_9cd0e8c5_d26c0b09_da958f61) {
            SecurityFunctions.f6(w: macKey, n1: n1, n2: n2, r: 0x12a3343b_b453bb54_08da42d2_0c2d0fc8,
                                 ioCap: [0x01, 0x01, 0x02], a1: a1, a2: a2)
        },
        Sample("D.6 h6(W, \"lebr\")", 0x2d9ae102_e76dc91c_e8d3a9e2_80b16399) {
            SecurityFunctions.h6(w: key128, keyID: lebr)
        },
        Sample("D.8 h7(\"tmp1\", W)", 0xfb173597_c6a3c0ec_d2998c2a_75a57011) {
            SecurityFunctions.h7(salt: UInt128(tmp1), w: key128)
        },
        // D.9–D.12: cross-transport key derivation, each an intermediate key then h6 (§2.4.2.4, §2.4.2.5).
        Sample("D.9 LTK to link key, CT2 = 1", 0x287ad379_dca40253_0a39f1f4_3047b835) {
            let ilk = SecurityFunctions.h7(salt: UInt128(tmp1), w: 0x368df9bc_e3264b58_bd066c33_334fbf64)
            return SecurityFunctions.h6(w: ilk, keyID: lebr)
        },
        Sample("D.10 LTK to link key, CT2 = 0", 0xbc1ca4ef_633fc1bd_0d8230af_ee388fb0) {
            let ilk = SecurityFunctions.h6(w: 0x368df9bc_e3264b58_bd066c33_334fbf64, keyID: tmp1)
            return SecurityFunctions.h6(w: ilk, keyID: lebr)
        },
        Sample("D.11 link key to LTK, CT2 = 1", 0xe85e09eb_5eccb3e2_69418a13_3211bc79) {
            let ilk = SecurityFunctions.h7(salt: UInt128(tmp2), w: 0x05040302_01000908_07060504_03020100)
            return SecurityFunctions.h6(w: ilk, keyID: brle)
        },
        Sample("D.12 link key to LTK, CT2 = 0", 0xa813fb72_f1a3dfa1_8a2c9a43_f10d0a30) {
            let ilk = SecurityFunctions.h6(w: 0x05040302_01000908_07060504_03020100, keyID: tmp2)
            return SecurityFunctions.h6(w: ilk, keyID: brle)
        },
    ]

    @Test("computes the specification's samples", arguments: samples)
    func sample(_ s: Sample) {
        #expect(s.compute() == s.expected)
    }

    @Test("D.5 g2: 2f9ed5ba, shown as 938554")
    func g2() {
        let value = SecurityFunctions.g2(u: Self.u, v: Self.v, x: Self.x, y: Self.y)
        #expect(value == 0x2f9e_d5ba)
        #expect(value % 1_000_000 == 938_554)
    }

    @Test("D.7 ah: prand 708194 hashes to 0dfbaa, the bits above 24 ignored")
    func ah() {
        #expect(SecurityFunctions.ah(irk: Self.key128, prand: 0x70_8194) == 0x0d_fbaa)
        #expect(SecurityFunctions.ah(irk: Self.key128, prand: 0xff70_8194) == 0x0d_fbaa)
    }
}
