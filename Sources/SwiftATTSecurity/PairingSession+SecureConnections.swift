import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP

/// Phase 2 with LE Secure Connections (Core 5.4 Vol 3 Part H §2.3.5.6): public keys and
/// DHKey, authentication stage 1 (§2.3.5.6.2–§2.3.5.6.4) and stage 2, the DHKey checks
/// (§2.3.5.6.5).
extension PairingSession {
    typealias F = SecurityFunctions

    mutating func ensureKeyPair() -> P256KeyPair {
        if let keyPair { return keyPair }
        let generated = P256KeyPair.generate()
        keyPair = generated
        return generated
    }

    mutating func sendPublicKey(now: MonotonicInstant, into out: inout [PairingAction]) {
        let key = ensureKeyPair().publicKey
        sendPDU(.pairingPublicKey(x: key.x, y: key.y), now: now, into: &out)
    }

    /// PKax and PKbx, the x-coordinates every function of stage 1 takes.
    var publicKeyX: (initiator: [UInt8], responder: [UInt8]) {
        let local = keyPair?.publicKey.x ?? []
        let peer = sc.peerPublicKey?.x ?? []
        return role == .initiator ? (local, peer) : (peer, local)
    }

    /// Na and Nb.
    var nonces: (initiator: UInt128, responder: UInt128) {
        role == .initiator ? (sc.localNonce, sc.peerNonce) : (sc.peerNonce, sc.localNonce)
    }

    mutating func receivedPublicKey(x: [UInt8], y: [UInt8], now: MonotonicInstant,
                                    into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        let local = ensureKeyPair()
        let peer = P256PublicKey(x: x, y: y)
        if peer == local.publicKey {
            fail(sending: .invalidParameters, now: now, into: &out)
            return
        }
        let dhKey: DHKey
        do {
            dhKey = try local.sharedSecret(with: peer)
        } catch {
            fail(sending: .dhKeyCheckFailed, now: now, into: &out)
            return
        }
        sc.peerPublicKey = peer
        sc.dhKey = dhKey
        if role == .responder { sendPublicKey(now: now, into: &out) }
        phase = .authenticating
        switch n.method {
        case .justWorks, .numericComparison:
            // The responder commits to Nb first (§2.3.5.6.2).
            if role == .responder {
                sc.localNonce = SecureRandom.uint128()
                let x = publicKeyX
                sendPDU(.pairingConfirm(F.f4(u: x.responder, v: x.initiator, x: sc.localNonce, z: 0)),
                        now: now, into: &out)
                sc.sentConfirm = true
            }
        case .passkeyEntry:
            obtainPasskey(now: now, into: &out)
        case .outOfBand:
            // The peer's out-of-band confirm must be over the key it just sent (§2.3.5.6.4).
            if let peerData = configuration.outOfBand?.peer,
               F.f4(u: x, v: x, x: peerData.random, z: 0) != peerData.confirm {
                fail(sending: .confirmValueFailed, now: now, into: &out)
                return
            }
            if role == .initiator {
                sc.localNonce = SecureRandom.uint128()
                sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
                sc.sentRandom = true
            }
        }
    }

    mutating func secureConnectionsPasskeyKnown(_ passkey: UInt32, now: MonotonicInstant,
                                                into out: inout [PairingAction]) {
        sc.passkey = passkey
        if role == .initiator {
            sendPasskeyConfirm(now: now, into: &out)
        } else if sc.peerConfirm != nil {
            sendPasskeyConfirm(now: now, into: &out)
        }
    }

    /// Passkey Entry, one round: a fresh nonce and its commitment to this round's bit.
    mutating func sendPasskeyConfirm(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let passkey = sc.passkey else { return }
        sc.localNonce = SecureRandom.uint128()
        let x = publicKeyX
        let z = SecureConnectionsState.passkeyBit(passkey, round: sc.round)
        let confirm = role == .initiator
            ? F.f4(u: x.initiator, v: x.responder, x: sc.localNonce, z: z)
            : F.f4(u: x.responder, v: x.initiator, x: sc.localNonce, z: z)
        sendPDU(.pairingConfirm(confirm), now: now, into: &out)
        sc.sentConfirm = true
    }

    mutating func receivedSecureConnectionsConfirm(_ value: UInt128, now: MonotonicInstant,
                                                   into out: inout [PairingAction]) {
        guard let n = negotiation, sc.peerConfirm == nil else {
            fail(sending: .unspecifiedReason, now: now, into: &out)
            return
        }
        switch (role, n.method) {
        case (.initiator, .justWorks), (.initiator, .numericComparison):
            guard !sc.sentRandom else { break }
            sc.peerConfirm = value
            sc.localNonce = SecureRandom.uint128()
            sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
            sc.sentRandom = true
            return
        case (.initiator, .passkeyEntry):
            guard sc.sentConfirm, !sc.sentRandom else { break }
            sc.peerConfirm = value
            sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
            sc.sentRandom = true
            return
        case (.responder, .passkeyEntry):
            guard !sc.sentConfirm else { break }
            sc.peerConfirm = value
            if sc.passkey != nil { sendPasskeyConfirm(now: now, into: &out) }
            return
        default:
            break
        }
        fail(sending: .unspecifiedReason, now: now, into: &out)
    }

    mutating func receivedSecureConnectionsRandom(_ value: UInt128, now: MonotonicInstant,
                                                  into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        let x = publicKeyX
        switch (role, n.method) {
        case (.initiator, .justWorks), (.initiator, .numericComparison):
            guard sc.sentRandom, let confirm = sc.peerConfirm else { break }
            sc.peerNonce = value
            guard F.f4(u: x.responder, v: x.initiator, x: value, z: 0) == confirm else {
                fail(sending: .confirmValueFailed, now: now, into: &out)
                return
            }
            computeChecks()
            if case .numericComparison = n.method {
                askToCompare(into: &out)
            } else {
                userConfirmed(now: now, into: &out)
            }
            return
        case (.responder, .justWorks), (.responder, .numericComparison):
            guard sc.sentConfirm, !sc.sentRandom else { break }
            sc.peerNonce = value
            sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
            sc.sentRandom = true
            computeChecks()
            phase = .checkingDHKey
            if case .numericComparison = n.method {
                askToCompare(into: &out)
            } else {
                sc.userConfirmed = true
            }
            return
        case (.initiator, .passkeyEntry):
            guard sc.sentRandom, let confirm = sc.peerConfirm, let passkey = sc.passkey else { break }
            let z = SecureConnectionsState.passkeyBit(passkey, round: sc.round)
            guard F.f4(u: x.responder, v: x.initiator, x: value, z: z) == confirm else {
                fail(sending: .confirmValueFailed, now: now, into: &out)
                return
            }
            sc.peerNonce = value
            if nextPasskeyRound() {
                sendPasskeyConfirm(now: now, into: &out)
            } else {
                computeChecks()
                userConfirmed(now: now, into: &out)
            }
            return
        case (.responder, .passkeyEntry):
            guard sc.sentConfirm, !sc.sentRandom, let confirm = sc.peerConfirm, let passkey = sc.passkey else { break }
            let z = SecureConnectionsState.passkeyBit(passkey, round: sc.round)
            guard F.f4(u: x.initiator, v: x.responder, x: value, z: z) == confirm else {
                fail(sending: .confirmValueFailed, now: now, into: &out)
                return
            }
            sc.peerNonce = value
            sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
            if !nextPasskeyRound() {
                computeChecks()
                phase = .checkingDHKey
                sc.userConfirmed = true
            }
            return
        case (.initiator, .outOfBand):
            guard sc.sentRandom else { break }
            sc.peerNonce = value
            computeChecks()
            userConfirmed(now: now, into: &out)
            return
        case (.responder, .outOfBand):
            guard !sc.sentRandom else { break }
            sc.peerNonce = value
            sc.localNonce = SecureRandom.uint128()
            sendPDU(.pairingRandom(sc.localNonce), now: now, into: &out)
            sc.sentRandom = true
            computeChecks()
            phase = .checkingDHKey
            sc.userConfirmed = true
            return
        }
        fail(sending: .unspecifiedReason, now: now, into: &out)
    }

    /// Ends a Passkey Entry round; `true` if another follows (20 in all, one per bit).
    mutating func nextPasskeyRound() -> Bool {
        sc.peerConfirm = nil
        sc.sentConfirm = false
        sc.sentRandom = false
        guard sc.round < 19 else { return false }
        sc.round += 1
        return true
    }

    /// Numeric Comparison: Va = Vb = g2(PKax, PKbx, Na, Nb) mod 10^6 (§2.3.5.6.2).
    mutating func askToCompare(into out: inout [PairingAction]) {
        let x = publicKeyX
        let n = nonces
        sc.awaitingUserConfirmation = true
        out.append(.confirmNumber(F.g2(u: x.initiator, v: x.responder, x: n.initiator, y: n.responder) % 1_000_000))
    }

    /// Stage 2's values: MacKey and LTK from f5, Ea and Eb from f6 (§2.3.5.6.5).
    mutating func computeChecks() {
        guard let n = negotiation, let dhKey = sc.dhKey else { return }
        let a = initiatorAddress
        let b = responderAddress
        let (na, nb) = nonces
        let (macKey, longTermKey) = F.f5(w: dhKey, n1: na, n2: nb, a1: a, a2: b)
        var ra: UInt128 = 0
        var rb: UInt128 = 0
        switch n.method {
        case .passkeyEntry:
            ra = UInt128(sc.passkey ?? 0)
            rb = ra
        case .outOfBand:
            // Each side's r counts only if the other side received it (its OOB flag).
            let oob = configuration.outOfBand
            let (initiatorData, responderData) = role == .initiator ? (oob?.local, oob?.peer) : (oob?.peer, oob?.local)
            if n.response.oobDataPresent { ra = initiatorData?.random ?? 0 }
            if n.request.oobDataPresent { rb = responderData?.random ?? 0 }
        case .justWorks, .numericComparison:
            break
        }
        let ea = F.f6(w: macKey, n1: na, n2: nb, r: rb, ioCap: Self.ioCap(n.request), a1: a, a2: b)
        let eb = F.f6(w: macKey, n1: nb, n2: na, r: ra, ioCap: Self.ioCap(n.response), a1: b, a2: a)
        sc.macKey = macKey
        sc.longTermKey = Self.shorten(longTermKey, to: n.keySize)
        sc.localCheck = role == .initiator ? ea : eb
        sc.expectedPeerCheck = role == .initiator ? eb : ea
    }

    /// IOcapA or IOcapB: AuthReq, OOB data flag, IO capability (§2.2.8).
    static func ioCap(_ f: PairingFeatures) -> [UInt8] {
        [f.authenticationRequirements.rawValue, f.oobDataPresent ? 1 : 0, f.ioCapability.rawValue]
    }

    /// Stage 1 is confirmed (by the user, or needing nobody): the initiator sends Ea; the
    /// responder answers Ea if it has come.
    mutating func userConfirmed(now: MonotonicInstant, into out: inout [PairingAction]) {
        if role == .initiator {
            sendPDU(.pairingDHKeyCheck(sc.localCheck), now: now, into: &out)
            phase = .checkingDHKey
        } else {
            sc.userConfirmed = true
            if let check = sc.receivedPeerCheck {
                sc.receivedPeerCheck = nil
                verifyInitiatorCheck(check, now: now, into: &out)
            }
        }
    }

    mutating func receivedDHKeyCheck(_ value: UInt128, now: MonotonicInstant, into out: inout [PairingAction]) {
        if role == .initiator {
            guard value == sc.expectedPeerCheck else {
                fail(sending: .dhKeyCheckFailed, now: now, into: &out)
                return
            }
            encryptionKey = sc.longTermKey
            phase = .awaitingEncryption
            out.append(.startEncryption(LongTermKey(key: sc.longTermKey)))
        } else if sc.userConfirmed {
            verifyInitiatorCheck(value, now: now, into: &out)
        } else if sc.receivedPeerCheck == nil {
            sc.receivedPeerCheck = value
        } else {
            fail(sending: .unspecifiedReason, now: now, into: &out)
        }
    }

    mutating func verifyInitiatorCheck(_ value: UInt128, now: MonotonicInstant, into out: inout [PairingAction]) {
        guard value == sc.expectedPeerCheck else {
            fail(sending: .dhKeyCheckFailed, now: now, into: &out)
            return
        }
        sendPDU(.pairingDHKeyCheck(sc.localCheck), now: now, into: &out)
        encryptionKey = sc.longTermKey
        phase = .awaitingEncryption
    }
}
