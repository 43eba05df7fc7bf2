/// Which side of a pairing this device is.
///
/// Core 5.4 Vol 3 Part H §2.3: the initiator sends the Pairing Request and is always the
/// link's central; the responder answers it (a peripheral can only ask for pairing with a
/// Security Request).
public enum PairingRole: Sendable, Hashable {
    /// Sends the Pairing Request: the link's central.
    case initiator
    /// Answers the Pairing Request: the link's peripheral.
    case responder
}
