/// The Server Supported Features value (Core 5.4 Vol 3 Part G §7.4): what a client may
/// expect of this server beyond the basics.
public struct GATTServerFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The server accepts Enhanced ATT bearers (L2CAP channels on PSM 0x0027).
    public static let enhancedATT = GATTServerFeatures(rawValue: 0x01)
}

/// The Client Supported Features bits (Part G §7.2, Table 7.6) a client writes to say
/// what it handles; the server keeps them per client and may never see one cleared.
public struct GATTClientFeatures: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The client handles Robust Caching: it can be told its database is out of date (Part G
    /// §2.5.2.1).
    public static let robustCaching = GATTClientFeatures(rawValue: 0x01)
    /// The client supports Enhanced ATT bearers.
    public static let enhancedATT = GATTClientFeatures(rawValue: 0x02)
    /// The client takes Multiple Handle Value Notifications: the server may send one.
    public static let multipleHandleValueNotifications = GATTClientFeatures(rawValue: 0x04)
}
