/// The keys one side will distribute (or generate) after pairing: the Initiator and
/// Responder Key Distribution / Generation octets of Pairing Request and Response.
///
/// Core 5.4 Vol 3 Part H §3.6.1: EncKey (bit 0), IdKey (bit 1), SignKey (bit 2),
/// LinkKey (bit 3), and RFU bits 4–7. As with `AuthenticationRequirements`, the octet is
/// kept as received, reserved bits included: a responder answers with a subset of what
/// the initiator offered (§3.5.2), and the pairing machine, not the codec, does that sum.
public struct KeyDistribution: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// EncKey: Encryption Information and Central Identification (LE legacy pairing's LTK,
    /// EDIV and Rand); in LE Secure Connections the LTK is derived, so the bit is ignored.
    public static let encryptionKey = KeyDistribution(rawValue: 0b0001)
    /// IdKey: Identity Information and Identity Address Information (IRK and identity address).
    public static let identityKey = KeyDistribution(rawValue: 0b0010)
    /// SignKey: Signing Information (CSRK).
    public static let signingKey = KeyDistribution(rawValue: 0b0100)
    /// LinkKey: derive the BR/EDR link key from the LE LTK (§2.4.2.4).
    public static let linkKey = KeyDistribution(rawValue: 0b1000)
    /// RFU bits 4–7, which Core 5.4 does not define.
    public static let reserved = KeyDistribution(rawValue: 0b1111_0000)

    /// `EncKey IdKey (0x03)`, in btmon's words; `<none> (0x00)` when empty.
    public var description: String {
        var parts: [String] = []
        if contains(.encryptionKey) { parts.append("EncKey") }
        if contains(.identityKey) { parts.append("IdKey") }
        if contains(.signingKey) { parts.append("SignKey") }
        if contains(.linkKey) { parts.append("LinkKey") }
        if !intersection(.reserved).isEmpty { parts.append("RFU bits set") }
        if parts.isEmpty { parts.append("<none>") }
        return parts.joined(separator: " ") + " (\(SMPHex.octet(rawValue)))"
    }
}
