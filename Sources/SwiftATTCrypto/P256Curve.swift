import CSwiftATTCrypto
import SwiftATTCore

/// The NIST P-256 curve (FIPS 186-4 §D.1.2.3; Core 5.4 Vol 3 Part H §2.3.5.6.1) and the
/// libcrypto calls on it that `P256PublicKey` and `P256KeyPair` share.
///
/// Every libcrypto object made here is freed before the function returns; what leaves
/// is plain octets, so the public types stay `Sendable` values.
enum P256Curve {
    /// The field prime p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, big-endian.
    static let prime: [UInt8] = octets("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff")
    /// The group order n, big-endian.
    static let order: [UInt8] = octets("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551")
    /// OpenSSL's name for the curve in OSSL_PARAM key data.
    static let groupName = "prime256v1"

    /// Whether `a` < `b`, both 32 octets big-endian (so the octet order is the number order).
    static func isBelow(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// Whether (x, y) satisfies the curve equation: libcrypto refuses to set an affine
    /// point that does not, and is asked again explicitly.
    static func isOnCurve(x: [UInt8], y: [UInt8]) -> Bool {
        withGroup { group, context in
            let bx = bignum(x), by = bignum(y)
            defer { BN_free(bx); BN_free(by) }
            guard let point = EC_POINT_new(group) else { LibCrypto.fail("EC_POINT_new") }
            defer { EC_POINT_free(point) }
            let set = EC_POINT_set_affine_coordinates(group, point, bx, by, context) == 1
            let onCurve = set && EC_POINT_is_on_curve(group, point, context) == 1
            // The refusal left its reason on the error queue; it is an answer, not a failure.
            if !onCurve { LibCrypto.clearErrors() }
            return onCurve
        }
    }

    /// The public point d·G of a private scalar d already checked to be in [1, n − 1],
    /// as 32-octet big-endian coordinates.
    static func publicPoint(of privateKey: [UInt8]) -> (x: [UInt8], y: [UInt8]) {
        withGroup { group, context in
            let d = bignum(privateKey)
            defer { BN_clear_free(d) }
            guard let point = EC_POINT_new(group) else { LibCrypto.fail("EC_POINT_new") }
            defer { EC_POINT_free(point) }
            LibCrypto.check(EC_POINT_mul(group, point, d, nil, nil, context), "EC_POINT_mul")
            guard let bx = BN_new(), let by = BN_new() else { LibCrypto.fail("BN_new") }
            defer { BN_free(bx); BN_free(by) }
            LibCrypto.check(EC_POINT_get_affine_coordinates(group, point, bx, by, context),
                            "EC_POINT_get_affine_coordinates")
            return (octets(of: bx), octets(of: by))
        }
    }

    /// An EVP_PKEY for a key pair (`privateKey` given) or a public key alone; `nil` if
    /// libcrypto refuses the public point. The caller frees it with EVP_PKEY_free.
    static func makeKey(x: [UInt8], y: [UInt8], privateKey: [UInt8]?) -> OpaquePointer? {
        // SEC 1 §2.3.3's uncompressed encoding, the form OSSL_PKEY_PARAM_PUB_KEY takes.
        let encodedPoint: [UInt8] = [0x04] + x + y
        let scalar = privateKey.map(bignum)
        defer { if let scalar { BN_clear_free(scalar) } }
        let names = [OSSL_PKEY_PARAM_GROUP_NAME, groupName, OSSL_PKEY_PARAM_PUB_KEY, OSSL_PKEY_PARAM_PRIV_KEY]
        return LibCrypto.withCStrings(names) { c in
            encodedPoint.withUnsafeBufferPointer { point -> OpaquePointer? in
                guard let builder = OSSL_PARAM_BLD_new() else { LibCrypto.fail("OSSL_PARAM_BLD_new") }
                defer { OSSL_PARAM_BLD_free(builder) }
                LibCrypto.check(OSSL_PARAM_BLD_push_utf8_string(builder, c[0], c[1], 0), "OSSL_PARAM_BLD_push_utf8_string")
                LibCrypto.check(OSSL_PARAM_BLD_push_octet_string(builder, c[2], point.baseAddress, point.count),
                                "OSSL_PARAM_BLD_push_octet_string")
                if let scalar {
                    LibCrypto.check(OSSL_PARAM_BLD_push_BN(builder, c[3], scalar), "OSSL_PARAM_BLD_push_BN")
                }
                guard let parameters = OSSL_PARAM_BLD_to_param(builder) else { LibCrypto.fail("OSSL_PARAM_BLD_to_param") }
                defer {
                    // The copy holds the private scalar: wipe it before freeing (OpenSSL
                    // 3.0 has no OSSL_PARAM_clear_free yet).
                    if let secret = OSSL_PARAM_locate(parameters, c[3]), let data = secret.pointee.data {
                        OPENSSL_cleanse(data, secret.pointee.data_size)
                    }
                    OSSL_PARAM_free(parameters)
                }
                guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
                    LibCrypto.fail("EVP_PKEY_CTX_new_from_name(EC)")
                }
                defer { EVP_PKEY_CTX_free(context) }
                LibCrypto.check(EVP_PKEY_fromdata_init(context), "EVP_PKEY_fromdata_init")
                var key: OpaquePointer? = nil
                let selection = scalar == nil ? CSWIFTATT_EVP_PKEY_PUBLIC_KEY : CSWIFTATT_EVP_PKEY_KEYPAIR
                guard EVP_PKEY_fromdata(context, &key, selection, parameters) == 1, key != nil else {
                    LibCrypto.clearErrors()
                    return nil
                }
                return key
            }
        }
    }

    /// Runs `body` with the P-256 group and a scratch context, both freed after.
    private static func withGroup<R>(_ body: (OpaquePointer, OpaquePointer) -> R) -> R {
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else {
            LibCrypto.fail("EC_GROUP_new_by_curve_name(prime256v1)")
        }
        defer { EC_GROUP_free(group) }
        guard let context = BN_CTX_new() else { LibCrypto.fail("BN_CTX_new") }
        defer { BN_CTX_free(context) }
        return body(group, context)
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
