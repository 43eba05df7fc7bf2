import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// The Battery service (BAS 1.0): one Battery Level characteristic, the charge left in
/// percent (0–100), readable and notified when it changes. Many devices carry it beside
/// their main service (a heart-rate strap, a mouse), so `Service` can join another
/// profile's database; `Server` serves it alone.
public enum BatteryProfile {
    /// Battery service.
    public static let service = BluetoothUUID(0x180F)
    /// Battery Level: read and notify (BAS §3.1), one octet, 0–100 %.
    public static let level = BluetoothUUID(0x2A19)
    /// The name advertised and served as the GAP Device Name when the caller gives none.
    public static let defaultName = "swift-att Battery"

    /// The profile's names for its UUIDs, for tools that print a database or a scan.
    public static let names: [BluetoothUUID: String] = [service: "Battery", level: "Battery Level"]

    /// Characteristic Presentation Format of the level: uint8 (0x04), unit percentage
    /// (0x27AD), description "main" (0x0106) — BAS §3.1.2.1 asks for it when a device
    /// has several batteries; one battery gains nothing from leaving it out.
    public static let presentationFormat = GATTPresentationFormat(format: 0x04, unit: 0x27AD, description: 0x0106)

    /// Flags, service 0x180F and the name.
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    /// The Battery service's attributes, to serve alone or beside another service.
    public struct Service: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// The Battery Level characteristic: read and notify.
        public let level: GATTCharacteristic

        /// `level` is clamped to 100.
        public init(level: UInt8 = 100) {
            self.level = GATTCharacteristic(
                uuid: BatteryProfile.level, properties: [.read, .notify], value: .fixed([min(level, 100)]),
                descriptors: [.presentationFormat(BatteryProfile.presentationFormat)])
            service = GATTService(uuid: BatteryProfile.service, characteristics: [self.level])
        }
    }

    /// The Battery service alone (after GAP and GATT).
    public struct Server: Sendable {
        /// The Battery service's attributes.
        public let battery: Service
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// A database serving the Battery service at `level` percent, under `name`.
        public init(name: String = BatteryProfile.defaultName, level: UInt8 = 100) throws(GATTDatabaseError) {
            battery = Service(level: level)
            database = try GATTDatabase(services: [battery.service], genericAccess: GATTGenericAccess(deviceName: name))
        }
    }
}

/// A Battery Level value: one octet, 0–100 % (101–255 are reserved, GATT Specification
/// Supplement §3.27).
public struct BatteryLevel: Hashable, Sendable, CustomStringConvertible {
    /// The charge left, 0–100.
    public let percent: UInt8

    /// `nil` above 100.
    public init?(percent: UInt8) {
        guard percent <= 100 else { return nil }
        self.percent = percent
    }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard bytes.count == 1 else {
            throw .invalidLength(value: "Battery Level", length: bytes.count, expected: "1 octet")
        }
        let byte = bytes.byte(at: 0)
        guard byte <= 100 else {
            throw .invalidField(value: "Battery Level", field: "percent", byte: byte, offset: 0)
        }
        percent = byte
    }

    /// The value as a characteristic carries it.
    public var encoded: [UInt8] { [percent] }

    public var description: String { "\(percent) %" }
}

/// A battery that drains slowly for `swift-att peripheral battery`: one percent every
/// `drainEvery` ticks, and once empty it is "recharged" to 100, so a long demo never
/// stops changing. A central may also set the level (standard input, in the tool).
public struct BatterySimulator: Hashable, Sendable {
    /// The charge now, 0–100.
    public private(set) var level: UInt8
    /// Ticks per percent; 0 never drains.
    public let drainEvery: Int
    private var ticks = 0

    /// A battery at `level` percent (at most 100) losing one percent every `drainEvery` ticks.
    public init(level: UInt8 = 100, drainEvery: Int = 1) {
        self.level = min(level, 100)
        self.drainEvery = max(0, drainEvery)
    }

    /// One tick; returns the new level when it changed.
    public mutating func tick() -> UInt8? {
        guard drainEvery > 0 else { return nil }
        ticks += 1
        guard ticks >= drainEvery else { return nil }
        ticks = 0
        level = level == 0 ? 100 : level - 1
        return level
    }

    /// Sets the level (clamped to 100) and starts the next percent's ticks afresh.
    public mutating func set(_ level: UInt8) {
        self.level = min(level, 100)
        ticks = 0
    }
}
