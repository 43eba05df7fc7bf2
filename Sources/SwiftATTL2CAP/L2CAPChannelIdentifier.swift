/// The LE fixed channels and the range dynamic channels are allocated from.
/// Core 5.4 Vol 3 Part A §2.1 Table 2.3.
public enum L2CAPChannelIdentifier {
    /// The null identifier: never a channel. A Credit Based Connection Response puts it in
    /// place of each connection it refused (§4.26).
    public static let null: UInt16 = 0x0000
    /// The Attribute Protocol.
    public static let attribute: UInt16 = 0x0004
    /// LE signaling: connection parameter updates, credit-based channels, rejects.
    public static let leSignaling: UInt16 = 0x0005
    /// The Security Manager Protocol.
    public static let securityManager: UInt16 = 0x0006
    /// The CIDs a device allocates for its end of a credit-based channel on LE-U. Every
    /// Source and Destination CID of a credit-based command must lie here; 0x0080–0xFFFF
    /// is reserved on LE, though BR/EDR's dynamic range runs to 0xFFFF (Table 2.3).
    public static let leDynamicRange: ClosedRange<UInt16> = 0x0040...0x007F
}
