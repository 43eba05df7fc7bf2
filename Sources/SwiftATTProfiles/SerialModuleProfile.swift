import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// An HC-08 BLE serial module (seed 003: an Arduino Uno prints text to the module, which
/// forwards it to the phone). Service 0xFFE0 holds one characteristic, 0xFFE1, with read,
/// write without response and notify (0x16): what the Arduino prints arrives as
/// notifications, what the central writes comes out of the module's TX pin, and a read
/// returns the last value either way. Values are UTF-8 text, as the seed's
/// `String(data: value, encoding: .utf8)` expects.
public enum SerialModuleProfile {
    /// Unassigned 16-bit UUIDs that HC-08 (and HM-10, and many clones) use.
    public static let service = BluetoothUUID(0xFFE0)
    /// The module's one characteristic: read, write without response, notify.
    public static let characteristic = BluetoothUUID(0xFFE1)
    /// The module's factory name.
    public static let defaultName = "HC-08"
    /// What the module puts in one notification: ATT_MTU 23 minus the 3-octet header.
    public static let defaultChunkSize = 20

    /// The profile's names for its UUIDs, for tools that print a database or a scan.
    public static let names: [BluetoothUUID: String] = [service: "HC-08 Serial", characteristic: "HC-08 Data"]

    /// Flags, the service's UUID and `name` (shortened to fit, whole in the scan response).
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    /// UTF-8 for text to send.
    public static func value(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A received value as text (invalid UTF-8 replaced with U+FFFD).
    public static func text(_ value: some Collection<UInt8>) -> String { String(decoding: value, as: UTF8.self) }

    /// `text` in pieces of at most `maximumLength` octets (at least 1), never splitting a
    /// character unless one alone is longer; empty text is one empty piece.
    public static func chunks(_ text: String, maximumLength: Int = defaultChunkSize) -> [[UInt8]] {
        let limit = max(1, maximumLength)
        var pieces: [[UInt8]] = []
        var current: [UInt8] = []
        for character in text {
            let utf8 = Array(character.utf8)
            if current.count + utf8.count > limit, !current.isEmpty {
                pieces.append(current)
                current = []
            }
            if utf8.count > limit {
                var rest = utf8[...]
                while !rest.isEmpty {
                    pieces.append(Array(rest.prefix(limit)))
                    rest = rest.dropFirst(limit)
                }
            } else {
                current += utf8
            }
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The module's service and the database that serves it (after GAP and GATT).
    public struct Server: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// The data characteristic.
        public let characteristic: GATTCharacteristic
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// `onWrite` hears every value a central writes (on the host's loop).
        public init(
            name: String = SerialModuleProfile.defaultName, initialValue: [UInt8] = [],
            onWrite: @escaping @Sendable ([UInt8]) -> Void = { _ in }
        ) throws(GATTDatabaseError) {
            characteristic = GATTCharacteristic(
                uuid: SerialModuleProfile.characteristic, properties: [.read, .writeWithoutResponse, .notify],
                value: .bytes(initialValue, onWrite: { context in
                    onWrite(context.value)
                    return nil
                }))
            service = GATTService(uuid: SerialModuleProfile.service, characteristics: [characteristic])
            database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: name))
        }
    }
}
