import SwiftATTL2CAP
import Synchronization

/// Credit-based channels on the controller's links (Core 5.4 Vol 3 Part A §4.22–4.28):
/// listening on an SPSM, and opening channels to a peer's.
extension Controller {
    /// Accepts the channels peers open to `psm` from now on, on every link, with
    /// `parameters` (their `security` decides which links may). Throws when another
    /// listener has the SPSM, or for parameters that could not work.
    public func listen(on psm: SPSM, parameters: L2CAPChannelParameters = .init()) async throws(L2CAPChannelError) -> L2CAPListener {
        guard psm.isValid else { throw .invalidParameters("\(psm) is outside 0x0001–0x00FF") }
        try parameters.validate(.leCreditBased)
        let (stream, continuation) = AsyncStream<L2CAPChannel>.makeStream()
        let id = Self.listenerIDs.add(1, ordering: .relaxed).newValue
        let registered = await perform(orElse: false) { [self] stack in
            guard stack.l2cap.creditBased.listeners[psm] == nil else { return false }
            stack.l2cap.creditBased.listeners[psm] = .init(id: id, parameters: parameters, controller: self,
                                                          deliver: { continuation.yield($0) }, finish: { continuation.finish() })
            return true
        }
        guard registered else {
            continuation.finish()
            throw .invalidParameters("\(psm) already has a listener on this host")
        }
        let loop = self.loop
        let registration = L2CAPListener.Registration {
            loop.submit({ stack in
                guard stack.l2cap.creditBased.listeners[psm]?.id == id else { return }
                stack.l2cap.creditBased.listeners[psm] = nil
                continuation.finish()
            }, refuse: { _ in continuation.finish() })
        }
        return L2CAPListener(psm: psm, stream: stream, registration: registration)
    }

    static let listenerIDs = Atomic<Int>(0)

    /// Opens a channel to `psm` on the link `handle`, in LE Credit Based mode (every
    /// LE stack since 4.1) or Enhanced Credit Based mode (5.2). A refusal for want of
    /// security (insufficient authentication, encryption or key size) makes the host
    /// encrypt or pair, then ask once more — unless `SecurityConfiguration.pairsOnSecurityError`
    /// is off.
    public func openChannel(on handle: UInt16, psm: SPSM, mode: CreditBasedFlowControlMode = .leCreditBased,
                            parameters: L2CAPChannelParameters = .init()) async throws(L2CAPChannelError) -> L2CAPChannel {
        try await openChannels(on: handle, psm: psm, count: 1, mode: mode, parameters: parameters)[0]
    }

    /// Opens `count` channels (1–5) to `psm` in one Enhanced Credit Based request (`count`
    /// 1 with `.leCreditBased`); returns those the peer accepted.
    public func openChannels(on handle: UInt16, psm: SPSM, count: Int, mode: CreditBasedFlowControlMode = .enhancedCreditBased,
                             parameters: L2CAPChannelParameters = .init()) async throws(L2CAPChannelError) -> [L2CAPChannel] {
        guard psm.isValid else { throw .invalidParameters("\(psm) is outside 0x0001–0x00FF") }
        let counts = mode == .leCreditBased ? 1...1 : CreditBasedConnectionRequest.sourceCIDCounts
        guard counts.contains(count) else { throw .invalidParameters("\(count) channels in one \(mode) request (\(counts.lowerBound)–\(counts.upperBound))") }
        try parameters.validate(mode)
        do {
            return try await openOnce(on: handle, psm: psm, count: count, mode: mode, parameters: parameters)
        } catch {
            guard let result = Self.securityRefusal(error), securityConfiguration.pairsOnSecurityError else { throw error }
            let level = await securityLevel(of: handle)
            let pairAnew = result == .insufficientEncryptionKeySize || (result == .insufficientAuthentication && level.isEncrypted)
            if case let .failure(failure) = await secure(handle, pairAnew: pairAnew) {
                throw .securityFailed(result, reason: failure.description)
            }
            return try await openOnce(on: handle, psm: psm, count: count, mode: mode, parameters: parameters)
        }
    }

    private func openOnce(on handle: UInt16, psm: SPSM, count: Int, mode: CreditBasedFlowControlMode,
                          parameters: L2CAPChannelParameters) async throws(L2CAPChannelError) -> [L2CAPChannel] {
        let result: Result<[L2CAPChannel], L2CAPChannelError> = await withCheckedContinuation { continuation in
            loop.submit({ [self] stack in
                stack.l2cap.creditBased.open(mode, psm: psm, count: count, parameters: parameters, controller: self,
                                             on: handle) { continuation.resume(returning: $0) }
            }, refuse: { continuation.resume(returning: .failure(.controllerStopped($0))) })
        }
        return try result.get()
    }

    /// The refusal, as the LE mode names it, when securing the link could cure it.
    static func securityRefusal(_ error: L2CAPChannelError) -> LECreditBasedConnectionResult? {
        switch error {
        case let .refused(result) where result.needsSecurity: return result
        case let .refusedEnhanced(result) where result.needsSecurity:
            switch result {
            case .insufficientAuthentication: return .insufficientAuthentication
            case .insufficientEncryptionKeySize: return .insufficientEncryptionKeySize
            default: return .insufficientEncryption
            }
        default: return nil
        }
    }
}

extension Peer {
    /// Opens a credit-based channel to the peer's `psm` (see `Controller.openChannel`).
    public func openChannel(psm: SPSM, mode: CreditBasedFlowControlMode = .leCreditBased,
                            parameters: L2CAPChannelParameters = .init()) async throws(L2CAPChannelError) -> L2CAPChannel {
        try await controller.openChannel(on: handle, psm: psm, mode: mode, parameters: parameters)
    }

    /// Opens 1–5 Enhanced Credit Based channels to the peer's `psm` in one request.
    public func openChannels(psm: SPSM, count: Int, parameters: L2CAPChannelParameters = .init()) async throws(L2CAPChannelError) -> [L2CAPChannel] {
        try await controller.openChannels(on: handle, psm: psm, count: count, mode: .enhancedCreditBased, parameters: parameters)
    }
}
