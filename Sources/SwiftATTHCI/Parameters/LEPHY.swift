/// One LE physical layer, as events report it (TX_PHY, Primary_PHY, …).
/// Core 5.4 Vol 4 Part E §7.7.65.12.
public enum LEPHY: UInt8, Sendable, Hashable, CaseIterable {
    case le1M = 0x01
    case le2M = 0x02
    case leCoded = 0x03
}
