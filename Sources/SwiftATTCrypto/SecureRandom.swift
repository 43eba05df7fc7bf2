import CSwiftATTCrypto

/// Cryptographically secure random numbers from libcrypto's RAND_bytes.
///
/// For the Security Manager's nonces and keys: the pairing random values Mrand/Srand
/// and Na/Nb, the keys it distributes (LTK, IRK, CSRK, EDIV/Rand; Core 5.4 Vol 3 Part H
/// §2.3.5.5, §2.3.6, §2.4) and the prand of a resolvable private address (Vol 6 Part B
/// §1.3.2.2). OpenSSL's generator is a DRBG seeded from the kernel's getrandom(2), which
/// blocks until the kernel's pool is ready and then does not fail.
///
/// These functions do not throw: RAND_bytes fails only when that DRBG cannot be set
/// up at all (no kernel entropy source, the default provider unloaded, memory gone),
/// which no input can cause and no caller can repair, and a Security Manager must not go
/// on with predictable numbers. Such a failure stops the process with OpenSSL's reason
/// (`LibCrypto` explains the policy for the whole module).
public enum SecureRandom {
    /// `count` random octets. A negative count is a programmer error, as for `Array`.
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        LibCrypto.check(RAND_bytes(&out, Int32(count)), "RAND_bytes")
        return out
    }

    /// A random 128-bit number (a nonce, a key).
    public static func uint128() -> UInt128 {
        UInt128(bigEndianBytes: bytes(16))!
    }

    /// A random 64-bit number (the Rand of a legacy-pairing LTK).
    public static func uint64() -> UInt64 {
        bytes(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
