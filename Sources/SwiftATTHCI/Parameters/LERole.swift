/// The local device's role on a new connection. Core 5.4 Vol 4 Part E §7.7.65.1.
public enum LERole: UInt8, Sendable, Hashable, CaseIterable {
    case central = 0x00
    case peripheral = 0x01
}
