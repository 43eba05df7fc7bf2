import SwiftATTGATT
import SwiftATTHCI
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
    ///
    /// First the Enhanced ATT bit of the server's Client Supported Features is set, with
    /// the bits already set kept (`announceClientFeatures`, Part G §7.2): a server may
    /// serve Enhanced bearers only to a client that said it supports them. A server
    /// without that characteristic, or that refuses the write, is asked for bearers all
    /// the same.
    @discardableResult
    public func openEnhancedBearers(_ count: Int = 5, parameters: L2CAPChannelParameters = .enhancedATT)
        async throws(L2CAPChannelError) -> Int {
        guard (1...32).contains(count) else { throw .invalidParameters("\(count) Enhanced ATT bearers (1–32)") }
        guard Int(parameters.mtu) >= ATTBearer.enhancedMinimumMTU else {
            throw .invalidParameters("an Enhanced ATT bearer's MTU is \(ATTBearer.enhancedMinimumMTU) at least, not \(parameters.mtu)")
        }
        do throws(GATTClientError) {
            try await announceClientFeatures(.enhancedATT)
        } catch {
            switch error {
            case let .disconnected(reason): throw .disconnected(HCIStatus(reason.code))
            case .cancelled: throw .cancelled
            default: break
            }
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

    /// Tells the peer's GATT server which client features this host has, by setting
    /// their bits in its Client Supported Features characteristic (Core 5.4 Vol 3 Part G
    /// §7.2; bits already set stay set, as the server requires). With
    /// `.multipleHandleValueNotifications` the server may send several values in one
    /// PDU; swift-att's client takes them either way. Returns the value written, or nil
    /// when the server has no such characteristic.
    @discardableResult
    public func announceClientFeatures(_ features: GATTClientFeatures) async throws(GATTClientError) -> [UInt8]? {
        guard let current = try await read(using: GATTAttributeType.clientSupportedFeatures).first else { return nil }
        var value = current.value.isEmpty ? [0] : current.value
        value[0] |= features.rawValue
        guard value != current.value else { return value }
        try await write(value, handle: current.handle)
        return value
    }

    /// ATT_MTU of each Enhanced ATT bearer open on the link, in the order they opened.
    public var enhancedBearerMTUs: [Int] {
        get async { await controller.perform(orElse: []) { [handle] stack in stack.attributes.enhancedBearerMTUs(on: handle) } }
    }
}

extension Controller {
    /// Accepts Enhanced ATT bearers on this host's links with `parameters` from now on,
    /// in place of the defaults (`L2CAPChannelParameters.enhancedATT`, which a
    /// peripheral serving a database that announces Enhanced ATT starts with): a larger
    /// MTU, more credits, or a different security floor (`.open` accepts bearers on
    /// unencrypted links, as some stacks do; `.authenticated` asks for a MITM-protected
    /// key). Throws when PSM 0x0027 is held by an application's listener, or for
    /// parameters an Enhanced ATT bearer cannot run with (an MTU under 64).
    public func acceptEnhancedATT(parameters: L2CAPChannelParameters = .enhancedATT) async throws(L2CAPChannelError) {
        guard Int(parameters.mtu) >= ATTBearer.enhancedMinimumMTU else {
            throw .invalidParameters("an Enhanced ATT bearer's MTU is \(ATTBearer.enhancedMinimumMTU) at least, not \(parameters.mtu)")
        }
        try parameters.validate(.enhancedCreditBased)
        let accepted = await perform(orElse: false) { [self] stack in
            stack.attributes.acceptEnhancedBearers(parameters: parameters, controller: self, replacing: true)
        }
        guard accepted else { throw .invalidParameters("\(SPSM.enhancedATT) already has an application's listener on this host") }
    }
}
