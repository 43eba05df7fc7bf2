import SwiftATTCore

/// The typed reading of one AD structure, and what a builder appends.
///
/// Core Specification Supplement Part A §1. Each case's payload is a view into the bytes
/// it was parsed from; a type this target does not decode is `.other`, kept as it came.
/// Encoding writes the structure (Length, AD type, data); a parsed item re-encodes to the
/// bytes it came from, except where the Supplement leaves octets reserved (Flags beyond
/// the first octet, the LE Bluetooth Device Address's upper type bits), which are dropped.
public enum ADItem: Hashable, Sendable, ByteEncodable {
    /// §1.3.
    case flags(ADFlags)
    /// §1.1: incomplete or complete lists of service class UUIDs, and (§1.10) service
    /// solicitation lists.
    case serviceUUIDs(ServiceUUIDList)
    /// §1.2: shortened or complete.
    case localName(LocalName)
    /// §1.5: dBm.
    case txPowerLevel(Int8)
    /// §1.9.
    case peripheralConnectionIntervalRange(PeripheralConnectionIntervalRange)
    /// §1.11: 16-, 32- or 128-bit UUID and data.
    case serviceData(ServiceData)
    /// §1.13: public or random target addresses.
    case targetAddresses(TargetAddressList)
    /// §1.12.
    case appearance(Appearance)
    /// §1.15: the 2-octet form or the 3/4-octet long form.
    case advertisingInterval(AdvertisingInterval)
    /// §1.16.
    case leBluetoothDeviceAddress(BluetoothAddress)
    /// §1.17.
    case leRole(LERoleSupport)
    /// §1.18.
    case uri(URI)
    /// §1.4.
    case manufacturerSpecificData(ManufacturerSpecificData)
    /// Any other type, raw.
    case other(ADStructure)

    /// Decodes a structure. Structures are validated when made, so this cannot fail.
    public init(_ structure: ADStructure) {
        let data = structure.data
        switch structure.type.rawValue {
        case 0x01: self = .flags(ADFlags(data: data))
        case 0x02...0x07, 0x14, 0x15, 0x1F: self = .serviceUUIDs(ServiceUUIDList(validated: structure))
        case 0x08, 0x09: self = .localName(LocalName(validated: structure))
        case 0x0A: self = .txPowerLevel(Int8(bitPattern: data.byte(at: 0)))
        case 0x12: self = .peripheralConnectionIntervalRange(PeripheralConnectionIntervalRange(validated: structure))
        case 0x16, 0x20, 0x21: self = .serviceData(ServiceData(validated: structure))
        case 0x17, 0x18: self = .targetAddresses(TargetAddressList(validated: structure))
        case 0x19: self = .appearance(Appearance(rawValue: data.littleEndianUInt16(at: 0)))
        case 0x1A, 0x2F: self = .advertisingInterval(AdvertisingInterval(validated: structure))
        case 0x1B: self = .leBluetoothDeviceAddress(Self.leBluetoothDeviceAddress(from: data))
        case 0x1C: self = .leRole(LERoleSupport(rawValue: data.byte(at: 0)))
        case 0x24: self = .uri(URI(validated: structure))
        case 0xFF: self = .manufacturerSpecificData(ManufacturerSpecificData(validated: structure))
        default: self = .other(structure)
        }
    }

    /// Seven octets: the address, least significant first, then bit 0 of the last octet
    /// (0 public, 1 random). Supplement Part A §1.16.
    static func leBluetoothDeviceAddress(from data: ArraySlice<UInt8>) -> BluetoothAddress {
        BluetoothAddress(
            littleEndianBytes: data.bytes(at: 0, count: 6),
            kind: data.byte(at: 6) & 0x01 == 0 ? .public : .random)
    }

    /// The AD type this item is written with.
    public var type: ADType {
        switch self {
        case .flags: return .flags
        case let .serviceUUIDs(list): return list.type
        case let .localName(name): return name.isComplete ? .completeLocalName : .shortenedLocalName
        case .txPowerLevel: return .txPowerLevel
        case .peripheralConnectionIntervalRange: return .peripheralConnectionIntervalRange
        case let .serviceData(d): return d.type
        case let .targetAddresses(list): return list.type
        case .appearance: return .appearance
        case let .advertisingInterval(i): return i.type
        case .leBluetoothDeviceAddress: return .leBluetoothDeviceAddress
        case .leRole: return .leRole
        case .uri: return .uri
        case .manufacturerSpecificData: return .manufacturerSpecificData
        case let .other(s): return s.type
        }
    }

    /// Octets after the AD type.
    public var dataLength: Int {
        switch self {
        case let .flags(f): return f.rawValue == 0 ? 0 : 1
        case let .serviceUUIDs(list): return list.bytes.count
        case let .localName(name): return name.bytes.count
        case .txPowerLevel: return 1
        case .peripheralConnectionIntervalRange: return 4
        case let .serviceData(d): return d.uuid.width.byteCount + d.data.count
        case let .targetAddresses(list): return list.bytes.count
        case .appearance: return 2
        case let .advertisingInterval(i): return i.byteCount
        case .leBluetoothDeviceAddress: return 7
        case .leRole: return 1
        case let .uri(u): return u.bytes.count
        case let .manufacturerSpecificData(m): return 2 + m.data.count
        case let .other(s): return s.data.count
        }
    }

    /// The item as a structure (its data copied into a new array).
    public var structure: ADStructure {
        if case let .other(s) = self { return s }
        let bytes = encoded()
        return ADStructure(unchecked: type, data: bytes[2...])
    }

    // MARK: ByteEncodable

    /// Length octet, AD type and data. Only meaningful while `dataLength` is at most 254;
    /// the builder checks that before writing.
    public var encodedLength: Int { 2 + dataLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(UInt8(truncatingIfNeeded: 1 + dataLength))
        writer.write(type.rawValue)
        switch self {
        case let .flags(f):
            // Supplement Part A §1.3: trailing zero octets are omitted, so no flags is no octets.
            if f.rawValue != 0 { writer.write(f.rawValue) }
        case let .serviceUUIDs(list): writer.write(list.bytes)
        case let .localName(name): writer.write(name.bytes)
        case let .txPowerLevel(dBm): writer.write(UInt8(bitPattern: dBm))
        case let .peripheralConnectionIntervalRange(r):
            writer.write(r.minimum)
            writer.write(r.maximum)
        case let .serviceData(d):
            d.uuid.encode(into: &writer)
            writer.write(d.data)
        case let .targetAddresses(list): writer.write(list.bytes)
        case let .appearance(a): writer.write(a.rawValue)
        case let .advertisingInterval(i):
            switch i.byteCount {
            case 2: writer.write(UInt16(truncatingIfNeeded: i.units))
            case 3: writer.writeUInt24(i.units)
            default: writer.write(i.units)
            }
        case let .leBluetoothDeviceAddress(address):
            address.encode(into: &writer)
            writer.write(address.kind.rawValue)
        case let .leRole(role): writer.write(role.rawValue)
        case let .uri(u): writer.write(u.bytes)
        case let .manufacturerSpecificData(m):
            writer.write(m.companyIdentifier.rawValue)
            writer.write(m.data)
        case let .other(s): writer.write(s.data)
        }
    }
}

extension ADItem: CustomStringConvertible {
    /// One line for people: `Complete Local Name: "Polar H10"`.
    public var description: String {
        let name = type.name ?? type.description
        switch self {
        case let .flags(f): return "\(name): \(f)"
        case let .serviceUUIDs(list): return "\(name): \(list.map(\.description).joined(separator: ", "))"
        case let .localName(n): return "\(name): \"\(n.name)\"\(n.isValidUTF8 ? "" : " (invalid UTF-8)")"
        case let .txPowerLevel(dBm): return "\(name): \(dBm) dBm"
        case let .peripheralConnectionIntervalRange(r): return "\(name): \(r)"
        case let .serviceData(d): return "\(name): \(d)"
        case let .targetAddresses(list): return "\(name): \(list.map(\.description).joined(separator: ", "))"
        case let .appearance(a): return "\(name): \(a)"
        case let .advertisingInterval(i): return "\(name): \(i)"
        case let .leBluetoothDeviceAddress(a): return "\(name): \(a) (\(a.kind == .public ? "public" : "random"))"
        case let .leRole(r): return "\(name): \(r)"
        case let .uri(u): return "\(name): \(u)"
        case let .manufacturerSpecificData(m): return "\(name): \(m)"
        case let .other(s): return s.description
        }
    }
}
