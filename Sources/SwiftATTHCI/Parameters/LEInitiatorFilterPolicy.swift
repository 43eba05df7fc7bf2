/// Whom an initiator connects to (Initiator_Filter_Policy). Core 5.4 Vol 4 Part E §7.8.12.
public enum LEInitiatorFilterPolicy: UInt8, Sendable, Hashable, CaseIterable {
    /// The peer named in the command.
    case peerAddress = 0x00
    /// Any device on the Filter Accept List (the peer address is ignored).
    case filterAcceptList = 0x01
}
