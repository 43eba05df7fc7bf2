import CSwiftATTCrypto
import SwiftATTCore

/// A P-256 key pair for LE Secure Connections pairing (Core 5.4 Vol 3 Part H
/// §2.3.5.6.1): the private scalar, the public key sent in the Pairing Public Key PDU,
/// and ECDH with the peer's key to give the DHKey.
///
/// The private key is kept as its 32 octets, most significant first, not as a
/// libcrypto object, so the pair is a plain `Sendable` value that any task may hold and
/// no thread can see half made; an ECDH turns the octets into the number it multiplies
/// by, which costs next to nothing beside the multiplication, and frees it. Swift gives no
/// way to wipe an array's storage, so the octets live in memory until it is reused, as
/// with any Swift value. The description shows only the public key.
public struct P256KeyPair: Sendable, CustomStringConvertible {
    private let privateKey: [UInt8]
    /// The public key, to send in the Pairing Public Key PDU.
    public let publicKey: P256PublicKey

    /// A fresh key pair from libcrypto's private random generator (its DRBG, seeded by
    /// the kernel).
    ///
    /// The private key is drawn as SP 800-56A Rev. 3 §5.6.1.2.2 ("testing candidates")
    /// and libcrypto's own EC key generation draw it: 256 random bits, drawn again until
    /// they are a number in [1, n − 1] (a redraw comes about once in 2³² keys). Then the
    /// public key is d·G, as for a given private key.
    ///
    /// Does not throw: generation fails only when libcrypto itself cannot run (no
    /// randomness, no memory), which no input causes and no caller can repair; see
    /// `LibCrypto`.
    public static func generate() -> P256KeyPair {
        var candidate = [UInt8](repeating: 0, count: 32)
        repeat {
            LibCrypto.check(RAND_priv_bytes(&candidate, Int32(candidate.count)), "RAND_priv_bytes")
        } while !P256Curve.isPrivateKey(candidate)
        return P256KeyPair(checkedPrivateKey: candidate)
    }

    /// The key pair of a given private scalar, 32 octets, most significant first: the
    /// debug key of §2.3.5.6.1 and the spec's sample data use this. Throws unless the
    /// scalar is in [1, n − 1].
    public init(privateKey: [UInt8]) throws(P256Error) {
        guard privateKey.count == 32 else { throw .invalidPrivateKey(.wrongLength(privateKey.count)) }
        guard P256Curve.isPrivateKey(privateKey) else { throw .invalidPrivateKey(.outOfRange) }
        self.init(checkedPrivateKey: privateKey)
    }

    /// The key pair of a scalar already known to be in [1, n − 1].
    private init(checkedPrivateKey privateKey: [UInt8]) {
        self.privateKey = privateKey
        let point = P256Curve.publicPoint(of: privateKey)
        publicKey = P256PublicKey(x: point.x, y: point.y)
    }

    /// The DHKey shared with `peer`: the x-coordinate of d·Q, computed only once Q has
    /// passed every check of `peer.validate()`, made here whether or not the caller has
    /// made them already (the invalid-curve attack, CVE-2018-5383, is exactly an ECDH on
    /// an unchecked point). Those checks are all the checking Q needs: P-256's cofactor is
    /// 1, so a point on the curve is in the group, and libcrypto's own peer-key check
    /// (`EVP_PKEY_derive_set_peer_ex`'s, which multiplies Q by n) would add nothing.
    public func sharedSecret(with peer: P256PublicKey) throws(P256Error) -> DHKey {
        let x = try peer.withValidatedPoint { point, context in
            P256Curve.sharedX(privateKey: privateKey, point: point, context: context)
        }
        guard let key = DHKey(bytes: x) else { LibCrypto.fail("EC_POINT_mul (DHKey length)") }
        return key
    }

    public var description: String {
        "P256KeyPair(public x: \(Hex.encode(publicKey.x.prefix(4)))…)"
    }

    /// The LE Secure Connections debug key pair (Core 5.4 Vol 3 Part H §2.3.5.6.1).
    ///
    /// Its private key is published, so a sniffer that sees it in a pairing can decrypt
    /// the link: a device uses it only in debug mode, never in a product.
    public static let debug: P256KeyPair = {
        let scalar: [UInt8] = [
            0x3f, 0x49, 0xf6, 0xd4, 0xa3, 0xc5, 0x5f, 0x38, 0x74, 0xc9, 0xb3, 0xe3, 0xd2, 0x10, 0x3f, 0x50,
            0x4a, 0xff, 0x60, 0x7b, 0xeb, 0x40, 0xb7, 0x99, 0x58, 0x99, 0xb8, 0xa6, 0xcd, 0x3c, 0x1a, 0xbd,
        ]
        do {
            return try P256KeyPair(privateKey: scalar)
        } catch {
            fatalError("the specification's debug key is in range: \(error)")
        }
    }()
}
