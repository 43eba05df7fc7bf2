import SwiftATTCore

/// The return parameters of Read Controller Information (doc/mgmt-api.txt): address(6)
/// version(1) manufacturer(2) supported settings(4) current settings(4) class(3)
/// name(249) short name(11), 280 bytes.
public struct ManagementControllerInformation: Hashable, Sendable {
    /// The return parameters' size in bytes.
    public static let length = 280

    /// The adapter's public address.
    public var address: BluetoothAddress
    /// The HCI version number (Assigned Numbers: 9 is 5.0).
    public var version: UInt8
    /// The controller's manufacturer (a company identifier from Assigned Numbers).
    public var manufacturer: UInt16
    /// What the adapter can be set to do.
    public var supportedSettings: ManagementSettings
    /// What the adapter is set to do now: `powered` means the management interface has it.
    public var currentSettings: ManagementSettings
    /// The adapter's name as bluetoothd set it (UTF-8 up to the first NUL).
    public var name: String

    /// Decodes the reply's return parameters; fails if they are shorter than `length`.
    public init(returnParameters p: ArraySlice<UInt8>) throws(ManagementDecodingError) {
        guard p.count >= Self.length else { throw .truncated("Read Controller Information reply", need: Self.length, have: p.count) }
        address = BluetoothAddress(littleEndianBytes: p.bytes(at: 0, count: 6), kind: .public)
        version = p.byte(at: 6)
        manufacturer = p.littleEndianUInt16(at: 7)
        supportedSettings = ManagementSettings(rawValue: p.littleEndianUInt32(at: 9))
        currentSettings = ManagementSettings(rawValue: p.littleEndianUInt32(at: 13))
        let nameBytes = p.bytes(at: 20, count: 249)
        name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// An adapter's settings bitmask (doc/mgmt-api.txt, Read Controller Information).
public struct ManagementSettings: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Powered on by the management interface (bluetoothd).
    public static let powered = ManagementSettings(rawValue: 1 << 0)
    /// Accepts connections.
    public static let connectable = ManagementSettings(rawValue: 1 << 1)
    /// Discoverable by other devices.
    public static let discoverable = ManagementSettings(rawValue: 1 << 3)
    /// Low Energy enabled.
    public static let lowEnergy = ManagementSettings(rawValue: 1 << 9)
    /// Advertising.
    public static let advertising = ManagementSettings(rawValue: 1 << 10)
}
