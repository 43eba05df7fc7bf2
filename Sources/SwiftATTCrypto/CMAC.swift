import CSwiftATTCrypto

/// AES-CMAC (RFC 4493, NIST SP 800-38B with AES-128): a 128-bit message authentication
/// code, computed by libcrypto's EVP_MAC "CMAC" over AES-128-CBC.
///
/// Bluetooth uses it for the GATT Database Hash (Core 5.4 Vol 3 Part G §7.3.1), signed
/// writes (Vol 3 Part H §2.4.5) and the LE Secure Connections functions f4, f5, f6, g2,
/// h6 and h7 (Vol 3 Part H §2.2.5–§2.2.11). Keys and tags are `UInt128`, read big-endian
/// as RFC 4493 prints them; callers that carry a tag on the ATT wire reverse it
/// themselves (`GATTDatabase.databaseHashValue`).
public struct CMAC: Sendable {
    private let key: UInt128

    public init(key: UInt128) {
        self.key = key
    }

    /// The tag over `message` (RFC 4493 §2.4).
    public func tag(_ message: some Collection<UInt8>) -> UInt128 {
        let bytes = Array(message)
        let keyBytes = key.bigEndianBytes
        var tag = [UInt8](repeating: 0, count: 16)
        var written = 0
        // EVP_Q_mac fetches the MAC, keys it, runs it over the message and frees what it
        // made, in one call: nothing to leak on any path.
        let result = bytes.withUnsafeBufferPointer { message in
            EVP_Q_mac(nil, "CMAC", nil, "AES-128-CBC", nil, keyBytes, keyBytes.count,
                      message.baseAddress, message.count, &tag, tag.count, &written)
        }
        guard result != nil, written == 16 else { LibCrypto.fail("EVP_Q_mac(CMAC, AES-128-CBC)") }
        return UInt128(bigEndianBytes: tag)!
    }

    /// AES-CMAC of `message` under `key`.
    public static func tag(key: UInt128, message: some Collection<UInt8>) -> UInt128 {
        CMAC(key: key).tag(message)
    }
}
