import BenchSupport
import Foundation
import Testing
import TestSupport

/// `swift-att l2cap listen` and `connect` run as binaries over Bumble's virtual
/// controllers: against each other (bytes piped through both ways, a bench, a refusal,
/// Ctrl-C), against Bumble's own L2CAP (Tests/bench/bumble_l2cap.py), and refusing bad
/// arguments before any radio work.
@Suite("swift-att l2cap", .serialized)
struct L2CAPCommandTests {
    /// Random bytes with every value 0–255 in them, the same on every run.
    static func data(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for value in 0...255 { bytes[value * 7] = UInt8(value) }
        return bytes
    }

    /// `bytes` in a file of its own, removed by the caller.
    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-l2cap-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    static func json(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    // MARK: swift-att to swift-att

    @Test func bytesPipedIntoConnectArriveOnListensStandardOutputAndBack() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }

        // connect → listen: the listener's standard input stays open (a pipe nobody
        // writes), so it ends when connect, at the end of its input, closes the channel.
        let forth = Self.data(200_000, seed: 21)
        let listener = try RunningSwiftATT(["listen", "0x80", "--name", "l2cap-forth", "--transport", bench.transports[0]],
                                           command: "l2cap")
        defer { listener.stop() }
        let connect = try await SwiftATTProcess.run(
            ["l2cap", "connect", "l2cap-forth", "0x80", "--timeout", "20", "--transport", bench.transports[1]], bytes: forth)
        #expect(connect.status == 0, "\(connect.stderr)")
        #expect(connect.stdoutBytes.isEmpty)
        #expect(connect.stderr.contains("end of standard input: closing the channel"), "\(connect.stderr)")
        #expect(try await listener.exitStatus() == 0, "\(listener.standardError)")
        #expect(listener.bytes.count == forth.count)
        #expect(listener.bytes == forth)
        #expect(listener.standardError.contains("the peer closed the channel"), "\(listener.standardError)")

        // listen → connect, in Enhanced mode with small K-frames and few credits, so
        // that SDUs are segmented and the sender waits for credits.
        let back = Self.data(200_000, seed: 22)
        let input = try Self.file(back)
        defer { try? FileManager.default.removeItem(at: input) }
        let sender = try RunningSwiftATT(["listen", "0x81", "--name", "l2cap-back", "--transport", bench.transports[0]],
                                         command: "l2cap", inputFile: input)
        defer { sender.stop() }
        let receiver = try await SwiftATTProcess.run(
            ["l2cap", "connect", "l2cap-back", "0x81", "--recv-only", "--mode", "enhanced", "--mps", "100", "--credits", "4",
             "--timeout", "20", "--transport", bench.transports[1]], bytes: [])
        #expect(receiver.status == 0, "\(receiver.stderr)")
        #expect(receiver.stdoutBytes.count == back.count)
        #expect(receiver.stdoutBytes == back)
        #expect(receiver.stderr.contains("Enhanced Credit Based"), "\(receiver.stderr)")
        #expect(try await sender.exitStatus() == 0, "\(sender.standardError)")
        #expect(sender.bytes.isEmpty)
    }

    @Test func benchReportsTheOctetsSentAndReceived() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let listener = try RunningSwiftATT(["listen", "0x80", "--bench", "--json", "--name", "l2cap-bench", "--transport", bench.transports[0]],
                                           command: "l2cap")
        defer { listener.stop() }
        let sender = try await SwiftATTProcess.run(
            ["l2cap", "connect", "l2cap-bench", "0x80", "--bench", "256K", "--json", "--timeout", "20", "--transport", bench.transports[1]],
            bytes: [])
        #expect(sender.status == 0, "\(sender.stderr)")
        // One JSON object on standard output, nothing else.
        #expect(sender.stdoutLines.count == 1, "\(sender.stdout)")
        let sent = try #require(Self.json(sender.stdout))
        #expect(sent["event"] as? String == "bench")
        #expect(sent["direction"] as? String == "sent")
        #expect(sent["octets"] as? Int == 262_144)
        #expect((sent["seconds"] as? Double ?? 0) > 0)
        #expect((sent["kBps"] as? Double ?? 0) > 0)
        // 2048-octet SDUs (the peer's MTU) in K-frames of the peer's MPS, 1024: three each.
        #expect(sent["sdus"] as? Int == 128)
        #expect(sent["frames"] as? Int == 384)
        #expect(sent["creditStalls"] is Int)

        #expect(try await listener.exitStatus() == 0, "\(listener.standardError)")
        #expect(listener.lines.count == 1, "\(listener.lines)")
        let received = try #require(listener.lines.first.flatMap(Self.json))
        #expect(received["direction"] as? String == "received")
        #expect(received["octets"] as? Int == 262_144)
        #expect(received["frames"] as? Int == 384)
        #expect((received["kBps"] as? Double ?? 0) > 0)

        // As text, in the order the help describes.
        let listener2 = try RunningSwiftATT(["listen", "0x80", "--bench", "--name", "l2cap-bench2", "--transport", bench.transports[0]],
                                            command: "l2cap")
        defer { listener2.stop() }
        let text = try await SwiftATTProcess.run(
            ["l2cap", "connect", "l2cap-bench2", "0x80", "--bench", "--sdu", "1000", "--timeout", "20", "--transport", bench.transports[1]],
            bytes: [])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("sent 1048576 octets in "), "\(text.stdout)")
        #expect(text.stdout.contains(" kB/s; 1049 SDUs of up to 1000 octets in "), "\(text.stdout)")
        #expect(text.stdout.contains(" credit stalls, "), "\(text.stdout)")
        #expect(try await listener2.exitStatus() == 0)
        #expect(listener2.lines.first?.hasPrefix("received 1048576 octets in ") == true, "\(listener2.lines)")
    }

    @Test func aPSMNobodyListensOnIsRefusedAndCtrlCClosesTheChannel() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let listener = try RunningSwiftATT(["listen", "0x80", "--name", "l2cap-refuse", "--transport", bench.transports[0]],
                                           command: "l2cap")
        defer { listener.stop() }
        let refused = try await SwiftATTProcess.run(
            ["l2cap", "connect", "l2cap-refuse", "0x81", "--timeout", "20", "--transport", bench.transports[1]], bytes: [])
        #expect(refused.status == 4)
        #expect(refused.stdout.isEmpty)
        let error = try #require(refused.stderrLines.last)
        #expect(error.hasPrefix("swift-att: error: opening a channel to SPSM 0x0081: the peer refused the channel: "), "\(error)")
        #expect(error.contains("SPSM not supported"), "\(error)")

        // The listener still waits: a channel to its SPSM opens, and Ctrl-C on the
        // opener closes it gracefully (the listener sees the peer's close, not a lost link).
        let receiver = try RunningSwiftATT(["connect", "l2cap-refuse", "0x80", "--recv-only", "--timeout", "20",
                                            "--transport", bench.transports[1]], command: "l2cap")
        defer { receiver.stop() }
        listener.write("ping\n")
        #expect(try await receiver.line(timeout: .seconds(30)) { $0 == "ping" } == "ping")
        #expect(try await receiver.interrupt() == 0)
        #expect(receiver.standardError.contains("stopped (SIGINT)"), "\(receiver.standardError)")
        #expect(try await listener.exitStatus() == 0, "\(listener.standardError)")
        #expect(listener.standardError.contains("the peer closed the channel"), "\(listener.standardError)")
    }

    // MARK: Against Bumble's L2CAP

    @Test func connectTalksToBumblesListenerBothWays() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let address = "C0:B0:00:00:00:32"
        // Bumble takes SDUs up to 512 octets in K-frames of 100, 8 credits at a time.
        let bumble = try BumblePeer(bench: bench, controller: 0, address: address,
                                    arguments: ["listen", "--psm", "0x80", "--readvertise", "--mtu", "512", "--mps", "100", "--credits", "8"],
                                    script: "bumble_l2cap.py")
        defer { bumble.stop() }
        _ = try await bumble.next("ready")

        // Into Bumble: SDUs of 64 octets, each reported with its bytes.
        let forth = Self.data(20_000, seed: 23)
        let sent = try await SwiftATTProcess.run(
            ["l2cap", "connect", address, "0x80", "--sdu", "64", "--timeout", "20", "--transport", bench.transports[1]], bytes: forth)
        #expect(sent.status == 0, "\(sent.stderr)")
        let reports = try await bumble.collect(until: "channel-closed", timeout: .seconds(30))
        let arrived = reports.filter { $0["event"] as? String == "sdu" }.compactMap { $0["hex"] as? String }.joined()
        #expect(arrived == forth.map { String(format: "%02x", $0) }.joined())
        #expect(reports.filter { $0["event"] as? String == "violation" }.isEmpty, "\(reports)")

        // Out of Bumble: its SDUs on standard output, then its close ends the command.
        let back = Self.data(6_000, seed: 24)
        let receiver = try RunningSwiftATT(["connect", address, "0x80", "--recv-only", "--timeout", "20", "--transport", bench.transports[1]],
                                           command: "l2cap")
        defer { receiver.stop() }
        let opened = try await bumble.next("channel-open", timeout: .seconds(30))
        let index = try #require(opened["index"] as? Int)
        let chunks = stride(from: 0, to: back.count, by: 500).map { Array(back[$0..<min($0 + 500, back.count)]) }
        for chunk in chunks { bumble.send("send \(index) \(chunk.map { String(format: "%02x", $0) }.joined())") }
        for _ in chunks { _ = try await bumble.next("sent", timeout: .seconds(30)) }
        bumble.send("close \(index)")
        #expect(try await receiver.exitStatus(timeout: .seconds(30)) == 0, "\(receiver.standardError)")
        #expect(receiver.bytes == back)
        #expect(receiver.standardError.contains("the peer closed the channel"), "\(receiver.standardError)")
    }

    // MARK: Refused before any radio work

    struct BadArguments: Sendable, CustomStringConvertible {
        var arguments: [String]
        /// What the one-line error must contain: the token at fault.
        var names: String
        var description: String { arguments.joined(separator: " ") }
    }

    /// The transport names a port nobody serves: had the command tried it, it would end
    /// with exit 3 ("connection refused"), not 2.
    @Test("bad arguments are usage errors naming the token, before the controller is opened", arguments: [
        BadArguments(arguments: ["listen", "0"], names: "PSM '0'"),
        BadArguments(arguments: ["listen", "0x10000"], names: "PSM '0x10000'"),
        BadArguments(arguments: ["listen", "zz"], names: "'zz' is not a PSM"),
        BadArguments(arguments: ["connect", "dev", "256"], names: "PSM '256'"),
        BadArguments(arguments: ["listen", "0x80", "--mps", "5000"], names: "--mps takes 23 to 2048"),
        BadArguments(arguments: ["connect", "dev", "0x80", "--mode", "enhanced", "--mtu", "30"], names: "not '30'"),
        BadArguments(arguments: ["listen", "0x80", "--credits", "0"], names: "--credits takes 1 to 65535, not '0'"),
        BadArguments(arguments: ["connect", "dev", "0x80", "--sdu", "70000"], names: "not '70000'"),
        BadArguments(arguments: ["connect", "dev", "0x80", "--bench", "12Q"], names: "unexpected argument '12Q' (--bench takes octets"),
        BadArguments(arguments: ["connect", "dev", "0x80", "--bench=12Q"], names: "--bench takes octets to send, 1 to 4G: a number, or one with K, M or G (64K, 10M), not '12Q'"),
        BadArguments(arguments: ["listen", "0x80", "--mode", "le"], names: "--mode is for 'connect'"),
        BadArguments(arguments: ["listen", "0x80", "--json"], names: "--json is for --bench"),
        BadArguments(arguments: ["frob", "0x80"], names: "unknown action 'frob'"),
        BadArguments(arguments: [], names: "missing 'listen' or 'connect'"),
        BadArguments(arguments: ["connect", "0x80"], names: "give a device and a PSM"),
        BadArguments(arguments: ["listen", "0x80", "--frob"], names: "unknown option '--frob'"),
    ])
    func refusedBeforeRadioWork(_ c: BadArguments) async throws {
        let r = try await SwiftATTProcess.run(["l2cap"] + c.arguments + ["--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("swift-att: error: "))
        #expect(r.stderr.contains(c.names), "\(r.stderr)")
    }

    @Test func helpDescribesBothActions() async throws {
        for arguments in [["l2cap", "--help"], ["help", "l2cap"]] {
            let r = try await SwiftATTProcess.run(arguments)
            #expect(r.status == 0)
            #expect(r.stdoutLines.first == "USAGE: swift-att l2cap listen <psm> [--name NAME] [--security LEVEL] [<channel options>]")
            #expect(r.stdout.contains("--bench [BYTES]"))
        }
        let main = try await SwiftATTProcess.run(["--help"])
        #expect(main.stdout.contains("l2cap listen|connect"))
    }
}
