/// One LE physical layer, as events report it (TX_PHY, Primary_PHY, …).
/// Core 5.4 Vol 4 Part E §7.7.65.12.
public enum LEPHY: UInt8, Sendable, Hashable, CaseIterable {
    /// LE 1M: 1 Mb/s, every LE controller has it.
    case le1M = 0x01
    /// LE 2M: 2 Mb/s.
    case le2M = 0x02
    /// LE Coded: long range, 500 or 125 kb/s.
    case leCoded = 0x03
}
