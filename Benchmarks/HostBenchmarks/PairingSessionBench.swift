import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSecurity
import SwiftATTSMP

/// Two `PairingSession`s, initiator and responder, handing each other their PDUs in
/// memory on one thread: the Security Manager's state machine and its cryptography with
/// no host around them — the floor under a host's cost per pairing.
///
/// Each PDU is encoded by its sender and decoded by its receiver, as on a link; the
/// initiator's LE Enable Encryption becomes the responder's LTK request (the key it
/// answers must be the initiator's) and an Encryption Change on both; a passkey asked
/// for is typed at once. Each side's CPU time is the sum over its own calls
/// (`CLOCK_THREAD_CPUTIME_ID` read around each: a system call of well under a
/// microsecond, a few dozen per pairing); the round's total is read once.
enum PairingSessionBench {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    static let initiatorAddress = BluetoothAddress(0xC0_5A_17_00_04_01, kind: .random)
    static let responderAddress = BluetoothAddress(0xC0_5A_17_00_04_02, kind: .random)

    /// `warmup` then `count` pairings; with `reusingKeyPairs` each side keeps one P-256
    /// key pair for every pairing (as Bumble's Security Manager does) instead of
    /// generating one per pairing (as swift-att's does).
    static func run(_ method: BenchPairingMethod, reusingKeyPairs: Bool, warmup: Int, count: Int) throws -> PairingSample {
        let keys = reusingKeyPairs ? (P256KeyPair.generate(), P256KeyPair.generate()) : nil
        for _ in 0..<warmup { _ = try pairOnce(method, keys: keys) }
        var cpu = (initiator: 0.0, responder: 0.0)
        var each: [Double] = []
        each.reserveCapacity(count)
        let clock = ContinuousClock()
        let start = clock.now
        let threadStart = CPUClock.threadSeconds()
        for _ in 0..<count {
            let before = clock.now
            let spent = try pairOnce(method, keys: keys)
            each.append((clock.now - before).seconds)
            cpu.initiator += spent.initiator
            cpu.responder += spent.responder
        }
        return PairingSample(pairings: count, wallSeconds: (clock.now - start).seconds, eachWallSeconds: each,
                             centralCPUSeconds: cpu.initiator, peripheralCPUSeconds: cpu.responder,
                             processCPUSeconds: CPUClock.threadSeconds() - threadStart)
    }

    /// What one side is handed next.
    private enum Delivery {
        case pdu([UInt8])
        /// The link is encrypted with this key (the responder checks it is the one it gives).
        case encrypted(UInt128)
        case passkey
    }

    /// One pairing; the CPU time of each side's calls.
    private static func pairOnce(_ method: BenchPairingMethod, keys: (P256KeyPair, P256KeyPair)?) throws -> (initiator: Double, responder: Double) {
        let identity = { (address: BluetoothAddress) in
            LocalIdentity(identityResolvingKey: UInt128(address.value) << 64 | 0x1234, address: address)
        }
        var sessions = [
            PairingSession(role: .initiator, configuration: method.configuration(identity: identity(initiatorAddress)),
                           initiatorAddress: initiatorAddress, responderAddress: responderAddress, keyPair: keys?.0),
            PairingSession(role: .responder, configuration: method.configuration(identity: identity(responderAddress)),
                           initiatorAddress: initiatorAddress, responderAddress: responderAddress, keyPair: keys?.1),
        ]
        var cpu = [0.0, 0.0]
        var completed = [false, false]
        // (side, delivery) in the order a link would deliver them; 0 is the initiator.
        var queue: [(Int, Delivery)] = []
        var next = 0

        /// Runs `body` as `side`'s work: its CPU time is counted, and its actions become
        /// deliveries (a PDU is encoded here, by its sender).
        func step(_ side: Int, _ body: (inout PairingSession, MonotonicInstant) -> [PairingAction]) throws {
            let started = CPUClock.threadSeconds()
            let actions = body(&sessions[side], .now)
            var out: [(Int, Delivery)] = []
            for action in actions {
                switch action {
                case let .send(pdu): out.append((1 - side, .pdu(pdu.bytes)))
                case .requestPasskey: out.append((side, .passkey))
                case let .startEncryption(key): out += [(1, .encrypted(key.key)), (0, .encrypted(key.key))]
                case .completed: completed[side] = true
                case let .failed(failure): throw Failed(description: "the \(side == 0 ? "initiator" : "responder") failed: \(failure)")
                case .displayPasskey, .peerKeypress: break
                case .acceptPairing, .confirmNumber:
                    throw Failed(description: "\(method.rawValue) asked a question it never asks: \(action)")
                }
            }
            cpu[side] += CPUClock.threadSeconds() - started
            queue += out
        }

        try step(0) { session, now in session.start(now: now) }
        while next < queue.count {
            let (side, delivery) = queue[next]
            next += 1
            switch delivery {
            case let .pdu(bytes):
                try step(side) { session, now in session.receive(bytes[...], now: now) }
            case let .encrypted(key):
                if side == 1 {
                    guard sessions[1].longTermKeyRequested(ediv: 0, rand: 0) == key else {
                        throw Failed(description: "the responder's LTK is not the initiator's")
                    }
                }
                try step(side) { session, now in session.encryptionChanged(status: 0, now: now) }
            case .passkey:
                try step(side) { session, now in session.enterPasskey(BenchPairingMethod.passkey, now: now) }
            }
        }
        guard completed == [true, true] else { throw Failed(description: "the exchange stopped before both sides completed") }
        return (cpu[0], cpu[1])
    }
}
