import SwiftATTCrypto
import Testing

/// FIPS-197 known answers for the forward cipher.
@Suite("AES-128")
struct AES128Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: UInt128
        let plaintext: UInt128
        let ciphertext: UInt128
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        // FIPS-197 Appendix B (the cipher example worked round by round).
        Vector(name: "FIPS-197 Appendix B",
               key: 0x2b7e1516_28aed2a6_abf71588_09cf4f3c,
               plaintext: 0x3243f6a8_885a308d_313198a2_e0370734,
               ciphertext: 0x3925841d_02dc09fb_dc118597_196a0b32),
        // FIPS-197 Appendix C.1 (AES-128 example vector).
        Vector(name: "FIPS-197 Appendix C.1",
               key: 0x00010203_04050607_08090a0b_0c0d0e0f,
               plaintext: 0x00112233_44556677_8899aabb_ccddeeff,
               ciphertext: 0x69c4e0d8_6a7b0430_d8cdb780_70b4c55a),
        // RFC 4493 §4: AES-128(K, 0), the step before the CMAC subkeys.
        Vector(name: "RFC 4493 L = AES-128(K, 0)",
               key: 0x2b7e1516_28aed2a6_abf71588_09cf4f3c,
               plaintext: 0,
               ciphertext: 0x7df76b0c_1ab899b3_3e42f047_b91b546f),
    ]

    @Test("encrypts the known answers", arguments: vectors)
    func knownAnswer(_ v: Vector) {
        #expect(AES128(key: v.key).encrypt(v.plaintext) == v.ciphertext)
    }

    @Test("byte forms agree with the number forms and reject other lengths")
    func byteForms() throws {
        let key: [UInt8] = Array(0x00...0x0f)
        let cipher = try #require(AES128(key: key))
        let block: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]
        #expect(cipher.encrypt(block: block) == [0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a])
        #expect(AES128(key: [UInt8](repeating: 0, count: 15)) == nil)
        #expect(cipher.encrypt(block: [0x00]) == nil)
    }
}
