import BenchSupport
import BenchmarkTables
import Foundation
import SwiftATTHost
import SwiftATTLoopback
import SwiftATTTransport
import TestSupport

/// The credit-based channel tables (Documentation/Benchmarks.md, "Credit-based
/// channels host to host"):
/// swift-att host to host over the loopback controllers beside Bumble's host to host
/// over its LocalLink in the same run (Benchmarks/bumble_channel_benchmark.py), then
/// over Bumble's virtual controllers against the raw ACL pump.
struct ChannelReport {
    let quick: Bool
    let runs: Int
    let withBumble: Bool

    static let sduLength = 2000
    static let bumbleScript = Repository.url("Benchmarks/bumble_channel_benchmark.py")

    func run() async throws {
        let octets = quick ? 400_000 : 16_000_000
        print("Credit-based channel throughput: a swift-att central writing to a swift-att peripheral's listener over")
        print("the loopback controllers (LE ACL 251 B × 64 buffers), \(Self.sduLength)-octet SDUs, MTU 2048, MPS 1024, 64")
        print("credits returned as the reader takes SDUs; \(format(Double(octets) / 1e6)) MB in all, shared among the channels; median of \(runs) run(s).")
        print("Bumble: the same transfer between two Bumble hosts over its LocalLink, in the same run.")
        print()
        var table = Table(["channels", "MB", "swift-att MB/s", "MB/CPU-s", "credit stalls", "Bumble MB/s", "Bumble MB/CPU-s",
                           "ratio per core", "ratio wall"])
        for channels in [1, 8] {
            var samples: [ChannelBench.Result] = []
            for _ in 0..<runs {
                let link = LoopbackLink(aclBufferLength: 251, aclBufferCount: 64)
                samples.append(try await ChannelBench.run(
                    peripheral: link.addController().specification, central: link.addController().specification,
                    channels: channels, sduLength: Self.sduLength, octetsPerChannel: octets / channels, parameters: .init()))
            }
            let s = samples.sorted { $0.megabytesPerCPUSecond < $1.megabytesPerCPUSecond }[samples.count / 2]
            var row = [String(channels), format(Double(s.octets) / 1e6), format(s.megabytesPerSecond), format(s.megabytesPerCPUSecond),
                       String(s.creditStalls)]
            if withBumble, BumbleHostFigures.available {
                let b = try bumble(channels: channels, octets: octets / channels)
                row += [format(b.megabytesPerSecond), format(b.megabytesPerCPUSecond),
                        format(s.megabytesPerCPUSecond / b.megabytesPerCPUSecond) + "×",
                        format(s.megabytesPerSecond / b.megabytesPerSecond) + "×"]
            } else {
                row += ["–", "–", "–", "–"]
            }
            table.add(row)
        }
        print(table.render())
        if !withBumble || !BumbleHostFigures.available {
            print("Bumble columns skipped: " + (withBumble ? "no bench venv (run Tests/bench/setup.sh)" : "--no-bumble"))
        } else {
            print()
            try await overBumblesControllers()
        }
    }

    /// Bumble's figure for the same transfer (its median of `runs`).
    func bumble(channels: Int, octets: Int) throws -> ChannelBench.Result {
        var samples: [ChannelBench.Result] = []
        for _ in 0..<runs {
            let output = try PythonRun.run([Self.bumbleScript.path, "--channels", String(channels), "--octets", String(octets),
                                            "--sdu", String(Self.sduLength)])
            for line in output.split(separator: "\n") where line.hasPrefix("RESULT ") {
                var fields: [String: String] = [:]
                for pair in line.split(separator: " ").dropFirst() {
                    let kv = pair.split(separator: "=", maxSplits: 1)
                    if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
                }
                guard let n = fields["octets"].flatMap(Int.init), let wall = fields["wall"].flatMap(Double.init),
                      let cpu = fields["cpu"].flatMap(Double.init) else { continue }
                samples.append(.init(octets: n, wallSeconds: wall, cpuSeconds: cpu, creditStalls: 0))
            }
        }
        return samples.sorted { $0.megabytesPerCPUSecond < $1.megabytesPerCPUSecond }[samples.count / 2]
    }

    /// Over Bumble's two TCP controllers (LE ACL 251 B): one channel host to host against
    /// the raw ACL pump of full 251-octet packets through fresh controllers in the same
    /// set of runs. The Python controller process is the ceiling (BENCH.md).
    func overBumblesControllers() async throws {
        let octets = quick ? 100_000 : 2_000_000
        print("Over Bumble's virtual controllers (two TCP controllers, LE ACL 251 B): one channel, \(octets / 1000) kB, against a raw")
        print("ACL pump of 247-octet payloads through fresh controllers, median of \(runs) set(s) of runs")
        print()
        var raw: [Double] = []
        var hosted: [Double] = []
        let packets = octets / 247
        for _ in 0..<runs {
            let rawBench = try await BumbleBench(controllers: 2, leACLLength: 251)
            var pump = try RawACLPump(senderPort: rawBench.ports[0], receiverPort: rawBench.ports[1])
            let sample = try pump.run(valueLength: 244, warmup: packets / 10, count: packets)
            raw.append(sample.perSecond * 247 / 1e6)
            pump.close()
            rawBench.stop()
            let bench = try await BumbleBench(controllers: 2, leACLLength: 251)
            let result = try await ChannelBench.run(
                peripheral: .tcpClient(host: "127.0.0.1", port: bench.ports[0]),
                central: .tcpClient(host: "127.0.0.1", port: bench.ports[1]),
                channels: 1, sduLength: Self.sduLength, octetsPerChannel: octets, parameters: .init())
            hosted.append(result.megabytesPerSecond)
            bench.stop()
        }
        let r = raw.sorted()[runs / 2]
        let h = hosted.sorted()[runs / 2]
        var table = Table(["raw link MB/s", "swift-att channel MB/s", "share of ceiling", "pairs' shares"])
        let shares = zip(hosted, raw).map { 100 * $0 / $1 }
        table.add([format(r, decimals: 2), format(h, decimals: 2), format(100 * h / r) + " %",
                   "\(format(shares.min()!))–\(format(shares.max()!)) %"])
        print(table.render())
    }
}
