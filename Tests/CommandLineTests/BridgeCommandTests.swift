#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import PseudoTerminal
import Testing

/// `swift-att bridge` between a Bumble virtual controller and a second endpoint, checked
/// by talking HCI through it. (vhci, which needs a kernel with Bluetooth, is exercised by
/// the kernel bench in Tests/kernel.)
@Suite("swift-att bridge", .serialized)
struct BridgeCommandTests {
    /// tcp ⇄ tcp-server: `swift-att info` on the far side reads the Bumble controller
    /// through the bridge; the bridge ends when that client goes, and counts what it moved.
    @Test func tcpToTCPServer() async throws {
        let bench = try BumbleBench(controllers: 1)
        defer { bench.stop() }
        let port = BumbleBench.freePorts(1)[0]
        let bridge = try BackgroundProcess(["bridge", bench.transports[0], "tcp-server:127.0.0.1:\(port)"])
        defer { bridge.stop() }

        var info = try await SwiftATTProcess.run(["info", "--transport", "tcp:127.0.0.1:\(port)", "--round-trips", "20"])
        for _ in 0..<50 where info.status == 3 && info.stderr.contains("ECONNREFUSED") {
            try await Task.sleep(for: .milliseconds(100))  // the bridge is still starting to listen
            info = try await SwiftATTProcess.run(["info", "--transport", "tcp:127.0.0.1:\(port)", "--round-trips", "20"])
        }
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Public address:  F0:F0:F0:F0:00:01"))
        #expect(info.stdoutLines.last?.hasPrefix("HCI round trip: median ") == true)
        #expect(info.stdoutLines.last?.hasSuffix(" over 20 Read BD_ADDR") == true)

        let status = try await bridge.wait(seconds: 10)
        let lines = bridge.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "bridge: \(bench.transports[0]) <-> tcp-server:127.0.0.1:\(port)")
        // 20 timed commands and the start-up sequence went one way; as many answers came back.
        // The counts on standard output, then the reason on standard error.
        #expect(lines.last == "swift-att: error: tcp-server:127.0.0.1:\(port): the controller connection was closed")
        let last = try #require(lines.dropLast().last)
        #expect(last.hasPrefix("bridge: stopped (tcp-server:127.0.0.1:\(port): the controller connection was closed): "), "\(last)")
        let words = last.split(separator: " ")
        let counts = words.indices.dropLast().filter { words[$0 + 1] == "packets" }.compactMap { Int(words[$0]) }
        #expect(counts.count == 2 && counts[0] > 20 && counts[0] == counts[1], "\(last)")
        #expect(status == 3)
    }

    /// serial ⇄ tcp: an HCI Reset written to a pseudo-terminal reaches the controller and
    /// its Command Complete comes back; SIGTERM ends the bridge with status 0.
    @Test func serialToTCP() async throws {
        let bench = try BumbleBench(controllers: 1)
        defer { bench.stop() }
        var name = [CChar](repeating: 0, count: 128)
        let master = pseudo_terminal_open(&name, 128)
        try #require(master >= 0)
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bridge = try BackgroundProcess(["bridge", "serial:\(path)@1000000", bench.transports[0]])
        defer { bridge.stop() }
        try #require(try await bridge.waitForOutput("bridge: serial:\(path)@1000000 <-> \(bench.transports[0])"))

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
        #expect(try await bridge.wait(seconds: 5) == 0)
        #expect(bridge.output.hasSuffix("bridge: stopped (SIGTERM): 1 packets serial:\(path)@1000000 -> \(bench.transports[0]), 1 packets \(bench.transports[0]) -> serial:\(path)@1000000\n"))
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

/// swift-att running in the background with its standard output collected in a file.
final class BackgroundProcess {
    let process = Process()
    private let outputURL: URL

    init(_ arguments: [String]) throws {
        guard let binary = SwiftATTProcess.binary else {
            throw SwiftATTProcess.BinaryNotFound(searched: SwiftATTProcess.candidates.map(\.path))
        }
        outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-bg-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = process.standardOutput
        try process.run()
    }

    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Waits up to 10 s for a line; false if it never came.
    func waitForOutput(_ line: String) async throws -> Bool {
        for _ in 0..<100 {
            if output.split(separator: "\n").contains(Substring(line)) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// The exit status, waiting up to `seconds`; the process is killed past that.
    func wait(seconds: Int) async throws -> Int32 {
        for _ in 0..<(seconds * 20) where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { stop() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: outputURL)
    }
}
