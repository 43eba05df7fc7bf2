import SwiftATTCore

/// The AD Type octet of an AD structure: what its data means.
///
/// Core 5.4 Vol 3 Part C §11 and the Assigned Numbers list of Common Data Types (§2.3);
/// the formats are in Core Specification Supplement Part A. A struct rather than an enum,
/// so a type assigned after this code was written still parses and is kept as raw bytes.
public struct ADType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The AD type numbered `rawValue`, assigned or not.
    @inlinable public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// The Flags AD type (0x01).
    public static let flags = ADType(0x01)
    /// The Incomplete List of 16-bit Service Class UUIDs AD type (0x02).
    public static let incompleteListOf16BitServiceUUIDs = ADType(0x02)
    /// The Complete List of 16-bit Service Class UUIDs AD type (0x03).
    public static let completeListOf16BitServiceUUIDs = ADType(0x03)
    /// The Incomplete List of 32-bit Service Class UUIDs AD type (0x04).
    public static let incompleteListOf32BitServiceUUIDs = ADType(0x04)
    /// The Complete List of 32-bit Service Class UUIDs AD type (0x05).
    public static let completeListOf32BitServiceUUIDs = ADType(0x05)
    /// The Incomplete List of 128-bit Service Class UUIDs AD type (0x06).
    public static let incompleteListOf128BitServiceUUIDs = ADType(0x06)
    /// The Complete List of 128-bit Service Class UUIDs AD type (0x07).
    public static let completeListOf128BitServiceUUIDs = ADType(0x07)
    /// The Shortened Local Name AD type (0x08).
    public static let shortenedLocalName = ADType(0x08)
    /// The Complete Local Name AD type (0x09).
    public static let completeLocalName = ADType(0x09)
    /// The Tx Power Level AD type (0x0A).
    public static let txPowerLevel = ADType(0x0A)
    /// The Class of Device AD type (0x0D).
    public static let classOfDevice = ADType(0x0D)
    /// The Simple Pairing Hash C-192 AD type (0x0E).
    public static let simplePairingHashC192 = ADType(0x0E)
    /// The Simple Pairing Randomizer R-192 AD type (0x0F).
    public static let simplePairingRandomizerR192 = ADType(0x0F)
    /// Device ID in EIR; Security Manager TK Value in LE OOB data.
    public static let securityManagerTKValue = ADType(0x10)
    /// The Security Manager Out of Band Flags AD type (0x11).
    public static let securityManagerOutOfBandFlags = ADType(0x11)
    /// The Peripheral Connection Interval Range AD type (0x12).
    public static let peripheralConnectionIntervalRange = ADType(0x12)
    /// The List of 16-bit Service Solicitation UUIDs AD type (0x14).
    public static let listOf16BitServiceSolicitationUUIDs = ADType(0x14)
    /// The List of 128-bit Service Solicitation UUIDs AD type (0x15).
    public static let listOf128BitServiceSolicitationUUIDs = ADType(0x15)
    /// The Service Data - 16-bit UUID AD type (0x16).
    public static let serviceData16BitUUID = ADType(0x16)
    /// The Public Target Address AD type (0x17).
    public static let publicTargetAddress = ADType(0x17)
    /// The Random Target Address AD type (0x18).
    public static let randomTargetAddress = ADType(0x18)
    /// The Appearance AD type (0x19).
    public static let appearance = ADType(0x19)
    /// The Advertising Interval AD type (0x1A).
    public static let advertisingInterval = ADType(0x1A)
    /// The LE Bluetooth Device Address AD type (0x1B).
    public static let leBluetoothDeviceAddress = ADType(0x1B)
    /// The LE Role AD type (0x1C).
    public static let leRole = ADType(0x1C)
    /// The Simple Pairing Hash C-256 AD type (0x1D).
    public static let simplePairingHashC256 = ADType(0x1D)
    /// The Simple Pairing Randomizer R-256 AD type (0x1E).
    public static let simplePairingRandomizerR256 = ADType(0x1E)
    /// The List of 32-bit Service Solicitation UUIDs AD type (0x1F).
    public static let listOf32BitServiceSolicitationUUIDs = ADType(0x1F)
    /// The Service Data - 32-bit UUID AD type (0x20).
    public static let serviceData32BitUUID = ADType(0x20)
    /// The Service Data - 128-bit UUID AD type (0x21).
    public static let serviceData128BitUUID = ADType(0x21)
    /// The LE Secure Connections Confirmation Value AD type (0x22).
    public static let leSecureConnectionsConfirmationValue = ADType(0x22)
    /// The LE Secure Connections Random Value AD type (0x23).
    public static let leSecureConnectionsRandomValue = ADType(0x23)
    /// The URI AD type (0x24).
    public static let uri = ADType(0x24)
    /// The Indoor Positioning AD type (0x25).
    public static let indoorPositioning = ADType(0x25)
    /// The Transport Discovery Data AD type (0x26).
    public static let transportDiscoveryData = ADType(0x26)
    /// The LE Supported Features AD type (0x27).
    public static let leSupportedFeatures = ADType(0x27)
    /// The Channel Map Update Indication AD type (0x28).
    public static let channelMapUpdateIndication = ADType(0x28)
    /// The PB-ADV AD type (0x29).
    public static let pbADV = ADType(0x29)
    /// The Mesh Message AD type (0x2A).
    public static let meshMessage = ADType(0x2A)
    /// The Mesh Beacon AD type (0x2B).
    public static let meshBeacon = ADType(0x2B)
    /// The BIGInfo AD type (0x2C).
    public static let bigInfo = ADType(0x2C)
    /// The Broadcast_Code AD type (0x2D).
    public static let broadcastCode = ADType(0x2D)
    /// The Resolvable Set Identifier AD type (0x2E).
    public static let resolvableSetIdentifier = ADType(0x2E)
    /// The Advertising Interval - long AD type (0x2F).
    public static let advertisingIntervalLong = ADType(0x2F)
    /// The Broadcast_Name AD type (0x30).
    public static let broadcastName = ADType(0x30)
    /// The Encrypted Advertising Data AD type (0x31).
    public static let encryptedAdvertisingData = ADType(0x31)
    /// The Periodic Advertising Response Timing Information AD type (0x32).
    public static let periodicAdvertisingResponseTimingInformation = ADType(0x32)
    /// The Electronic Shelf Label AD type (0x34).
    public static let electronicShelfLabel = ADType(0x34)
    /// The 3D Information Data AD type (0x3D).
    public static let threeDInformationData = ADType(0x3D)
    /// The Manufacturer Specific Data AD type (0xFF).
    public static let manufacturerSpecificData = ADType(0xFF)

    /// The Assigned Numbers name, or `nil` for an unassigned value.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Flags"
        case 0x02: return "Incomplete List of 16-bit Service Class UUIDs"
        case 0x03: return "Complete List of 16-bit Service Class UUIDs"
        case 0x04: return "Incomplete List of 32-bit Service Class UUIDs"
        case 0x05: return "Complete List of 32-bit Service Class UUIDs"
        case 0x06: return "Incomplete List of 128-bit Service Class UUIDs"
        case 0x07: return "Complete List of 128-bit Service Class UUIDs"
        case 0x08: return "Shortened Local Name"
        case 0x09: return "Complete Local Name"
        case 0x0A: return "Tx Power Level"
        case 0x0D: return "Class of Device"
        case 0x0E: return "Simple Pairing Hash C-192"
        case 0x0F: return "Simple Pairing Randomizer R-192"
        case 0x10: return "Device ID / Security Manager TK Value"
        case 0x11: return "Security Manager Out of Band Flags"
        case 0x12: return "Peripheral Connection Interval Range"
        case 0x14: return "List of 16-bit Service Solicitation UUIDs"
        case 0x15: return "List of 128-bit Service Solicitation UUIDs"
        case 0x16: return "Service Data - 16-bit UUID"
        case 0x17: return "Public Target Address"
        case 0x18: return "Random Target Address"
        case 0x19: return "Appearance"
        case 0x1A: return "Advertising Interval"
        case 0x1B: return "LE Bluetooth Device Address"
        case 0x1C: return "LE Role"
        case 0x1D: return "Simple Pairing Hash C-256"
        case 0x1E: return "Simple Pairing Randomizer R-256"
        case 0x1F: return "List of 32-bit Service Solicitation UUIDs"
        case 0x20: return "Service Data - 32-bit UUID"
        case 0x21: return "Service Data - 128-bit UUID"
        case 0x22: return "LE Secure Connections Confirmation Value"
        case 0x23: return "LE Secure Connections Random Value"
        case 0x24: return "URI"
        case 0x25: return "Indoor Positioning"
        case 0x26: return "Transport Discovery Data"
        case 0x27: return "LE Supported Features"
        case 0x28: return "Channel Map Update Indication"
        case 0x29: return "PB-ADV"
        case 0x2A: return "Mesh Message"
        case 0x2B: return "Mesh Beacon"
        case 0x2C: return "BIGInfo"
        case 0x2D: return "Broadcast_Code"
        case 0x2E: return "Resolvable Set Identifier"
        case 0x2F: return "Advertising Interval - long"
        case 0x30: return "Broadcast_Name"
        case 0x31: return "Encrypted Advertising Data"
        case 0x32: return "Periodic Advertising Response Timing Information"
        case 0x34: return "Electronic Shelf Label"
        case 0x3D: return "3D Information Data"
        case 0xFF: return "Manufacturer Specific Data"
        default: return nil
        }
    }

    /// What the data length of a structure of this type must satisfy, for the types whose
    /// format this target decodes; `nil` when any length is acceptable.
    ///
    /// Flags is deliberately absent: Supplement Part A §1.3 lets it be any number of octets
    /// (trailing zero octets are omitted, so "no flags set" is zero octets).
    public var lengthRequirement: ADLengthRequirement? {
        switch rawValue {
        case 0x02, 0x03, 0x14: return .multiple(of: 2)
        case 0x04, 0x05, 0x1F: return .multiple(of: 4)
        case 0x06, 0x07, 0x15: return .multiple(of: 16)
        case 0x0A: return .exactly(1)
        case 0x12: return .exactly(4)
        case 0x16: return .atLeast(2)
        case 0x17, 0x18: return .multiple(of: 6)
        case 0x19: return .exactly(2)
        case 0x1A: return .exactly(2)
        case 0x1B: return .exactly(7)
        case 0x1C: return .exactly(1)
        case 0x20: return .atLeast(4)
        case 0x21: return .atLeast(16)
        case 0x24: return .atLeast(1)
        case 0x2F: return .between(3, 4)
        case 0xFF: return .atLeast(2)
        default: return nil
        }
    }

    /// `0x09 Complete Local Name`, or `0x33` for an unassigned type.
    public var description: String {
        let hex = "0x" + Hex.encode([rawValue]).uppercased()
        guard let name else { return hex }
        return "\(hex) \(name)"
    }
}

/// A rule an AD structure's data length must follow (Core Specification Supplement Part A).
public enum ADLengthRequirement: Hashable, Sendable, CustomStringConvertible {
    /// Exactly this many octets.
    case exactly(Int)
    /// From the first to the second number of octets, inclusive.
    case between(Int, Int)
    /// At least this many octets.
    case atLeast(Int)
    /// A whole number of entries (zero included): a UUID or address list.
    case multiple(of: Int)

    /// Whether `length` octets of data follow the rule.
    @inlinable
    public func isSatisfied(by length: Int) -> Bool {
        switch self {
        case let .exactly(n): return length == n
        case let .between(low, high): return length >= low && length <= high
        case let .atLeast(n): return length >= n
        case let .multiple(of: n): return length % n == 0
        }
    }

    public var description: String {
        switch self {
        case let .exactly(n): return "exactly \(n) \(n == 1 ? "byte" : "bytes")"
        case let .between(low, high):
            return high == low + 1 ? "\(low) or \(high) bytes" : "\(low) to \(high) bytes"
        case let .atLeast(n): return "at least \(n) \(n == 1 ? "byte" : "bytes")"
        case let .multiple(of: n): return "a multiple of \(n) bytes"
        }
    }
}
