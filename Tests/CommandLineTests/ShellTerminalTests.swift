import BenchSupport
import Foundation
import Testing

/// `swift-att central shell` at a terminal, keys in and screen out, against Bumble's GATT
/// server (Tests/bench/bumble_server.py): line editing, history, completion, Ctrl-C,
/// output above the prompt, the prompt following the link, Ctrl-D.
@Suite(.serialized) struct ShellTerminalTests {
    static let bumbleAddress = "C0:B0:00:00:00:0B"
    static let up = "\u{1B}[A"

    static func home() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The screen's rows up to and including the cursor's: what the user sees now.
    static func shown(_ screen: TerminalScreen) -> [String] {
        Array(screen.text[...screen.row])
    }

    @Test func keysInScreenOut() async throws {
        let bench = try await BumbleBench(controllers: 2)
        let server = try BumblePeer(bench: bench, controller: 0, address: Self.bumbleAddress, arguments: [], script: "bumble_server.py")
        defer { server.stop(); bench.stop() }
        _ = try await server.next("ready")
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let shell = try TerminalSession(["central", "shell", "--transport", bench.transports[1]], home: home)
        let connected = "[\(Self.bumbleAddress)]> "

        try await shell.waitFor("the first prompt") { $0.cursorLine == "[not connected]> " }
        // Tab completes the command; the device name is typed; the prompt follows the link.
        shell.type("conn\t")
        try await shell.waitFor("connect completed") { $0.cursorLine == "[not connected]> connect " }
        shell.type("bumble\r")
        try await shell.waitFor("the connected prompt, the database known") { screen in
            screen.cursorLine == connected && screen.transcript.contains { $0.hasSuffix("('discover' prints them with their values)") }
        }
        // A characteristic completes by name once the database is known.
        shell.type("read body-s\t")
        try await shell.waitFor("the name completed") { $0.cursorLine == connected + "read body-sensor-location " }
        shell.type("\r")
        try await shell.waitFor("the value") { $0.transcript.contains { $0.hasPrefix("read 2A38 Body Sensor Location") && $0.hasSuffix("(01)") } }

        // A notification while a line is half typed: printed above, the line kept below.
        shell.type("subscribe 2A37\r")
        _ = try await server.next("subscribed") { $0["uuid"] as? String == "2A37" }
        try await shell.waitFor("subscribed") { $0.transcript.contains { $0.hasPrefix("subscribed to 2A37 Heart Rate Measurement") } }
        shell.type("wri")
        try await shell.waitFor("the typing shown") { $0.cursorLine == connected + "wri" }
        server.send("notify 004b")
        let notified = try await shell.waitFor("the notification above the prompt") { screen in
            screen.cursorLine == connected + "wri" && Self.shown(screen).dropLast().last?.contains("75 bpm") == true
        }
        #expect(notified.column == (connected + "wri").count, "the cursor stays at the end of what was typed")
        // Ctrl-C drops the line; Up brings back the last command (history).
        shell.type("\u{03}")
        try await shell.waitFor("a fresh prompt") { $0.cursorLine == connected && Self.shown($0).dropLast().last == connected + "wri^C" }
        shell.type(Self.up)
        try await shell.waitFor("the last command recalled") { $0.cursorLine == connected + "subscribe 2A37" }
        shell.type("\u{15}unsubscribe 2A37\r")
        try await shell.waitFor("unsubscribed") { $0.transcript.contains("unsubscribed from 2A37 Heart Rate Measurement") }

        // A request the device never answers: Ctrl-C gives the prompt back, and says why
        // the request itself cannot be taken back.
        shell.type("read 5a7e0007-5eed-4a11-9c0d-5a7e00000000")
        try await shell.waitFor("the read typed") { $0.cursorLine == connected + "read 5a7e0007-5eed-4a11-9c0d-5a7e00000000" }
        shell.type("\r")
        do {
            _ = try await server.next("read-held")
        } catch {
            shell.readAvailable()
            Issue.record("the read did not reach Bumble; the screen:\n\(shell.screen.transcript.joined(separator: "\n"))")
            throw error
        }
        shell.type("\u{03}")
        try await shell.waitFor("the read abandoned") { screen in
            screen.transcript.contains { $0.contains("read: cancelled; the device has the request") } && screen.cursorLine == connected
        }
        // A mistake names the shell's own command.
        shell.type("write 2A39 zz\r")
        try await shell.waitFor("the hint") { $0.transcript.contains { $0.contains("'zz' is not hex") && $0.contains("use write-text") } }

        // The device goes away: the shell says so and the prompt follows.
        server.send("disconnect")
        try await shell.waitFor("the link's end") { screen in
            screen.transcript.contains { $0.hasPrefix("disconnected from \(Self.bumbleAddress)") } && screen.cursorLine == "[not connected]> "
        }
        // Ctrl-D leaves with status 0 and the terminal as it was.
        shell.type("\u{04}")
        #expect(try await shell.exit() == 0)
        #expect(shell.isCanonical, "the terminal is back in canonical mode with echo")
        let history = try String(contentsOfFile: home + "/state/swift-att/history", encoding: .utf8)
        #expect(history.split(separator: "\n").prefix(3) == ["connect bumble", "read body-sensor-location", "subscribe 2A37"])
        let mode = try FileManager.default.attributesOfItem(atPath: home + "/state/swift-att/history")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func historyIsKeptAcrossRunsAndCtrlCCancelsAScan() async throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let first = try TerminalSession(["central", "shell", "--transport", bench.transports[0]], home: home)
        try await first.waitFor("the prompt") { $0.cursorLine == "[not connected]> " }
        first.type("scan 30\r")
        try await first.waitFor("the scan") { $0.transcript.contains { $0.hasPrefix("swift-att: scanning for 30.0 seconds") } }
        first.type("\u{03}")
        try await first.waitFor("the scan stopped, the shell still there") { screen in
            screen.transcript.contains { $0.contains("found") } && screen.cursorLine == "[not connected]> "
        }
        first.type("quit\r")
        let status = try await first.exit()
        #expect(status == 0, "the screen:\n\(first.screen.transcript.joined(separator: "\n"))")

        let second = try TerminalSession(["central", "shell", "--transport", bench.transports[0]], home: home)
        try await second.waitFor("the prompt") { $0.cursorLine == "[not connected]> " }
        second.type(Self.up)
        try await second.waitFor("the last run's command") { $0.cursorLine == "[not connected]> quit" }
        second.type(Self.up)
        try await second.waitFor("the one before") { $0.cursorLine == "[not connected]> scan 30" }
        second.type("\u{15}\u{04}")
        #expect(try await second.exit() == 0)
    }

    @Test func pairingAsksAtThePrompt() async throws {
        let bench = try await BumbleBench(controllers: 2)
        let address = "C0:B0:00:00:00:31"
        let bumble = try BumblePeer(bench: bench, controller: 0, address: address,
                                    arguments: ["--io", "display", "--passkey", "000123", "advertise", "--name", "bumble-smp", "--readvertise"])
        defer { bumble.stop(); bench.stop() }
        _ = try await bumble.next("ready")
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let shell = try TerminalSession(["central", "shell", "--io", "keyboard", "--transport", bench.transports[1]], home: home)
        let connected = "[\(address)]> "
        try await shell.waitFor("the prompt") { $0.cursorLine == "[not connected]> " }
        shell.type("connect bumble-smp\r")
        try await shell.waitFor("connected, the database known") { screen in
            screen.cursorLine == connected && screen.transcript.contains { $0.hasSuffix("('discover' prints them with their values)") }
        }
        // The question takes the prompt's place; the answer is typed there and is not a command.
        shell.type("pair\r")
        try await shell.waitFor("the passkey question") { $0.cursorLine == "Passkey shown by \(address): " }
        shell.type("123\r")
        try await shell.waitFor("paired, the prompt back") { screen in
            screen.transcript.contains { $0.hasPrefix("paired with \(address): LE Secure Connections, Passkey Entry (authenticated)") }
                && screen.cursorLine == connected
        }
        #expect(try await bumble.next("paired")["peer"] as? String != nil, "Bumble paired too")
        shell.type("\u{04}")
        #expect(try await shell.exit() == 0)
        let history = try String(contentsOfFile: home + "/state/swift-att/history", encoding: .utf8)
        #expect(history == "connect bumble-smp\npair\n", "the passkey is an answer, kept out of the history")
    }
}
