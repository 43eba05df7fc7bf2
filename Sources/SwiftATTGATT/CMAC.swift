/// AES-CMAC (RFC 4493, NIST SP 800-38B with AES-128): a 128-bit message authentication code.
///
/// Bluetooth uses it for the GATT Database Hash (Core 5.4 Vol 3 Part G §7.3.1), signed
/// writes and the LE Secure Connections functions (Vol 3 Part H §2.2.5). Keys and tags
/// are `UInt128`, read big-endian as RFC 4493 prints them; callers that carry a tag on
/// the ATT wire reverse it themselves (`GATTDatabase.databaseHashValue`).
public struct CMAC: Sendable {
    private let cipher: AES128
    /// The subkeys K1 and K2 of RFC 4493 §2.3.
    public let subkeys: (k1: UInt128, k2: UInt128)

    private static let rb: UInt128 = 0x87

    public init(key: UInt128) {
        cipher = AES128(key: key)
        let l = cipher.encrypt(0)
        let k1 = Self.double(l)
        subkeys = (k1, Self.double(k1))
    }

    /// The tag over `message` (RFC 4493 §2.4).
    public func tag(_ message: some Collection<UInt8>) -> UInt128 {
        let bytes = Array(message)
        let blockCount = max(1, (bytes.count + 15) / 16)
        let lastIsComplete = !bytes.isEmpty && bytes.count % 16 == 0
        var x: UInt128 = 0
        for i in 0..<(blockCount - 1) {
            x = cipher.encrypt(x ^ Self.block(bytes, from: 16 * i))
        }
        let lastStart = 16 * (blockCount - 1)
        let last = lastIsComplete
            ? Self.block(bytes, from: lastStart) ^ subkeys.k1
            : Self.paddedBlock(bytes, from: lastStart) ^ subkeys.k2
        return cipher.encrypt(x ^ last)
    }

    /// AES-CMAC of `message` under `key`.
    public static func tag(key: UInt128, message: some Collection<UInt8>) -> UInt128 {
        CMAC(key: key).tag(message)
    }

    /// Multiplication by x in GF(2¹²⁸): shift left, reduce by Rb when the top bit falls off.
    private static func double(_ v: UInt128) -> UInt128 {
        v >> 127 == 0 ? v << 1 : (v << 1) ^ rb
    }

    /// The 16 bytes from `start` as a big-endian number.
    private static func block(_ bytes: [UInt8], from start: Int) -> UInt128 {
        var v: UInt128 = 0
        for i in start..<(start + 16) { v = v << 8 | UInt128(bytes[i]) }
        return v
    }

    /// The bytes from `start` to the end (fewer than 16), then 0x80, then zeros.
    private static func paddedBlock(_ bytes: [UInt8], from start: Int) -> UInt128 {
        var v: UInt128 = 0
        var n = 0
        for i in start..<bytes.count {
            v = v << 8 | UInt128(bytes[i])
            n += 1
        }
        v = v << 8 | 0x80
        n += 1
        return v << (8 * (16 - n))
    }
}
