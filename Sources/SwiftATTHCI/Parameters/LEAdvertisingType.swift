/// The legacy advertising PDU an advertiser sends (Advertising_Type).
/// Core 5.4 Vol 4 Part E §7.8.5; the PDUs are Vol 6 Part B §2.3.1.
public enum LEAdvertisingType: UInt8, Sendable, Hashable, CaseIterable {
    /// Connectable and scannable undirected.
    case advInd = 0x00
    /// Connectable directed, high duty cycle (at most 1.28 s).
    case advDirectIndHighDutyCycle = 0x01
    /// Scannable undirected.
    case advScanInd = 0x02
    /// Non-connectable, non-scannable undirected.
    case advNonconnInd = 0x03
    /// Connectable directed, low duty cycle.
    case advDirectIndLowDutyCycle = 0x04
}
