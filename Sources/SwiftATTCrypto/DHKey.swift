/// The LE Secure Connections Diffie-Hellman key: the x-coordinate of the shared P-256
/// point (Core 5.4 Vol 3 Part H §2.3.5.6.1), the W that f5 turns into the MacKey and
/// the LTK (§2.2.7).
///
/// 32 octets, most significant first, as the spec's sample data print it. It is a
/// secret, so its description does not show it.
public struct DHKey: Sendable, Hashable, CustomStringConvertible {
    /// The 32 octets, most significant first.
    public let bytes: [UInt8]

    /// A DHKey from its 32 octets, most significant first; `nil` for any other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self.bytes = Array(bytes)
    }

    public var description: String { "DHKey(32 octets)" }
}
