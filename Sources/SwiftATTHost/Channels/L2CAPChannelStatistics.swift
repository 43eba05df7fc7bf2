/// What a credit-based channel has carried so far, and how often its writers waited for
/// credits: `L2CAPChannel.statistics`.
public struct L2CAPChannelStatistics: Sendable, Hashable {
    /// SDUs and their octets queued by `send`, and reassembled for the reader.
    public var sentSDUs = 0
    /// Octets in the SDUs queued by `send`.
    public var sentOctets = 0
    /// SDUs reassembled for the reader.
    public var receivedSDUs = 0
    /// Octets in the SDUs reassembled for the reader.
    public var receivedOctets = 0
    /// K-frames sent and received.
    public var sentFrames = 0
    /// K-frames received.
    public var receivedFrames = 0
    /// Times a `send` found the queue full and waited for the peer's credits: a sender
    /// faster than the peer (or its reader) lets it be.
    public var creditStalls = 0
    /// Credits the peer granted after the channel opened, and those this host granted.
    public var creditsReceived = 0
    /// Credits this host granted the peer after the channel opened.
    public var creditsGranted = 0

    /// Statistics of a channel that has carried nothing.
    public init() {}
}
