import CSwiftATTCrypto
import SwiftATTCore

/// The NIST P-256 curve (FIPS 186-4 §D.1.2.3; Core 5.4 Vol 3 Part H §2.3.5.6.1) and the
/// libcrypto calls on it that `P256PublicKey` and `P256KeyPair` share.
///
/// Every calculation is made on one `EC_GROUP`, built once for the process (`LibCrypto`,
/// "Objects made once"); the points, numbers and scratch context a call makes are freed
/// before it returns, so what leaves is plain octets and the public types stay `Sendable`
/// values. The group's functions here are the `EC_POINT` arithmetic OpenSSL 3 keeps (the
/// deprecated interface is `EC_KEY`, which this module's header leaves out): the same calls
/// libcrypto's own EC key generation and ECDH make once they have their group.
enum P256Curve {
    /// The field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, big-endian.
    static let prime: [UInt8] = octets("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff")
    /// The group order n, big-endian.
    static let order: [UInt8] = octets("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551")

    /// The P-256 group. Built once: making one costs more than validating a key.
    nonisolated(unsafe) private static let group: OpaquePointer = {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            LibCrypto.fail("EC_GROUP_new_by_curve_name(prime256v1)")
        }
        return group
    }()

    /// Whether `a` < `b`, both 32 octets big-endian (so the octet order is the number order).
    static func isBelow(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// Whether `scalar`, 32 octets big-endian, is a private key: in [1, n − 1].
    static func isPrivateKey(_ scalar: [UInt8]) -> Bool {
        scalar.count == 32 && scalar.contains(where: { $0 != 0 }) && isBelow(scalar, order)
    }

    /// Runs `body` with (x, y) as a libcrypto point and a scratch context, or returns
    /// `nil` if (x, y) does not satisfy the curve equation. The coordinates are already
    /// known to be 32 octets below p (`P256PublicKey.withValidatedPoint`), so this is the
    /// last of its checks.
    static func withPoint<R>(x: [UInt8], y: [UInt8], _ body: (_ point: OpaquePointer, _ context: OpaquePointer) -> R) -> R? {
        withContext { context in
            let bx = bignum(x), by = bignum(y)
            defer { BN_free(bx); BN_free(by) }
            guard let point = EC_POINT_new(group) else { LibCrypto.fail("EC_POINT_new") }
            defer { EC_POINT_free(point) }
            // libcrypto refuses to set an affine point off the curve; it is asked again
            // explicitly, so the check does not rest on that side effect.
            let set = EC_POINT_set_affine_coordinates(group, point, bx, by, context) == 1
            guard set, EC_POINT_is_on_curve(group, point, context) == 1 else {
                // The refusal left its reason on the error queue; it is an answer, not a failure.
                LibCrypto.clearErrors()
                return nil
            }
            return body(point, context)
        }
    }

    /// The public point d·G of a private scalar d already checked to be in [1, n − 1],
    /// as 32-octet big-endian coordinates.
    static func publicPoint(of privateKey: [UInt8]) -> (x: [UInt8], y: [UInt8]) {
        withContext { context in
            multiply(privateKey, nil, context)
        }
    }

    /// The x-coordinate of d·Q, 32 octets big-endian: the ECDH shared secret of a private
    /// scalar d in [1, n − 1] and a point Q that `withPoint` has checked. P-256's cofactor
    /// is 1, so Q is in the group of order n and d·Q is never the point at infinity.
    static func sharedX(privateKey: [UInt8], point: OpaquePointer, context: OpaquePointer) -> [UInt8] {
        multiply(privateKey, point, context).x
    }

    /// d·Q, or d·G when `point` is nil, as affine coordinates.
    private static func multiply(_ privateKey: [UInt8], _ point: OpaquePointer?, _ context: OpaquePointer) -> (x: [UInt8], y: [UInt8]) {
        let d = bignum(privateKey)
        defer { BN_clear_free(d) }
        // Marked secret, as libcrypto marks an EC key's private scalar, so that any BIGNUM
        // routine that looks at the flag takes its constant-time path.
        BN_set_flags(d, BN_FLG_CONSTTIME)
        guard let product = EC_POINT_new(group) else { LibCrypto.fail("EC_POINT_new") }
        defer { EC_POINT_free(product) }
        let multiplied = if let point {
            EC_POINT_mul(group, product, nil, point, d, context)
        } else {
            EC_POINT_mul(group, product, d, nil, nil, context)
        }
        LibCrypto.check(multiplied, "EC_POINT_mul")
        guard let bx = BN_new(), let by = BN_new() else { LibCrypto.fail("BN_new") }
        defer { BN_clear_free(bx); BN_clear_free(by) }
        LibCrypto.check(EC_POINT_get_affine_coordinates(group, product, bx, by, context),
                        "EC_POINT_get_affine_coordinates")
        return (octets(of: bx), octets(of: by))
    }

    /// Runs `body` with a scratch context for the group's arithmetic, freed after.
    private static func withContext<R>(_ body: (OpaquePointer) -> R) -> R {
        guard let context = BN_CTX_new() else { LibCrypto.fail("BN_CTX_new") }
        defer { BN_CTX_free(context) }
        return body(context)
    }

    /// A BIGNUM holding the big-endian `octets`; the caller frees it.
    private static func bignum(_ octets: [UInt8]) -> OpaquePointer {
        guard let n = BN_bin2bn(octets, Int32(octets.count), nil) else { LibCrypto.fail("BN_bin2bn") }
        return n
    }

    /// The 32 big-endian octets of `n`, zero-padded on the left.
    private static func octets(of n: OpaquePointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(n, &out, 32) == 32 else { LibCrypto.fail("BN_bn2binpad") }
        return out
    }

    /// Octets from hex digits, for the constants above (P256Tests checks both).
    private static func octets(_ hex: String) -> [UInt8] {
        do { return try Hex.decode(hex) } catch { fatalError("P256Curve constant: \(error)") }
    }
}
