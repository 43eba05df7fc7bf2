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

    public static let leEncryption = LEFeatures(rawValue: 1 << 0)
    public static let connectionParametersRequestProcedure = LEFeatures(rawValue: 1 << 1)
    public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    public static let lePing = LEFeatures(rawValue: 1 << 4)
    public static let leDataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    public static let extendedScannerFilterPolicies = LEFeatures(rawValue: 1 << 7)
    public static let le2MPHY = LEFeatures(rawValue: 1 << 8)
    public static let stableModulationIndexTransmitter = LEFeatures(rawValue: 1 << 9)
    public static let stableModulationIndexReceiver = LEFeatures(rawValue: 1 << 10)
    public static let leCodedPHY = LEFeatures(rawValue: 1 << 11)
    public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
    public static let lePeriodicAdvertising = LEFeatures(rawValue: 1 << 13)
    public static let channelSelectionAlgorithm2 = LEFeatures(rawValue: 1 << 14)
    public static let lePowerClass1 = LEFeatures(rawValue: 1 << 15)
    public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(rawValue: 1 << 16)
}
