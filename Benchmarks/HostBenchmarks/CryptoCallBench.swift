import SwiftATTCore
import SwiftATTCrypto

/// The cryptographic calls an LE Secure Connections pairing makes, one at a time through
/// `SwiftATTCrypto`: what a `PairingSession`'s CPU time is built from, so that a change
/// to the crypto shows here and in the pairing rows of the same run.
///
/// Per side of a Just Works pairing (Core 5.4 Vol 3 Part H §2.3.5.6): one key pair, one
/// ECDH (which validates the peer's key first), a nonce, f4 once (the responder makes
/// its confirm value, the initiator checks it), f5 once (three AES-CMACs) and f6 twice
/// (Ea and Eb). Passkey Entry adds twenty rounds of a nonce and two f4s. The bare AES-128
/// block and AES-CMAC rows are the primitives under legacy pairing, address resolution,
/// signed writes and the Database Hash.
enum CryptoCallBench {
    struct Call {
        let name: String
        /// CPU time per call, the best of three batches (a call is short enough for a
        /// busy machine's preemptions to land in some batches and not others).
        let microseconds: Double
        let perJustWorksSide: Int
    }

    static func run(iterations: Int) throws -> [Call] {
        let ours = P256KeyPair.generate()
        let peer = P256KeyPair.generate().publicKey
        let dhKey = try ours.sharedSecret(with: peer)
        let x = ours.publicKey.x
        let block64 = [UInt8](repeating: 0x5A, count: 64)
        let (a, b) = (BluetoothAddress(0xC0_5A_17_00_06_01, kind: .random), BluetoothAddress(0xC0_5A_17_00_06_02, kind: .random))
        // Every result feeds a checksum that is printed nowhere, so no call is optimised away.
        var sink: UInt128 = 0

        func time(_ name: String, _ n: Int, perSide: Int, _ body: () throws -> Void) rethrows -> Call {
            for _ in 0..<max(1, n / 10) { try body() }
            var best = Double.infinity
            for _ in 0..<3 {
                let start = CPUClock.threadSeconds()
                for _ in 0..<n { try body() }
                best = min(best, (CPUClock.threadSeconds() - start) / Double(n))
            }
            return Call(name: name, microseconds: best * 1e6, perJustWorksSide: perSide)
        }

        let slow = max(10, iterations / 20)
        let calls = [
            time("P256KeyPair.generate()", slow, perSide: 1) { sink ^= UInt128(P256KeyPair.generate().publicKey.x[0]) },
            try time("P256KeyPair.sharedSecret(with:)", slow, perSide: 1) { sink ^= UInt128(try ours.sharedSecret(with: peer).bytes[0]) },
            try time("  of which P256PublicKey.validate()", slow, perSide: 0) { try peer.validate() },
            time("SecureRandom.uint128()", iterations, perSide: 1) { sink ^= SecureRandom.uint128() },
            time("AES128.encrypt (one block)", iterations, perSide: 0) { sink ^= AES128(key: sink).encrypt(sink) },
            time("CMAC.tag (64 octets)", iterations, perSide: 0) { sink ^= CMAC.tag(key: sink, message: block64) },
            time("f4 (one AES-CMAC, 65 octets)", iterations, perSide: 1) {
                sink ^= SecurityFunctions.f4(u: x, v: x, x: sink, z: 0)
            },
            time("f5 (three AES-CMACs)", iterations, perSide: 1) {
                sink ^= SecurityFunctions.f5(w: dhKey, n1: sink, n2: 2, a1: a, a2: b).longTermKey
            },
            time("f6 (one AES-CMAC, 65 octets)", iterations, perSide: 2) {
                sink ^= SecurityFunctions.f6(w: sink, n1: 1, n2: 2, r: 0, ioCap: [0x09, 0, 3], a1: a, a2: b)
            },
        ]
        if sink == 0x5A7E { print("", terminator: "") }
        return calls
    }
}
