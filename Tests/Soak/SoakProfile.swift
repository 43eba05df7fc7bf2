import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// The soak's GATT service: one characteristic notified and one indicated, each value a
/// sequence number (UInt32, little-endian) padded to `valueLength` octets, so a receiver
/// can tell a lost, repeated or reordered value.
enum SoakProfile {
    static let service = BluetoothUUID(uuid128: 0x50AC0001_0000_4B1D_8E77_50AC0050AC00)
    static let notified = BluetoothUUID(uuid128: 0x50AC0002_0000_4B1D_8E77_50AC0050AC00)
    static let indicated = BluetoothUUID(uuid128: 0x50AC0003_0000_4B1D_8E77_50AC0050AC00)
    static let valueLength = 20

    static func value(_ sequence: UInt32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xA5, count: valueLength)
        for i in 0..<4 { bytes[i] = UInt8(truncatingIfNeeded: sequence >> (8 * UInt32(i))) }
        return bytes
    }

    static func sequence(_ value: [UInt8]) -> UInt32? {
        guard value.count >= 4 else { return nil }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(value[$1]) << (8 * UInt32($1)) }
    }
}
