import SwiftATTCore

/// Simplified Protocol/Service Multiplexer: the service a credit-based channel connects
/// to, as a port number names a TCP service. Core 5.4 Vol 3 Part A §4.22 (the ranges)
/// and §4.25.
///
/// Any 16-bit value is kept, so a request naming a reserved SPSM still decodes and can be
/// answered "SPSM not supported", which is the spec's answer for it (`validRange`).
public struct SPSM: RawRepresentable, Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// The SPSM numbered `rawValue`.
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt16) { rawValue = value }

    /// Assigned by the Bluetooth SIG to a protocol or profile (Assigned Numbers), the same
    /// on every device, so a client connects without discovering it first.
    public static let fixedRange: ClosedRange<UInt16> = 0x0001...0x007F
    /// Chosen by the device for a service of its own; a client learns it from the
    /// service (a GATT characteristic, an advertisement) or from its user.
    public static let dynamicRange: ClosedRange<UInt16> = 0x0080...0x00FF
    /// Fixed and dynamic together; 0x0000 and 0x0100–0xFFFF are reserved on LE.
    public static let validRange: ClosedRange<UInt16> = 0x0001...0x00FF

    /// Enhanced ATT: the Attribute Protocol over Enhanced Credit Based Flow Control
    /// channels (Assigned Numbers §5.4; Core 5.4 Vol 3 Part F §3.2.11).
    public static let enhancedATT: SPSM = 0x0027

    /// Assigned by the SIG.
    public var isFixed: Bool { Self.fixedRange.contains(rawValue) }
    /// Chosen by the device.
    public var isDynamic: Bool { Self.dynamicRange.contains(rawValue) }
    /// Fixed or dynamic: not reserved.
    public var isValid: Bool { Self.validRange.contains(rawValue) }

    /// `SPSM 0x0027`.
    public var description: String { "SPSM \(Hex.handle(rawValue))" }
}
