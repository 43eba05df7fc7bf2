/// The packet indicator that precedes every HCI packet on a UART (H4) link and in a
/// btsnoop capture. Core 5.4 Vol 4 Part A §2.
public enum HCIPacketType: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// An HCI command (host to controller).
    case command = 0x01
    /// ACL data.
    case aclData = 0x02
    /// Synchronous (SCO) data.
    case synchronousData = 0x03
    /// An HCI event (controller to host).
    case event = 0x04
    /// Isochronous data.
    case isoData = 0x05

    public var description: String {
        switch self {
        case .command: return "HCI Command"
        case .aclData: return "ACL Data"
        case .synchronousData: return "SCO Data"
        case .event: return "HCI Event"
        case .isoData: return "ISO Data"
        }
    }
}
