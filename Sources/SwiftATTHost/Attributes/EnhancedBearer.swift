import SwiftATTGATT

/// One Enhanced ATT bearer of a link (Core 5.4 Vol 3 Part G §5.3.2): an ATT bearer over
/// an L2CAP Enhanced Credit Based channel on PSM 0x0027, beside the link's unenhanced
/// bearer. Each runs its own transactions, so a client runs one procedure per bearer at
/// once; the server answers each request on the bearer it came on.
///
/// Loop-confined, owned by its `AttributeLink`. It holds the channel's public object:
/// releasing that would close the channel.
final class EnhancedBearer {
    let channel: L2CAPChannel
    let key: ChannelKey
    @exclusivity(unchecked) var bearer: ATTBearer
    /// Our GATT client's procedure with a request outstanding on this bearer.
    var running: GATTClientSession.Running?

    init(channel: L2CAPChannel, transactionTimeout: Duration) {
        self.channel = channel
        key = channel.key
        bearer = ATTBearer(enhancedChannelMTU: channel.mtu, peerChannelMTU: channel.peerMTU,
                           transactionTimeout: transactionTimeout, queueLimit: AttributeLink.bearerQueueLimit)
    }

    /// The GATT server's name for this bearer.
    var serverBearer: GATTServer.Bearer { .enhanced(cid: key.cid) }
}

/// Which of a link's bearers an ATT PDU came on or goes out on.
enum BearerRoute {
    /// The fixed channel 0x0004: always there, the only one Exchange MTU runs on.
    case unenhanced
    case enhanced(EnhancedBearer)

    /// The GATT server's name for the bearer.
    var serverBearer: GATTServer.Bearer {
        switch self {
        case .unenhanced: return .unenhanced
        case let .enhanced(enhanced): return enhanced.serverBearer
        }
    }
}
