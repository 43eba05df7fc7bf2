import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTCrypto
import SwiftATTPDU
import SwiftATTSMP
import SwiftATTSecurity

/// The Security Manager on one controller's connections (Core 5.4 Vol 3 Part H, Vol 3
/// Part C §10): each link's pairing (`PairingSession`), its encryption and the level it
/// gives, the bonds that let a peer encrypt again without pairing, and the repeated-
/// attempts throttle.
///
/// A floor of the host on its loop thread beside `AttributeLinks`, fed by the
/// `HostStack`: SMP frames from `L2CAPChannels`, the LE Long Term Key Request and
/// Encryption Change events from `HCIConversation`. It sends SMP PDUs down through
/// L2CAP and encryption commands through HCI, and hands the level a link reaches back
/// as a return value (the stack gives it to the GATT server). The user's answers come
/// from the `PairingDelegate` on tasks of their own, and return as loop jobs (`post`).
///
/// Choices where the spec leaves room:
/// - A central encrypts a bonded peer's link as soon as it connects
///   (`SecurityConfiguration`'s policy), as BlueZ does.
/// - A central asked by Security Request encrypts with the bond when it has one, and
///   pairs otherwise; a Pairing Request sent to a central gets Command Not Supported.
/// - When encrypting with a bond fails with PIN or Key Missing (the peer lost its
///   key), a caller waiting in `secure` gets pairing instead; the old bond is replaced
///   only when that pairing succeeds.
/// - Without a delegate, Numeric Comparison is refused and Passkey Entry cancelled:
///   nobody saw the number.
/// - A bond reaches its storage on the loop as the pairing completes: it is written
///   before anything it protects crosses the link, and a bond is made a few times in a
///   device's life. A storage that fails is reported (`.bondNotSaved`), not retried.
/// - Sign counters move with every signed write; they are staged in the store and
///   written on `BondSync`'s schedule, not once per command.
///
/// Loop-confined; nothing here is touched from another thread.
final class SecurityManager {
    typealias Completion = @Sendable (Result<GATTSecurityLevel, PairingError>) -> Void
    typealias Post = @Sendable (@escaping @Sendable (HostStack) -> Void) -> Void

    let l2cap: L2CAPChannels
    let hci: HCIConversation
    var configuration = SecurityConfiguration()
    var bonds = BondStore()
    var delegate: (any PairingDelegate)?
    var throttle = PairingAttemptThrottle()
    /// This host's address on its connections (the static random address `start()` set).
    var localAddress = BluetoothAddress(0, kind: .random)
    /// Runs a job on this host's loop; installed when the loop starts.
    var post: Post?
    /// `Controller.securityEvents()`.
    var listeners = ListenerSet<SecurityEvent>()
    /// Told when a peer bonds on a link (its identity address), for the GATT server.
    var bonded: ((UInt16, BluetoothAddress) -> Void)?
    /// When a pairing's SMP timer runs out next; kept current so that the loop's
    /// per-turn question costs a read (unchecked: asked every turn, on the loop thread,
    /// and set only by this manager's own methods, never during a read of it).
    @exclusivity(unchecked) private(set) var nextDeadline: MonotonicInstant?

    private var links: [UInt16: LinkSecurity] = [:]

    init(l2cap: L2CAPChannels, hci: HCIConversation) {
        self.l2cap = l2cap
        self.hci = hci
    }

    /// A link's security as this floor knows it.
    final class LinkSecurity {
        let handle: UInt16
        let role: LERole
        let peer: BluetoothAddress
        let local: BluetoothAddress
        /// The peer's identity address: its bond's, or the one it distributed when
        /// pairing; nil while unknown. Events name the peer by it.
        var identity: BluetoothAddress?
        var session: PairingSession?
        /// Bumped with each session, so that a late answer from the user cannot reach the next.
        var generation = 0
        var level: GATTSecurityLevel = .none
        /// Central: LE Enable Encryption sent with this bond's key.
        var encryptingWith: Bond?
        /// The level encryption gives once it is on (from the pairing or the bond).
        var pendingLevel: GATTSecurityLevel?
        /// Peripheral: when a Security Request this host sent goes unanswered for too
        /// long (the SMP timer runs from it too, Part H §3.4).
        var securityRequestDeadline: MonotonicInstant?
        var waiters: [Completion] = []

        init(handle: UInt16, role: LERole, peer: BluetoothAddress, local: BluetoothAddress) {
            self.handle = handle
            self.role = role
            self.peer = peer
            self.local = local
        }

        var isPairing: Bool { session?.isActive ?? false }

        /// The address events name the peer by.
        var name: BluetoothAddress { identity ?? peer }
    }

    func level(of handle: UInt16) -> GATTSecurityLevel? { links[handle]?.level }

    func identity(of handle: UInt16) -> BluetoothAddress? { links[handle]?.identity }

    /// The identity address of a peer that is bonded: the key its GATT configuration is
    /// kept under.
    func bondedIdentity(of handle: UInt16) -> BluetoothAddress? {
        guard let link = links[handle] else { return nil }
        return bonds.bond(for: link.peer)?.peer
    }

    // MARK: Connections

    func connected(_ connection: ConnectionState) {
        // Pairing computes with the addresses on the air; a peer the controller resolved
        // is named by the identity it resolved to.
        let link = LinkSecurity(handle: connection.handle, role: connection.role, peer: connection.peerAddressOnAir,
                                local: connection.localResolvablePrivateAddress ?? localAddress)
        links[connection.handle] = link
        link.identity = connection.resolvedIdentity ?? bonds.bond(for: link.peer)?.peer
        switch connection.role {
        case .peripheral where configuration.requestsSecurityOnConnection:
            send(.securityRequest(configuration.pairing.authenticationRequirements), on: link.handle)
        case .central where configuration.encryptsBondedLinks:
            if let bond = bonds.bond(for: link.peer), bond.centralKey != nil { encrypt(link, with: bond) }
        default:
            break
        }
    }

    func disconnected(_ handle: UInt16) {
        guard let link = links.removeValue(forKey: handle) else { return }
        if var session = link.session {
            let actions = session.disconnected()
            link.session = session
            for case let .failed(failure) in actions { listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .pairingFailed(failure))) }
        }
        finish(link, .failure(.disconnected))
        updateDeadline()
    }

    /// The controller failed and is being reset: every link is gone.
    func disconnectedAll() {
        for handle in links.keys.sorted() { disconnected(handle) }
    }

    /// The host stopped: everyone waiting hears why.
    func shutdown(_ reason: ControllerError) {
        for link in links.values { finish(link, .failure(.controllerStopped(reason))) }
        links.removeAll()
        listeners.finishAll()
        nextDeadline = nil
    }

    // MARK: The application's requests

    /// Makes the link secure: at once if it is encrypted already (unless `pairAnew`);
    /// a central encrypts with its bond, or pairs; a peripheral asks the central with a
    /// Security Request. `completion` gets the level reached, or why not.
    func secure(_ handle: UInt16, pairAnew: Bool, completion: @escaping Completion) {
        guard let link = links[handle] else { return completion(.failure(.disconnected)) }
        if !pairAnew && link.level.isEncrypted && !link.isPairing && link.encryptingWith == nil {
            return completion(.success(link.level))
        }
        link.waiters.append(completion)
        if link.isPairing || link.encryptingWith != nil { return }
        switch link.role {
        case .central:
            if !pairAnew, let bond = bonds.bond(for: link.peer), bond.centralKey != nil {
                encrypt(link, with: bond)
            } else {
                startPairing(link)
            }
        case .peripheral:
            send(.securityRequest(configuration.pairing.authenticationRequirements), on: handle)
            link.securityRequestDeadline = MonotonicInstant.readBootClock() + PairingSession.timeout
            updateDeadline()
        }
    }

    // MARK: Inbound

    /// An SMP PDU on `handle`.
    func receive(_ payload: ArraySlice<UInt8>, on handle: UInt16, now: MonotonicInstant) {
        guard let link = links[handle] else { return }
        defer { updateDeadline() }
        if var session = link.session, !session.isFinished {
            let actions = session.receive(payload, now: now)
            link.session = session
            perform(actions, on: link, now: now)
            return
        }
        guard let code = payload.first else { return }
        switch (code, link.role) {
        case (SMPCode.pairingRequest.rawValue, .peripheral):
            guard throttle.admits(link.peer, now: now) else {
                send(.pairingFailed(.repeatedAttempts), on: handle)
                return
            }
            link.securityRequestDeadline = nil
            var session = newSession(for: link, role: .responder)
            let actions = session.receive(payload, now: now)
            link.session = session
            perform(actions, on: link, now: now)
        case (SMPCode.securityRequest.rawValue, .central):
            guard configuration.pairsWhenAsked, !link.isPairing, link.encryptingWith == nil,
                  case let .securityRequest(requirements)? = try? SMPPDU(decoding: payload) else { return }
            // The bond answers unless the peripheral wants MITM protection it lacks.
            if let bond = bonds.bond(for: link.peer), bond.centralKey != nil,
               bond.authenticated || !requirements.contains(.mitm) {
                if !link.level.isEncrypted { encrypt(link, with: bond) }
            } else {
                startPairing(link)
            }
        case (SMPCode.pairingRequest.rawValue, .central):
            send(.pairingFailed(.commandNotSupported), on: handle)
        default:
            // Outside a pairing nothing else means anything, and a reserved code is
            // ignored (§3.3).
            break
        }
    }

    /// LE Long Term Key Request (peripheral): the pairing's key, the bond's key when its
    /// EDIV and Rand match, or a negative reply.
    func longTermKeyRequested(_ request: LELongTermKeyRequest) {
        let handle = request.connectionHandle
        guard let link = links[handle] else {
            hci.send(LELongTermKeyRequestNegativeReply(connectionHandle: handle).packet, timeout: .seconds(3)) { _ in }
            return
        }
        if let session = link.session,
           let key = session.longTermKeyRequested(ediv: request.encryptedDiversifier, rand: request.randomNumber) {
            link.pendingLevel = Self.level(of: session)
            reply(key, on: handle)
            return
        }
        if let bond = bonds.bond(for: link.peer), let key = bond.peripheralKey,
           key.ediv == request.encryptedDiversifier, key.rand == request.randomNumber {
            link.pendingLevel = Self.level(of: bond)
            reply(key.key, on: handle)
            return
        }
        hci.send(LELongTermKeyRequestNegativeReply(connectionHandle: handle).packet, timeout: .seconds(3)) { _ in }
    }

    /// Encryption Change or Encryption Key Refresh Complete: returns the link's new level
    /// when it changed, for the GATT server.
    func encryptionChanged(_ handle: UInt16, status: HCIStatus, enabled: Bool, now: MonotonicInstant) -> GATTSecurityLevel? {
        guard let link = links[handle] else { return nil }
        defer { updateDeadline() }
        var changed: GATTSecurityLevel?
        if status.isSuccess {
            let level = enabled ? (link.pendingLevel ?? .encrypted(keySize: 7)) : .none
            if level != link.level {
                link.level = level
                changed = level
                listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .levelChanged(level)))
            }
        }
        link.pendingLevel = nil
        let bondAttempt = link.encryptingWith
        link.encryptingWith = nil
        if var session = link.session, session.isActive {
            let actions = session.encryptionChanged(status: status.rawValue, now: now)
            link.session = session
            perform(actions, on: link, now: now)
        } else if bondAttempt != nil {
            if status.isSuccess && enabled {
                finish(link, .success(link.level))
            } else {
                listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .encryptionFailed(status.rawValue)))
                // The peer lost the key: whoever waits gets a fresh pairing.
                if !link.waiters.isEmpty && status == .pinOrKeyMissing {
                    startPairing(link)
                } else {
                    finish(link, .failure(.encryptionFailed(status: status.rawValue)))
                }
            }
        } else if link.role == .peripheral, !link.waiters.isEmpty {
            // The central answered a Security Request by encrypting with its bond.
            link.securityRequestDeadline = nil
            if status.isSuccess && enabled {
                finish(link, .success(link.level))
            } else {
                listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .encryptionFailed(status.rawValue)))
                finish(link, .failure(.encryptionFailed(status: status.rawValue)))
            }
        }
        return changed
    }

    // MARK: Answers from the user

    /// Applies a user's answer to the session it was asked for (if it is still that one).
    func answer(_ handle: UInt16, generation: Int,
                _ body: (inout PairingSession, MonotonicInstant) -> [PairingAction]) {
        guard let link = links[handle], link.generation == generation, var session = link.session else { return }
        let now = MonotonicInstant.readBootClock()
        let actions = body(&session, now)
        link.session = session
        perform(actions, on: link, now: now)
        updateDeadline()
    }

    // MARK: Signed data (Part H §2.4.5)

    /// A Signed Write Command the peer on `handle` sent: whether its CSRK signed it with a
    /// SignCounter above the last one accepted (the counter is then kept). Returns whether
    /// that key came from authenticated pairing, or nil to drop the command: no bond, no
    /// CSRK, a bad signature or a replayed counter.
    func verifySignedWrite(_ command: SignedWriteCommand, on handle: UInt16) -> Bool? {
        guard let link = links[handle], var bond = bonds.bond(for: link.peer),
              let key = bond.peerSignatureKey else { return nil }
        var signed: [UInt8] = [SignedWriteCommand.opcode.rawValue, UInt8(command.handle & 0xFF), UInt8(command.handle >> 8)]
        signed += command.value
        guard DataSigning.verify(key: key, message: signed, signature: command.authenticationSignature) else { return nil }
        let counter = command.signCounter
        if let last = bond.peerSignCounter, counter <= last { return nil }
        bond.peerSignCounter = counter
        bonds.stage(bond)
        return bond.authenticated
    }

    /// What our next signed data to the peer on `handle` is signed with: the CSRK we gave
    /// it when bonding and the next SignCounter (taken now: never used twice). Nil when the
    /// bond has no such key.
    func nextSignature(on handle: UInt16) -> (key: UInt128, counter: UInt32)? {
        guard let link = links[handle], var bond = bonds.bond(for: link.peer),
              let key = bond.localSignatureKey, bond.localSignCounter < .max else { return nil }
        let counter = bond.localSignCounter
        bond.localSignCounter += 1
        bonds.stage(bond)
        return (key, counter)
    }

    /// The link to the peer whose identity address is `identity`, if it is connected.
    func handle(ofIdentity identity: BluetoothAddress) -> UInt16? {
        links.values.first { $0.identity == identity }?.handle
    }

    // MARK: Deadlines

    func expire(now: MonotonicInstant) {
        guard let deadline = nextDeadline, deadline <= now else { return }
        for link in links.values {
            if let requested = link.securityRequestDeadline, requested <= now, !link.isPairing {
                // The central never answered the Security Request.
                link.securityRequestDeadline = nil
                listeners.yield(SecurityEvent(handle: link.handle, peer: link.name, change: .pairingFailed(.timedOut)))
                finish(link, .failure(.failed(.timedOut)))
            }
            guard var session = link.session else { continue }
            let actions = session.expire(now: now)
            link.session = session
            perform(actions, on: link, now: now)
        }
        updateDeadline()
    }

    private func updateDeadline() {
        nextDeadline = links.values.flatMap { [$0.session?.nextDeadline, $0.securityRequestDeadline] }.compactMap { $0 }.min()
    }

    // MARK: Steps

    private func newSession(for link: LinkSecurity, role: PairingRole) -> PairingSession {
        link.generation += 1
        let (initiator, responder) = role == .initiator ? (link.local, link.peer) : (link.peer, link.local)
        var pairing = configuration.pairing
        // A CSRK of our own for each bond, so that the peer can check what we sign
        // (Part H §2.4.2.4) whether or not the application chose one.
        if pairing.signatureKey == nil { pairing.signatureKey = SecureRandom.uint128() }
        return PairingSession(role: role, configuration: pairing,
                              initiatorAddress: initiator, responderAddress: responder)
    }

    private func startPairing(_ link: LinkSecurity) {
        var session = newSession(for: link, role: .initiator)
        let now = MonotonicInstant.readBootClock()
        let actions = session.start(now: now)
        link.session = session
        perform(actions, on: link, now: now)
        updateDeadline()
    }

    /// Central: LE Enable Encryption with the bond's key.
    private func encrypt(_ link: LinkSecurity, with bond: Bond) {
        guard let key = bond.centralKey else { return }
        link.encryptingWith = bond
        link.pendingLevel = Self.level(of: bond)
        startEncryption(key, on: link)
    }

    private func startEncryption(_ key: LongTermKey, on link: LinkSecurity) {
        let handle = link.handle
        let post = self.post
        let command = LEEnableEncryption(connectionHandle: handle, randomNumber: key.rand,
                                         encryptedDiversifier: key.ediv, longTermKey: key.key)
        hci.send(command.packet, timeout: .seconds(3)) { result in
            // Refused outright (Command Status): no Encryption Change will come.
            guard case let .failure(error) = result else { return }
            let status: UInt8
            if case let .hci(.commandFailed(_, failed)) = error { status = failed.rawValue } else { status = 0x1F }
            post?({ stack in _ = stack.security.encryptionChanged(handle, status: HCIStatus(status), enabled: false, now: .readBootClock()) })
        }
    }

    private func reply(_ key: UInt128, on handle: UInt16) {
        hci.send(LELongTermKeyRequestReply(connectionHandle: handle, longTermKey: key).packet, timeout: .seconds(3)) { _ in }
    }

    private func send(_ pdu: SMPPDU, on handle: UInt16) {
        l2cap.send(channel: L2CAPChannelIdentifier.securityManager, payload: EncodedBytes(pdu.bytes), handle: handle)
    }

    private func finish(_ link: LinkSecurity, _ result: Result<GATTSecurityLevel, PairingError>) {
        let waiters = link.waiters
        link.waiters.removeAll()
        for waiter in waiters { waiter(result) }
    }

    /// Carries out what a session asked for.
    private func perform(_ actions: [PairingAction], on link: LinkSecurity, now: MonotonicInstant) {
        let handle = link.handle
        let generation = link.generation
        let peer = link.peer
        let delegate = self.delegate
        let post = self.post
        for action in actions {
            switch action {
            case let .send(pdu):
                send(pdu, on: handle)
            case let .acceptPairing(features):
                Task {
                    let yes = await delegate?.acceptPairing(from: peer, features: features) ?? true
                    post?({ stack in stack.security.answer(handle, generation: generation) { $0.accept(yes, now: $1) } })
                }
            case let .confirmNumber(number):
                Task {
                    let yes = await delegate?.confirmNumber(number, for: peer) ?? false
                    post?({ stack in stack.security.answer(handle, generation: generation) { $0.confirm(yes, now: $1) } })
                }
            case let .displayPasskey(passkey):
                Task { await delegate?.displayPasskey(passkey, for: peer) }
            case .requestPasskey:
                Task {
                    let passkey = await delegate?.enterPasskey(for: peer)
                    post?({ stack in stack.security.answer(handle, generation: generation) { $0.enterPasskey(passkey, now: $1) } })
                }
            case .peerKeypress:
                break
            case let .startEncryption(key):
                if let session = link.session { link.pendingLevel = Self.level(of: session) }
                startEncryption(key, on: link)
            case let .completed(result):
                var bond: Bond?
                var notSaved: SecurityStorageError?
                if result.bonding {
                    let made = Bond(result: result, peerAddress: peer)
                    do {
                        try bonds.save(made)
                    } catch {
                        notSaved = error
                    }
                    bond = made
                }
                if let identity = result.peerKeys.identityAddress { link.identity = identity }
                if let bond { bonded?(handle, bond.peer) }
                throttle.recordSuccess(peer: peer)
                listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .paired(result, bond: bond)))
                if bond != nil, let notSaved {
                    listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .bondNotSaved(notSaved)))
                }
                finish(link, .success(link.level))
            case let .failed(failure):
                throttle.record(failure, peer: peer, now: now)
                listeners.yield(SecurityEvent(handle: handle, peer: link.name, change: .pairingFailed(failure)))
                finish(link, .failure(.failed(failure)))
            }
        }
    }

    // MARK: Levels

    static func level(of session: PairingSession) -> GATTSecurityLevel {
        level(authenticated: session.method?.isAuthenticated ?? false,
              secureConnections: session.isSecureConnections ?? false, keySize: session.keySize ?? 7)
    }

    static func level(of bond: Bond) -> GATTSecurityLevel {
        level(authenticated: bond.authenticated, secureConnections: bond.secureConnections, keySize: bond.keySize)
    }

    static func level(authenticated: Bool, secureConnections: Bool, keySize: Int) -> GATTSecurityLevel {
        switch (authenticated, secureConnections) {
        case (true, true): return .secureConnections(keySize: keySize)
        case (true, false): return .authenticated(keySize: keySize)
        default: return .encrypted(keySize: keySize)
        }
    }
}
