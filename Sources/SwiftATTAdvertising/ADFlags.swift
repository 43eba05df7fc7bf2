import SwiftATTCore

/// The Flags AD type: discoverable mode and BR/EDR support.
///
/// Core Specification Supplement Part A §1.3; Core 5.4 Vol 3 Part C §9.2.3 (discoverable
/// modes). The field may be any number of octets, trailing zero octets omitted; only the
/// first octet has assigned bits, so a longer field's further (reserved) octets are ignored.
public struct ADFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// From the field's octets; an empty field is no flags.
    @inlinable
    public init(data: ArraySlice<UInt8>) { rawValue = data.first ?? 0 }

    /// Bit 0.
    public static let leLimitedDiscoverableMode = ADFlags(rawValue: 1 << 0)
    /// Bit 1.
    public static let leGeneralDiscoverableMode = ADFlags(rawValue: 1 << 1)
    /// Bit 2.
    public static let brEDRNotSupported = ADFlags(rawValue: 1 << 2)
    /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
    public static let simultaneousLEAndBREDRController = ADFlags(rawValue: 1 << 3)
    /// Bit 4: Simultaneous LE and BR/EDR to Same Device Capable (Host). Later versions of
    /// the Supplement mark this bit "Previously Used".
    public static let simultaneousLEAndBREDRHost = ADFlags(rawValue: 1 << 4)

    /// The usual value for an LE-only peripheral in general discoverable mode (`0x06`).
    public static let leGeneralDiscoverableLEOnly: ADFlags = [.leGeneralDiscoverableMode, .brEDRNotSupported]

    /// The name of each set bit, lowest first; reserved bits as `bit N`.
    public var names: [String] {
        var out: [String] = []
        for bit in 0..<8 where rawValue & (1 << bit) != 0 {
            switch bit {
            case 0: out.append("LE Limited Discoverable Mode")
            case 1: out.append("LE General Discoverable Mode")
            case 2: out.append("BR/EDR Not Supported")
            case 3: out.append("Simultaneous LE and BR/EDR (Controller)")
            case 4: out.append("Simultaneous LE and BR/EDR (Host)")
            default: out.append("bit \(bit)")
            }
        }
        return out
    }

    /// `0x06 LE General Discoverable Mode, BR/EDR Not Supported`.
    public var description: String {
        let hex = "0x" + Hex.encode([rawValue]).uppercased()
        return names.isEmpty ? hex : hex + " " + names.joined(separator: ", ")
    }
}
