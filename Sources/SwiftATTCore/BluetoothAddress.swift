/// A 48-bit Bluetooth device address and whether it is public or random.
///
/// Core 5.4 Vol 6 Part B §1.3. The text form is most significant byte first
/// (`AA:BB:CC:DD:EE:FF`), as every tool prints it; on the wire the six bytes go least
/// significant first. The kind travels with the value because LE identifies a device
/// by both: the same 48 bits as public and as random are two different devices.
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
    /// Public (IEEE-assigned) or random (chosen by the device).
    public enum Kind: UInt8, Hashable, Sendable {
        /// A public device address: assigned from the IEEE registry, fixed for the device's life.
        case `public` = 0
        /// A random device address: static, or private (resolvable or not); see `randomSubtype`.
        case random = 1
    }

    /// What a random address is, read from its two most significant bits (Vol 6 Part B §1.3.2).
    public enum RandomSubtype: Hashable, Sendable {
        /// Fixed at least until the next power cycle (top bits `0b11`).
        case `static`
        /// Changes periodically, and a peer holding the device's IRK can resolve it to the
        /// device's identity (top bits `0b01`).
        case resolvablePrivate
        /// Changes periodically and resolves to nothing: untraceable (top bits `0b00`).
        case nonResolvablePrivate
        /// The `0b10` prefix, which the spec reserves.
        case reserved
    }

    /// The address as a 48-bit number; bits above 47 are always zero.
    public let value: UInt64
    /// Public or random: half of the device's identity on LE, with `value`.
    public let kind: Kind

    /// An address from its 48-bit value; higher bits are dropped.
    public init(_ value: UInt64, kind: Kind = .public) {
        self.value = value & 0xFFFF_FFFF_FFFF
        self.kind = kind
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (colons or dashes, either case); `nil` if malformed.
    public init?(_ text: some StringProtocol, kind: Kind = .public) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let groups = parts.count == 6 ? parts : text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.count == 6 else { return nil }
        var v: UInt64 = 0
        for g in groups {
            // `UInt8(_:radix:)` alone would accept a sign ("+F", "-0").
            guard g.count == 2, g.allSatisfy(\.isHexDigit), g.allSatisfy(\.isASCII),
                  let b = UInt8(g, radix: 16) else { return nil }
            v = v << 8 | UInt64(b)
        }
        self.init(v, kind: kind)
    }

    /// An address from its six wire bytes, least significant first.
    public init(littleEndianBytes bytes: ArraySlice<UInt8>, kind: Kind) {
        precondition(bytes.count == 6, "a Bluetooth address is six bytes")
        var v: UInt64 = 0
        var i = bytes.endIndex
        while i > bytes.startIndex {
            i &-= 1
            v = v &<< 8 | UInt64(bytes[i])
        }
        self.init(v, kind: kind)
    }

    /// The six wire bytes, least significant first.
    public var littleEndianBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// For random addresses, which kind of random address this is; `nil` for public ones.
    public var randomSubtype: RandomSubtype? {
        guard kind == .random else { return nil }
        switch value >> 46 {
        case 0b11: return .static
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return .reserved
        }
    }

    /// Whether this address can stand for a device across connections: a public address
    /// other than 00:00:00:00:00:00, or a static random address whose 46 random bits are
    /// neither all 0 nor all 1 (Vol 6 Part B §1.3.2.1). Private addresses change and
    /// cannot; Part H §3.6.5 requires one of these in Identity Address Information.
    public var isIdentityAddress: Bool {
        switch kind {
        case .public:
            return value != 0
        case .random:
            let randomBits = value & 0x3FFF_FFFF_FFFF
            return randomSubtype == .static && randomBits != 0 && randomBits != 0x3FFF_FFFF_FFFF
        }
    }

    /// `AA:BB:CC:DD:EE:FF`, most significant byte first, uppercase.
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        var s = ""
        s.reserveCapacity(17)
        for i in stride(from: 5, through: 0, by: -1) {
            let b = Int((value >> (8 * UInt64(i))) & 0xFF)
            s.append(digits[b >> 4])
            s.append(digits[b & 0xF])
            if i > 0 { s.append(":") }
        }
        return s
    }
}

extension BluetoothAddress: ByteEncodable {
    public var encodedLength: Int { 6 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(UInt32(truncatingIfNeeded: value))
        writer.write(UInt16(truncatingIfNeeded: value >> 32))
    }
}
