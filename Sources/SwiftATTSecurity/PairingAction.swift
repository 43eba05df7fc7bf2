import SwiftATTSMP

/// What the host does for a `PairingSession`: send a PDU, ask the user or the
/// application something, start encryption, or report the outcome.
public enum PairingAction: Sendable, Hashable {
    /// Send this PDU on the SMP channel (CID 0x0006).
    case send(SMPPDU)
    /// Responder: the peer asks to pair with these features; answer with
    /// `PairingSession.accept(_:)`.
    case acceptPairing(PairingFeatures)
    /// Numeric Comparison: show this six-digit number and answer `confirm(_:)` with the
    /// user's yes or no.
    case confirmNumber(UInt32)
    /// Passkey Entry: show this passkey (000000–999999) for the user to type on the peer.
    case displayPasskey(UInt32)
    /// Passkey Entry: ask the user for the passkey the peer shows; answer `enterPasskey(_:)`.
    case requestPasskey
    /// The peer reported a keypress while its user types the passkey.
    case peerKeypress(KeypressNotificationType)
    /// Initiator: encrypt the link with this key (LE Enable Encryption); report the
    /// Encryption Change with `encryptionChanged(status:)`.
    case startEncryption(LongTermKey)
    /// Pairing finished; the keys are in the result.
    case completed(PairingResult)
    /// Pairing ended without keys; a `.sent` failure's PDU is in the same action list.
    case failed(PairingFailure)
}
