import SwiftATTGATT
import SwiftATTL2CAP

/// Enhanced ATT (Core 5.4 Vol 3 Part G §5.3.2, Part F §3.2.11): ATT bearers on L2CAP
/// Enhanced Credit Based channels to PSM 0x0027, beside each link's unenhanced bearer.
/// The host reads these channels itself (`ChannelSink`): each SDU is one ATT PDU.
extension AttributeLinks {
    /// The id of the host's own listener on PSM 0x0027 (applications' are positive).
    static let enhancedListenerID = -1

    /// Accepts Enhanced ATT bearers on every link from now on (a peripheral serving a
    /// database that announces them), with `parameters`, whose `security` decides which
    /// links may open one. False when PSM 0x0027 already has a listener (with
    /// `replacing`, when it has an application's: the host's own is replaced).
    func acceptEnhancedBearers(parameters: L2CAPChannelParameters, controller: Controller, replacing: Bool = false) -> Bool {
        if let listener = l2cap.creditBased.listeners[.enhancedATT] {
            guard replacing, listener.id == Self.enhancedListenerID else { return false }
        }
        l2cap.creditBased.listeners[.enhancedATT] = .init(
            id: Self.enhancedListenerID, parameters: parameters, controller: controller,
            deliver: { [unowned self] channel in self.adopt(channel) }, finish: {})
        return true
    }

    /// `channel` (to or from PSM 0x0027) becomes an Enhanced ATT bearer of its link:
    /// waiting procedures may start on it at once.
    func adopt(_ channel: L2CAPChannel) {
        guard let link = link(channel.connectionHandle), !link.detaching else {
            l2cap.creditBased.close(channel.key, completion: nil)
            return
        }
        let enhanced = EnhancedBearer(channel: channel, transactionTimeout: transactionTimeout)
        let sink = ChannelSink(
            receive: { [weak self, weak link, weak enhanced] payload in
                guard let self, let link, let enhanced else { return }
                self.receive(payload, on: link, via: enhanced)
            },
            resized: { [weak self, weak link, weak enhanced] in
                guard let self, let link, let enhanced, let sizes = self.l2cap.creditBased.mtus(of: enhanced.key) else { return }
                self.perform(enhanced.bearer.channelResized(mtu: sizes.mtu, peerMTU: sizes.peerMTU), on: link, via: .enhanced(enhanced))
            },
            ended: { [weak self, weak link, weak enhanced] _ in
                guard let self, let link, let enhanced else { return }
                self.enhancedEnded(enhanced, on: link)
            })
        link.enhanced.append(enhanced)
        guard l2cap.creditBased.attach(sink, to: enhanced.key) else {
            link.enhanced.removeAll { $0 === enhanced }
            return
        }
        // Either side's client may use the bearer: the server counts it as the peer's.
        gattServer?.bearerOpened(enhanced.serverBearer, for: link.connectionID)
        advanceClient(on: link)
    }

    /// An ATT PDU that arrived on an Enhanced bearer.
    func receive(_ payload: ArraySlice<UInt8>, on link: AttributeLink, via enhanced: EnhancedBearer) {
        var actions = receivedActions
        receivedActions = []
        enhanced.bearer.receive(payload, now: .readBootClock(), into: &actions)
        perform(actions, on: link, via: .enhanced(enhanced))
        actions.removeAll(keepingCapacity: true)
        receivedActions = actions
    }

    /// A transaction on the bearer timed out (Part F §3.3.3): its channel closes; the
    /// link and its other bearers go on.
    func closeEnhanced(_ enhanced: EnhancedBearer, on link: AttributeLink) {
        l2cap.creditBased.close(enhanced.key, completion: nil)
        enhancedEnded(enhanced, on: link)
    }

    /// The bearer's channel ended (closed by either side): what was outstanding on it
    /// fails, and the link's procedures go on over the bearers left.
    func enhancedEnded(_ enhanced: EnhancedBearer, on link: AttributeLink) {
        guard let index = link.enhanced.firstIndex(where: { $0 === enhanced }) else { return }
        link.enhanced.remove(at: index)
        gattServer?.bearerClosed(enhanced.serverBearer, for: link.connectionID)
        let reason = ATTBearerError.DisconnectReason(code: 0, name: "its Enhanced ATT channel closed")
        perform(enhanced.bearer.close(reason: reason), on: link, via: .enhanced(enhanced))
        advanceClient(on: link)
    }

    /// The Enhanced bearers open on the link `handle`, with their ATT_MTUs.
    func enhancedBearerMTUs(on handle: UInt16) -> [Int] {
        link(handle)?.enhanced.map(\.bearer.mtu) ?? []
    }

    /// The smallest ATT_MTU among the link's client bearers, unenhanced and Enhanced: a
    /// request sized to it fits whichever bearer it is placed on.
    func smallestMTU(of handle: UInt16) -> Int? {
        guard let link = link(handle) else { return nil }
        return link.enhanced.reduce(link.bearer.mtu) { min($0, $1.bearer.mtu) }
    }
}
