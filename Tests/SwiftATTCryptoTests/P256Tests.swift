import SwiftATTCrypto
import Testing

/// P-256 key pairs, public-key validation and ECDH (Core 5.4 Vol 3 Part H §2.3.5.6.1).
@Suite("P-256")
struct P256Tests {
    /// One of the specification's P-256 sample data sets (Core 5.4 Vol 2 Part G
    /// §7.1.2.1 and §7.1.2.2): two private keys, their public keys, and the DHKey.
    struct DataSet: Sendable, CustomTestStringConvertible {
        let name: String
        let privateA: [UInt8], publicA: P256PublicKey
        let privateB: [UInt8], publicB: P256PublicKey
        let dhKey: [UInt8]
        var testDescription: String { name }
    }

    static let dataSets: [DataSet] = [
        DataSet(
            name: "data set 1",
            privateA: octets("3f49f6d4 a3c55f38 74c9b3e3 d2103f50 4aff607b eb40b799 5899b8a6 cd3c1abd"),
            publicA: P256PublicKey(
                x: octets("20b003d2 f297be2c 5e2c83a7 e9f9a5b9 eff49111 acf4fddb cc030148 0e359de6"),
                y: octets("dc809c49 652aeb6d 63329abf 5a52155c 766345c2 8fed3024 741c8ed0 1589d28b")),
            privateB: octets("55188b3d 32f6bb9a 900afcfb eed4e72a 59cb9ac2 f19d7cfb 6b4fdd49 f47fc5fd"),
            publicB: P256PublicKey(
                x: octets("1ea1f0f0 1faf1d96 09592284 f19e4c00 47b58afd 8615a69f 559077b2 2faaa190"),
                y: octets("4c55f33e 429dad37 7356703a 9ab85160 472d1130 e28e3676 5f89aff9 15b1214a")),
            dhKey: octets("ec0234a3 57c8ad05 341010a6 0a397d9b 99796b13 b4f866f1 868d34f3 73bfa698")),
        DataSet(
            name: "data set 2",
            privateA: octets("06a51669 3c9aa31a 6084545d 0c5db641 b48572b9 7203ddff b7ac73f7 d0457663"),
            publicA: P256PublicKey(
                x: octets("2c31a47b 5779809e f44cb5ea af5c3e43 d5f8faad 4a8794cb 987e9b03 745c78dd"),
                y: octets("91951218 3898dfbe cd52e240 8e43871f d0211091 17bd3ed4 eaf84377 43715d4f")),
            privateB: octets("529aa067 0d72cd64 97502ed4 73502b03 7e8803b5 c60829a5 a3caa219 505530ba"),
            publicB: P256PublicKey(
                x: octets("f465e43f f23d3f1b 9dc7dfc0 4da87581 84dbc966 204796ec cf0d6cf5 e16500cc"),
                y: octets("0201d048 bcbbd899 eeefc424 164e33c2 01c2b010 ca6b4d43 a8a155ca d8ecb279")),
            dhKey: octets("ab85843a 2f6d883f 62e5684b 38e30733 5fe6e194 5ecd1960 4105c6f2 3221eb69")),
    ]

    @Test("the sample private keys give the sample public keys and DHKey", arguments: dataSets)
    func sampleData(_ d: DataSet) throws {
        let a = try P256KeyPair(privateKey: d.privateA)
        let b = try P256KeyPair(privateKey: d.privateB)
        #expect(a.publicKey == d.publicA)
        #expect(b.publicKey == d.publicB)
        #expect(try a.sharedSecret(with: d.publicB).bytes == d.dhKey)
        #expect(try b.sharedSecret(with: d.publicA).bytes == d.dhKey)
    }

    @Test("the debug key pair is §2.3.5.6.1's, and its public key is valid")
    func debugKey() throws {
        let spec = Self.dataSets[0]  // data set 1's A is the debug key
        #expect(P256KeyPair.debug.publicKey == spec.publicA)
        try P256KeyPair.debug.publicKey.validate()
        #expect(try P256KeyPair.debug.sharedSecret(with: spec.publicB).bytes == spec.dhKey)
    }

    @Test("the private key 1 gives the base point G (FIPS 186-4 §D.1.2.3)")
    func basePoint() throws {
        let one = try P256KeyPair(privateKey: [UInt8](repeating: 0, count: 31) + [1])
        #expect(one.publicKey.x == octets("6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945 d898c296"))
        #expect(one.publicKey.y == octets("4fe342e2 fe1a7f9b 8ee7eb4a 7c0f9e16 2bce3357 6b315ece cbb64068 37bf51f5"))
    }

    // The field prime p and the group order n, big-endian.
    static let p = octets("ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff")
    static let n = octets("ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551")

    /// A public key that must be refused, and why.
    struct BadKey: Sendable, CustomTestStringConvertible {
        let name: String
        let key: P256PublicKey
        let fault: P256Error.PublicKeyFault
        var testDescription: String { name }
    }

    static let badKeys: [BadKey] = {
        let good = dataSets[0].publicB
        var offCurve = good.y
        offCurve[31] ^= 0x01
        let zero = [UInt8](repeating: 0, count: 32)
        return [
            BadKey(name: "y changed in its last bit: off the curve",
                   key: P256PublicKey(x: good.x, y: offCurve), fault: .notOnCurve),
            BadKey(name: "x = p", key: P256PublicKey(x: p, y: good.y), fault: .coordinateOutOfRange),
            BadKey(name: "y = p", key: P256PublicKey(x: good.x, y: p), fault: .coordinateOutOfRange),
            BadKey(name: "x all ones", key: P256PublicKey(x: [UInt8](repeating: 0xff, count: 32), y: good.y),
                   fault: .coordinateOutOfRange),
            BadKey(name: "all zero: the point at infinity", key: P256PublicKey(x: zero, y: zero), fault: .pointAtInfinity),
            BadKey(name: "x zero, y a valid coordinate", key: P256PublicKey(x: zero, y: good.y), fault: .notOnCurve),
            BadKey(name: "31-octet x", key: P256PublicKey(x: Array(good.x.dropFirst()), y: good.y),
                   fault: .wrongLength(x: 31, y: 32)),
            BadKey(name: "no coordinates", key: P256PublicKey(x: [], y: []), fault: .wrongLength(x: 0, y: 0)),
        ]
    }()

    @Test("validation refuses the key and says why", arguments: badKeys)
    func refusesBadKey(_ bad: BadKey) {
        #expect(throws: P256Error.invalidPublicKey(bad.fault)) { try bad.key.validate() }
    }

    @Test("ECDH with a refused key throws before computing anything", arguments: badKeys)
    func noECDHWithBadKey(_ bad: BadKey) {
        #expect(throws: P256Error.invalidPublicKey(bad.fault)) { try P256KeyPair.debug.sharedSecret(with: bad.key) }
    }

    @Test("private keys outside [1, n − 1] are refused")
    func privateKeyRange() throws {
        #expect(throws: P256Error.invalidPrivateKey(.outOfRange)) {
            try P256KeyPair(privateKey: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: P256Error.invalidPrivateKey(.outOfRange)) { try P256KeyPair(privateKey: Self.n) }
        #expect(throws: P256Error.invalidPrivateKey(.wrongLength(31))) {
            try P256KeyPair(privateKey: [UInt8](repeating: 1, count: 31))
        }
        // n − 1 is the largest scalar; its point is −G, with G's x-coordinate.
        var nMinusOne = Self.n
        nMinusOne[31] -= 1
        let last = try P256KeyPair(privateKey: nMinusOne)
        #expect(last.publicKey.x == octets("6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945 d898c296"))
    }

    @Test("two generated key pairs agree on the DHKey")
    func generatedPairsAgree() throws {
        let a = P256KeyPair.generate()
        let b = P256KeyPair.generate()
        #expect(a.publicKey != b.publicKey)
        try a.publicKey.validate()
        try b.publicKey.validate()
        let ab = try a.sharedSecret(with: b.publicKey)
        let ba = try b.sharedSecret(with: a.publicKey)
        #expect(ab == ba)
        #expect(ab.bytes.count == 32)
    }

    @Test("descriptions do not show secrets")
    func descriptions() throws {
        let text = String(describing: P256KeyPair.debug)
        #expect(text.hasPrefix("P256KeyPair(public x: 20b003d2"))
        #expect(!text.contains("3f49f6d4"))
        let secret = try P256KeyPair.debug.sharedSecret(with: Self.dataSets[0].publicB)
        #expect(String(describing: secret) == "DHKey(32 octets)")
    }
}
