import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTSecurity

extension Controller {
    /// Sets how this host pairs and encrypts, where it keeps its bonds, and who answers
    /// the user's questions. Applies to pairings that start afterwards. After
    /// `start(storage:)`, a configuration without an identity distributes the stored
    /// one, and the stored bonds stay unless `bonds` replaces them. A store that
    /// replaces them replaces what the GATT server keeps for bonded clients too: it
    /// forgets clients without a bond there, and takes up what the store kept for the
    /// others (a store reloaded from its file, say).
    ///
    /// Throws, changing nothing, when the pairing configuration (with the stored identity
    /// filled in) could never pair: `PairingConfiguration.validate()`.
    public func configureSecurity(_ configuration: SecurityConfiguration, bonds: BondStore? = nil,
                                  delegate: (any PairingDelegate)? = nil) async throws(PairingConfigurationError) {
        let outcome = securitySettings.withLock { settings -> Result<(SecurityConfiguration, BondStore), PairingConfigurationError> in
            var proposed = settings
            proposed.configuration = configuration
            if let bonds { proposed.bonds = bonds }
            proposed.delegate = delegate
            let effective = proposed.effectiveConfiguration
            do throws(PairingConfigurationError) {
                try effective.pairing.validate()
            } catch {
                return .failure(error)
            }
            settings = proposed
            return .success((effective, proposed.bonds))
        }
        let (effective, store) = try outcome.get()
        await perform { stack in
            stack.security.configuration = effective
            stack.useBonds(store)
            stack.security.delegate = delegate
        }
    }

    /// How this host pairs (`configureSecurity`), with the stored identity filled in.
    public var securityConfiguration: SecurityConfiguration { securitySettings.withLock { $0.effectiveConfiguration } }

    /// The bonds this host keeps. A bond removed from it while the host runs takes what
    /// the GATT server kept for the peer with it: the removal queues that on the host's
    /// loop before it returns, so whatever is asked of the host afterwards (a read, a
    /// connection it makes) finds it done.
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

    /// The random address to advertise, scan and connect from now: with privacy on
    /// (`privateAddressLifetime`) a resolvable private address from our IRK, a fresh one
    /// set with LE Set Random Address when the last is older than its lifetime; the
    /// static address otherwise. While advertising, scanning or connecting the controller
    /// refuses a new address (Command Disallowed, Vol 4 Part E §7.8.4): the one in use
    /// stays until the next start. The security floor hears of each one, since pairing
    /// computes with the address a link was made from.
    func ownAddress() async -> BluetoothAddress? {
        guard let info else { return nil }
        let (lifetime, irk, current) = securitySettings.withLock { settings in
            let effective = settings.effectiveConfiguration
            return (effective.privateAddressLifetime, effective.pairing.identity?.identityResolvingKey, settings.privateAddress)
        }
        guard let lifetime, let irk else { return info.randomAddress }
        if let current, ContinuousClock.now - current.madeAt < lifetime { return current.address }
        let fresh = ResolvablePrivateAddress.generate(irk: irk)
        do {
            _ = try await send(LESetRandomAddress(randomAddress: fresh))
        } catch {
            return current?.address ?? info.randomAddress
        }
        securitySettings.withLock { $0.privateAddress = (fresh, .now) }
        await perform { stack in stack.security.localAddress = fresh }
        return fresh
    }

    /// The controller's random address is the static one again (start-up, recovery).
    func forgetPrivateAddress() {
        securitySettings.withLock { $0.privateAddress = nil }
    }

    /// Takes the identity and bonds a storage kept for this adapter: the pairing
    /// configuration distributes that identity, and the bonds answer reconnections.
    func adopt(_ stored: StoredSecurity) async {
        let effective = securitySettings.withLock { settings -> SecurityConfiguration in
            settings.storedIdentity = stored.identity
            settings.bonds = stored.bonds
            return settings.effectiveConfiguration
        }
        let bonds = stored.bonds
        await perform { stack in
            stack.security.configuration = effective
            stack.useBonds(bonds)
        }
    }

    /// Lets the security floor post the user's answers back to the loop, and the bond
    /// store its removals, tells it the address this host connects from, and hands it
    /// the bonds `bonds` lists (so that the store an application reads is the one
    /// pairing saves to, configured or not).
    func installSecurity(localAddress: BluetoothAddress) async {
        let loop = self.loop
        let bonds = securitySettings.withLock { $0.bonds }
        await perform { stack in
            stack.security.localAddress = localAddress
            // Weak: the loop owns the stack, so a strong reference here would keep both
            // (and a shared HostEventLoop) alive after the host closed.
            let post: SecurityManager.Post = { [weak loop] job in loop?.submit(job, refuse: { _ in }) }
            stack.security.post = post
            stack.observeBondRemovals(post: post)
            stack.useBonds(bonds)
        }
    }
}

/// What `configureSecurity` set, readable from any thread.
struct SecuritySettings: Sendable {
    var configuration = SecurityConfiguration()
    var bonds = BondStore()
    var delegate: (any PairingDelegate)?
    /// The identity `start(storage:)` took from the storage.
    var storedIdentity: LocalIdentity?
    /// The resolvable private address in use and when it was made (privacy on).
    var privateAddress: (address: BluetoothAddress, madeAt: ContinuousClock.Instant)?

    /// What the security floor runs with: the configuration, distributing the stored
    /// identity when the configuration names none (so that a later `configureSecurity`
    /// written without storage in mind keeps the identity the host connects with).
    var effectiveConfiguration: SecurityConfiguration {
        var effective = configuration
        if effective.pairing.identity == nil { effective.pairing.identity = storedIdentity }
        return effective
    }
}
