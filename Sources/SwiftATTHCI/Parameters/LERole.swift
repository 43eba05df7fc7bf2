/// The local device's role on a new connection. Core 5.4 Vol 4 Part E §7.7.65.1.
public enum LERole: UInt8, Sendable, Hashable, CaseIterable {
    /// Central: this device initiated the connection.
    case central = 0x00
    /// Peripheral: this device advertised and was connected to.
    case peripheral = 0x01
}
