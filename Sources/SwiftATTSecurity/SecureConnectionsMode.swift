/// Whether this device pairs with LE Secure Connections, LE legacy pairing, or both.
///
/// Core 5.4 Vol 3 Part H §2.3.5.1 and Part C §10.2.4 (Secure Connections Only mode): SC
/// is used when both sides set the SC bit; legacy pairing is still what many older
/// peripherals speak, so `preferred` is the default.
public enum SecureConnectionsMode: Sendable, Hashable {
    /// Secure Connections when the peer supports it, legacy pairing otherwise.
    case preferred
    /// Secure Connections with a 128-bit key, or no pairing at all (Authentication
    /// Requirements, or Encryption Key Size, otherwise).
    case only
    /// Legacy pairing only: the SC bit is never set. For talking to peers whose SC
    /// implementation is broken, and for testing legacy pairing.
    case disabled
}
