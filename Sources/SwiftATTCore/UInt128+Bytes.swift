/// A 128-bit number as 16 octets, in either order.
///
/// The security functions print keys, blocks and tags most significant octet first
/// (FIPS-197, RFC 4493, Core 5.4 Vol 3 Part H §2.2), while ATT and SMP carry a 128-bit
/// value least significant octet first (Vol 3 Part F §3.2.9, Part H §3.1). Keeping the
/// number as a `UInt128` and converting only at the edges means no call can pass a block
/// of the wrong size or the wrong order.
extension UInt128 {
    /// The number spelled by exactly 16 octets, most significant first; `nil` otherwise.
    public init?(bigEndianBytes bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var v: UInt128 = 0
        for b in bytes { v = v << 8 | UInt128(b) }
        self = v
    }

    /// The 16 octets, most significant first (how FIPS-197 and RFC 4493 print blocks).
    public var bigEndianBytes: [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: self >> (120 - 8 * $0)) }
    }

    /// The 16 octets, least significant first (how ATT and SMP carry a 128-bit number).
    public var littleEndianBytes: [UInt8] {
        (0..<16).map { UInt8(truncatingIfNeeded: self >> (8 * $0)) }
    }
}
