import CSwiftATTCrypto

/// AES-128 block encryption (FIPS-197), libcrypto's aes-128-ecb on one block.
///
/// GATT needs it under AES-CMAC for the Database Hash (Core 5.4 Vol 3 Part G §7.3.1);
/// the Security Manager needs it as its function e, and under c1, s1 and ah
/// (Vol 3 Part H §2.2.1–§2.2.4). Only the forward cipher exists: no Bluetooth use ever
/// decrypts. Blocks and keys are `UInt128` read big-endian (the first octet of the
/// FIPS-197 byte string is the most significant, as the spec prints its values), so no
/// call can pass a block of the wrong size. The value holds only the key: each block
/// gets its own cipher context, so the type is `Sendable` by construction and no keyed
/// libcrypto object outlives a call. The cipher itself is fetched once for the process
/// (`LibCrypto`, "Objects made once").
public struct AES128: Sendable {
    private let key: UInt128

    /// libcrypto's AES-128-ECB from the default provider, fetched once: passing
    /// `EVP_aes_128_ecb()` instead would look the cipher up by name on every block.
    nonisolated(unsafe) private static let cipher: OpaquePointer = {
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-128-ECB", nil) else { LibCrypto.fail("EVP_CIPHER_fetch(AES-128-ECB)") }
        return cipher
    }()

    /// A cipher for `key`, the FIPS-197 key bytes as a big-endian number.
    public init(key: UInt128) {
        self.key = key
    }

    /// A cipher for a 16-byte key; `nil` for any other length.
    public init?(key bytes: some Collection<UInt8>) {
        guard let key = UInt128(bigEndianBytes: bytes) else { return nil }
        self.init(key: key)
    }

    /// Encrypts one block.
    public func encrypt(_ block: UInt128) -> UInt128 {
        guard let context = EVP_CIPHER_CTX_new() else { LibCrypto.fail("EVP_CIPHER_CTX_new") }
        // Freeing the context wipes the key schedule in it.
        defer { EVP_CIPHER_CTX_free(context) }
        // A UInt128 stored big-endian is the FIPS-197 byte string.
        let initialized = withUnsafeBytes(of: key.bigEndian) { key in
            EVP_EncryptInit_ex2(context, Self.cipher, key.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil)
        }
        LibCrypto.check(initialized, "EVP_EncryptInit_ex2")
        // One whole block in, one block out: ECB without padding is the bare cipher, and
        // EVP_EncryptFinal_ex would add nothing.
        LibCrypto.check(EVP_CIPHER_CTX_set_padding(context, 0), "EVP_CIPHER_CTX_set_padding")
        var output = UInt128(0)
        var written: Int32 = 0
        let encrypted = withUnsafeBytes(of: block.bigEndian) { input in
            withUnsafeMutableBytes(of: &output) { output in
                // C reads and writes the bytes as unsigned char, which may alias any object.
                EVP_EncryptUpdate(context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                                  input.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(input.count))
            }
        }
        LibCrypto.check(encrypted, "EVP_EncryptUpdate")
        guard written == 16 else { LibCrypto.fail("EVP_EncryptUpdate (short block)") }
        return UInt128(bigEndian: output)
    }

    /// Encrypts a 16-byte block given as bytes; `nil` for any other length.
    public func encrypt(block bytes: some Collection<UInt8>) -> [UInt8]? {
        guard let block = UInt128(bigEndianBytes: bytes) else { return nil }
        return encrypt(block).bigEndianBytes
    }
}
