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

    public static let names: [BluetoothUUID: String] = [service: "RBL BLE Shield", tx: "RBL TX", rx: "RBL RX"]

    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    public struct Server: Sendable {
        public let service: GATTService
        public let tx: GATTCharacteristic
        public let rx: GATTCharacteristic
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
    public var light: UInt8
    public var isOn: Bool

    public init(light: UInt8, isOn: Bool) {
        self.light = light
        self.isOn = isOn
    }

    public static let encodedLength = 2

    public func encoded() -> [UInt8] { [light, isOn ? 0x01 : 0x00] }

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

    public init(decoding bytes: [UInt8]) throws(ProfileDecodingError) {
        try self.init(decoding: bytes[...])
    }

    /// `light 3 on`.
    public var description: String { "light \(light) \(isOn ? "on" : "off")" }
}
