/// The LE features a controller (LE Read Local Supported Features) or a peer (LE Read
/// Remote Features Complete) supports: 64 bits, bit n of octet n/8.
/// The bits are defined in Core 5.4 Vol 6 Part B §4.6; the command is Vol 4 Part E §7.8.3.
public struct LEFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Whether bit `bit` (0–63) is set; false for any other number.
    public func contains(bit: Int) -> Bool {
        (0..<64).contains(bit) && rawValue & (1 << UInt64(bit)) != 0
    }

    /// Bit 0: LE Encryption.
    public static let leEncryption = LEFeatures(rawValue: 1 << 0)
    /// Bit 1: Connection Parameters Request Procedure.
    public static let connectionParametersRequestProcedure = LEFeatures(rawValue: 1 << 1)
    /// Bit 2: Extended Reject Indication.
    public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    /// Bit 3: Peripheral Initiated Features Exchange.
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    /// Bit 4: LE Ping.
    public static let lePing = LEFeatures(rawValue: 1 << 4)
    /// Bit 5: LE Data Packet Length Extension.
    public static let leDataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    /// Bit 6: LL Privacy.
    public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    /// Bit 7: Extended Scanner Filter Policies.
    public static let extendedScannerFilterPolicies = LEFeatures(rawValue: 1 << 7)
    /// Bit 8: LE 2M PHY.
    public static let le2MPHY = LEFeatures(rawValue: 1 << 8)
    /// Bit 9: Stable Modulation Index Transmitter.
    public static let stableModulationIndexTransmitter = LEFeatures(rawValue: 1 << 9)
    /// Bit 10: Stable Modulation Index Receiver.
    public static let stableModulationIndexReceiver = LEFeatures(rawValue: 1 << 10)
    /// Bit 11: LE Coded PHY.
    public static let leCodedPHY = LEFeatures(rawValue: 1 << 11)
    /// Bit 12: LE Extended Advertising.
    public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
    /// Bit 13: LE Periodic Advertising.
    public static let lePeriodicAdvertising = LEFeatures(rawValue: 1 << 13)
    /// Bit 14: Channel Selection Algorithm 2.
    public static let channelSelectionAlgorithm2 = LEFeatures(rawValue: 1 << 14)
    /// Bit 15: LE Power Class 1.
    public static let lePowerClass1 = LEFeatures(rawValue: 1 << 15)
    /// Bit 16: Minimum Number Of Used Channels Procedure.
    public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(rawValue: 1 << 16)
}
