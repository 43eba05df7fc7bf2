import SwiftATTCore

/// Apple's iBeacon, carried in Manufacturer Specific Data under company 0x004C.
///
/// The layout after the company identifier: beacon type 0x02, length 0x15 (21), a 16-byte
/// proximity UUID, major and minor (16 bits each), and the measured power at 1 m (signed
/// dBm). Unlike Bluetooth fields, the UUID, major and minor are big-endian.
public struct IBeacon: Hashable, Sendable, CustomStringConvertible {
    /// The UUID an app scans for: usually one per deployment.
    public var proximityUUID: BluetoothUUID
    /// A 16-bit group number within the UUID.
    public var major: UInt16
    /// A 16-bit number for the beacon within the group.
    public var minor: UInt16
    /// RSSI at 1 m, in dBm.
    public var measuredPower: Int8

    /// Beacon type and length, then 21 octets.
    static let prefix: [UInt8] = [0x02, 0x15]
    static let dataLength = 23

    /// A beacon of these values.
    public init(proximityUUID: BluetoothUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.proximityUUID = proximityUUID.widened
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }

    /// The iBeacon in `data`; `nil` when it is not Apple's or not in the iBeacon layout.
    public init?(_ data: ManufacturerSpecificData) {
        let d = data.data
        guard data.companyIdentifier == .apple, d.count == Self.dataLength,
              d.byte(at: 0) == 0x02, d.byte(at: 1) == 0x15 else { return nil }
        var uuid: UInt128 = 0
        for b in d.bytes(at: 2, count: 16) { uuid = uuid << 8 | UInt128(b) }
        proximityUUID = BluetoothUUID(uuid128: uuid)
        major = UInt16(d.byte(at: 18)) << 8 | UInt16(d.byte(at: 19))
        minor = UInt16(d.byte(at: 20)) << 8 | UInt16(d.byte(at: 21))
        measuredPower = Int8(bitPattern: d.byte(at: 22))
    }

    /// The Manufacturer Specific Data that carries this beacon.
    public var manufacturerSpecificData: ManufacturerSpecificData {
        var out = Self.prefix
        out.reserveCapacity(Self.dataLength)
        let uuid = proximityUUID.uuid128
        for i in stride(from: 15, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: uuid >> (8 * i))) }
        out.append(UInt8(major >> 8))
        out.append(UInt8(truncatingIfNeeded: major))
        out.append(UInt8(minor >> 8))
        out.append(UInt8(truncatingIfNeeded: minor))
        out.append(UInt8(bitPattern: measuredPower))
        return ManufacturerSpecificData(companyIdentifier: .apple, data: out)
    }

    /// `iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1 minor 2, -59 dBm at 1 m`.
    public var description: String {
        "iBeacon \(proximityUUID) major \(major) minor \(minor), \(measuredPower) dBm at 1 m"
    }
}
