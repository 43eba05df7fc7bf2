import SwiftATTCore
import SwiftATTSMP

/// Phase 1 (Core 5.4 Vol 3 Part H §2.3.1–§2.3.5.1) and the dispatch of every PDU.
extension PairingSession {
    mutating func handle(_ pdu: SMPPDU, bytes: ArraySlice<UInt8>, now: MonotonicInstant,
                         into out: inout [PairingAction]) {
        switch pdu {
        case let .pairingFailed(reason):
            guard isActive else { return }
            phase = .failed
            nextDeadline = nil
            out.append(.failed(.received(reason)))
        case let .pairingRequest(features) where role == .responder && phase == .idle:
            received(request: features, bytes: Array(bytes), now: now, into: &out)
        case let .pairingResponse(features) where role == .initiator && phase == .awaitingResponse:
            received(response: features, bytes: Array(bytes), now: now, into: &out)
        case let .pairingPublicKey(x, y) where phase == .exchangingPublicKeys:
            receivedPublicKey(x: x, y: y, now: now, into: &out)
        case let .pairingConfirm(value) where phase == .authenticating:
            if negotiation?.secureConnections == true {
                receivedSecureConnectionsConfirm(value, now: now, into: &out)
            } else {
                receivedLegacyConfirm(value, now: now, into: &out)
            }
        case let .pairingRandom(value) where phase == .authenticating:
            if negotiation?.secureConnections == true {
                receivedSecureConnectionsRandom(value, now: now, into: &out)
            } else {
                receivedLegacyRandom(value, now: now, into: &out)
            }
        case let .pairingDHKeyCheck(value) where phase == .checkingDHKey:
            receivedDHKeyCheck(value, now: now, into: &out)
        case let .pairingKeypressNotification(type) where phase == .authenticating:
            out.append(.peerKeypress(type))
        case .encryptionInformation where phase == .distributingKeys,
             .centralIdentification where phase == .distributingKeys,
             .identityInformation where phase == .distributingKeys,
             .identityAddressInformation where phase == .distributingKeys,
             .signingInformation where phase == .distributingKeys:
            receivedKey(pdu, now: now, into: &out)
        case .securityRequest where role == .initiator:
            // The host answers a Security Request (by encrypting or starting pairing);
            // one that arrives while pairing is under way asks for what is happening.
            return
        default:
            fail(sending: .unspecifiedReason, now: now, into: &out)
        }
    }

    mutating func received(request: PairingFeatures, bytes: [UInt8], now: MonotonicInstant,
                           into out: inout [PairingAction]) {
        if configuration.confirmsIncomingPairing {
            pendingRequest = (request, bytes)
            phase = .awaitingAcceptance
            // The peer's timer runs while the user decides; ours starts with the request.
            nextDeadline = now + Self.timeout
            out.append(.acceptPairing(request))
            return
        }
        respond(to: request, bytes: bytes, now: now, into: &out)
    }

    mutating func respond(to request: PairingFeatures, bytes requestBytes: [UInt8], now: MonotonicInstant,
                          into out: inout [PairingAction]) {
        let response = localFeatures(requesting: request)
        let responsePDU = SMPPDU.pairingResponse(response)
        switch negotiate(request: request, requestBytes: requestBytes, response: response,
                         responseBytes: responsePDU.bytes) {
        case let .failure(reason):
            fail(sending: reason, now: now, into: &out)
        case let .success(n):
            negotiation = n
            sendPDU(responsePDU, now: now, into: &out)
            beginPhase2(now: now, into: &out)
        }
    }

    mutating func received(response: PairingFeatures, bytes: [UInt8], now: MonotonicInstant,
                           into out: inout [PairingAction]) {
        let request = localFeatures(requesting: nil)
        // The response may not hand out keys the request did not ask for (§3.5.2).
        guard response.initiatorKeyDistribution.isSubset(of: request.initiatorKeyDistribution.union(.linkKey)),
              response.responderKeyDistribution.isSubset(of: request.responderKeyDistribution.union(.linkKey))
        else {
            fail(sending: .invalidParameters, now: now, into: &out)
            return
        }
        switch negotiate(request: request, requestBytes: SMPPDU.pairingRequest(request).bytes,
                         response: response, responseBytes: bytes) {
        case let .failure(reason):
            fail(sending: reason, now: now, into: &out)
        case let .success(n):
            negotiation = n
            beginPhase2(now: now, into: &out)
        }
    }

    /// After phase 1: Secure Connections starts with the public keys (the initiator's
    /// first); legacy pairing with the TK.
    mutating func beginPhase2(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard let n = negotiation else { return }
        if n.secureConnections {
            phase = .exchangingPublicKeys
            if role == .initiator { sendPublicKey(now: now, into: &out) }
        } else {
            phase = .authenticating
            beginLegacyAuthentication(now: now, into: &out)
        }
    }

    /// The user's passkey (typed, or drawn for display) reaches the method in progress.
    mutating func passkeyKnown(_ passkey: UInt32, now: MonotonicInstant, into out: inout [PairingAction]) {
        if negotiation?.secureConnections == true {
            secureConnectionsPasskeyKnown(passkey, now: now, into: &out)
        } else {
            legacyPasskeyKnown(passkey, now: now, into: &out)
        }
    }

    /// Passkey Entry: draws and shows the passkey, or asks the user for the peer's.
    mutating func obtainPasskey(now: MonotonicInstant, into out: inout [PairingAction]) {
        guard case let .passkeyEntry(initiatorInputs, responderInputs)? = negotiation?.method else { return }
        let inputs = role == .initiator ? initiatorInputs : responderInputs
        if inputs {
            awaitingPasskey = true
            out.append(.requestPasskey)
        } else {
            let passkey = configuration.fixedPasskey.flatMap { $0 <= 999_999 ? $0 : nil } ?? Self.randomPasskey()
            out.append(.displayPasskey(passkey))
            passkeyKnown(passkey, now: now, into: &out)
        }
    }
}
