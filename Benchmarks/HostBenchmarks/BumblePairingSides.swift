import BenchSupport
import Foundation
import TestSupport

/// Bumble's sides of the pairing benchmark: one Bumble host per process
/// (Tests/bench/bumble_pairing_bench.py `central` or `peripheral`) on one of the bench's
/// controllers, so that a process's CPU time is one side's. Each reports its
/// completions and CPU time as JSON lines (`BumblePeer`); times are CLOCK_MONOTONIC, as
/// `CPUClock.monotonicSeconds()` reads it.
enum BumblePairingPeers {
    static let script = "bumble_pairing_bench.py"

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// A number a Bumble line carries.
    static func seconds(_ line: [String: Any], _ key: String) throws -> Double {
        guard let value = line[key] as? Double else { throw Failed(description: "Bumble's line has no \(key): \(line)") }
        return value
    }

    /// Asks a Bumble process for its CPU time (`time.process_time()`).
    static func cpuSeconds(of peer: BumblePeer) async throws -> Double {
        peer.send("cpu")
        return try seconds(try await peer.next("cpu"), "cpu")
    }

    /// A Bumble peripheral on `controller` advertising as `address`; wait for it with
    /// `advertising()`.
    static func peripheral(_ bench: BumbleBench, controller: Int, address: String, method: BenchPairingMethod) throws -> BumbleResponder {
        BumbleResponder(peer: try BumblePeer(bench: bench, controller: controller, address: address,
                                             arguments: method.bumbleArguments + ["peripheral"], script: script))
    }

    /// A Bumble central on `controller` connecting to `target` (advertising); wait for
    /// it with `connected()`.
    static func central(_ bench: BumbleBench, controller: Int, address: String, target: String,
                        method: BenchPairingMethod) throws -> BumbleInitiator {
        BumbleInitiator(peer: try BumblePeer(bench: bench, controller: controller, address: address,
                                             arguments: method.bumbleArguments + ["central", "--target", target], script: script))
    }
}

/// A Bumble central: "pair" pairs once on its link.
struct BumbleInitiator: PairingInitiator {
    let peer: BumblePeer

    func connected() async throws { _ = try await peer.next("connected") }

    func pair() async throws -> (start: Double, end: Double) {
        peer.send("pair")
        let paired = try await peer.next("paired")
        return (try BumblePairingPeers.seconds(paired, "start"), try BumblePairingPeers.seconds(paired, "end"))
    }

    func cpuSeconds() async throws -> Double? { try await BumblePairingPeers.cpuSeconds(of: peer) }
}

/// A Bumble peripheral: reports each pairing it completes.
struct BumbleResponder: PairingResponder {
    let peer: BumblePeer

    func advertising() async throws { _ = try await peer.next("ready") }

    func completed() async throws -> Double { try BumblePairingPeers.seconds(try await peer.next("paired"), "at") }

    func cpuSeconds() async throws -> Double? { try await BumblePairingPeers.cpuSeconds(of: peer) }
}

/// Two Bumble hosts pairing in one Python process over Bumble's `LocalLink`
/// (bumble_pairing_bench.py `local`): the peer of swift-att's in-process figures. One
/// process has one CPU time for both hosts and both controllers together.
enum BumbleLocalPairingFigures {
    /// `rounds` samples per method, from the script's RESULT lines (one process runs both).
    static func measure(rounds: Int, justWorks: Int, passkeyEntry: Int, warmup: Int) throws -> [BenchPairingMethod: [PairingSample]] {
        let script = BumbleBench.benchDirectory.appendingPathComponent(BumblePairingPeers.script).path
        let output = try PythonRun.run([script, "--passkey", String(BenchPairingMethod.passkey), "local",
                                        "--count", String(justWorks), "--passkey-count", String(passkeyEntry),
                                        "--warmup", String(warmup), "--rounds", String(rounds)])
        var samples: [BenchPairingMethod: [PairingSample]] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("RESULT ") {
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ").dropFirst() {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
            }
            guard let n = fields["pairings"].flatMap(Int.init), let wall = fields["wall"].flatMap(Double.init),
                  let cpu = fields["cpu"].flatMap(Double.init), let each = fields["median"].flatMap(Double.init) else { continue }
            let method: BenchPairingMethod = fields["passkey"] == "1" ? .passkeyEntry : .justWorks
            // The script reports each round's median pairing, not every pairing.
            samples[method, default: []].append(PairingSample(pairings: n, wallSeconds: wall, eachWallSeconds: [each], processCPUSeconds: cpu))
        }
        return samples
    }
}
