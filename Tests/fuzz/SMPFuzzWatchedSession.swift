import SwiftATTCore
import SwiftATTSMP
import SwiftATTSecurity

/// How a pairing ended, as the session's own actions said.
enum SMPFuzzOutcome: Equatable {
    case completed(PairingResult)
    case failed(PairingFailure)
}

/// A `PairingSession` whose every answer is checked against what the type promises:
/// every input of the `smp` target goes through here, so the promises are written once
/// for both modes.
///
/// The promises: a finished session answers nothing and gives no key; it ends once, with
/// `.completed` or `.failed` as the last action of the list; it ends only by saying so,
/// and then its timer is stopped; every PDU it sends decodes to itself; Pairing Failed
/// goes out exactly when `.failed(.sent)` with its reason is reported; a Pairing Failed
/// from the peer mid-pairing ends it; a result stays within the configuration (key size,
/// Secure Connections mode, MITM) and is self-consistent (authenticated iff not Just
/// Works, keys cut to the key size, only requested keys accepted); prompts come only for
/// the method negotiated, and answers with no prompt out do nothing; the timer restarts
/// at 30 s whenever a PDU goes out, and `expire` fails exactly a session past it.
struct SMPFuzzWatchedSession {
    private(set) var session: PairingSession
    let name: String
    private(set) var outcome: SMPFuzzOutcome?
    /// The last PDU this session sent (the single-session mode can reflect it).
    private(set) var lastSent: SMPPDU?
    /// The peer's Pairing Failed arrived while a pairing was under way.
    private(set) var peerFailed = false

    /// Prompts out and unanswered (cleared when the harness or the fuzzer answers).
    private(set) var acceptancePending = false
    private(set) var numberPending = false
    private(set) var passkeyPending = false
    /// The number the user was shown for Numeric Comparison, and the passkey displayed.
    private(set) var shownNumber: UInt32?
    private(set) var displayedPasskey: UInt32?
    /// The key `.startEncryption` asked the controller for, until the harness encrypts.
    var encryptionRequest: LongTermKey?

    init(_ session: PairingSession) {
        self.session = session
        name = session.role == .initiator ? "initiator" : "responder"
    }

    var role: PairingRole { session.role }
    var configuration: PairingConfiguration { session.configuration }
    var isFinished: Bool { session.isFinished }

    // MARK: - Inputs, each checked

    mutating func start(now: MonotonicInstant) -> [PairingAction] {
        let wasIdle = !session.isActive && !session.isFinished
        let actions = drive("start", now: now) { $0.start(now: now) }
        if role == .responder || !wasIdle { require(actions.isEmpty, "\(name): start answered \(actions)") }
        return actions
    }

    mutating func receive(_ bytes: ArraySlice<UInt8>, now: MonotonicInstant) -> [PairingAction] {
        let pdu = try? SMPPDU(decoding: bytes)
        if case .pairingFailed? = pdu, session.isActive { peerFailed = true }
        return drive("a PDU \(Array(bytes))", now: now, received: pdu) { $0.receive(bytes, now: now) }
    }

    mutating func accept(_ yes: Bool, now: MonotonicInstant) -> [PairingAction] {
        let pending = acceptancePending
        acceptancePending = false
        let actions = drive("accept(\(yes))", now: now) { $0.accept(yes, now: now) }
        if !pending { require(actions.isEmpty, "\(name): accept with no request out answered \(actions)") }
        return actions
    }

    mutating func confirm(_ yes: Bool, now: MonotonicInstant) -> [PairingAction] {
        let pending = numberPending
        let live = pending && session.isActive
        numberPending = false
        let actions = drive("confirm(\(yes))", now: now) { $0.confirm(yes, now: now) }
        if !pending { require(actions.isEmpty, "\(name): confirm with no number shown answered \(actions)") }
        if live && !yes { require(failure(in: actions) == .sent(.numericComparisonFailed), "\(name): a rejected number did not fail") }
        return actions
    }

    mutating func enterPasskey(_ passkey: UInt32?, now: MonotonicInstant) -> [PairingAction] {
        let pending = passkeyPending
        let live = pending && session.isActive
        passkeyPending = false
        let actions = drive("enterPasskey(\(passkey.map(String.init) ?? "nil"))", now: now) { $0.enterPasskey(passkey, now: now) }
        if !pending { require(actions.isEmpty, "\(name): a passkey nobody asked for answered \(actions)") }
        if live, (passkey ?? .max) > 999_999 {
            require(failure(in: actions) == .sent(.passkeyEntryFailed), "\(name): passkey \(String(describing: passkey)) did not fail")
        }
        return actions
    }

    mutating func encryptionChanged(status: UInt8, now: MonotonicInstant) -> [PairingAction] {
        let actions = drive("encryptionChanged(\(status))", now: now) { $0.encryptionChanged(status: status, now: now) }
        if status != 0 {
            require(actions.isEmpty || actions == [.failed(.encryptionFailed(status: status))],
                    "\(name): encryption failure \(status) answered \(actions)")
        }
        return actions
    }

    /// The controller's LE Long Term Key Request: a key only for a responder waiting for
    /// encryption, only for EDIV and Rand zero.
    func longTermKeyRequested(ediv: UInt16, rand: UInt64) -> UInt128? {
        let key = session.longTermKeyRequested(ediv: ediv, rand: rand)
        if key != nil {
            require(role == .responder && ediv == 0 && rand == 0 && session.isActive,
                    "\(name): gave a key for EDIV \(ediv) Rand \(rand) (finished: \(session.isFinished))")
            if let keySize = session.keySize { require(Self.fits(key ?? 0, keySize), "\(name): key longer than \(keySize) octets") }
        }
        return key
    }

    mutating func disconnected(now: MonotonicInstant) -> [PairingAction] {
        let wasActive = session.isActive
        let actions = drive("disconnected", now: now) { $0.disconnected() }
        require(actions == (wasActive ? [.failed(.disconnected)] : []), "\(name): disconnection answered \(actions)")
        return actions
    }

    mutating func expire(now: MonotonicInstant) -> [PairingAction] {
        let due = session.isActive && (session.nextDeadline.map { $0 <= now } ?? false)
        let actions = drive("expire", now: now) { $0.expire(now: now) }
        require(actions == (due ? [.failed(.timedOut)] : []), "\(name): expire (due: \(due)) answered \(actions)")
        return actions
    }

    // MARK: - The checks

    /// Runs one input and checks what came back; `received` is the decoded PDU, if the
    /// input was one.
    private mutating func drive(_ input: @autoclosure () -> String, now: MonotonicInstant, received: SMPPDU? = nil,
                                _ body: (inout PairingSession) -> [PairingAction]) -> [PairingAction] {
        let wasFinished = session.isFinished
        let actions = body(&session)
        if wasFinished {
            require(actions.isEmpty, "\(name) answered \(input()) after it finished (\(String(describing: outcome))): \(actions)")
        }
        for (index, action) in actions.enumerated() {
            check(action, at: index, of: actions, received: received)
        }
        if session.isFinished {
            require(outcome != nil, "\(name) finished without saying so")
            require(session.nextDeadline == nil && !session.isActive, "\(name) finished with its timer running")
        } else {
            require(outcome == nil, "\(name) reported its end but is not finished")
        }
        if !session.isActive { require(session.nextDeadline == nil, "\(name): a timer with no pairing under way") }
        if peerFailed { require(session.isFinished, "\(name): still pairing after the peer's Pairing Failed") }
        if !session.isFinished, actions.contains(where: { if case .send = $0 { return true }; return false }) {
            require(session.nextDeadline == now + PairingSession.timeout, "\(name): sent a PDU without restarting the 30 s timer")
        }
        return actions
    }

    private mutating func check(_ action: PairingAction, at index: Int, of actions: [PairingAction], received: SMPPDU?) {
        let isLast = index == actions.count - 1
        switch action {
        case let .send(pdu):
            let bytes = pdu.bytes
            require((try? SMPPDU(decoding: bytes)) == pdu, "\(name) sent \(pdu), which decodes otherwise: \(bytes)")
            if case let .pairingFailed(reason) = pdu {
                require(!isLast && actions[index + 1] == .failed(.sent(reason)), "\(name) sent Pairing Failed without failing")
            }
            lastSent = pdu
        case let .failed(failure):
            require(outcome == nil, "\(name) ended twice: \(String(describing: outcome)), then \(failure)")
            require(isLast, "\(name) acted after failing: \(actions)")
            switch failure {
            case let .sent(reason):
                require(index > 0 && actions[index - 1] == .send(.pairingFailed(reason)), "\(name) failed with \(reason) unsent")
            case let .received(reason):
                require(received == .pairingFailed(reason), "\(name) reported the peer's \(reason) it never got")
            case let .encryptionFailed(status):
                require(status != 0, "\(name): encryption failed with status 0")
            case .timedOut, .disconnected:
                break
            }
            blackHole(failure.description)
            outcome = .failed(failure)
        case let .completed(result):
            require(outcome == nil, "\(name) ended twice: \(String(describing: outcome)), then completed")
            require(isLast, "\(name) acted after completing: \(actions)")
            require(!peerFailed, "\(name) completed although the peer sent Pairing Failed")
            check(result)
            outcome = .completed(result)
        case let .acceptPairing(features):
            require(role == .responder && configuration.confirmsIncomingPairing, "\(name) asked to accept \(features)")
            acceptancePending = true
        case let .confirmNumber(number):
            require(number < 1_000_000 && session.method == .numericComparison, "\(name) asked to compare \(number)")
            numberPending = true
            shownNumber = number
        case let .displayPasskey(passkey):
            require(passkey < 1_000_000 && isPasskeyEntry, "\(name) displayed \(passkey)")
            displayedPasskey = passkey
        case .requestPasskey:
            require(isPasskeyEntry, "\(name) asked for a passkey in \(String(describing: session.method))")
            passkeyPending = true
        case let .peerKeypress(type):
            require(received == .pairingKeypressNotification(type), "\(name) reported a keypress it never got")
        case let .startEncryption(key):
            require(role == .initiator, "\(name) started encryption")
            require(key.ediv == 0 && key.rand == 0, "\(name): a new key named by EDIV and Rand")
            if let keySize = session.keySize { require(Self.fits(key.key, keySize), "\(name): key longer than \(keySize) octets") }
            encryptionRequest = key
        }
    }

    private var isPasskeyEntry: Bool {
        if case .passkeyEntry? = session.method { return true }
        return false
    }

    /// A result within the configuration, and consistent in itself.
    private func check(_ r: PairingResult) {
        let c = configuration
        require(PairingFeatures.encryptionKeySizes.contains(UInt8(clamping: r.keySize)), "\(name): key size \(r.keySize)")
        require(r.keySize <= Int(c.maximumKeySize) && r.keySize >= max(7, Int(c.minimumKeySize)),
                "\(name): key size \(r.keySize) outside \(c.minimumKeySize)...\(c.maximumKeySize)")
        require(!r.secureConnections || c.secureConnections != .disabled, "\(name): Secure Connections while disabled")
        require(c.secureConnections != .only || (r.secureConnections && r.keySize == 16),
                "\(name): Secure Connections Only mode completed \(r.secureConnections ? "SC" : "legacy") with \(r.keySize) octets")
        require(r.authenticated == (r.method != .justWorks), "\(name): authenticated \(r.authenticated) with \(r.method)")
        require(!c.requiresMITM || r.authenticated, "\(name): MITM required, completed with \(r.method)")
        if r.method == .numericComparison || r.method == .outOfBand {
            require(r.secureConnections, "\(name): \(r.method) in legacy pairing")
        }
        require(r.method == session.method && r.keySize == session.keySize && r.secureConnections == session.isSecureConnections,
                "\(name): the result disagrees with the session's negotiation")
        if r.secureConnections {
            require(r.longTermKey.map { $0.ediv == 0 && $0.rand == 0 } ?? false, "\(name): SC without its derived key")
            require(r.localKeys.longTermKey == nil && r.peerKeys.longTermKey == nil, "\(name): SC distributed an LTK")
        } else {
            let distributed = role == .initiator ? r.peerKeys.longTermKey : r.localKeys.longTermKey
            require(r.longTermKey == distributed, "\(name): legacy LTK is not the responder's distributed one")
        }
        if let key = r.longTermKey { require(Self.fits(key.key, r.keySize), "\(name): LTK longer than \(r.keySize) octets") }
        if !r.bonding { require(r.localKeys.isEmpty && r.peerKeys.isEmpty, "\(name): keys exchanged without bonding") }
        let peer = r.peerKeys
        require((peer.identityResolvingKey == nil) == (peer.identityAddress == nil), "\(name): an IRK without its address")
        if let address = peer.identityAddress {
            require(address.kind == .public || address.randomSubtype == .static, "\(name): identity address \(address)")
        }
        require(peer.longTermKey == nil || c.requestedKeys.contains(.encryptionKey), "\(name): took an LTK not asked for")
        require(peer.identityAddress == nil || c.requestedKeys.contains(.identityKey), "\(name): took an identity not asked for")
        require(peer.signatureKey == nil || c.requestedKeys.contains(.signingKey), "\(name): took a CSRK not asked for")
        let local = r.localKeys
        require(local.identityResolvingKey == nil || local.identityResolvingKey == c.identity?.identityResolvingKey,
                "\(name): sent an IRK not its own")
        require(local.signatureKey == nil || local.signatureKey == c.signatureKey, "\(name): sent a CSRK not its own")
    }

    private func failure(in actions: [PairingAction]) -> PairingFailure? {
        for case let .failed(f) in actions { return f }
        return nil
    }

    /// Whether a key has no octets beyond `keySize` (Part H §2.3.4).
    static func fits(_ key: UInt128, _ keySize: Int) -> Bool {
        keySize >= 16 || key >> (8 * UInt128(keySize)) == 0
    }
}
