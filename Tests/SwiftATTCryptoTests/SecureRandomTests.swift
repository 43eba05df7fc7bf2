import SwiftATTCrypto
import Testing

/// RAND_bytes as the Security Manager draws from it. Randomness itself is libcrypto's
/// to prove; these check the lengths and that draws are not repeated or constant.
@Suite("Secure random")
struct SecureRandomTests {
    @Test("gives the octets asked for")
    func lengths() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        #expect(SecureRandom.bytes(1000).count == 1000)
    }

    @Test("successive draws differ")
    func draws() {
        // A repeat in 128 or 64 random bits is a 2⁻¹²⁸ or 2⁻⁶⁴ event: a broken generator.
        #expect(SecureRandom.bytes(16) != SecureRandom.bytes(16))
        #expect(SecureRandom.uint128() != SecureRandom.uint128())
        #expect(SecureRandom.uint64() != SecureRandom.uint64())
        #expect(SecureRandom.bytes(64).contains { $0 != 0 })
    }
}
