/// A set of LE PHYs, as commands name them (TX_PHYs, RX_PHYs, Scanning_PHYs,
/// Initiating_PHYs): bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded. Core 5.4 Vol 4 Part E §7.8.49.
public struct LEPHYs: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// LE 1M.
    public static let le1M = LEPHYs(rawValue: 1 << 0)
    /// LE 2M.
    public static let le2M = LEPHYs(rawValue: 1 << 1)
    /// LE Coded.
    public static let leCoded = LEPHYs(rawValue: 1 << 2)
    /// Every PHY the spec defines.
    public static let all: LEPHYs = [.le1M, .le2M, .leCoded]
}
