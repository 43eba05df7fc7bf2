import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTJSON
import SwiftATTProfiles

/// What `central discover` shows for a value beside its hex: the characteristics and
/// descriptors it can name from the assigned-numbers tables (Appearance, PnP ID, System
/// ID, Battery Level, Heart Rate, the GATT descriptors), as nRF Connect and LightBlue
/// show them. A value of the wrong length is shown as hex with what is wrong.
enum DecodedValueText {
    enum Decoded: Equatable {
        /// The human form, the JSON members added beside `"value"`, and whether the
        /// hex still follows the human form (text values stand alone).
        case value(String, json: [JSONMember] = [], showsHex: Bool = true)
        /// Why the octets do not decode: `System ID: 3 octets, expected 8 octets`.
        case malformed(String)
    }

    /// A characteristic value decoded, or `nil` when nothing better than hex is known.
    static func characteristic(_ value: [UInt8], uuid: BluetoothUUID) -> Decoded? {
        let bytes = value[...]
        do throws(ProfileDecodingError) {
            switch uuid {
            case GATTAttributeType.appearance:
                guard value.count == 2 else { throw .invalidLength(value: "Appearance", length: value.count, expected: "2 octets") }
                return appearance(Appearance(bytes.littleEndianUInt16(at: 0)))
            case DeviceInformationProfile.pnpID:
                return pnpID(try PnPID(decoding: bytes))
            case DeviceInformationProfile.systemID:
                return systemID(try SystemID(decoding: bytes))
            case BatteryProfile.level:
                return .value(try BatteryLevel(decoding: bytes).description)
            case HeartRateProfile.measurement:
                return .value(CentralValueText.heartRate(try HeartRateMeasurement(decoding: value)))
            case HeartRateProfile.bodySensorLocation:
                let location = try BodySensorLocation(decoding: bytes)
                return .value(location.name, json: [JSONMember("bodySensorLocation", .string(location.name))])
            case Self.preferredConnectionParameters:
                return try connectionParameters(bytes)
            case Self.centralAddressResolution:
                guard value.count == 1 else {
                    throw .invalidLength(value: "Central Address Resolution", length: value.count, expected: "1 octet")
                }
                let supported = value[0] != 0
                return .value(supported ? "supported" : "not supported", json: [JSONMember("supported", .bool(supported))])
            default:
                return CentralValueText.decoded(value, uuid: uuid).map { .value($0) }
            }
        } catch {
            return .malformed(error.description)
        }
    }

    /// A descriptor value decoded, or `nil` when nothing better than hex is known.
    static func descriptor(_ value: [UInt8], uuid: BluetoothUUID) -> Decoded? {
        let bytes = value[...]
        do throws(ProfileDecodingError) {
            switch uuid {
            case GATTAttributeType.characteristicExtendedProperties:
                let bits = try flags(bytes, "Extended Properties")
                var names: [String] = []
                if bits & 0x0001 != 0 { names.append("reliable-write") }
                if bits & 0x0002 != 0 { names.append("writable-auxiliaries") }
                return .value(names.isEmpty ? "none" : names.joined(separator: ", "),
                              json: [JSONMember("extendedProperties", .array(names.map { .string($0) }))])
            case GATTAttributeType.characteristicUserDescription:
                let text = String(decoding: value, as: UTF8.self)
                return .value(EventReport.quoted(text), json: [JSONMember("text", .string(text))], showsHex: false)
            case GATTAttributeType.clientCharacteristicConfiguration:
                let bits = try flags(bytes, "Client Characteristic Configuration")
                let notifications = bits & 0x0001 != 0, indications = bits & 0x0002 != 0
                return .value("notifications \(onOff(notifications)), indications \(onOff(indications))",
                              json: [JSONMember("notifications", .bool(notifications)), JSONMember("indications", .bool(indications))])
            case GATTAttributeType.serverCharacteristicConfiguration:
                let broadcasts = try flags(bytes, "Server Characteristic Configuration") & 0x0001 != 0
                return .value("broadcasts \(onOff(broadcasts))", json: [JSONMember("broadcasts", .bool(broadcasts))])
            case GATTAttributeType.characteristicPresentationFormat:
                return presentationFormat(try GATTPresentationFormat(decoding: bytes))
            case GATTAttributeType.characteristicAggregateFormat:
                guard value.count % 2 == 0 else {
                    throw .invalidLength(value: "Aggregate Format", length: value.count, expected: "a list of 2-octet handles")
                }
                let handles = stride(from: 0, to: value.count, by: 2).map { bytes.littleEndianUInt16(at: $0) }
                return .value("formats at " + (handles.isEmpty ? "none" : handles.map(Hex.handle).joined(separator: ", ")),
                              json: [JSONMember("formats", .array(handles.map { .integer(Int($0)) }))])
            default:
                return nil
            }
        } catch {
            return .malformed(error.description)
        }
    }

    /// GAP Peripheral Preferred Connection Parameters and Central Address Resolution
    /// (Core 5.4 Vol 3 Part C §12.3, §12.4).
    static let preferredConnectionParameters = BluetoothUUID(0x2A04)
    static let centralAddressResolution = BluetoothUUID(0x2AA6)

    /// `Heart Rate Sensor: Heart Rate Belt (0x0341)`; `Generic Watch (0x00C0)`;
    /// `Heart Rate Sensor, subcategory 7 (0x0347)`; `category 60, subcategory 1 (0x0F01)`.
    static func appearance(_ a: Appearance) -> Decoded {
        let code = "(\(hex(a.rawValue, digits: 4)))"
        let text: String
        switch (a.categoryName, a.subcategory) {
        case (nil, _): text = "category \(a.category), subcategory \(a.subcategory)"
        case (_, 0): text = a.name ?? "Unknown"
        case let (category?, subcategory): text = a.name.map { "\(category): \($0)" } ?? "\(category), subcategory \(subcategory)"
        }
        var members: [JSONMember] = [JSONMember("category", .integer(Int(a.category))),
                                     JSONMember("subcategory", .integer(Int(a.subcategory)))]
        if let name = a.categoryName { members.append(JSONMember("categoryName", .string(name))) }
        if let name = a.name { members.append(JSONMember("name", .string(name))) }
        return .value("\(text) \(code)", json: [JSONMember("appearance", .object(members))])
    }

    /// `USB vendor 0x1D6B, product 0x0246, version 1.0.0`; a Bluetooth SIG vendor is
    /// named from the company table when it has it.
    static func pnpID(_ id: PnPID) -> Decoded {
        let version = "\(id.productVersion >> 8).\(id.productVersion >> 4 & 0xF).\(id.productVersion & 0xF)"
        let source: String, company: String?
        switch id.vendorIDSource {
        case .bluetoothSIG:
            source = "Bluetooth SIG company"
            company = CompanyIdentifier(id.vendorID).name
        case .usb:
            source = "USB vendor"
            company = nil
        }
        let vendor = hex(id.vendorID, digits: 4) + (company.map { " (\($0))" } ?? "")
        var members: [JSONMember] = [
            JSONMember("vendorIDSource", .string(id.vendorIDSource == .usb ? "usb" : "bluetooth")),
            JSONMember("vendorID", .integer(Int(id.vendorID))),
        ]
        if let company { members.append(JSONMember("vendorName", .string(company))) }
        members += [JSONMember("productID", .integer(Int(id.productID))),
                    JSONMember("productVersion", .integer(Int(id.productVersion))),
                    JSONMember("version", .string(version))]
        return .value("\(source) \(vendor), product \(hex(id.productID, digits: 4)), version \(version)",
                      json: [JSONMember("pnpID", .object(members))])
    }

    /// `manufacturer 0x0000000001, organisation 0x000000` (40 and 24 bits).
    static func systemID(_ id: SystemID) -> Decoded {
        .value("manufacturer \(hex(id.manufacturerIdentifier, digits: 10)), organisation \(hex(id.organizationallyUniqueIdentifier, digits: 6))",
               json: [JSONMember("systemID", .object([
                   JSONMember("manufacturerIdentifier", .integer(Int(id.manufacturerIdentifier))),
                   JSONMember("organizationallyUniqueIdentifier", .integer(Int(id.organizationallyUniqueIdentifier))),
               ]))])
    }

    /// `uint8, percentage, exponent 0, namespace Bluetooth SIG, description "main" (0x0106)`.
    static func presentationFormat(_ f: GATTPresentationFormat) -> Decoded {
        var parts = [f.formatName ?? "format \(hex(f.format, digits: 2))"]
        parts.append(f.unitName.map { "\($0) (\(hex(f.unit, digits: 4)))" } ?? "unit \(hex(f.unit, digits: 4))")
        parts.append("exponent \(f.exponent)")
        parts.append("namespace " + (f.namespaceName ?? hex(f.namespace, digits: 2)))
        parts.append("description " + (f.descriptionName.map { "\"\($0)\" " } ?? "") + "(\(hex(f.description, digits: 4)))")
        var members: [JSONMember] = [JSONMember("format", .integer(Int(f.format)))]
        if let name = f.formatName { members.append(JSONMember("formatName", .string(name))) }
        members += [JSONMember("exponent", .integer(Int(f.exponent))), JSONMember("unit", .integer(Int(f.unit)))]
        if let name = f.unitName { members.append(JSONMember("unitName", .string(name))) }
        members.append(JSONMember("namespace", .integer(Int(f.namespace))))
        members.append(JSONMember("description", .integer(Int(f.description))))
        if let name = f.descriptionName { members.append(JSONMember("descriptionName", .string(name))) }
        return .value(parts.joined(separator: ", "), json: [JSONMember("presentationFormat", .object(members))])
    }

    /// Intervals in units of 1.25 ms, the timeout in 10 ms; 0xFFFF leaves a value to the central.
    static func connectionParameters(_ bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) -> Decoded {
        guard bytes.count == 8 else {
            throw .invalidLength(value: "Peripheral Preferred Connection Parameters", length: bytes.count, expected: "8 octets")
        }
        enum Field { static let minimum = 0, maximum = 2, latency = 4, timeout = 6 }
        let minimum = bytes.littleEndianUInt16(at: Field.minimum), maximum = bytes.littleEndianUInt16(at: Field.maximum)
        let latency = bytes.littleEndianUInt16(at: Field.latency), timeout = bytes.littleEndianUInt16(at: Field.timeout)
        func interval(_ v: UInt16) -> String {
            guard v != 0xFFFF else { return "any" }
            let hundredths = Int(v) * 125, fraction = hundredths % 100
            return "\(hundredths / 100)" + (fraction == 0 ? "" : fraction % 10 == 0 ? ".\(fraction / 10)" : ".\(fraction)")
        }
        let intervals = minimum == 0xFFFF && maximum == 0xFFFF ? "any" : "\(interval(minimum))–\(interval(maximum)) ms"
        let text = "interval \(intervals), latency \(latency), timeout " + (timeout == 0xFFFF ? "any" : "\(Int(timeout) * 10) ms")
        return .value(text, json: [JSONMember("connectionParameters", .object([
            JSONMember("minimumInterval", .integer(Int(minimum))), JSONMember("maximumInterval", .integer(Int(maximum))),
            JSONMember("latency", .integer(Int(latency))), JSONMember("timeout", .integer(Int(timeout))),
        ]))])
    }

    private static func flags(_ bytes: ArraySlice<UInt8>, _ name: String) throws(ProfileDecodingError) -> UInt16 {
        guard bytes.count == 2 else { throw .invalidLength(value: name, length: bytes.count, expected: "2 octets") }
        return bytes.littleEndianUInt16(at: 0)
    }

    private static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

    /// `0x1D6B`: upper-case digits, as the SIG writes assigned numbers.
    static func hex(_ v: some BinaryInteger, digits: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}

