import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// The Red Bear Labs BLE Shield for Arduino (seed 001: an iPhone switches the lights an
/// Arduino drives). The shield's serial service has TX (0x…0002: notify, shield to
/// phone) and RX (0x…0003: write without response, phone to shield), as RedBearLab's
/// BLEDefines.h names them (`RBL_CHAR_TX_UUID`, `RBL_CHAR_RX_UUID`). The seed writes
/// two-octet `LightCommand`s to RX without response ("set and forget": the shield gives
/// no answer).
public enum LightShieldProfile {
    /// `RBL_SERVICE_UUID`.
    public static let service = BluetoothUUID(uuid128: 0x713D0000_503E_4C75_BA94_3148F18D941E)
    /// `RBL_CHAR_TX_UUID`: notify.
    public static let tx = BluetoothUUID(uuid128: 0x713D0002_503E_4C75_BA94_3148F18D941E)
    /// `RBL_CHAR_RX_UUID`: write without response.
    public static let rx = BluetoothUUID(uuid128: 0x713D0003_503E_4C75_BA94_3148F18D941E)
    /// The shield's default name.
    public static let defaultName = "BLE Shield"

    /// The profile's names for its UUIDs, for tools that print a database or a scan.
    public static let names: [BluetoothUUID: String] = [service: "RBL BLE Shield", tx: "RBL TX", rx: "RBL RX"]

    /// Flags, the 128-bit service UUID and as much of the name as fits (all of it in the scan
    /// response).
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    /// The shield's service and the database that serves it (after GAP and GATT).
    public struct Server: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// TX: notify, shield to phone.
        public let tx: GATTCharacteristic
        /// RX: write without response, phone to shield.
        public let rx: GATTCharacteristic
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// `onWrite` hears every value written to RX (on the host's loop); decode it with
        /// `LightCommand(decoding:)`.
        public init(
            name: String = LightShieldProfile.defaultName, onWrite: @escaping @Sendable ([UInt8]) -> Void = { _ in }
        ) throws(GATTDatabaseError) {
            tx = GATTCharacteristic(uuid: LightShieldProfile.tx, properties: [.notify])
            rx = GATTCharacteristic(
                uuid: LightShieldProfile.rx, properties: [.writeWithoutResponse],
                value: .bytes([], length: .variable(maximum: 20), onWrite: { context in
                    onWrite(context.value)
                    return nil
                }))
            service = GATTService(uuid: LightShieldProfile.service, characteristics: [tx, rx])
            database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: name))
        }
    }
}

/// Seed 001's light command: two octets, "the first to identify the light, the second
/// whether to turn it on or off" — `[light, 0x01]` on, `[light, 0x00]` off. The seed's
/// switches send light numbers 1, 2, 3… (`turnLight:3 on:`). Other second octets are not
/// defined and fail to decode.
public struct LightCommand: Hashable, Sendable, CustomStringConvertible {
    /// Which light: 1, 2, 3… as the seed's switches number them.
    public var light: UInt8
    /// On or off.
    public var isOn: Bool

    /// A command turning `light` on or off.
    public init(light: UInt8, isOn: Bool) {
        self.light = light
        self.isOn = isOn
    }

    /// Two octets: the light, then on or off.
    public static let encodedLength = 2

    /// The value as a characteristic carries it.
    public func encoded() -> [UInt8] { [light, isOn ? 0x01 : 0x00] }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard bytes.count == Self.encodedLength else {
            throw .invalidLength(value: "Light command", length: bytes.count, expected: "2 octets")
        }
        switch bytes.byte(at: 1) {
        case 0x00: isOn = false
        case 0x01: isOn = true
        case let other: throw .invalidField(value: "Light command", field: "state", byte: other, offset: 1)
        }
        light = bytes.byte(at: 0)
    }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: [UInt8]) throws(ProfileDecodingError) {
        try self.init(decoding: bytes[...])
    }

    /// `light 3 on`.
    public var description: String { "light \(light) \(isOn ? "on" : "off")" }
}
