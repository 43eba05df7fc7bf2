import SwiftATTCore

/// The LE Role AD type: which LE roles the device supports and which it prefers for the
/// connection. (The role a connection actually has is `SwiftATTHCI.LERole`.)
///
/// Core Specification Supplement Part A §1.17. Values 0x04–0xFF are reserved; they are kept
/// as sent.
public struct LERoleSupport: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Only Peripheral Role supported.
    public static let onlyPeripheral = LERoleSupport(rawValue: 0x00)
    /// Only Central Role supported.
    public static let onlyCentral = LERoleSupport(rawValue: 0x01)
    /// Peripheral and Central Role supported, Peripheral Role preferred for connection
    /// establishment.
    public static let peripheralPreferred = LERoleSupport(rawValue: 0x02)
    /// Peripheral and Central Role supported, Central Role preferred for connection establishment.
    public static let centralPreferred = LERoleSupport(rawValue: 0x03)

    /// The spec's wording for the value; `nil` for a reserved one.
    public var name: String? {
        switch rawValue {
        case 0x00: return "Only Peripheral Role supported"
        case 0x01: return "Only Central Role supported"
        case 0x02: return "Peripheral and Central Role supported, Peripheral Role preferred"
        case 0x03: return "Peripheral and Central Role supported, Central Role preferred"
        default: return nil
        }
    }

    public var description: String {
        let hex = "0x" + Hex.encode([rawValue]).uppercased()
        return name.map { "\(hex) \($0)" } ?? "\(hex) (reserved)"
    }
}
