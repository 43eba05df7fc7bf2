import SwiftATTCore
import SwiftATTCrypto
import Testing

/// The libcrypto objects SwiftATTCrypto makes once and shares (`LibCrypto`, "Objects
/// made once": the P-256 group, the AES-128 cipher, the CMAC template) in use by many
/// tasks at once, and the CMAC template's key never showing through a tag.
@Suite("Objects made once")
struct SharedObjectsTests {
    @Test("AES-128, AES-CMAC, key generation and ECDH from many tasks at once give the known answers")
    func concurrentUse() async throws {
        let aesKey: UInt128 = 0x00010203_04050607_08090a0b_0c0d0e0f
        let cmacKey: UInt128 = 0x2b7e1516_28aed2a6_abf71588_09cf4f3c
        let message = octets("6bc1bee2 2e409f96 e93d7e11 7393172a")
        let sample = P256Tests.dataSets[0]
        let a = try P256KeyPair(privateKey: sample.privateA)
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var right = true
                    for _ in 0..<50 {
                        right = right && AES128(key: aesKey).encrypt(0x00112233_44556677_8899aabb_ccddeeff)
                            == 0x69c4e0d8_6a7b0430_d8cdb780_70b4c55a
                        right = right && CMAC.tag(key: cmacKey, message: message) == 0x070a16b4_6b4d4144_f79bdd9d_d04a287c
                    }
                    for _ in 0..<3 {
                        right = right && (try? a.sharedSecret(with: sample.publicB).bytes) == sample.dhKey
                        let fresh = P256KeyPair.generate()
                        right = right && (try? fresh.publicKey.validate()) != nil
                        right = right && (try? fresh.sharedSecret(with: a.publicKey)) == (try? a.sharedSecret(with: fresh.publicKey))
                    }
                    return right
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test("every tag is under its own key: tags under other keys, and under zeros, do not change it")
    func cmacKeys() {
        let rfcKey: UInt128 = 0x2b7e1516_28aed2a6_abf71588_09cf4f3c
        let message = octets("6bc1bee2 2e409f96 e93d7e11 7393172a")
        let underZeros = CMAC.tag(key: 0, message: message)
        #expect(underZeros != CMAC.tag(key: rfcKey, message: message))
        // Zeros are the shared template's key: a tag under them must be a real key's
        // tag, AES-128(0, M ⊕ K1) with K1 from AES-128(0, 0) (RFC 4493 §2.3, §2.4).
        let l = AES128(key: 0).encrypt(0)
        let k1 = l << 1 ^ (l >> 127 == 1 ? 0x87 : 0)
        #expect(underZeros == AES128(key: 0).encrypt(UInt128(bigEndianBytes: message)! ^ k1))
        for _ in 0..<3 {
            #expect(CMAC.tag(key: rfcKey, message: message) == 0x070a16b4_6b4d4144_f79bdd9d_d04a287c)
            #expect(CMAC.tag(key: 0, message: message) == underZeros)
        }
    }

    @Test("a tag over a collection with no contiguous storage is the tag over its octets")
    func cmacOverAnyCollection() {
        let key: UInt128 = 0x2b7e1516_28aed2a6_abf71588_09cf4f3c
        let message = octets("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51")
        #expect(CMAC.tag(key: key, message: message.reversed()) == CMAC.tag(key: key, message: Array(message.reversed())))
        #expect(CMAC.tag(key: key, message: message[8..<24]) == CMAC.tag(key: key, message: Array(message[8..<24])))
    }
}
