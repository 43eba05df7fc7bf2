import CSwiftATTCrypto

/// AES-128 block encryption (FIPS-197), libcrypto's aes-128-ecb on one block.
///
/// GATT needs it under AES-CMAC for the Database Hash (Core 5.4 Vol 3 Part G §7.3.1);
/// the Security Manager needs it as its function e, and under c1, s1 and ah
/// (Vol 3 Part H §2.2.1–§2.2.4). Only the forward cipher exists: no Bluetooth use ever
/// decrypts. Blocks and keys are `UInt128` read big-endian (the first octet of the
/// FIPS-197 byte string is the most significant, as the spec prints its values), so no
/// call can pass a block of the wrong size. The value holds only the key: each block
/// gets its own cipher context, so the type is `Sendable` by construction and no
/// libcrypto object outlives a call.
public struct AES128: Sendable {
    private let key: UInt128

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
        defer { EVP_CIPHER_CTX_free(context) }
        let keyBytes = key.bigEndianBytes
        LibCrypto.check(EVP_EncryptInit_ex2(context, EVP_aes_128_ecb(), keyBytes, nil, nil), "EVP_EncryptInit_ex2")
        // One whole block in, one block out: ECB without padding is the bare cipher.
        LibCrypto.check(EVP_CIPHER_CTX_set_padding(context, 0), "EVP_CIPHER_CTX_set_padding")
        let input = block.bigEndianBytes
        var output = [UInt8](repeating: 0, count: 16)
        var written: Int32 = 0
        LibCrypto.check(EVP_EncryptUpdate(context, &output, &written, input, Int32(input.count)), "EVP_EncryptUpdate")
        guard written == 16 else { LibCrypto.fail("EVP_EncryptUpdate (short block)") }
        // Finishing writes nothing without padding; it is called so the context ends cleanly.
        var tail = [UInt8](repeating: 0, count: 16)
        var tailCount: Int32 = 0
        LibCrypto.check(EVP_EncryptFinal_ex(context, &tail, &tailCount), "EVP_EncryptFinal_ex")
        return UInt128(bigEndianBytes: output)!
    }

    /// Encrypts a 16-byte block given as bytes; `nil` for any other length.
    public func encrypt(block bytes: some Collection<UInt8>) -> [UInt8]? {
        guard let block = UInt128(bigEndianBytes: bytes) else { return nil }
        return encrypt(block).bigEndianBytes
    }
}
