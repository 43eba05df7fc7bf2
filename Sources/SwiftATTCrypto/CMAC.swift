import CSwiftATTCrypto

/// AES-CMAC (RFC 4493, NIST SP 800-38B with AES-128): a 128-bit message authentication
/// code, computed by libcrypto's EVP_MAC "CMAC" over AES-128-CBC.
///
/// Bluetooth uses it for the GATT Database Hash (Core 5.4 Vol 3 Part G §7.3.1), signed
/// writes (Vol 3 Part H §2.4.5) and the LE Secure Connections functions f4, f5, f6, g2,
/// h6 and h7 (Vol 3 Part H §2.2.5–§2.2.11). Keys and tags are `UInt128`, read big-endian
/// as RFC 4493 prints them; callers that carry a tag on the ATT wire reverse it
/// themselves (`GATTDatabase.databaseHashValue`). The value holds only the key; each tag
/// is computed in a MAC context of its own, freed before `tag` returns.
public struct CMAC: Sendable {
    private let key: UInt128

    /// A MAC under `key`, most significant octet first as RFC 4493 writes it.
    public init(key: UInt128) {
        self.key = key
    }

    /// A CMAC context with its cipher, AES-128-CBC, already fetched, made once for the
    /// process (`LibCrypto`, "Objects made once"); each tag duplicates it and keys the
    /// copy. libcrypto copies only a keyed CMAC context, so this one is keyed with zeros,
    /// a key no tag is computed under. Setting the cipher by name on every call would
    /// look it up again each time, which costs more than a short message's tag.
    nonisolated(unsafe) private static let template: OpaquePointer = {
        guard let mac = EVP_MAC_fetch(nil, "CMAC", nil) else { LibCrypto.fail("EVP_MAC_fetch(CMAC)") }
        // The context holds a reference of its own to the MAC.
        defer { EVP_MAC_free(mac) }
        guard let context = EVP_MAC_CTX_new(mac) else { LibCrypto.fail("EVP_MAC_CTX_new(CMAC)") }
        let zeroKey = [UInt8](repeating: 0, count: 16)
        let keyed = LibCrypto.withCStrings([OSSL_MAC_PARAM_CIPHER, "AES-128-CBC"]) { c in
            var parameters = [OSSL_PARAM_construct_utf8_string(c[0], UnsafeMutablePointer(mutating: c[1]), 0),
                              OSSL_PARAM_construct_end()]
            return EVP_MAC_init(context, zeroKey, zeroKey.count, &parameters)
        }
        LibCrypto.check(keyed, "EVP_MAC_init(CMAC, AES-128-CBC)")
        return context
    }()

    /// The tag over `message` (RFC 4493 §2.4).
    public func tag(_ message: some Collection<UInt8>) -> UInt128 {
        guard let context = EVP_MAC_CTX_dup(Self.template) else { LibCrypto.fail("EVP_MAC_CTX_dup(CMAC)") }
        // Freeing the context wipes the key and subkeys in it.
        defer { EVP_MAC_CTX_free(context) }
        // A UInt128 stored big-endian is RFC 4493's key string; keying the copy replaces
        // the template's key, cipher state and subkeys alike.
        let keyed = withUnsafeBytes(of: key.bigEndian) { key in
            EVP_MAC_init(context, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, nil)
        }
        LibCrypto.check(keyed, "EVP_MAC_init")
        let updated = message.withContiguousStorageIfAvailable { EVP_MAC_update(context, $0.baseAddress, $0.count) }
            ?? Array(message).withUnsafeBufferPointer { EVP_MAC_update(context, $0.baseAddress, $0.count) }
        LibCrypto.check(updated, "EVP_MAC_update")
        var tag = UInt128(0)
        var written = 0
        let finished = withUnsafeMutableBytes(of: &tag) { tag in
            // C writes the bytes as unsigned char, which may alias any object.
            EVP_MAC_final(context, tag.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, tag.count)
        }
        LibCrypto.check(finished, "EVP_MAC_final")
        guard written == 16 else { LibCrypto.fail("EVP_MAC_final (short tag)") }
        return UInt128(bigEndian: tag)
    }

    /// AES-CMAC of `message` under `key`.
    public static func tag(key: UInt128, message: some Collection<UInt8>) -> UInt128 {
        CMAC(key: key).tag(message)
    }
}
