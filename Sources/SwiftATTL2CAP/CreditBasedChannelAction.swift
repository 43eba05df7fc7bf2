/// What the owner of a `CreditBasedChannel` does on the LE signaling channel for it.
/// The channel knows no signaling PDUs; the host turns these into them.
public enum CreditBasedChannelAction: Sendable, Hashable {
    /// Grant the peer this many more credits: an LE Flow Control Credit Indication
    /// (Core 5.4 Vol 3 Part A §4.24) for the channel.
    case grantCredits(UInt16)
    /// Disconnect the channel: an L2CAP Disconnection Request (§4.6). Asked for once,
    /// after a local close or a violation by the peer.
    case disconnect(CreditBasedChannelCloseReason)
}
