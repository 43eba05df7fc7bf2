import SwiftATTCore
import Testing
@testable import SwiftATTCrypto

/// Data signing (Core 5.4 Vol 3 Part H §2.4.5) against the vectors of BlueZ's
/// unit/test-crypto.c (sign_att_1 … sign_att_5, verify_sign_*), written as BlueZ writes
/// them: keys, messages and signatures least significant octet first, as on the wire.
@Suite("Data signing")
struct DataSigningTests {
    /// RFC 4493's key (2b7e1516 28aed2a6 abf71588 09cf4f3c), in wire order.
    static let rfcKey = key("3c4fcf098815f7aba6d2ae2816157e2b")
    static let rfcMessage = octets("6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
                                   + " 30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")
    static let writeKey = key("505e42df9691ec72d31fcdfbeb641b61")
    static let signedWrite = octets("d2 1200 1337")

    /// A key given in wire order (least significant octet first).
    static func key(_ hex: String) -> UInt128 { UInt128(bigEndianBytes: octets(hex).reversed())! }

    @Test("BlueZ sign_att_1 to sign_att_4: RFC 4493's messages of 0, 16, 40 and 64 octets, counter 0",
          arguments: [(0, "00000000 b3a8594127ebc2c0"), (16, "00000000 273974f4392a232a"),
                      (40, "00000000 b7ca94ab87c78218"), (64, "00000000 44e1e6ce1df51368")])
    func rfcMessages(length: Int, expected: String) {
        #expect(DataSigning.signature(key: Self.rfcKey, message: Self.rfcMessage.prefix(length), counter: 0) == octets(expected))
    }

    @Test("BlueZ sign_att_5: a Signed Write Command to 0x0012 of 13 37, SignCounter 1")
    func signedWriteCommand() {
        let signature = DataSigning.signature(key: Self.writeKey, message: Self.signedWrite, counter: 1)
        #expect(signature == octets("01000000 f1871e933c900ff2"))
    }

    @Test("Verification: the right signature, one bit off, a short one, another key, another counter")
    func verification() {
        let good = octets("01000000 f1871e933c900ff2")
        #expect(DataSigning.verify(key: Self.writeKey, message: Self.signedWrite, signature: good))
        var flipped = good
        flipped[11] ^= 0x03
        #expect(!DataSigning.verify(key: Self.writeKey, message: Self.signedWrite, signature: flipped))
        #expect(!DataSigning.verify(key: Self.writeKey, message: Self.signedWrite, signature: good.prefix(11)))
        #expect(!DataSigning.verify(key: Self.rfcKey, message: Self.signedWrite, signature: good))
        var counter = good
        counter[0] = 2
        #expect(!DataSigning.verify(key: Self.writeKey, message: Self.signedWrite, signature: counter))
        #expect(!DataSigning.verify(key: Self.writeKey, message: Self.signedWrite + [0], signature: good))
    }
}
