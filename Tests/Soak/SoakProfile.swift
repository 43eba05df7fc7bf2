import Advertising
import BluetoothCore
import GATT

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

/// What one receiver saw of one stream: values in order, and every way they were not.
struct SequenceCheck: Sendable {
    var received = 0
    var first: UInt32?
    var last: UInt32?
    /// Values skipped (a jump forward by more than one).
    var lost = 0
    /// A value equal to the previous one.
    var duplicated = 0
    /// A value below the previous one.
    var reordered = 0

    mutating func take(_ sequence: UInt32) {
        received += 1
        defer { last = max(last ?? sequence, sequence) }
        guard let previous = last else {
            first = sequence
            return
        }
        if sequence == previous { duplicated += 1 }
        else if sequence < previous { reordered += 1 }
        else if sequence > previous + 1 { lost += Int(sequence - previous - 1) }
    }

    var json: String {
        "{\"received\":\(received),\"first\":\(first.map(String.init) ?? "null"),\"last\":\(last.map(String.init) ?? "null"),"
            + "\"lost\":\(lost),\"duplicated\":\(duplicated),\"reordered\":\(reordered)}"
    }
}
