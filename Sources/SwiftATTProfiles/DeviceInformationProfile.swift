import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT

/// The Device Information service (DIS 1.1): read-only facts about the device — who
/// made it, which model, which serial number and revisions, its System ID and PnP ID.
/// Every characteristic is optional in the spec; a characteristic is served for each
/// field that has a value. Like Battery, it usually sits beside a device's main service.
public enum DeviceInformationProfile {
    /// Device Information service.
    public static let service = BluetoothUUID(0x180A)
    /// System ID (DIS §3.8).
    public static let systemID = BluetoothUUID(0x2A23)
    /// Model Number String (DIS §3.3).
    public static let modelNumber = BluetoothUUID(0x2A24)
    /// Serial Number String (DIS §3.4).
    public static let serialNumber = BluetoothUUID(0x2A25)
    /// Firmware Revision String (DIS §3.6).
    public static let firmwareRevision = BluetoothUUID(0x2A26)
    /// Hardware Revision String (DIS §3.5).
    public static let hardwareRevision = BluetoothUUID(0x2A27)
    /// Software Revision String (DIS §3.7).
    public static let softwareRevision = BluetoothUUID(0x2A28)
    /// Manufacturer Name String (DIS §3.2).
    public static let manufacturerName = BluetoothUUID(0x2A29)
    /// PnP ID (DIS §3.9).
    public static let pnpID = BluetoothUUID(0x2A50)
    /// The name advertised and served as the GAP Device Name when the caller gives none.
    public static let defaultName = "swift-att Device"

    /// The profile's names for its UUIDs, for tools that print a database or a scan.
    public static let names: [BluetoothUUID: String] = [
        service: "Device Information", systemID: "System ID", modelNumber: "Model Number String",
        serialNumber: "Serial Number String", firmwareRevision: "Firmware Revision String",
        hardwareRevision: "Hardware Revision String", softwareRevision: "Software Revision String",
        manufacturerName: "Manufacturer Name String", pnpID: "PnP ID",
    ]

    /// Flags, the service's UUID and `name` (shortened to fit, whole in the scan response).
    public static func advertisement(name: String = defaultName) throws(ADEncodingError) -> ProfileAdvertisement {
        try ProfileAdvertisement(name: name, services: [service])
    }

    /// The service's attributes, to serve alone or beside another service.
    public struct Service: Sendable {
        /// The service, to put in a database.
        public let service: GATTService
        /// The characteristics, in DIS's order, one per field with a value.
        public let characteristics: [GATTCharacteristic]

        /// The service's attributes for `information`, one read-only characteristic per value
        /// given.
        public init(_ information: DeviceInformation) {
            var list: [GATTCharacteristic] = []
            func add(_ uuid: BluetoothUUID, _ value: [UInt8]?) {
                guard let value else { return }
                list.append(GATTCharacteristic(uuid: uuid, properties: [.read], value: .fixed(value)))
            }
            add(DeviceInformationProfile.manufacturerName, information.manufacturerName.map { Array($0.utf8) })
            add(DeviceInformationProfile.modelNumber, information.modelNumber.map { Array($0.utf8) })
            add(DeviceInformationProfile.serialNumber, information.serialNumber.map { Array($0.utf8) })
            add(DeviceInformationProfile.hardwareRevision, information.hardwareRevision.map { Array($0.utf8) })
            add(DeviceInformationProfile.firmwareRevision, information.firmwareRevision.map { Array($0.utf8) })
            add(DeviceInformationProfile.softwareRevision, information.softwareRevision.map { Array($0.utf8) })
            add(DeviceInformationProfile.systemID, information.systemID?.encoded)
            add(DeviceInformationProfile.pnpID, information.pnpID?.encoded)
            characteristics = list
            service = GATTService(uuid: DeviceInformationProfile.service, characteristics: list)
        }

        /// The characteristic of `uuid`, when served.
        public func characteristic(_ uuid: BluetoothUUID) -> GATTCharacteristic? {
            characteristics.first { $0.uuid == uuid }
        }
    }

    /// The Device Information service alone (after GAP and GATT).
    public struct Server: Sendable {
        /// The Device Information service's attributes.
        public let deviceInformation: Service
        /// The whole database: GAP, GATT and the profile's service.
        public let database: GATTDatabase

        /// A database serving `information` under `name`.
        public init(name: String = DeviceInformationProfile.defaultName, information: DeviceInformation = .init()) throws(GATTDatabaseError) {
            deviceInformation = Service(information)
            database = try GATTDatabase(services: [deviceInformation.service], genericAccess: GATTGenericAccess(deviceName: name))
        }
    }
}

/// What the Device Information service says; `nil` leaves a characteristic out. The
/// strings are UTF-8 without a terminator (DIS §3.1–§3.7), at most 512 octets each.
public struct DeviceInformation: Hashable, Sendable {
    /// Manufacturer Name String.
    public var manufacturerName: String?
    /// Model Number String.
    public var modelNumber: String?
    /// Serial Number String.
    public var serialNumber: String?
    /// Hardware Revision String.
    public var hardwareRevision: String?
    /// Firmware Revision String.
    public var firmwareRevision: String?
    /// Software Revision String.
    public var softwareRevision: String?
    /// System ID.
    public var systemID: SystemID?
    /// PnP ID.
    public var pnpID: PnPID?

    /// swift-att's defaults: every characteristic present, with values that say plainly
    /// this is swift-att (the revisions are the caller's to fill in).
    public init(
        manufacturerName: String? = "swift-att", modelNumber: String? = "swift-att peripheral",
        serialNumber: String? = "0001", hardwareRevision: String? = "1.0",
        firmwareRevision: String? = "1.0", softwareRevision: String? = "1.0",
        systemID: SystemID? = SystemID(manufacturerIdentifier: 1, organizationallyUniqueIdentifier: 0),
        pnpID: PnPID? = PnPID(vendorIDSource: .bluetoothSIG, vendorID: 0xFFFF, productID: 0x0001, productVersion: 0x0100)
    ) {
        self.manufacturerName = manufacturerName
        self.modelNumber = modelNumber
        self.serialNumber = serialNumber
        self.hardwareRevision = hardwareRevision
        self.firmwareRevision = firmwareRevision
        self.softwareRevision = softwareRevision
        self.systemID = systemID
        self.pnpID = pnpID
    }
}

/// System ID (0x2A23): a 40-bit manufacturer-defined identifier and a 24-bit
/// Organizationally Unique Identifier, eight octets, least significant first (DIS §3.8).
public struct SystemID: Hashable, Sendable {
    /// 40 bits; higher bits are dropped when encoded.
    public var manufacturerIdentifier: UInt64
    /// 24 bits; higher bits are dropped when encoded.
    public var organizationallyUniqueIdentifier: UInt32

    /// A System ID of these two identifiers.
    public init(manufacturerIdentifier: UInt64, organizationallyUniqueIdentifier: UInt32) {
        self.manufacturerIdentifier = manufacturerIdentifier & 0xFF_FFFF_FFFF
        self.organizationallyUniqueIdentifier = organizationallyUniqueIdentifier & 0xFF_FFFF
    }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard bytes.count == 8 else { throw .invalidLength(value: "System ID", length: bytes.count, expected: "8 octets") }
        let value = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        self.init(manufacturerIdentifier: value & 0xFF_FFFF_FFFF, organizationallyUniqueIdentifier: UInt32(value >> 40))
    }

    /// The value as a characteristic carries it.
    public var encoded: [UInt8] {
        let value = manufacturerIdentifier | UInt64(organizationallyUniqueIdentifier) << 40
        return (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

/// PnP ID (0x2A50): who assigned the vendor ID, the vendor, the product and its version,
/// seven octets (DIS §3.9), as the Device ID profile numbers them.
public struct PnPID: Hashable, Sendable {
    /// Who assigned `vendorID`.
    public enum VendorIDSource: UInt8, Hashable, Sendable {
        /// A Bluetooth SIG company identifier.
        case bluetoothSIG = 0x01
        /// A USB Implementer's Forum vendor ID.
        case usb = 0x02
    }

    /// Who assigned `vendorID`.
    public var vendorIDSource: VendorIDSource
    /// The vendor, numbered by `vendorIDSource`.
    public var vendorID: UInt16
    /// The vendor's number for the product.
    public var productID: UInt16
    /// 0xJJMN for version JJ.M.N.
    public var productVersion: UInt16

    /// A PnP ID of these four fields.
    public init(vendorIDSource: VendorIDSource, vendorID: UInt16, productID: UInt16, productVersion: UInt16) {
        self.vendorIDSource = vendorIDSource
        self.vendorID = vendorID
        self.productID = productID
        self.productVersion = productVersion
    }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard bytes.count == 7 else { throw .invalidLength(value: "PnP ID", length: bytes.count, expected: "7 octets") }
        guard let source = VendorIDSource(rawValue: bytes.byte(at: 0)) else {
            throw .invalidField(value: "PnP ID", field: "vendor ID source", byte: bytes.byte(at: 0), offset: 0)
        }
        func u16(_ offset: Int) -> UInt16 { UInt16(bytes.byte(at: offset)) | UInt16(bytes.byte(at: offset + 1)) << 8 }
        self.init(vendorIDSource: source, vendorID: u16(1), productID: u16(3), productVersion: u16(5))
    }

    /// `usb:1d6b:0246:0100` or `bluetooth:ffff:0001:0100` — BlueZ's DeviceID notation.
    public init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let source: VendorIDSource
        switch parts[0].lowercased() {
        case "bluetooth", "sig": source = .bluetoothSIG
        case "usb": source = .usb
        default: return nil
        }
        let numbers = parts.dropFirst().map { $0.count <= 4 ? UInt16($0, radix: 16) : nil }
        guard let vendor = numbers[0], let product = numbers[1], let version = numbers[2] else { return nil }
        self.init(vendorIDSource: source, vendorID: vendor, productID: product, productVersion: version)
    }

    /// The value as a characteristic carries it.
    public var encoded: [UInt8] {
        [vendorIDSource.rawValue,
         UInt8(truncatingIfNeeded: vendorID), UInt8(truncatingIfNeeded: vendorID >> 8),
         UInt8(truncatingIfNeeded: productID), UInt8(truncatingIfNeeded: productID >> 8),
         UInt8(truncatingIfNeeded: productVersion), UInt8(truncatingIfNeeded: productVersion >> 8)]
    }
}
