import SwiftATTCore
import SwiftATTCrypto
import Testing

/// RFC 4493 §4: the subkeys and the four example messages (empty, one block, two and a
/// half blocks, four blocks), all under K = 2b7e1516 28aed2a6 abf71588 09cf4f3c.
@Suite("AES-CMAC")
struct CMACTests {
    static let key: UInt128 = 0x2b7e1516_28aed2a6_abf71588_09cf4f3c
    static let message: [UInt8] = [
        0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
        0xae, 0x2d, 0x8a, 0x57, 0x1e, 0x03, 0xac, 0x9c, 0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51,
        0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c, 0xe4, 0x11, 0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef,
        0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17, 0xad, 0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10,
    ]

    struct Example: Sendable, CustomTestStringConvertible {
        let length: Int
        let tag: UInt128
        var testDescription: String { "RFC 4493 example, \(length) octets" }
    }

    static let examples: [Example] = [
        Example(length: 0, tag: 0xbb1d6929_e9593728_7fa37d12_9b756746),
        Example(length: 16, tag: 0x070a16b4_6b4d4144_f79bdd9d_d04a287c),
        Example(length: 40, tag: 0xdfa66747_de9ae630_30ca3261_1497c827),
        Example(length: 64, tag: 0x51f0bebf_7e3b9d92_fc497417_79363cfe),
    ]

    /// RFC 4493 §4's subkeys. libcrypto keeps them inside its MAC, so they are checked
    /// by what they do (§2.4): a one-block message's tag is AES-128(K, M ⊕ K1), and the
    /// empty message's is AES-128(K, 10…0 ⊕ K2), the padded last block.
    static let k1: UInt128 = 0xfbeed618_35713366_7c85e08f_7236a8de
    static let k2: UInt128 = 0xf7ddac30_6ae266cc_f90bc11e_e46d513b

    @Test("uses the subkeys K1 and K2 on the last block")
    func subkeys() throws {
        let cipher = AES128(key: Self.key)
        let block = try #require(UInt128(bigEndianBytes: Self.message.prefix(16)))
        #expect(CMAC.tag(key: Self.key, message: Self.message.prefix(16)) == cipher.encrypt(block ^ Self.k1))
        let padding: UInt128 = 1 << 127
        #expect(CMAC.tag(key: Self.key, message: []) == cipher.encrypt(padding ^ Self.k2))
    }

    @Test("computes the example tags", arguments: examples)
    func example(_ e: Example) {
        #expect(CMAC.tag(key: Self.key, message: Self.message.prefix(e.length)) == e.tag)
    }
}
