/// Why a P-256 key was refused.
///
/// The peer's public key arrives over the air in the Pairing Public Key PDU
/// (Core 5.4 Vol 3 Part H §3.5.6) and must be validated before it is used
/// (§2.3.5.6.1): a key that is not a point of the curve lets an attacker learn the
/// private key a piece at a time (the invalid-curve attack, CVE-2018-5383). Each case
/// names the check that failed, so the Security Manager can refuse the pairing and say
/// why.
public enum P256Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with a public key.
    public enum PublicKeyFault: Equatable, Sendable {
        /// A coordinate is not 32 octets.
        case wrongLength(x: Int, y: Int)
        /// Both coordinates are zero: the point at infinity has no affine coordinates,
        /// and this is how a peer would send it.
        case pointAtInfinity
        /// A coordinate is not below the field prime p, so it names no field element.
        case coordinateOutOfRange
        /// The coordinates do not satisfy y² = x³ − 3x + b (mod p).
        case notOnCurve
    }

    /// What is wrong with a private key.
    public enum PrivateKeyFault: Equatable, Sendable {
        /// The scalar is not 32 octets.
        case wrongLength(Int)
        /// The scalar is zero or not below the group order n.
        case outOfRange
    }

    /// A public key failed a check: the peer's, refused before any ECDH.
    case invalidPublicKey(PublicKeyFault)
    /// A private key is not a scalar of the curve's group.
    case invalidPrivateKey(PrivateKeyFault)

    public var description: String {
        switch self {
        case let .invalidPublicKey(fault):
            switch fault {
            case let .wrongLength(x, y):
                return "invalid P-256 public key: coordinates of \(x) and \(y) octets, not 32 each"
            case .pointAtInfinity:
                return "invalid P-256 public key: the point at infinity (all zero)"
            case .coordinateOutOfRange:
                return "invalid P-256 public key: a coordinate is not below the field prime p"
            case .notOnCurve:
                return "invalid P-256 public key: the point is not on the curve"
            }
        case let .invalidPrivateKey(fault):
            switch fault {
            case let .wrongLength(n):
                return "invalid P-256 private key: \(n) octets, not 32"
            case .outOfRange:
                return "invalid P-256 private key: zero or not below the group order n"
            }
        }
    }
}
