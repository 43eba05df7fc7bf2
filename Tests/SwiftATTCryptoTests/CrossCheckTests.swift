import BenchSupport
import Foundation
import SwiftATTCore
import SwiftATTCrypto
import Testing
import TestSupport

/// SwiftATTCrypto against a second implementation on random inputs: crosscheck.py, next
/// to this file, computes AES-128, AES-CMAC, P-256 and ECDH with Python's
/// `cryptography` and writes the Security Manager's functions again from their
/// definitions (Core 5.4 Vol 3 Part H §2.2). The spec's samples fix one point of each
/// function; this checks fifty more, with messages of every length up to five blocks,
/// random address kinds and random PDU octets.
@Suite("Cross-check with Python's cryptography")
struct CrossCheckTests {
    static let caseCount = 50
    static let seed: UInt64 = 0x5EC0_2D1F_F1E5_0001

    /// One case's inputs, as Swift values and as the JSON crosscheck.py reads.
    struct Case {
        var key: UInt128, block: UInt128, message: [UInt8]
        var privateA: [UInt8], privateB: [UInt8]
        var irk: UInt128, prand: UInt32
        var r: UInt128, r2: UInt128, preq: [UInt8], pres: [UInt8]
        var a1: BluetoothAddress, a2: BluetoothAddress
        var x: UInt128, y: UInt128, z: UInt8, n1: UInt128, n2: UInt128, ioCap: [UInt8]
        var w: UInt128, keyID: UInt32, salt: UInt128
        /// B's y-coordinate with one bit flipped: a point off the curve for both to refuse.
        var bentY: [UInt8]

        var json: [String: Any] {
            [
                "key": hex(key), "block": hex(block), "message": Hex.encode(message),
                "privateA": Hex.encode(privateA), "privateB": Hex.encode(privateB),
                "irk": hex(irk), "prand": Hex.encode([UInt8(prand >> 16 & 0xff), UInt8(prand >> 8 & 0xff), UInt8(prand & 0xff)]),
                "r": hex(r), "r2": hex(r2), "preq": Hex.encode(preq), "pres": Hex.encode(pres),
                "a1": Hex.encode(a1.littleEndianBytes.reversed()), "a1Kind": Int(a1.kind.rawValue),
                "a2": Hex.encode(a2.littleEndianBytes.reversed()), "a2Kind": Int(a2.kind.rawValue),
                "x": hex(x), "y": hex(y), "z": Int(z), "n1": hex(n1), "n2": hex(n2), "ioCap": Hex.encode(ioCap),
                "w": hex(w), "keyID": Hex.encode([UInt8(keyID >> 24), UInt8(keyID >> 16 & 0xff), UInt8(keyID >> 8 & 0xff), UInt8(keyID & 0xff)]),
                "salt": hex(salt), "bentY": Hex.encode(bentY),
            ]
        }
    }

    /// What crosscheck.py answers for one case.
    struct Answer: Decodable {
        let aes, cmac, publicAX, publicAY, publicBX, publicBY, dhKey: String
        let bentKeyValid: Bool
        let e, c1, s1, f4, f5MacKey, f5LTK, f6: String
        let ah, g2: UInt32
        let h6, h7: String
    }

    static func hex(_ v: UInt128) -> String { Hex.encode(v.bigEndianBytes) }

    static func makeCases() -> [Case] {
        var rng = SplitMix64(seed: seed)
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        func u128() -> UInt128 { UInt128(rng.next()) << 64 | UInt128(rng.next()) }
        func scalar() -> [UInt8] {
            while true {
                let candidate = bytes(32)
                if (try? P256KeyPair(privateKey: candidate)) != nil { return candidate }
            }
        }
        func address() -> BluetoothAddress {
            BluetoothAddress(rng.next(), kind: Bool.random(using: &rng) ? .random : .public)
        }
        // The block boundaries first, then lengths at random, up to five blocks.
        let lengths = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80]
        return (0..<caseCount).map { i in
            let privateB = scalar()
            var bentY = (try? P256KeyPair(privateKey: privateB))?.publicKey.y ?? []
            bentY[Int.random(in: 0..<32, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            return Case(
                key: u128(), block: u128(), message: bytes(i < lengths.count ? lengths[i] : Int.random(in: 0...80, using: &rng)),
                privateA: scalar(), privateB: privateB,
                irk: u128(), prand: UInt32.random(in: 0...0xFF_FFFF, using: &rng),
                r: u128(), r2: u128(), preq: bytes(7), pres: bytes(7), a1: address(), a2: address(),
                x: u128(), y: u128(), z: UInt8.random(in: 0...255, using: &rng), n1: u128(), n2: u128(),
                ioCap: bytes(3), w: u128(), keyID: UInt32.random(in: 0...UInt32.max, using: &rng), salt: u128(),
                bentY: bentY)
        }
    }

    /// Runs crosscheck.py once over every case.
    static func answers(for cases: [Case]) throws -> [Answer] {
        let python = BumbleBench.python
        try #require(FileManager.default.isExecutableFile(atPath: python.path),
                     "no Python virtual environment at Tests/bench/.venv: run Tests/bench/setup.sh")
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-att-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cases.json")
        try JSONSerialization.data(withJSONObject: cases.map(\.json)).write(to: input)
        let errors = directory.appendingPathComponent("stderr.txt")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))

        let process = Process()
        process.executableURL = python
        process.arguments = [Repository.url("Tests/SwiftATTCryptoTests/crosscheck.py").path, input.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.runStoppable()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0,
                     "crosscheck.py exited with \(process.terminationStatus) (is `cryptography` installed? run Tests/bench/setup.sh): \(stderr)")
        return try JSONDecoder().decode([Answer].self, from: data)
    }

    @Test("agrees with crosscheck.py on fifty random inputs")
    func agrees() throws {
        let cases = Self.makeCases()
        let answers = try Self.answers(for: cases)
        try #require(answers.count == cases.count)
        for (i, (c, a)) in zip(cases, answers).enumerated() {
            let pairA = try P256KeyPair(privateKey: c.privateA)
            let pairB = try P256KeyPair(privateKey: c.privateB)
            let dhKey = try pairA.sharedSecret(with: pairB.publicKey)
            let u = pairA.publicKey.x, v = pairB.publicKey.x
            let f5 = SecurityFunctions.f5(w: dhKey, n1: c.n1, n2: c.n2, a1: c.a1, a2: c.a2)
            let bentIsValid = (try? P256PublicKey(x: pairB.publicKey.x, y: c.bentY).validate()) != nil
            let ours: [(String, String, String)] = [
                ("AES-128", Self.hex(AES128(key: c.key).encrypt(c.block)), a.aes),
                ("AES-CMAC", Self.hex(CMAC.tag(key: c.key, message: c.message)), a.cmac),
                ("public key A x", Hex.encode(pairA.publicKey.x), a.publicAX),
                ("public key A y", Hex.encode(pairA.publicKey.y), a.publicAY),
                ("public key B x", Hex.encode(pairB.publicKey.x), a.publicBX),
                ("public key B y", Hex.encode(pairB.publicKey.y), a.publicBY),
                ("DHKey", Hex.encode(dhKey.bytes), a.dhKey),
                ("off-curve key valid", "\(bentIsValid)", "\(a.bentKeyValid)"),
                ("e", Self.hex(SecurityFunctions.e(key: c.key, plaintext: c.block)), a.e),
                ("ah", "\(SecurityFunctions.ah(irk: c.irk, prand: c.prand))", "\(a.ah)"),
                ("c1", Self.hex(SecurityFunctions.c1(k: c.key, r: c.r, pairingRequest: c.preq, pairingResponse: c.pres,
                                                     initiator: c.a1, responder: c.a2)), a.c1),
                ("s1", Self.hex(SecurityFunctions.s1(k: c.key, r1: c.r, r2: c.r2)), a.s1),
                ("f4", Self.hex(SecurityFunctions.f4(u: u, v: v, x: c.x, z: c.z)), a.f4),
                ("f5 MacKey", Self.hex(f5.macKey), a.f5MacKey),
                ("f5 LTK", Self.hex(f5.longTermKey), a.f5LTK),
                ("f6", Self.hex(SecurityFunctions.f6(w: f5.macKey, n1: c.n1, n2: c.n2, r: c.r, ioCap: c.ioCap,
                                                     a1: c.a1, a2: c.a2)), a.f6),
                ("g2", "\(SecurityFunctions.g2(u: u, v: v, x: c.x, y: c.y))", "\(a.g2)"),
                ("h6", Self.hex(SecurityFunctions.h6(w: c.w, keyID: c.keyID)), a.h6),
                ("h7", Self.hex(SecurityFunctions.h7(salt: c.salt, w: c.w)), a.h7),
            ]
            for (name, swift, python) in ours {
                #expect(swift == python, "case \(i) (seed \(Self.seed)): \(name)")
            }
        }
    }
}
