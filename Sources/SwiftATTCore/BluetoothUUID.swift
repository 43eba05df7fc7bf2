/// A Bluetooth UUID in the width it was written: 16, 32 or 128 bits.
///
/// Core 5.4 Vol 3 Part B §2.5.1: a 16- or 32-bit UUID is shorthand for a 128-bit UUID
/// built on the Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB`. Equality,
/// hashing and ordering use the 128-bit expansion, so `180D` equals
/// `0000180D-0000-1000-8000-00805F9B34FB`; the width is kept so a codec re-emits exactly
/// the bytes it read (a 128-bit form of a SIG UUID stays 128 bits on the wire).
public struct BluetoothUUID: Hashable, Comparable, Sendable {
    /// How many bits the UUID occupies on the wire.
    public enum Width: Int, Hashable, Sendable {
        /// Two octets: a SIG-assigned number on the Bluetooth Base UUID.
        case bits16 = 2
        /// Four octets: a 32-bit number on the Bluetooth Base UUID.
        case bits32 = 4
        /// Sixteen octets: a full UUID, vendor-specific or a SIG UUID written out in full.
        case bits128 = 16

        /// Octets on the wire.
        public var byteCount: Int { rawValue }
    }

    /// The Bluetooth Base UUID's low 96 bits (the high 32 bits are where short UUIDs go).
    public static let baseUUID: UInt128 = 0x0000_0000_0000_1000_8000_0080_5F9B_34FB

    /// The 128-bit expansion's high and low halves. Kept as two 64-bit words rather
    /// than one `UInt128`, so the type is 8-byte aligned: Swift 6.3's debug builds
    /// (-Onone) miscompile async closures that capture a 16-byte-aligned value beside
    /// other captures (alignment-checked stores to a misaligned slot, a crash on the
    /// first call: swiftlang/swift#90813), and every GATT handle type carries a UUID —
    /// a task that captures a characteristic and a value would crash an application's
    /// debug build.
    @usableFromInline let high: UInt64
    @usableFromInline let low: UInt64
    /// The width it was created or decoded with.
    public let width: Width

    /// The 128-bit expansion, used for comparison.
    @inlinable
    public var uuid128: UInt128 { UInt128(high) << 64 | UInt128(low) }

    @inlinable
    init(expansion: UInt128, width: Width) {
        high = UInt64(truncatingIfNeeded: expansion >> 64)
        low = UInt64(truncatingIfNeeded: expansion)
        self.width = width
    }

    /// A 16-bit SIG-assigned UUID such as `0x180D` (Heart Rate).
    @inlinable
    public init(_ uuid16: UInt16) {
        self.init(expansion: UInt128(uuid16) << 96 | Self.baseUUID, width: .bits16)
    }

    /// A 32-bit SIG-assigned UUID.
    @inlinable
    public init(uuid32: UInt32) {
        self.init(expansion: UInt128(uuid32) << 96 | Self.baseUUID, width: .bits32)
    }

    /// A full 128-bit UUID (kept at 128 bits on the wire even if it is on the Base UUID).
    @inlinable
    public init(uuid128: UInt128) {
        self.init(expansion: uuid128, width: .bits128)
    }

    /// Decodes 2, 4 or 16 little-endian bytes; `nil` for any other length.
    @inlinable
    public init?(littleEndianBytes bytes: ArraySlice<UInt8>) {
        switch bytes.count {
        case 2: self.init(bytes.littleEndianUInt16(at: 0))
        case 4: self.init(uuid32: bytes.littleEndianUInt32(at: 0))
        case 16: self.init(uuid128: bytes.littleEndianUInt128(at: 0))
        default: return nil
        }
    }

    /// Decodes 2, 4 or 16 little-endian bytes from borrowed memory; `nil` for any other
    /// length.
    @inlinable
    public init?(littleEndianBytes bytes: Span<UInt8>) {
        switch bytes.count {
        case 2: self.init(bytes.littleEndianUInt16(at: 0))
        case 4: self.init(uuid32: bytes.littleEndianUInt32(at: 0))
        case 16: self.init(uuid128: bytes.littleEndianUInt128(at: 0))
        default: return nil
        }
    }

    /// Whether the 128-bit value sits on the Base UUID, so it has a 16- or 32-bit alias.
    public var isBluetoothBased: Bool {
        uuid128 & ((1 << 96) - 1) == Self.baseUUID
    }

    /// The 16-bit alias, if the UUID is on the Base UUID and fits 16 bits.
    public var uuid16: UInt16? {
        guard isBluetoothBased, uuid128 >> 96 <= 0xFFFF else { return nil }
        return UInt16(truncatingIfNeeded: uuid128 >> 96)
    }

    /// The 32-bit alias, if the UUID is on the Base UUID.
    public var uuid32: UInt32? {
        guard isBluetoothBased else { return nil }
        return UInt32(truncatingIfNeeded: uuid128 >> 96)
    }

    /// The same UUID in its shortest wire form (what a server should put in a 16-bit list).
    public var shortened: BluetoothUUID {
        if let u = uuid16 { return BluetoothUUID(u) }
        return self
    }

    /// The same UUID as a 128-bit value on the wire.
    public var widened: BluetoothUUID { BluetoothUUID(uuid128: uuid128) }

    @inlinable
    public static func == (a: Self, b: Self) -> Bool { a.high == b.high && a.low == b.low }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }
    @inlinable
    public static func < (a: Self, b: Self) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

extension BluetoothUUID: ByteEncodable {
    public var encodedLength: Int { width.byteCount }

    public func encode(into writer: inout ByteWriter) {
        switch width {
        case .bits16: writer.write(UInt16(truncatingIfNeeded: uuid128 >> 96))
        case .bits32: writer.write(UInt32(truncatingIfNeeded: uuid128 >> 96))
        case .bits128: writer.write(uuid128)
        }
    }
}

extension BluetoothUUID: LosslessStringConvertible {
    /// Parses `180D`, `0x180D`, `0000180D` (32-bit), or a 128-bit UUID with or without
    /// dashes, in either case. The width follows the text.
    public init?(_ text: String) {
        var t = Substring(text)
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t = t.dropFirst(2) }
        let hex = t.filter { $0 != "-" }
        if t.contains("-") {
            // Dashes only in the canonical 8-4-4-4-12 places.
            let groups = t.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            guard groups == [8, 4, 4, 4, 12] else { return nil }
        }
        guard hex.allSatisfy(\.isHexDigit), hex.allSatisfy(\.isASCII) else { return nil }
        switch hex.count {
        case 4:
            guard let v = UInt16(hex, radix: 16) else { return nil }
            self.init(v)
        case 8:
            guard let v = UInt32(hex, radix: 16) else { return nil }
            self.init(uuid32: v)
        case 32:
            guard let hi = UInt64(hex.prefix(16), radix: 16),
                  let lo = UInt64(hex.suffix(16), radix: 16) else { return nil }
            self.init(uuid128: UInt128(hi) << 64 | UInt128(lo))
        default:
            return nil
        }
    }

    /// `180D` for 16-bit, `0000180D` for 32-bit, `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` for
    /// 128-bit: uppercase, as CoreBluetooth prints them.
    public var description: String {
        switch width {
        case .bits16: return Self.hex(uuid128 >> 96, digits: 4)
        case .bits32: return Self.hex(uuid128 >> 96, digits: 8)
        case .bits128:
            let h = Self.hex(uuid128, digits: 32)
            var out = ""
            for (i, c) in h.enumerated() {
                if i == 8 || i == 12 || i == 16 || i == 20 { out.append("-") }
                out.append(c)
            }
            return out
        }
    }

    private static func hex(_ v: UInt128, digits: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
