import SwiftATTCore
import SwiftATTSMP
import SwiftATTSecurity

/// Two sessions, initiator and responder, pairing over a link that a man in the middle
/// controls: the fuzzer delivers, drops, duplicates, reorders, alters and injects PDUs in
/// flight, answers for the users and the controller, lets time pass and drops the link.
/// When the script ends, honest users, an honest controller and an untouched link take
/// over until both sides are done, so every input ends as a whole pairing and the deep
/// phases (DHKey checks, the STK, key distribution) run on every execution.
///
/// Each step is an octet: bit 7 picks the side a PDU step concerns (set: the
/// initiator), and bits 0-6 mod 12 the step:
///
///     0  deliver the next PDU for that side          6  inject a well-formed PDU
///     1  drop it                                     7  that side's user answers as the
///     2  deliver a copy and keep it in flight           fuzzer says (`answerAsFuzzer`)
///     3  swap the next two                           8  the controller encrypts, with a
///     4  flip bits of one octet, then deliver           status (next octet; 0: honest)
///        (next octets: the index, the XOR)           9  time passes (next octet, seconds)
///     5  inject a record                             10 the link drops
///                                                    11 one honest step (`honestStep`)
///
/// The link layer encrypts after the first successful Encryption Change: from then on
/// the man in the middle can no longer alter, inject, copy or reorder PDUs (the MIC and
/// sequence numbers would catch it), only drop them.
///
/// Checked at the end: if both completed, they hold the same LTK and agree on method,
/// Secure Connections and bonding, each took only keys the other sent, and with
/// Numeric Comparison both users saw the same number; they also agree on the key size
/// and each took exactly the keys the other sent, unless a man in the middle had
/// Secure Connections' unauthenticated octets (Maximum Encryption Key Size, Key
/// Distribution) to change. If the fuzzer disturbed
/// nothing, both finished, and the same way: both completed, or one sent Pairing Failed
/// and the other received it with the same reason (or both sent it, with one reason).
struct SMPFuzzManInTheMiddle {
    var initiator: SMPFuzzWatchedSession
    var responder: SMPFuzzWatchedSession
    /// PDUs in flight, oldest first, with the side each is for.
    var link: [(to: PairingRole, bytes: [UInt8])] = []
    var now = MonotonicInstant.now
    /// The link is encrypted: the man in the middle can only drop PDUs now.
    var encrypted = false
    /// The fuzzer did something an honest link, user or controller would not.
    var disturbed = false

    /// The passkey both users type when neither device displays one.
    static let sharedPasskey: UInt32 = 123_456

    init(addresses: (initiator: BluetoothAddress, responder: BluetoothAddress), sameKeys: Bool, input: inout FuzzInput) {
        let i = SMPFuzzConfiguration(&input)
        let r = SMPFuzzConfiguration(&input)
        let initiatorKey = SMPFuzzMaterial.local
        let responderKey = sameKeys ? SMPFuzzMaterial.local : SMPFuzzMaterial.peer
        let initiatorData = SMPFuzzMaterial.localOutOfBand
        let responderData = sameKeys ? SMPFuzzMaterial.localOutOfBand : SMPFuzzMaterial.peerOutOfBand
        // A side's own OOB data exists when it hands it out or the other side holds it.
        func outOfBand(_ own: SMPFuzzConfiguration, _ other: SMPFuzzConfiguration,
                       ownData: OutOfBandData.Values, otherData: OutOfBandData.Values) -> OutOfBandData? {
            let local = own.givesOutOfBand || other.holdsPeerOutOfBand ? ownData : nil
            let peer = own.holdsPeerOutOfBand
                ? (own.peerOutOfBandCorrupted ? SMPFuzzMaterial.corrupted(otherData) : otherData) : nil
            return local == nil && peer == nil ? nil : OutOfBandData(local: local, peer: peer)
        }
        initiator = SMPFuzzWatchedSession(PairingSession(
            role: .initiator, configuration: i.configuration(outOfBand: outOfBand(i, r, ownData: initiatorData, otherData: responderData)),
            initiatorAddress: addresses.initiator, responderAddress: addresses.responder, keyPair: initiatorKey))
        responder = SMPFuzzWatchedSession(PairingSession(
            role: .responder, configuration: r.configuration(outOfBand: outOfBand(r, i, ownData: responderData, otherData: initiatorData)),
            initiatorAddress: addresses.initiator, responderAddress: addresses.responder, keyPair: responderKey))
    }

    mutating func run(_ input: inout FuzzInput) {
        forward(initiator.start(now: now), from: .initiator)
        while let op = input.byte() {
            step(op, &input)
        }
        // Twenty Passkey Entry rounds of four PDUs are the longest honest pairing; a
        // thousand steps mean the two sides answer each other forever.
        var budget = 1000
        while honestStep() {
            budget -= 1
            require(budget > 0, "the sessions never stop answering each other")
        }
        checkAgreement()
    }

    mutating func step(_ op: UInt8, _ input: inout FuzzInput) {
        let side: PairingRole = op & 0x80 == 0 ? .responder : .initiator
        switch (op & 0x7F) % 12 {
        case 0:
            if let i = next(for: side) { deliver(link.remove(at: i).bytes, to: side) }
        case 1:
            if let i = next(for: side) {
                link.remove(at: i)
                disturbed = true
            }
        case 2:
            if !encrypted, let i = next(for: side) {
                disturbed = true
                deliver(link[i].bytes, to: side)
            }
        case 3:
            let pending = link.indices.filter { link[$0].to == side }
            if !encrypted, pending.count >= 2 {
                link.swapAt(pending[0], pending[1])
                disturbed = true
            }
        case 4:
            let index = Int(input.byte() ?? 0)
            let flip = max(input.byte() ?? 1, 1)
            if !encrypted, let i = next(for: side) {
                var bytes = link.remove(at: i).bytes
                if !bytes.isEmpty { bytes[index % bytes.count] ^= flip }
                disturbed = true
                deliver(bytes, to: side)
            }
        case 5:
            let record = input.record() ?? []
            if !encrypted {
                disturbed = true
                deliver(record, to: side)
            }
        case 6:
            let pdu = SMPFuzzMaterial.pdu(&input)
            if !encrypted {
                disturbed = true
                deliver(pdu.bytes, to: side)
            }
        case 7:
            answerAsFuzzer(side, &input)
        case 8:
            encrypt(status: input.byte() ?? 0)
        case 9:
            now += .seconds(Int(input.byte() ?? 31))
            let expired = [initiator.expire(now: now), responder.expire(now: now)]
            if expired.contains(where: { !$0.isEmpty }) { disturbed = true }
        case 10:
            if initiator.session.isActive || responder.session.isActive { disturbed = true }
            _ = initiator.disconnected(now: now)
            _ = responder.disconnected(now: now)
        default:
            _ = honestStep()
        }
    }

    /// The index of the oldest PDU in flight for `side`.
    func next(for side: PairingRole) -> Int? {
        link.firstIndex { $0.to == side }
    }

    mutating func deliver(_ bytes: [UInt8], to side: PairingRole) {
        let slice = offsetSlice(bytes)
        if side == .initiator {
            forward(initiator.receive(slice, now: now), from: .initiator)
        } else {
            forward(responder.receive(slice, now: now), from: .responder)
        }
    }

    /// Puts what `side` sent on the link; prompts and the encryption request stay with
    /// the watched session until someone answers them.
    mutating func forward(_ actions: [PairingAction], from side: PairingRole) {
        let to: PairingRole = side == .initiator ? .responder : .initiator
        for case let .send(pdu) in actions {
            link.append((to, pdu.bytes))
        }
    }

    /// The user of `side` answers whatever the fuzzer says, whether or not anything
    /// was asked (an answer nobody asked for must change nothing).
    mutating func answerAsFuzzer(_ side: PairingRole, _ input: inout FuzzInput) {
        let choice = input.byte() ?? 0
        var watched = side == .initiator ? initiator : responder
        let actions: [PairingAction]
        switch choice % 3 {
        case 0: actions = watched.accept(choice & 0x80 != 0, now: now)
        case 1: actions = watched.confirm(choice & 0x80 != 0, now: now)
        default: actions = watched.enterPasskey(SMPFuzzMaterial.passkey(&input), now: now)
        }
        if side == .initiator { initiator = watched } else { responder = watched }
        forward(actions, from: side)
        disturbed = true
    }

    /// The controller: the initiator's LE Enable Encryption meets the responder's answer
    /// to the LE Long Term Key Request. Keys that differ fail both (the MIC check); a
    /// non-zero `status` fails them whatever the keys.
    mutating func encrypt(status chosen: UInt8) {
        guard let request = initiator.encryptionRequest else { return }
        initiator.encryptionRequest = nil
        let key = responder.longTermKeyRequested(ediv: request.ediv, rand: request.rand)
        require(disturbed || key == request.key, "undisturbed, yet the responder's key is not the initiator's")
        var status: UInt8 = key == request.key ? 0 : 0x06
        if chosen != 0 {
            status = chosen
            disturbed = true
        }
        if status == 0 { encrypted = true }
        forward(responder.encryptionChanged(status: status, now: now), from: .responder)
        forward(initiator.encryptionChanged(status: status, now: now), from: .initiator)
    }

    /// One thing an honest world would do next, oldest first: deliver a PDU, encrypt,
    /// accept a Pairing Request, compare numbers (yes only if both devices show the
    /// same), type the passkey the other device displays. `false` when nothing is left.
    /// Users of a finished session see no prompt any more.
    mutating func honestStep() -> Bool {
        if !link.isEmpty {
            let (side, bytes) = link.removeFirst()
            deliver(bytes, to: side)
            return true
        }
        if initiator.encryptionRequest != nil {
            encrypt(status: 0)
            return true
        }
        for side in [PairingRole.responder, .initiator] {
            var watched = side == .initiator ? initiator : responder
            let other = side == .initiator ? responder : initiator
            guard !watched.isFinished else { continue }
            let actions: [PairingAction]
            if watched.acceptancePending {
                actions = watched.accept(true, now: now)
            } else if watched.numberPending {
                actions = watched.confirm(watched.shownNumber != nil && watched.shownNumber == other.shownNumber, now: now)
            } else if watched.passkeyPending {
                actions = watched.enterPasskey(other.displayedPasskey ?? Self.sharedPasskey, now: now)
            } else {
                continue
            }
            if side == .initiator { initiator = watched } else { responder = watched }
            forward(actions, from: side)
            return true
        }
        return false
    }

    /// Whether every key in `received` is the one in `sent`.
    static func took(_ received: DistributedKeys, from sent: DistributedKeys) -> Bool {
        (received.longTermKey == nil || received.longTermKey == sent.longTermKey)
            && (received.identityResolvingKey == nil || received.identityResolvingKey == sent.identityResolvingKey)
            && (received.identityAddress == nil || received.identityAddress == sent.identityAddress)
            && (received.signatureKey == nil || received.signatureKey == sent.signatureKey)
    }

    func checkAgreement() {
        switch (initiator.outcome, responder.outcome) {
        case let (.completed(a)?, .completed(b)?):
            require(a.longTermKey == b.longTermKey, "both completed with different LTKs: \(a) / \(b)")
            require(a.method == b.method && a.secureConnections == b.secureConnections
                        && a.authenticated == b.authenticated && a.bonding == b.bonding,
                    "both completed, disagreeing: \(a) / \(b)")
            // Nor does f6 cover Maximum Encryption Key Size: a man in the middle who
            // lowers it on one side gets key sizes that differ, and both complete when
            // the octets one side cut off happen to be zero (one time in 256 per octet).
            if !disturbed || !a.secureConnections {
                require(a.keySize == b.keySize, "both completed with key sizes \(a.keySize) and \(b.keySize)")
            }
            // Keys travel encrypted: whatever a side took, the other sent. That both
            // sides agree on the set is promised only where phase 1 is authenticated:
            // legacy pairing hashes both PDUs into c1, but Secure Connections' f6 covers
            // IOcap alone, so a man in the middle who flips Key Distribution bits leaves
            // one side sending keys the other no longer waits for (it has completed).
            require(Self.took(a.peerKeys, from: b.localKeys) && Self.took(b.peerKeys, from: a.localKeys),
                    "a side took keys the other never sent: \(a) / \(b)")
            if !disturbed || !a.secureConnections {
                require(a.localKeys == b.peerKeys && a.peerKeys == b.localKeys, "keys sent are not the keys received: \(a) / \(b)")
            }
            if a.method == .numericComparison {
                require(initiator.shownNumber == responder.shownNumber, "both completed after comparing different numbers")
            }
        case let (.failed(.sent(reason))?, .failed(.received(received))?),
             let (.failed(.received(received))?, .failed(.sent(reason))?):
            require(disturbed || reason == received, "undisturbed: \(reason) was sent, \(received) received")
        case let (.failed(.sent(first))?, .failed(.sent(second))?):
            // Both found the same fault at once (each side's OOB confirm over the other's
            // key): each Pairing Failed reaches a finished session.
            require(disturbed || first == second, "undisturbed: both sent Pairing Failed, \(first) and \(second)")
        default:
            require(disturbed, "undisturbed, yet the pairing ended \(String(describing: initiator.outcome)) / \(String(describing: responder.outcome))")
        }
    }
}
