import SwiftATTCore

/// How often the device advertises, in units of 0.625 ms.
///
/// Core Specification Supplement Part A §1.15: Advertising Interval (0x1A, two octets) and
/// Advertising Interval - long (0x2F, three or four octets, for periodic advertising and
/// intervals above 40.959375 s). The octet count is kept, so the value re-encodes as it came.
public struct AdvertisingInterval: Hashable, Sendable, CustomStringConvertible {
    /// The interval in 0.625 ms units.
    public let units: UInt32
    /// Octets on the wire: 2 (AD type 0x1A), 3 or 4 (0x2F).
    public let byteCount: Int

    /// An interval in 0.625 ms units, written in the shortest form that holds it.
    public init(units: UInt32) {
        self.units = units
        byteCount = units <= 0xFFFF ? 2 : units <= 0xFF_FFFF ? 3 : 4
    }

    /// An interval in a chosen form: 2, 3 or 4 octets. `nil` when `units` does not fit.
    public init?(units: UInt32, byteCount: Int) {
        guard (2...4).contains(byteCount), byteCount == 4 || units >> (8 * byteCount) == 0 else { return nil }
        self.units = units
        self.byteCount = byteCount
    }

    @usableFromInline
    init(validated s: ADStructure) {
        byteCount = s.data.count
        switch byteCount {
        case 2: units = UInt32(s.data.littleEndianUInt16(at: 0))
        case 3: units = s.data.littleEndianUInt24(at: 0)
        default: units = s.data.littleEndianUInt32(at: 0)
        }
    }

    /// The interval a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .advertisingInterval || s.type == .advertisingIntervalLong else { return nil }
        self.init(validated: s)
    }

    /// 0x1A for the two-octet form, 0x2F for the long form.
    public var type: ADType { byteCount == 2 ? .advertisingInterval : .advertisingIntervalLong }

    /// The interval in milliseconds (0.625 ms units).
    public var milliseconds: Double { Double(units) * 0.625 }

    /// `100 ms`.
    public var description: String { "\(AdvertisingFormat.decimal(milliseconds)) ms" }
}
