import SwiftATTCore
import SwiftATTGATT
import SwiftATTSecurity

extension Controller {
    /// Sets how this host pairs and encrypts, where it keeps its bonds, and who answers
    /// the user's questions. Applies to pairings that start afterwards.
    public func configureSecurity(_ configuration: SecurityConfiguration, bonds: BondStore? = nil,
                                  delegate: (any PairingDelegate)? = nil) async {
        let store = securitySettings.withLock { settings -> BondStore in
            settings.configuration = configuration
            if let bonds { settings.bonds = bonds }
            settings.delegate = delegate
            return settings.bonds
        }
        await perform { stack in
            stack.security.configuration = configuration
            stack.security.bonds = store
            stack.security.delegate = delegate
        }
    }

    /// How this host pairs (`configureSecurity`).
    public var securityConfiguration: SecurityConfiguration { securitySettings.withLock { $0.configuration } }

    /// The bonds this host keeps.
    public var bonds: BondStore { securitySettings.withLock { $0.bonds } }

    /// Every change of a link's security from now on: encryption on, pairing finished or
    /// failed, a bond that no longer encrypts.
    public func securityEvents() -> AsyncStream<SecurityEvent> {
        let (stream, continuation) = AsyncStream<SecurityEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        loop.feed(continuation, from: \.security.listeners)
        return stream
    }

    /// The level of a link's security now (`.none` when it is not connected).
    func securityLevel(of handle: UInt16) async -> GATTSecurityLevel {
        await perform(orElse: .none) { stack in stack.security.level(of: handle) ?? .none }
    }

    /// The identity address of the peer on a link, when a bond or pairing told it.
    func identity(ofConnection handle: UInt16) async -> BluetoothAddress? {
        await perform(orElse: nil) { stack in stack.security.identity(of: handle) }
    }

    /// The CSRK and SignCounter for the next signed write on a link (the counter is
    /// spent); nil without a bond that has our CSRK.
    func nextSignature(onConnection handle: UInt16) async -> (key: UInt128, counter: UInt32)? {
        await perform(orElse: nil) { stack in stack.security.nextSignature(on: handle) }
    }

    /// Encrypts (with the bond) or pairs on a link; `pairAnew` pairs even when bonded.
    func secure(_ handle: UInt16, pairAnew: Bool) async -> Result<GATTSecurityLevel, PairingError> {
        await withCheckedContinuation { continuation in
            loop.submit({ stack in
                stack.security.secure(handle, pairAnew: pairAnew) { continuation.resume(returning: $0) }
            }, refuse: { continuation.resume(returning: .failure(.controllerStopped($0))) })
        }
    }

    /// Lets the security floor post the user's answers back to the loop, and tells it the
    /// address this host connects from.
    func installSecurity(localAddress: BluetoothAddress) async {
        let loop = self.loop
        await perform { stack in
            stack.security.localAddress = localAddress
            stack.security.post = { job in loop.submit(job, refuse: { _ in }) }
        }
    }
}

/// What `configureSecurity` set, readable from any thread.
struct SecuritySettings: Sendable {
    var configuration = SecurityConfiguration()
    var bonds = BondStore()
    var delegate: (any PairingDelegate)?
}
