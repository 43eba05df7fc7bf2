/// What kind of advertising an extended advertising set does (Advertising_Event_Properties).
/// Core 5.4 Vol 4 Part E §7.8.53.
///
/// With `.legacy` the set sends legacy PDUs and only the combinations matching
/// ADV_IND (`legacyADVIND`), ADV_DIRECT_IND, ADV_SCAN_IND and ADV_NONCONN_IND are allowed.
public struct LEAdvertisingEventProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0: connectable.
    public static let connectable = LEAdvertisingEventProperties(rawValue: 1 << 0)
    /// Bit 1: scannable.
    public static let scannable = LEAdvertisingEventProperties(rawValue: 1 << 1)
    /// Bit 2: directed.
    public static let directed = LEAdvertisingEventProperties(rawValue: 1 << 2)
    /// High duty cycle directed connectable advertising (at most 1.28 s).
    public static let highDutyCycleDirected = LEAdvertisingEventProperties(rawValue: 1 << 3)
    /// Use legacy advertising PDUs.
    public static let legacy = LEAdvertisingEventProperties(rawValue: 1 << 4)
    /// Omit the advertiser's address from all PDUs.
    public static let anonymous = LEAdvertisingEventProperties(rawValue: 1 << 5)
    /// Include TX power in the extended header of at least one PDU.
    public static let includeTxPower = LEAdvertisingEventProperties(rawValue: 1 << 6)

    /// Every bit the spec defines (bits 7–15 are reserved).
    public static let allDefined = LEAdvertisingEventProperties(rawValue: 0x7F)
    /// Legacy ADV_IND: connectable, scannable, undirected (0x0013).
    public static let legacyADVIND: LEAdvertisingEventProperties = [.legacy, .connectable, .scannable]
}
