/// A P-256 public key as the Security Manager exchanges it: the affine coordinates of
/// a point, each 32 octets, most significant first (Core 5.4 Vol 3 Part H §2.3.5.6.1,
/// the order f4 and g2 take U and V in; the Pairing Public Key PDU of §3.5.6 carries
/// each coordinate the other way round).
///
/// Making one checks nothing, because a peer's key is only known to be a key once
/// `validate()` has said so; `P256KeyPair.sharedSecret(with:)` makes the same checks
/// itself before it computes anything.
public struct P256PublicKey: Sendable, Hashable {
    /// The x-coordinate, 32 octets, most significant first.
    public let x: [UInt8]
    /// The y-coordinate, 32 octets, most significant first.
    public let y: [UInt8]

    /// A key from its two coordinates, unchecked: call `validate()` before trusting a peer's.
    public init(x: [UInt8], y: [UInt8]) {
        self.x = x
        self.y = y
    }

    /// Throws unless the key is a point of P-256 other than the point at infinity:
    /// both coordinates 32 octets, not both zero, each below the field prime p, and
    /// y² = x³ − 3x + b (mod p). That is the full check the invalid-curve attack needs
    /// (CVE-2018-5383): P-256's cofactor is 1, so every such point is in the group.
    public func validate() throws(P256Error) {
        try withValidatedPoint { _, _ in }
    }

    /// Runs `body` with the key as a libcrypto point and a scratch context once it has
    /// passed every check `validate()` describes: the one place a public key is checked,
    /// so that an ECDH checks its peer's key as validation does, and only once.
    func withValidatedPoint<R>(_ body: (_ point: OpaquePointer, _ context: OpaquePointer) -> R) throws(P256Error) -> R {
        guard x.count == 32, y.count == 32 else {
            throw .invalidPublicKey(.wrongLength(x: x.count, y: y.count))
        }
        guard x.contains(where: { $0 != 0 }) || y.contains(where: { $0 != 0 }) else {
            throw .invalidPublicKey(.pointAtInfinity)
        }
        guard P256Curve.isBelow(x, P256Curve.prime), P256Curve.isBelow(y, P256Curve.prime) else {
            throw .invalidPublicKey(.coordinateOutOfRange)
        }
        guard let result = P256Curve.withPoint(x: x, y: y, body) else {
            throw .invalidPublicKey(.notOnCurve)
        }
        return result
    }
}
