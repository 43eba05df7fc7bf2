/// The LE fixed channels. Core 5.4 Vol 3 Part A §2.1 Table 2.3.
public enum L2CAPChannelIdentifier {
    /// The Attribute Protocol.
    public static let attribute: UInt16 = 0x0004
    /// LE signaling: connection parameter updates, credit-based channels, rejects.
    public static let leSignaling: UInt16 = 0x0005
    /// The Security Manager Protocol.
    public static let securityManager: UInt16 = 0x0006
}
