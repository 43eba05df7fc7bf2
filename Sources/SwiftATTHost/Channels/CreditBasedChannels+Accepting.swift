import SwiftATTCore
import SwiftATTGATT
import SwiftATTL2CAP
import SwiftATTPDU

/// Requests from the peer: channels opened toward this host's listeners, and channels
/// the peer disconnects (Core 5.4 Vol 3 Part A §4.6, §4.22, §4.25).
extension CreditBasedChannels {
    /// Takes a signaling command that belongs to credit-based channels; false for the
    /// others (the L2CAP floor answers those).
    func handle(_ command: LESignalingCommand, identifier: UInt8, on handle: UInt16) -> Bool {
        switch command {
        case let .leCreditBasedConnectionRequest(request):
            let response = accept(request, on: handle)
            signal(.leCreditBasedConnectionResponse(response), identifier: identifier, on: handle)
        case let .creditBasedConnectionRequest(request):
            let response = accept(request, on: handle)
            signal(.creditBasedConnectionResponse(response), identifier: identifier, on: handle)
        case let .disconnectionRequest(request):
            peerDisconnects(request, identifier: identifier, on: handle)
        case let .flowControlCreditIndication(indication):
            peerGave(indication, on: handle)
        case let .leCreditBasedConnectionResponse(response):
            answered(identifier, on: handle) { open in self.opened(open, response, on: handle) }
        case let .creditBasedConnectionResponse(response) where response.result.isPending:
            awaitFinalAnswer(identifier, on: handle)
        case let .creditBasedConnectionResponse(response):
            answered(identifier, on: handle) { open in self.opened(open, response, on: handle) }
        case .disconnectionResponse:
            guard case let .disconnect(cid, serial, _)? = links[handle]?.pending.removeValue(forKey: identifier) else { break }
            timedCount -= 1
            if let slot = links[handle]?.channels[cid], slot.serial == serial { remove(slot) }
        case let .commandReject(reject):
            guard let request = links[handle]?.pending.removeValue(forKey: identifier) else { return false }
            timedCount -= 1
            switch request {
            case let .open(open):
                for cid in open.localCIDs { links[handle]?.reserved.remove(cid) }
                open.completion(.failure(.rejected(reject.reason)))
            case let .disconnect(cid, serial, _):
                // The peer no longer has the channel: it is gone either way.
                if let slot = links[handle]?.channels[cid], slot.serial == serial { remove(slot) }
            case let .reconfigure(channels, mtu, mps, _, completion):
                reconfigured(channels, mtu: mtu, mps: mps, failure: .rejected(reject.reason))
                completion(.rejected(reject.reason))
            }
        case let .creditBasedReconfigureRequest(request):
            let result = peerReconfigures(request, on: handle)
            signal(.creditBasedReconfigureResponse(CreditBasedReconfigureResponse(result: result)), identifier: identifier, on: handle)
        case let .creditBasedReconfigureResponse(response):
            guard case let .reconfigure(channels, mtu, mps, _, completion)? = links[handle]?.pending[identifier] else { break }
            links[handle]?.pending[identifier] = nil
            timedCount -= 1
            let failure: L2CAPChannelError? = response.result == .success ? nil : .reconfigurationRefused(response.result)
            reconfigured(channels, mtu: mtu, mps: mps, failure: failure)
            completion(failure)
        case .connectionParameterUpdateRequest, .connectionParameterUpdateResponse:
            return false
        }
        return true
    }

    // MARK: Opening toward a listener

    /// What a listener on `psm` says to the link: nil to go on, or why not. An
    /// unencrypted link with no key for the peer is refused for want of authentication,
    /// one with a key for want of encryption (Core 5.4 Vol 3 Part C §10.3.1): a
    /// requester pairs for the first and encrypts for the second.
    private func refusal(psm: SPSM, on handle: UInt16) -> LECreditBasedConnectionResult? {
        guard let listener = listeners[psm] else { return .spsmNotSupported }
        let level: GATTSecurityLevel = links[handle]?.security ?? .none
        switch listener.parameters.security.error(security: level, authorized: true) {
        case nil: return nil
        case .insufficientAuthentication?: return .insufficientAuthentication
        case .encryptionKeySizeTooShort?: return .insufficientEncryptionKeySize
        case .insufficientAuthorization?: return .insufficientAuthorization
        default: return links[handle]?.keyAvailable == true ? .insufficientEncryption : .insufficientAuthentication
        }
    }

    /// An LE Credit Based Connection Request: the checks in the order §4.22–4.23 give
    /// them, then a channel for the listener.
    func accept(_ request: LECreditBasedConnectionRequest, on handle: UInt16) -> LECreditBasedConnectionResponse {
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field != .sourceCID {
            return .refused(error.leCreditBasedConnectionResult)
        } catch {}
        if let refusal = refusal(psm: request.spsm, on: handle) { return .refused(refusal) }
        guard L2CAPChannelIdentifier.leDynamicRange.contains(request.sourceCID) else { return .refused(.invalidSourceCID) }
        var link = links[handle] ?? Link()
        guard link.channel(peerCID: request.sourceCID) == nil else { return .refused(.sourceCIDAlreadyAllocated) }
        guard let listener = listeners[request.spsm], let cid = link.freeCID() else { return .refused(.noResourcesAvailable) }
        let parameters = listener.parameters
        let configuration = CreditBasedChannelConfiguration(
            localCID: cid, peerCID: request.sourceCID, mtu: parameters.mtu, mps: parameters.mps,
            peerMTU: request.mtu, peerMPS: request.mps, peerInitialCredits: request.initialCredits,
            creditPolicy: parameters.creditPolicy, sendQueueLimit: parameters.sendQueueLimit)
        guard let channel = makeChannel(configuration, psm: request.spsm, mode: .leCreditBased,
                                        controller: listener.controller, on: handle, link: &link) else {
            return .refused(.unacceptableParameters)
        }
        links[handle] = link
        listener.deliver(channel)
        return LECreditBasedConnectionResponse(destinationCID: cid, mtu: parameters.mtu, mps: parameters.mps,
                                               initialCredits: parameters.credits, result: .success)
    }

    /// A Credit Based Connection Request: all the channels asked for, or none (a
    /// requester such as Bumble fails every channel of a partly accepted request).
    func accept(_ request: CreditBasedConnectionRequest, on handle: UInt16) -> CreditBasedConnectionResponse {
        let count = request.sourceCIDs.count
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field != .sourceCID {
            return .refused(error.creditBasedConnectionResult, count: count)
        } catch {}
        if let refusal = refusal(psm: request.spsm, on: handle) {
            return .refused(CreditBasedConnectionResult(refusal), count: count)
        }
        guard request.sourceCIDs.allSatisfy(L2CAPChannelIdentifier.leDynamicRange.contains) else {
            return .refused(.invalidSourceCID, count: count)
        }
        var link = links[handle] ?? Link()
        guard Set(request.sourceCIDs).count == count,
              request.sourceCIDs.allSatisfy({ link.channel(peerCID: $0) == nil }) else {
            return .refused(.sourceCIDAlreadyAllocated, count: count)
        }
        guard let listener = listeners[request.spsm] else { return .refused(.spsmNotSupported, count: count) }
        var taken: Set<UInt16> = []
        for _ in request.sourceCIDs {
            guard let cid = link.freeCID(besides: taken) else { return .refused(.insufficientResources, count: count) }
            taken.insert(cid)
        }
        let parameters = listener.parameters
        var destinations: [UInt16] = []
        var accepted: [L2CAPChannel] = []
        for (source, cid) in zip(request.sourceCIDs, taken.sorted()) {
            let configuration = CreditBasedChannelConfiguration(
                localCID: cid, peerCID: source, mtu: parameters.mtu, mps: parameters.mps,
                peerMTU: request.mtu, peerMPS: request.mps, peerInitialCredits: request.initialCredits,
                creditPolicy: parameters.creditPolicy, sendQueueLimit: parameters.sendQueueLimit)
            guard let channel = makeChannel(configuration, psm: request.spsm, mode: .enhancedCreditBased,
                                            controller: listener.controller, on: handle, link: &link) else {
                for cid in destinations { link.channels[cid] = nil }
                return .refused(.unacceptableParameters, count: count)
            }
            destinations.append(cid)
            accepted.append(channel)
        }
        links[handle] = link
        for channel in accepted { listener.deliver(channel) }
        return CreditBasedConnectionResponse(mtu: parameters.mtu, mps: parameters.mps, initialCredits: parameters.credits,
                                             result: .success, destinationCIDs: destinations)
    }

    /// A channel's slot on `link` and its public object; nil when the configuration
    /// cannot run (checked by the request's validation already).
    func makeChannel(_ configuration: CreditBasedChannelConfiguration, psm: SPSM, mode: CreditBasedFlowControlMode,
                     controller: Controller, on handle: UInt16, link: inout Link) -> L2CAPChannel? {
        guard let machine = try? CreditBasedChannel(configuration) else { return nil }
        let channel = L2CAPChannel(controller: controller, handle: handle, psm: psm, mode: mode, configuration: configuration)
        link.channels[configuration.localCID] = ChannelSlot(serial: channel.serial, handle: handle, psm: psm, mode: mode,
                                                            machine: machine, inbox: channel.inbox, sizes: channel.sizes)
        return channel
    }

    // MARK: The peer's side of open channels

    /// The peer disconnects a channel: answered, and the channel ends cleanly for its
    /// reader (as a socket's end of file).
    private func peerDisconnects(_ request: DisconnectionRequest, identifier: UInt8, on handle: UInt16) {
        guard let slot = links[handle]?.channels[request.destinationCID], slot.peerCID == request.sourceCID else {
            signal(.commandReject(.invalidCIDInRequest(localCID: request.destinationCID, remoteCID: request.sourceCID)),
                   identifier: identifier, on: handle)
            return
        }
        signal(.disconnectionResponse(DisconnectionResponse(destinationCID: request.destinationCID,
                                                            sourceCID: request.sourceCID)),
               identifier: identifier, on: handle)
        if slot.machine.isOpen {
            slot.machine.peerDisconnected()
            end(slot, nil, writers: .closed(.peerDisconnected))
        }
        remove(slot)
    }

    /// Credits from the peer (its CID names the channel, §4.24): waiting K-frames go;
    /// an overflow past 65535 ends the channel (§10.1).
    private func peerGave(_ indication: FlowControlCreditIndication, on handle: UInt16) {
        guard let slot = links[handle]?.channel(peerCID: indication.cid) else { return }
        do throws(CreditBasedChannelError) {
            try slot.machine.peerGaveCredits(indication.credits)
            slot.statistics.creditsReceived += Int(indication.credits)
        } catch {
            if case let .violation(violation) = error { violated(slot, violation) }
            return
        }
        pump(slot)
    }

    /// The peer answered an Enhanced Credit Based open "pending" (§4.26, results
    /// 0x000D–0x000F): not an answer yet. The request stays, its CIDs reserved, and its
    /// final response opens the channels; from the first pending answer it waits the
    /// extended response timeout (ERTX, §6.2.2) rather than the response timeout. Later
    /// pending answers do not extend it again, so a peer cannot hold the request forever.
    private func awaitFinalAnswer(_ identifier: UInt8, on handle: UInt16) {
        guard case var .open(open)? = links[handle]?.pending[identifier] else { return }
        guard open.mode == .enhancedCreditBased else {
            // An LE Credit Based Connection Response has no pending results (§4.23).
            return answered(identifier, on: handle) { open in
                open.completion(.failure(.invalidResponse("a Credit Based Connection Response to an LE Credit Based request")))
            }
        }
        guard !open.pendingAnswered else { return }
        open.pendingAnswered = true
        open.timeout = extendedResponseTimeout
        open.deadline = MonotonicInstant.readBootClock() + extendedResponseTimeout
        links[handle]?.pending[identifier] = .open(open)
    }

    /// The answer to an open this host asked for.
    private func answered(_ identifier: UInt8, on handle: UInt16, _ body: (PendingSignalingRequest.Open) -> Void) {
        guard case let .open(open)? = links[handle]?.pending[identifier] else { return }
        links[handle]?.pending[identifier] = nil
        timedCount -= 1
        for cid in open.localCIDs { links[handle]?.reserved.remove(cid) }
        body(open)
    }
}

extension CreditBasedConnectionResult {
    /// The Enhanced Credit Based result for a refusal of the LE mode's.
    init(_ result: LECreditBasedConnectionResult) {
        switch result {
        case .success: self = .success
        case .spsmNotSupported: self = .spsmNotSupported
        case .noResourcesAvailable: self = .insufficientResources
        case .insufficientAuthentication: self = .insufficientAuthentication
        case .insufficientAuthorization: self = .insufficientAuthorization
        case .insufficientEncryptionKeySize: self = .insufficientEncryptionKeySize
        case .insufficientEncryption: self = .insufficientEncryption
        case .invalidSourceCID: self = .invalidSourceCID
        case .sourceCIDAlreadyAllocated: self = .sourceCIDAlreadyAllocated
        case .unacceptableParameters: self = .unacceptableParameters
        }
    }
}
