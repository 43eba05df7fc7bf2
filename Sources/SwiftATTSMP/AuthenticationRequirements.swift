/// The AuthReq octet of Pairing Request, Pairing Response and Security Request: the
/// security a device asks for.
///
/// Core 5.4 Vol 3 Part H §3.5.1: Bonding_Flags (bits 0–1), MITM (bit 2), SC (bit 3),
/// Keypress (bit 4), CT2 (bit 5), and two RFU bits (6–7). The codec keeps the octet
/// exactly as received, reserved bits included, and encodes it back unchanged: reserved
/// bits are sent as zero and ignored on receipt, never a reason to refuse the PDU (the
/// SIG's Just Works qualification test has the peer set every RFU bit and expects the
/// pairing to complete). Judging a reserved value is the pairing machine's business.
///
/// Bonding_Flags is a 2-bit value, not two flags: 0b00 No Bonding, 0b01 Bonding, and
/// 0b10 and 0b11 reserved. `contains(.bonding)` tests bit 0 alone, so it is also true
/// for the reserved 0b11; `hasReservedBondingFlags` tells the two apart. (Bluedroid,
/// Android's stack, refuses reserved Bonding_Flags with Invalid Parameters; whether to
/// is the pairing machine's choice.)
public struct AuthenticationRequirements: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags 0b01: the device asks to bond, storing the keys for later links.
    public static let bonding = AuthenticationRequirements(rawValue: 0b0000_0001)
    /// The device asks for protection against a man in the middle (an authenticated key).
    public static let mitm = AuthenticationRequirements(rawValue: 0b0000_0100)
    /// The device supports LE Secure Connections pairing (§2.3.5.6).
    public static let secureConnections = AuthenticationRequirements(rawValue: 0b0000_1000)
    /// Passkey Entry sends Pairing Keypress Notifications when both sides set this.
    public static let keypress = AuthenticationRequirements(rawValue: 0b0001_0000)
    /// The device supports the h7 function for cross-transport key derivation (§2.4.2.4).
    public static let ct2 = AuthenticationRequirements(rawValue: 0b0010_0000)
    /// The bits Core 5.4 does not define: Bonding_Flags' high bit and RFU bits 6–7.
    /// `subtracting(.reserved)` is what this version of the spec understands.
    public static let reserved = AuthenticationRequirements(rawValue: 0b1100_0010)

    /// Bonding_Flags is 0b10 or 0b11, which §3.5.1 reserves.
    public var hasReservedBondingFlags: Bool { rawValue & 0b10 != 0 }

    /// `Bonding, MITM, SC (0x0d)`, in the order and words btmon uses.
    public var description: String {
        var parts: [String] = []
        switch rawValue & 0b11 {
        case 0b00: parts.append("No Bonding")
        case 0b01: parts.append("Bonding")
        default: parts.append("Bonding_Flags reserved")
        }
        if contains(.mitm) { parts.append("MITM") }
        if contains(.secureConnections) { parts.append("SC") }
        if contains(.keypress) { parts.append("Keypress") }
        if contains(.ct2) { parts.append("CT2") }
        if rawValue & 0b1100_0000 != 0 { parts.append("RFU bits set") }
        return parts.joined(separator: ", ") + " (\(SMPHex.octet(rawValue)))"
    }
}
