/// Passive scanning listens; active scanning also sends scan requests
/// (LE_Scan_Type, Scan_Type). Core 5.4 Vol 4 Part E §7.8.10.
public enum LEScanType: UInt8, Sendable, Hashable, CaseIterable {
    /// Passive: listen only; no scan requests.
    case passive = 0x00
    /// Active: send scan requests, and get scan responses.
    case active = 0x01
}
