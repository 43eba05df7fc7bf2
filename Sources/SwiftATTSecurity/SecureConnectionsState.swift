import SwiftATTCrypto

/// What LE Secure Connections pairing has computed and is waiting for (Core 5.4 Vol 3
/// Part H §2.3.5.6): the public keys, the DHKey, the nonces of the current round, and the
/// values stage 2 compares.
struct SecureConnectionsState: Sendable {
    var peerPublicKey: P256PublicKey?
    var dhKey: DHKey?
    /// Na or Nb: this device's nonce for the current round (Passkey Entry has 20).
    var localNonce: UInt128 = 0
    var peerNonce: UInt128 = 0
    /// The peer's confirm value for the current round, until its random arrives.
    var peerConfirm: UInt128?
    var passkey: UInt32?
    /// Passkey Entry's round, 0–19.
    var round = 0
    /// Responder, Passkey Entry: this round's confirm is sent (it waits for the passkey
    /// and for the initiator's confirm).
    var sentConfirm = false
    /// This round's random is sent.
    var sentRandom = false
    var awaitingUserConfirmation = false
    /// Numeric Comparison and Just Works: the user (or nobody) has said yes.
    var userConfirmed = false
    var macKey: UInt128 = 0
    var longTermKey: UInt128 = 0
    /// Ea or Eb: the check this device sends, and the one it expects.
    var localCheck: UInt128 = 0
    var expectedPeerCheck: UInt128 = 0
    /// Responder: the initiator's check arrived before the user confirmed.
    var receivedPeerCheck: UInt128?

    /// The passkey's bit for a round, as f4's z: 0x80 | bit (§2.3.5.6.3).
    static func passkeyBit(_ passkey: UInt32, round: Int) -> UInt8 {
        0x80 | UInt8((passkey >> UInt32(round)) & 1)
    }
}
