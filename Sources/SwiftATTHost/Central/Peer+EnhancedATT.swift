import SwiftATTGATT
import SwiftATTL2CAP

/// Enhanced ATT as a client (Core 5.4 Vol 3 Part G §5.3.2): more ATT bearers on the link,
/// so that procedures asked for at once run at once.
extension Peer {
    /// Opens `count` Enhanced ATT bearers to the peer (L2CAP Enhanced Credit Based
    /// channels on PSM 0x0027, up to five per request) and returns how many the link
    /// has now. From then on, procedures started while others run go out on a free
    /// bearer instead of waiting: a database discovered characteristic by characteristic
    /// from several tasks, reads of many values, long reads beside notifications. The
    /// unenhanced bearer stays in use. A peer that wants an encrypted link first is
    /// paired with (or encrypted with its bond), as `openChannels` does; one that does
    /// not listen on 0x0027 refuses with SPSM Not Supported.
    @discardableResult
    public func openEnhancedBearers(_ count: Int = 5, parameters: L2CAPChannelParameters = .enhancedATT)
        async throws(L2CAPChannelError) -> Int {
        guard (1...32).contains(count) else { throw .invalidParameters("\(count) Enhanced ATT bearers (1–32)") }
        guard Int(parameters.mtu) >= ATTBearer.enhancedMinimumMTU else {
            throw .invalidParameters("an Enhanced ATT bearer's MTU is \(ATTBearer.enhancedMinimumMTU) at least, not \(parameters.mtu)")
        }
        var remaining = count
        while remaining > 0 {
            let asked = min(remaining, CreditBasedConnectionRequest.sourceCIDCounts.upperBound)
            let channels = try await controller.openChannels(on: handle, psm: .enhancedATT, count: asked,
                                                             mode: .enhancedCreditBased, parameters: parameters)
            await controller.perform(orElse: ()) { stack in
                for channel in channels { stack.attributes.adopt(channel) }
            }
            // A peer that accepted fewer has no room for more.
            guard channels.count == asked else { break }
            remaining -= asked
        }
        return await enhancedBearerMTUs.count
    }

    /// ATT_MTU of each Enhanced ATT bearer open on the link, in the order they opened.
    public var enhancedBearerMTUs: [Int] {
        get async { await controller.perform(orElse: []) { [handle] stack in stack.attributes.enhancedBearerMTUs(on: handle) } }
    }
}
