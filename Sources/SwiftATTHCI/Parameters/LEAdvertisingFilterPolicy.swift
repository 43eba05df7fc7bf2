/// Which scan and connection requests an advertiser answers (Advertising_Filter_Policy).
/// Core 5.4 Vol 4 Part E §7.8.5.
public enum LEAdvertisingFilterPolicy: UInt8, Sendable, Hashable, CaseIterable {
    /// Scan and connection requests from any device.
    case acceptAll = 0x00
    /// Scan requests only from the Filter Accept List; connection requests from any device.
    case filterScanRequests = 0x01
    /// Scan requests from any device; connection requests only from the Filter Accept List.
    case filterConnectionRequests = 0x02
    /// Both only from the Filter Accept List.
    case filterBoth = 0x03
}
