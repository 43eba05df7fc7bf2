import SwiftATTPDU

/// An Enhanced ATT bearer (Core 5.4 Vol 3 Part F §3.2.11, Part G §5.3.2): ATT over one
/// L2CAP Enhanced Credit Based channel on PSM 0x0027, beside the fixed-channel bearer of
/// the same connection, with the same sequencing rules.
///
/// Its ATT_MTU is not negotiated with Exchange MTU (which is only used on the unenhanced
/// bearer): it is the smaller of the channel's two MTUs, and follows a reconfiguration.
/// Our own Exchange MTU throws `mtuAlreadyExchanged`; the peer's gets Request Not
/// Supported, as a second one does on the unenhanced bearer.
extension ATTBearer {
    /// The smallest L2CAP MTU an Enhanced ATT bearer's channel may have (Part G §5.3.2).
    public static let enhancedMinimumMTU = 64

    /// A bearer for an Enhanced ATT channel whose MTUs are `channelMTU` (this host's)
    /// and `peerChannelMTU`.
    public init(enhancedChannelMTU channelMTU: Int, peerChannelMTU: Int, transactionTimeout: Duration = .seconds(30),
                queueLimit: Int = 64) {
        self.init(receiveMTU: channelMTU, transactionTimeout: transactionTimeout, queueLimit: queueLimit)
        sentMTUExchange = true
        answeredMTUExchange = true
        mtu = Self.enhancedMTU(channelMTU, peerChannelMTU)
        isEnhanced = true
    }

    /// The channel was reconfigured: ATT_MTU follows its MTUs (it only grows, as a
    /// reconfigured MTU may only grow). Returns `.mtuChanged` when it changed.
    public mutating func channelResized(mtu channelMTU: Int, peerMTU peerChannelMTU: Int) -> [Action] {
        guard isEnhanced else { return [] }
        let agreed = Self.enhancedMTU(channelMTU, peerChannelMTU)
        guard agreed > mtu else { return [] }
        mtu = agreed
        return [.mtuChanged(agreed)]
    }

    static func enhancedMTU(_ a: Int, _ b: Int) -> Int {
        min(max(min(a, b), ATTLimits.defaultMTU), Int(UInt16.max))
    }
}
