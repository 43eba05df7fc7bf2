/// What LE legacy pairing has computed and is waiting for (Core 5.4 Vol 3 Part H
/// §2.3.5.5): the TK, this device's random and the peer's confirm value.
struct LegacyState: Sendable {
    /// Temporary Key: zero for Just Works, the passkey for Passkey Entry; `nil` while the
    /// user types it.
    var temporaryKey: UInt128?
    /// Mrand or Srand.
    var localRandom: UInt128 = 0
    /// Mconfirm or Sconfirm received from the peer.
    var peerConfirm: UInt128?
    /// Responder: Sconfirm is sent (it waits for the TK and for Mconfirm).
    var sentConfirm = false
}
