/// The GAP service's characteristics, which every LE server has. Core 5.4 Vol 3 Part C
/// §12: Device Name (0x2A00) and Appearance (0x2A01).
public struct GATTGenericAccess: Sendable, Hashable {
    /// UTF-8, at most 248 octets.
    public var deviceName: String
    /// The Appearance value (Assigned Numbers §2.6); 0x0000 is Unknown.
    public var appearance: UInt16
    /// Whether clients may write the Device Name (§12.1 allows it; off by default).
    public var deviceNameWritable: Bool

    /// The GAP service's values; by default named swift-att, of unknown appearance, name not
    /// writable.
    public init(deviceName: String = "swift-att", appearance: UInt16 = 0x0000, deviceNameWritable: Bool = false) {
        self.deviceName = deviceName
        self.appearance = appearance
        self.deviceNameWritable = deviceNameWritable
    }
}
