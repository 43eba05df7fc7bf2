import SwiftATTPDU
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// The Heart Rate profile (HRP 1.0) and service (HRS 1.0), as seed 002's monitor serves
/// it: a central finds it by service 0x180D (or "HRM" in its local name), writes 0x01 to
/// the Heart Rate Control Point and subscribes to Heart Rate Measurement, whose BPM is a
/// uint8 or a uint16 by flags bit 0 (`HeartRateMeasurement`).
public enum HeartRateProfile {
    /// Heart Rate service.
    public static let service = BluetoothUUID(0x180D)
    /// Heart Rate Measurement: notify only (HRS §3.1).
    public static let measurement = BluetoothUUID(0x2A37)
    /// Body Sensor Location: read (HRS §3.2).
    public static let bodySensorLocation = BluetoothUUID(0x2A38)
    /// Heart Rate Control Point: write (HRS §3.3), mandatory with Energy Expended.
    public static let controlPoint = BluetoothUUID(0x2A39)

    /// Appearance 0x0340, Generic Heart Rate Sensor (Assigned Numbers §2.6.2).
    public static let appearance: UInt16 = 0x0340
    /// Seed 002's central connects to a name containing "HRM".
    public static let defaultName = "swift-att HRM"

    /// The names this profile gives its UUIDs.
    public static let names: [BluetoothUUID: String] = [
        service: "Heart Rate", measurement: "Heart Rate Measurement",
        bodySensorLocation: "Body Sensor Location", controlPoint: "Heart Rate Control Point",
    ]

    /// Flags, service 0x180D, the appearance and the name.
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service], appearance: appearance)
    }

    /// One Heart Rate service and the database that serves it (after GAP and GATT).
    public struct Server: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// Heart Rate Measurement: notify.
        public let measurement: GATTCharacteristic
        /// Body Sensor Location: read.
        public let bodySensorLocation: GATTCharacteristic
        /// Heart Rate Control Point: write.
        public let controlPoint: GATTCharacteristic
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// `onControlPoint` hears every Control Point write, accepted or refused; it runs
        /// on the host's loop, so it should only hand the write on. `alongside` are
        /// served after the Heart Rate service: a monitor's Battery and Device
        /// Information services, say.
        public init(
            name: String = HeartRateProfile.defaultName, location: BodySensorLocation = .chest,
            alongside: [GATTService] = [],
            onControlPoint: @escaping @Sendable (HeartRateControlPoint.Write) -> Void = { _ in }
        ) throws(GATTDatabaseError) {
            measurement = GATTCharacteristic(uuid: HeartRateProfile.measurement, properties: [.notify])
            bodySensorLocation = GATTCharacteristic(
                uuid: HeartRateProfile.bodySensorLocation, properties: [.read], value: .fixed([location.rawValue]))
            controlPoint = GATTCharacteristic(
                uuid: HeartRateProfile.controlPoint, properties: [.write],
                value: .dynamic(length: .fixed(1), write: { context in
                    let write = HeartRateControlPoint.Write(value: context.value)
                    onControlPoint(write)
                    return write.error
                }))
            service = GATTService(uuid: HeartRateProfile.service, characteristics: [measurement, bodySensorLocation, controlPoint])
            database = try GATTDatabase(
                services: [service] + alongside, genericAccess: GATTGenericAccess(deviceName: name, appearance: HeartRateProfile.appearance))
        }
    }
}

/// The Body Sensor Location value (0x2A38): one octet. GATT Specification Supplement
/// §3.29; values 7–255 are reserved.
public enum BodySensorLocation: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Other.
    case other = 0
    /// Chest: a strap.
    case chest = 1
    /// Wrist: a watch.
    case wrist = 2
    /// Finger.
    case finger = 3
    /// Hand.
    case hand = 4
    /// Ear lobe.
    case earLobe = 5
    /// Foot.
    case foot = 6

    /// The location's name in the spec.
    public var name: String {
        switch self {
        case .other: return "Other"
        case .chest: return "Chest"
        case .wrist: return "Wrist"
        case .finger: return "Finger"
        case .hand: return "Hand"
        case .earLobe: return "Ear Lobe"
        case .foot: return "Foot"
        }
    }

    public var description: String { name }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard bytes.count == 1 else {
            throw .invalidLength(value: "Body Sensor Location", length: bytes.count, expected: "1 octet")
        }
        guard let location = BodySensorLocation(rawValue: bytes.byte(at: 0)) else {
            throw .invalidField(value: "Body Sensor Location", field: "location", byte: bytes.byte(at: 0), offset: 0)
        }
        self = location
    }

    /// A location by its name, case and spaces ignored (`chest`, `ear-lobe`, `Ear Lobe`).
    public init?(name: String) {
        func key(_ s: String) -> String { String(s.lowercased().filter { $0.isLetter }) }
        guard let match = Self.allCases.first(where: { key($0.name) == key(name) }) else { return nil }
        self = match
    }
}

/// The Heart Rate Control Point (0x2A39): one octet, 0x01 resets Energy Expended (HRS
/// §3.3.1); any other value is answered with the application error 0x80, "Control Point
/// value not supported" (HRS §1.6, §3.3.2).
public enum HeartRateControlPoint {
    /// 0x01: Reset Energy Expended.
    public static let resetEnergyExpended: UInt8 = 0x01
    /// HRS's application error 0x80.
    public static let valueNotSupported = ATTErrorCode(0x80)
    /// The error's name, for messages.
    public static let valueNotSupportedName = "Control Point value not supported"

    /// What a supported Control Point value asks for.
    public enum Command: Hashable, Sendable {
        /// 0x01: set Energy Expended back to 0.
        case resetEnergyExpended
    }

    /// One write and what the server makes of it.
    public struct Write: Hashable, Sendable {
        /// The octets written.
        public let value: [UInt8]
        /// The command, or `nil` when the value is not supported.
        public let command: Command?

        /// A write of `value`, read for its command.
        public init(value: [UInt8]) {
            self.value = value
            command = value == [HeartRateControlPoint.resetEnergyExpended] ? .resetEnergyExpended : nil
        }

        /// The ATT error to answer with, `nil` to accept.
        public var error: ATTErrorCode? { command == nil ? HeartRateControlPoint.valueNotSupported : nil }
    }
}
