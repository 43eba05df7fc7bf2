import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP

/// Phase 3 (Core 5.4 Vol 3 Part H §3.6): on the encrypted link the responder sends its
/// keys, then the initiator sends its own.
extension PairingSession {
    mutating func beginKeyDistribution(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        phase = .distributingKeys
        if role == .responder {
            sendKeys(n.responderKeys, now: now, into: &out)
            distribution.expected = KeyDistributionState.codes(for: n.initiatorKeys)
        } else {
            distribution.expected = KeyDistributionState.codes(for: n.responderKeys)
        }
        if distribution.expected.isEmpty { finishKeyDistribution(now: now, into: &out) }
    }

    mutating func sendKeys(_ keys: KeyDistribution, now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        if keys.contains(.encryptionKey) {
            // Legacy only (negotiation drops the bit for Secure Connections): a fresh LTK
            // cut to the key size, named by a random EDIV and Rand (§2.4.2.3).
            let ltk = LongTermKey(key: Self.shorten(SecureRandom.uint128(), to: n.keySize),
                                  ediv: UInt16(truncatingIfNeeded: SecureRandom.uint64()),
                                  rand: SecureRandom.uint64())
            sendPDU(.encryptionInformation(longTermKey: ltk.key), now: now, into: &out)
            sendPDU(.centralIdentification(ediv: ltk.ediv, rand: ltk.rand), now: now, into: &out)
            distribution.sent.longTermKey = ltk
        }
        if keys.contains(.identityKey), let identity = configuration.identity {
            sendPDU(.identityInformation(identityResolvingKey: identity.identityResolvingKey), now: now, into: &out)
            sendPDU(.identityAddressInformation(identity.address), now: now, into: &out)
            distribution.sent.identityResolvingKey = identity.identityResolvingKey
            distribution.sent.identityAddress = identity.address
        }
        if keys.contains(.signingKey), let csrk = configuration.signatureKey {
            sendPDU(.signingInformation(signatureKey: csrk), now: now, into: &out)
            distribution.sent.signatureKey = csrk
        }
    }

    mutating func receivedKey(_ pdu: SMPPDU, now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation, distribution.expected.first == pdu.code else {
            fail(sending: .unspecifiedReason, now: now, into: &out)
            return
        }
        distribution.expected.removeFirst()
        switch pdu {
        case let .encryptionInformation(ltk):
            distribution.pendingLongTermKey = ltk
        case let .centralIdentification(ediv, rand):
            // The peer cuts its key to the negotiated size (§2.3.4) and so does the
            // controller when it encrypts; a peer that sent more octets would otherwise
            // leave a bond whose key no link ever uses.
            let key = Self.shorten(distribution.pendingLongTermKey ?? 0, to: n.keySize)
            distribution.received.longTermKey = LongTermKey(key: key, ediv: ediv, rand: rand)
        case let .identityInformation(irk):
            distribution.pendingIdentityKey = irk
        case let .identityAddressInformation(address):
            // An identity address is public or static random (§3.6.5), and one that
            // cannot identify anybody (private, all-zero, all-one) is refused rather
            // than stored as a bond nobody could match.
            guard address.isIdentityAddress else {
                fail(sending: .invalidParameters, now: now, into: &out)
                return
            }
            // An all-zero IRK resolves addresses anyone can make: keep the identity,
            // drop the key, so the peer is not "recognised" under forged RPAs.
            distribution.received.identityResolvingKey = distribution.pendingIdentityKey == 0 ? nil : distribution.pendingIdentityKey
            distribution.received.identityAddress = address
        case let .signingInformation(csrk):
            distribution.received.signatureKey = csrk
        default:
            break
        }
        if distribution.expected.isEmpty { finishKeyDistribution(now: now, into: &out) }
    }

    /// The peer's keys are all here: the initiator sends its own; both are done.
    mutating func finishKeyDistribution(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        if role == .initiator { sendKeys(n.initiatorKeys, now: now, into: &out) }
        phase = .completed
        nextDeadline = nil
        let longTermKey: LongTermKey?
        if n.secureConnections {
            longTermKey = LongTermKey(key: sc.longTermKey)
        } else {
            longTermKey = role == .initiator ? distribution.received.longTermKey : distribution.sent.longTermKey
        }
        out.append(.completed(PairingResult(
            method: n.method, secureConnections: n.secureConnections, authenticated: n.method.isAuthenticated,
            keySize: Int(n.keySize), bonding: n.bonding, longTermKey: longTermKey,
            localKeys: distribution.sent, peerKeys: distribution.received)))
    }
}
