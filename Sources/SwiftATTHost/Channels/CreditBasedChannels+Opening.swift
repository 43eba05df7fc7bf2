import SwiftATTCore
import SwiftATTL2CAP

/// Channels this host opens (Core 5.4 Vol 3 Part A §4.22–4.23, §4.25–4.26): the request,
/// and what its answer opens.
extension CreditBasedChannels {
    /// Asks the peer on `handle` for `count` channels to `psm` (one in LE Credit Based
    /// mode; one to five in Enhanced mode, in one request). `completion` gets the
    /// channels opened, or why none was.
    func open(_ mode: CreditBasedFlowControlMode, psm: SPSM, count: Int, parameters: L2CAPChannelParameters,
              controller: Controller, on handle: UInt16,
              completion: @escaping (Result<[L2CAPChannel], L2CAPChannelError>) -> Void) {
        guard hci.connections[handle] != nil else { return completion(.failure(.disconnected(nil))) }
        var link = links[handle] ?? Link()
        var cids: [UInt16] = []
        for _ in 0..<count {
            guard let cid = link.freeCID(besides: Set(cids)) else {
                return completion(.failure(.invalidParameters("no free channel identifier on this link (64 are open)")))
            }
            cids.append(cid)
        }
        let identifier = link.takeIdentifier()
        link.reserved.formUnion(cids)
        link.pending[identifier] = .open(.init(mode: mode, psm: psm, parameters: parameters, localCIDs: cids,
                                               controller: controller, deadline: MonotonicInstant.readBootClock() + responseTimeout,
                                               timeout: responseTimeout, completion: completion))
        links[handle] = link
        timedCount += 1
        let command: LESignalingCommand
        switch mode {
        case .leCreditBased:
            command = .leCreditBasedConnectionRequest(LECreditBasedConnectionRequest(
                spsm: psm, sourceCID: cids[0], mtu: parameters.mtu, mps: parameters.mps, initialCredits: parameters.credits))
        case .enhancedCreditBased:
            command = .creditBasedConnectionRequest(CreditBasedConnectionRequest(
                spsm: psm, mtu: parameters.mtu, mps: parameters.mps, initialCredits: parameters.credits, sourceCIDs: cids))
        }
        signal(command, identifier: identifier, on: handle)
    }

    /// The LE Credit Based Connection Response to `open`.
    func opened(_ open: PendingSignalingRequest.Open, _ response: LECreditBasedConnectionResponse, on handle: UInt16) {
        guard response.result == .success else { return open.completion(.failure(.refused(response.result))) }
        do throws(CreditBasedParameterError) {
            try response.validate()
        } catch {
            return open.completion(.failure(.invalidResponse(error.description)))
        }
        open.completion(establish(open, peerCIDs: [response.destinationCID], peerMTU: response.mtu, peerMPS: response.mps,
                                  peerCredits: response.initialCredits, on: handle))
    }

    /// The Credit Based Connection Response to `open`: the channels whose Destination
    /// CID is not 0 are open, whatever "some refused" result came with them.
    func opened(_ open: PendingSignalingRequest.Open, _ response: CreditBasedConnectionResponse, on handle: UInt16) {
        guard response.destinationCIDs.count == open.localCIDs.count || response.result.refusesAll else {
            return open.completion(.failure(.invalidResponse(
                "\(response.destinationCIDs.count) Destination CIDs for \(open.localCIDs.count) channels")))
        }
        let accepted = response.destinationCIDs.filter { $0 != 0 }
        guard !accepted.isEmpty, !response.result.refusesAll else {
            return open.completion(.failure(.refusedEnhanced(response.result == .success ? .invalidParameters : response.result)))
        }
        do throws(CreditBasedParameterError) {
            try response.validate()
        } catch {
            return open.completion(.failure(.invalidResponse(error.description)))
        }
        var pairs: [(local: UInt16, peer: UInt16)] = []
        for (local, peer) in zip(open.localCIDs, response.destinationCIDs) where peer != 0 { pairs.append((local, peer)) }
        var trimmed = open
        trimmed.localCIDs = pairs.map(\.local)
        open.completion(establish(trimmed, peerCIDs: pairs.map(\.peer), peerMTU: response.mtu, peerMPS: response.mps,
                                  peerCredits: response.initialCredits, on: handle))
    }

    /// The channels an accepted request opens. A Destination CID outside the dynamic
    /// range, or one the link already uses, fails the open: the peer's end would be
    /// ambiguous (§4.23).
    private func establish(_ open: PendingSignalingRequest.Open, peerCIDs: [UInt16], peerMTU: UInt16, peerMPS: UInt16,
                           peerCredits: UInt16, on handle: UInt16) -> Result<[L2CAPChannel], L2CAPChannelError> {
        guard var link = links[handle] else { return .failure(.disconnected(nil)) }
        for cid in peerCIDs where !L2CAPChannelIdentifier.leDynamicRange.contains(cid) || link.channel(peerCID: cid) != nil {
            return .failure(.invalidResponse("Destination CID 0x\(String(cid, radix: 16, uppercase: true)) is invalid or in use"))
        }
        var channels: [L2CAPChannel] = []
        for (local, peer) in zip(open.localCIDs, peerCIDs) {
            let configuration = CreditBasedChannelConfiguration(
                localCID: local, peerCID: peer, mtu: open.parameters.mtu, mps: open.parameters.mps,
                peerMTU: peerMTU, peerMPS: peerMPS, peerInitialCredits: peerCredits,
                creditPolicy: open.parameters.creditPolicy, sendQueueLimit: open.parameters.sendQueueLimit)
            guard let channel = makeChannel(configuration, psm: open.psm, mode: open.mode, controller: open.controller,
                                            on: handle, link: &link) else {
                for channel in channels { link.channels[channel.localCID] = nil }
                return .failure(.invalidResponse("MTU \(peerMTU) or MPS \(peerMPS) cannot run a channel"))
            }
            channels.append(channel)
        }
        links[handle] = link
        return .success(channels)
    }
}
