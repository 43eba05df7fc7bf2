#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import PseudoTerminal
import Testing
import TestSupport

/// `swift-att bridge` between a Bumble virtual controller and a second endpoint, checked
/// by talking HCI through it. (vhci, which needs a kernel with Bluetooth, is exercised by
/// the kernel bench in Tests/kernel.)
@Suite("swift-att bridge", .serialized)
struct BridgeCommandTests {
    /// Waits until the bridge listens on `port`, or fails with what the bridge printed
    /// if it ended first (rather than waiting out the timeout and saying only that).
    static func listening(_ bridge: RunningSwiftATT, port: UInt16) async throws {
        do {
            try await eventually("swift-att bridge to listen on 127.0.0.1:\(port)", within: .seconds(60)) {
                isListening(port: port) || !bridge.process.isRunning
            }
        } catch {
            Issue.record("the bridge, still running, printed: \(bridge.printed)")
            throw error
        }
        try #require(bridge.process.isRunning, "the bridge ended before listening on \(port): \(bridge.printed)")
    }

    /// tcp ⇄ tcp-server: `swift-att info` on the far side reads the Bumble controller
    /// through the bridge; the bridge ends when that client goes, and counts what it moved.
    @Test func tcpToTCPServer() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let port = BumbleBench.freePorts(1)[0]
        let bridge = try RunningSwiftATT([bench.transports[0], "tcp-server:127.0.0.1:\(port)"], command: "bridge", errorsInOutput: true)
        defer { bridge.stop() }
        // The bridge says that it waits before it listens: the kernel's socket table says
        // when it does.
        try await Self.listening(bridge, port: port)

        let info = try await SwiftATTProcess.run(["info", "--transport", "tcp:127.0.0.1:\(port)", "--round-trips", "20"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Public address:  F0:F0:F0:F0:00:01"))
        #expect(info.stdoutLines.last?.hasPrefix("HCI round trip: median ") == true)
        #expect(info.stdoutLines.last?.hasSuffix(" over 20 Read BD_ADDR") == true)

        let status = try await bridge.exitStatus(timeout: .seconds(10), after: "its client left")
        let lines = bridge.lines
        #expect(lines.first == "swift-att: waiting for the other end of the bridge (\(bench.transports[0])) to connect to 127.0.0.1:\(port) (tcp-server)…")
        #expect(lines.dropFirst().first == "bridge: \(bench.transports[0]) <-> tcp-server:127.0.0.1:\(port)")
        // 20 timed commands and the start-up sequence went one way; as many answers came back.
        // The counts on standard output, then the reason on standard error.
        #expect(lines.last == "swift-att: error: tcp-server:127.0.0.1:\(port): the controller connection was closed")
        let last = try #require(lines.dropLast().last)
        #expect(last.hasPrefix("bridge: stopped (tcp-server:127.0.0.1:\(port): the controller connection was closed): "), "\(last)")
        let words = last.split(separator: " ")
        let counts = words.indices.dropLast().filter { words[$0 + 1] == "packets" || words[$0 + 1] == "packet" }.compactMap { Int(words[$0]) }
        #expect(counts.count == 2 && counts[0] > 20 && counts[0] == counts[1], "\(last)")
        #expect(status == 3)
    }

    /// Ctrl-C while a tcp-server end still waits for its client ends the bridge (it used
    /// to be caught and ignored until the client came).
    @Test func ctrlCWhileWaitingForTheClientEndsTheBridge() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let port = BumbleBench.freePorts(1)[0]
        let bridge = try RunningSwiftATT([bench.transports[0], "tcp-server:127.0.0.1:\(port)"], command: "bridge", errorsInOutput: true)
        defer { bridge.stop() }
        try await Self.listening(bridge, port: port)
        _ = try await bridge.interrupt(timeout: .seconds(10))
    }

    /// serial ⇄ tcp: an HCI Reset written to a pseudo-terminal reaches the controller and
    /// its Command Complete comes back; SIGTERM ends the bridge with status 0.
    @Test func serialToTCP() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        var name = [CChar](repeating: 0, count: 128)
        let master = pseudo_terminal_open(&name, 128)
        try #require(master >= 0)
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bridge = try RunningSwiftATT(["serial:\(path)@1000000", bench.transports[0]], command: "bridge", errorsInOutput: true)
        defer { bridge.stop() }
        try await bridge.line(timeout: .seconds(10)) { $0 == "bridge: serial:\(path)@1000000 <-> \(bench.transports[0])" }

        let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
        #expect(write(master, reset, reset.count) == reset.count)
        var answer: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while answer.count < 7 && ContinuousClock.now < deadline {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 500) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64)
            let n = read(master, &chunk, chunk.count)
            if n > 0 { answer += chunk[..<n] }
        }
        #expect(answer == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])

        kill(bridge.process.processIdentifier, SIGTERM)
        #expect(try await bridge.exitStatus(timeout: .seconds(5), after: "SIGTERM") == 0)
        #expect(bridge.printed.hasSuffix("bridge: stopped (SIGTERM): 1 packet serial:\(path)@1000000 -> \(bench.transports[0]), 1 packet \(bench.transports[0]) -> serial:\(path)@1000000\n"))
    }

    @Test func usageErrors() async throws {
        for arguments in [["bridge"], ["bridge", "vhci"], ["bridge", "vhci", "tcp:x:1", "hci0"], ["bridge", "usb:1", "vhci"],
                          ["bridge", "tcp:127.0.0.1:1", "tcp:127.0.0.1:1"], ["bridge", "vhci", "tcp:127.0.0.1:1", "--bogus"]] {
            let r = try await SwiftATTProcess.run(arguments)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderrLines.count == 1 && r.stderr.hasPrefix("swift-att: error: "), "\(arguments)")
        }
        let help = try await SwiftATTProcess.run(["bridge", "--help"])
        #expect(help.status == 0 && help.stdoutLines.first == "USAGE: swift-att bridge <endpoint> <endpoint> [--quiet]")
    }

    @Test func aFailingEndpointExitsThree() async throws {
        let port = BumbleBench.freePorts(1)[0]
        let r = try await SwiftATTProcess.run(["bridge", "tcp:127.0.0.1:\(port)", "vhci:/nonexistent/vhci"])
        #expect(r.status == 3)
        #expect(r.stderrLines == ["swift-att: error: tcp:127.0.0.1:\(port): connect to 127.0.0.1:\(port) failed: ECONNREFUSED (Connection refused)"])
    }
}

