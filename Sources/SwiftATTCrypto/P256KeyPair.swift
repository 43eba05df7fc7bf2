import CSwiftATTCrypto
import SwiftATTCore

/// A P-256 key pair for LE Secure Connections pairing (Core 5.4 Vol 3 Part H
/// §2.3.5.6.1): the private scalar, the public key sent in the Pairing Public Key PDU,
/// and ECDH with the peer's key to give the DHKey.
///
/// The private key is kept as its 32 octets, most significant first, not as a
/// libcrypto object, so the pair is a plain `Sendable` value that any task may hold;
/// each operation builds the libcrypto key it needs and frees it. Swift gives no way to
/// wipe an array's storage, so the octets live in memory until it is reused, as with
/// any Swift value. The description shows only the public key.
public struct P256KeyPair: Sendable, CustomStringConvertible {
    private let privateKey: [UInt8]
    public let publicKey: P256PublicKey

    /// A fresh key pair from libcrypto's key generator (its DRBG, seeded by the kernel).
    ///
    /// Does not throw: generation fails only when libcrypto itself cannot run (no
    /// randomness, no memory), which no input causes and no caller can repair; see
    /// `LibCrypto`.
    public static func generate() -> P256KeyPair {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            LibCrypto.fail("EVP_PKEY_CTX_new_from_name(EC)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        LibCrypto.check(EVP_PKEY_keygen_init(context), "EVP_PKEY_keygen_init")
        LibCrypto.check(EVP_PKEY_CTX_set_group_name(context, "P-256"), "EVP_PKEY_CTX_set_group_name(P-256)")
        var key: OpaquePointer? = nil
        LibCrypto.check(EVP_PKEY_generate(context, &key), "EVP_PKEY_generate")
        defer { EVP_PKEY_free(key) }
        var scalar: OpaquePointer? = nil
        LibCrypto.check(EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &scalar), "EVP_PKEY_get_bn_param(priv)")
        defer { BN_clear_free(scalar) }
        var octets = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(scalar, &octets, 32) == 32 else { LibCrypto.fail("BN_bn2binpad") }
        // One path to the public key for generated and given scalars alike.
        do {
            return try P256KeyPair(privateKey: octets)
        } catch {
            // libcrypto's generator returns a scalar in [1, n − 1] by definition.
            fatalError("libcrypto generated a P-256 private key out of range: \(error)")
        }
    }

    /// The key pair of a given private scalar, 32 octets, most significant first: the
    /// debug key of §2.3.5.6.1 and the spec's sample data use this. Throws unless the
    /// scalar is in [1, n − 1].
    public init(privateKey: [UInt8]) throws(P256Error) {
        guard privateKey.count == 32 else { throw .invalidPrivateKey(.wrongLength(privateKey.count)) }
        guard privateKey.contains(where: { $0 != 0 }), P256Curve.isBelow(privateKey, P256Curve.order) else {
            throw .invalidPrivateKey(.outOfRange)
        }
        self.privateKey = privateKey
        let point = P256Curve.publicPoint(of: privateKey)
        publicKey = P256PublicKey(x: point.x, y: point.y)
    }

    /// The DHKey shared with `peer`: the x-coordinate of d·Q, after `peer.validate()`
    /// has checked that Q is a point of the curve (the invalid-curve attack,
    /// CVE-2018-5383, is exactly an ECDH on an unchecked point).
    public func sharedSecret(with peer: P256PublicKey) throws(P256Error) -> DHKey {
        try peer.validate()
        guard let ours = P256Curve.makeKey(x: publicKey.x, y: publicKey.y, privateKey: privateKey) else {
            LibCrypto.fail("EVP_PKEY_fromdata (our own key pair)")
        }
        defer { EVP_PKEY_free(ours) }
        // libcrypto checks the point on import as well; having passed validate(), a
        // refusal here can only be its on-curve check disagreeing, so it is reported so.
        guard let theirs = P256Curve.makeKey(x: peer.x, y: peer.y, privateKey: nil) else {
            throw .invalidPublicKey(.notOnCurve)
        }
        defer { EVP_PKEY_free(theirs) }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, ours, nil) else {
            LibCrypto.fail("EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        LibCrypto.check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
        // validate_peer = 1: libcrypto's own EVP_PKEY_public_check as a second gate.
        guard EVP_PKEY_derive_set_peer_ex(context, theirs, 1) == 1 else {
            LibCrypto.clearErrors()
            throw .invalidPublicKey(.notOnCurve)
        }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = secret.count
        LibCrypto.check(EVP_PKEY_derive(context, &secret, &length), "EVP_PKEY_derive")
        guard length == 32, let key = DHKey(bytes: secret) else { LibCrypto.fail("EVP_PKEY_derive (length)") }
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
