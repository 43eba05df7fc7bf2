import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP

/// Phase 2 with LE legacy pairing (Core 5.4 Vol 3 Part H §2.3.5.2–§2.3.5.5): the TK,
/// Mconfirm and Sconfirm from c1, the randoms that open them, and the STK from s1.
extension PairingSession {
    mutating func beginLegacyAuthentication(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        switch n.method {
        case .passkeyEntry:
            obtainPasskey(now: now, into: &out)
        default:
            // Just Works: TK is zero (§2.3.5.2). (Legacy OOB never gets here.)
            temporaryKeyKnown(0, now: now, into: &out)
        }
    }

    mutating func legacyPasskeyKnown(_ passkey: UInt32, now: MonotonicInstant, into out: inout [PairingAction]) {
        temporaryKeyKnown(UInt128(passkey), now: now, into: &out)
    }

    mutating func temporaryKeyKnown(_ tk: UInt128, now: MonotonicInstant, into out: inout [PairingAction]) {
        legacy.temporaryKey = tk
        if role == .initiator || legacy.peerConfirm != nil {
            sendLegacyConfirm(now: now, into: &out)
        }
    }

    /// Mconfirm or Sconfirm = c1(TK, Mrand or Srand, preq, pres, iat, ia, rat, ra).
    mutating func sendLegacyConfirm(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let tk = legacy.temporaryKey else { return }
        legacy.localRandom = SecureRandom.uint128()
        sendPDU(.pairingConfirm(legacyConfirm(tk: tk, random: legacy.localRandom)), now: now, into: &out)
        legacy.sentConfirm = true
    }

    func legacyConfirm(tk: UInt128, random: UInt128) -> UInt128 {
        guard let n = negotiation else { return 0 }
        return SecurityFunctions.c1(k: tk, r: random, pairingRequest: n.requestBytes, pairingResponse: n.responseBytes,
                                    initiator: initiatorAddress, responder: responderAddress)
    }

    mutating func receivedLegacyConfirm(_ value: UInt128, now: MonotonicInstant, into out: inout [PairingAction]) {
        guard legacy.peerConfirm == nil else {
            fail(sending: .unspecifiedReason, now: now, into: &out)
            return
        }
        if role == .initiator {
            // Mconfirm goes first; Sconfirm answers it.
            guard legacy.sentConfirm else {
                fail(sending: .unspecifiedReason, now: now, into: &out)
                return
            }
            legacy.peerConfirm = value
            sendPDU(.pairingRandom(legacy.localRandom), now: now, into: &out)
        } else {
            legacy.peerConfirm = value
            if legacy.temporaryKey != nil { sendLegacyConfirm(now: now, into: &out) }
        }
    }

    mutating func receivedLegacyRandom(_ value: UInt128, now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation, let tk = legacy.temporaryKey, let confirm = legacy.peerConfirm,
              legacy.sentConfirm else {
            fail(sending: .unspecifiedReason, now: now, into: &out)
            return
        }
        guard legacyConfirm(tk: tk, random: value) == confirm else {
            fail(sending: .confirmValueFailed, now: now, into: &out)
            return
        }
        let (srand, mrand) = role == .initiator ? (value, legacy.localRandom) : (legacy.localRandom, value)
        let stk = Self.shorten(SecurityFunctions.s1(k: tk, r1: srand, r2: mrand), to: n.keySize)
        encryptionKey = stk
        phase = .awaitingEncryption
        if role == .initiator {
            out.append(.startEncryption(LongTermKey(key: stk)))
        } else {
            sendPDU(.pairingRandom(legacy.localRandom), now: now, into: &out)
        }
    }
}
