import BenchSupport
import Foundation
import Testing

/// `swift-att peripheral` run as a binary on one of Bumble's virtual controllers, with a
/// Bumble host as the central on the other (Tests/bench/bumble_peer.py `central`): the
/// seeds' flows, checked from the central's side and from what the command prints.
@Suite("swift-att peripheral", .serialized)
struct PeripheralCommandTests {
    // MARK: heart-rate (seed 002)

    @Test func heartRate() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["heart-rate", "--transport", bench.transports[0], "--interval", "100", "--json"])
        defer { peripheral.stop() }
        let advertising = try await peripheral.json("advertising")
        let address = try #require(advertising["address"] as? String)
        #expect(advertising["service"] as? String == "180D")

        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:21", arguments: [
            "central", "--target", address, "--read", "2A38", "--write", "2A39=01", "--write", "2A39=02", "--subscribe", "2A37",
        ])
        defer { central.stop() }
        #expect(try await central.next("read") { $0["uuid"] as? String == "2A38" }["value"] as? String == "01")   // chest
        _ = try await central.next("written") { $0["uuid"] as? String == "2A39" }
        let refused = try await central.next("write-failed") { $0["uuid"] as? String == "2A39" }
        #expect(refused["code"] as? Int == 0x80, "\(refused)")

        // Decoded here by hand, as seed 002's central does: flags bit 0 picks uint8 or uint16.
        var rates: [Int] = []
        for i in 0..<5 {
            let hex = try #require(try await central.next("notification") { $0["uuid"] as? String == "2A37" }["value"] as? String)
            let value = try #require(Self.bytes(hex))
            let flags = value[0]
            #expect(flags & 0x01 == 0, "uint8 format")
            #expect(flags & 0x06 == 0x06, "sensor contact supported and detected")
            #expect(flags & 0x10 == 0x10, "an RR-interval")
            #expect((flags & 0x08 != 0) == (i == 0), "energy expended on the first of every ten")
            let bpm = Int(value[1])
            #expect((60...100).contains(bpm))
            #expect(value.count == 2 + (flags & 0x08 != 0 ? 2 : 0) + 2)
            let rr = Int(value[value.count - 2]) | Int(value[value.count - 1]) << 8
            #expect(abs(rr - 61440 / bpm) <= 8, "RR-interval \(rr)/1024 s at \(bpm) BPM")
            rates.append(bpm)
        }

        // What the command printed agrees.
        _ = try await peripheral.json("connected") { $0["address"] as? String == "C0:B0:00:00:00:21" }
        let reset = try await peripheral.json("control-point") { $0["value"] as? String == "01" }
        #expect(reset["command"] as? String == "reset energy expended")
        let other = try await peripheral.json("control-point") { $0["value"] as? String == "02" }
        #expect(other["error"] as? Int == 0x80)
        #expect(other["errorName"] as? String == "Control Point value not supported")
        _ = try await peripheral.json("subscribed") { $0["uuid"] as? String == "2A37" && $0["notifications"] as? Bool == true }
        var sent: [[String: Any]] = []
        for _ in 0..<5 { sent.append(try await peripheral.json("sent", after: true)) }
        #expect(sent.map { $0["bpm"] as? Int } == rates)

        #expect(try await peripheral.interrupt() == 0)
        _ = try await central.next("disconnected")
        #expect(peripheral.lines.last == #"{"event":"stopped","reason":"SIGINT"}"#)
    }

    /// The controller vanishes under a running command (Bumble's controller process is
    /// killed: the TCP transport reads end of file): the command says so on standard
    /// error, naming the transport, and exits 3 (the transport failed) instead of hanging.
    @Test func aControllerThatVanishesEndsTheCommandWithAnError() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let transport = bench.transports[0]
        let peripheral = try RunningSwiftATT(["heart-rate", "--transport", transport, "--interval", "100", "--json"])
        defer { peripheral.stop() }
        _ = try await peripheral.json("advertising")
        bench.stop()
        #expect(try await peripheral.exitStatus(timeout: .seconds(30), after: "the controller vanished") == 3)
        let error = peripheral.standardError
        #expect(error.hasPrefix("swift-att: error: "), "\(error)")
        #expect(error.contains(transport), "\(error)")
    }

    // MARK: transfer (seed 000)

    @Test func transfer() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        // Long enough for many chunks, with characters split across chunk boundaries.
        let text = (1...40).map { "Chunk line \($0): naïve café — ünïcödé ✓." }.joined(separator: " ")
        let peripheral = try RunningSwiftATT(["transfer", "--transport", bench.transports[0], "--text", text])
        defer { peripheral.stop() }
        let address = try await peripheral.advertisedAddress()

        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:22", arguments: [
            "central", "--target", address, "--subscribe", "08590F7E-DB05-467E-8757-72F6FAEB13D4",
        ])
        defer { central.stop() }
        var received: [UInt8] = []
        var chunks = 0
        while true {
            let hex = try #require(try await central.next("notification")["value"] as? String)
            let value = try #require(Self.bytes(hex))
            if value == Array("EOM".utf8) { break }
            #expect(value.count <= 20)
            received += value
            chunks += 1
            try #require(received.count <= text.utf8.count, "more data than the text")
        }
        #expect(String(decoding: received, as: UTF8.self) == text)
        let count = text.utf8.count
        #expect(chunks == (count + 19) / 20)

        _ = try await peripheral.line { $0 == "subscribed 08590F7E-DB05-467E-8757-72F6FAEB13D4 Transfer Data" }
        _ = try await peripheral.line { $0 == "sending \(count) bytes in \(chunks) chunks + EOM" }
        _ = try await peripheral.line { $0 == "transfer complete: \(count) bytes in \(chunks) chunks + EOM" }
        #expect(peripheral.lines.filter { $0.hasPrefix("sent chunk ") }.count == chunks)

        #expect(try await peripheral.interrupt() == 0)
        #expect(peripheral.lines.contains { $0.hasPrefix("disconnected C0:B0:00:00:00:22 (") })
        #expect(peripheral.lines.last == "stopped (SIGINT)")
    }

    /// A text long enough that the transmit queue usually fills: every pause ends with
    /// "ready to update" and the text still arrives whole and in order. (Whether it pauses
    /// depends on how fast Bumble drains the link, so that alone is not asserted.)
    @Test func longTransferFromAFile() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let text = (1...3000).map { "w\($0)" }.joined(separator: " ")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-transfer-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let peripheral = try RunningSwiftATT(["transfer", "--transport", bench.transports[0], "--file", file.path, "--json"])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)

        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:25", arguments: [
            "central", "--target", address, "--subscribe", "08590F7E-DB05-467E-8757-72F6FAEB13D4",
        ])
        defer { central.stop() }
        var received: [UInt8] = []
        while true {
            let hex = try #require(try await central.next("notification")["value"] as? String)
            let value = try #require(Self.bytes(hex))
            if value == Array("EOM".utf8) { break }
            received += value
            try #require(received.count <= text.utf8.count, "more data than the text")
        }
        #expect(received == Array(text.utf8))
        let complete = try await peripheral.json("transfer-complete")
        #expect(complete["bytes"] as? Int == text.utf8.count)
        let objects = peripheral.lines.compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let events = objects.compactMap { $0["event"] as? String }
        let pauses = events.filter { $0 == "paused" }.count
        #expect(pauses == events.filter { $0 == "ready-to-update" }.count)
        // Each chunk's line (written member by member, not as a JSONValue) tells what went.
        let chunks = objects.filter { $0["event"] as? String == "chunk" }
        #expect(chunks.count == (text.utf8.count + 19) / 20)
        #expect(chunks.map { $0["index"] as? Int } == Array(1...chunks.count))
        let values = chunks.map { Self.bytes($0["value"] as? String ?? "") ?? [] }
        #expect(values.map(\.count) == chunks.map { $0["bytes"] as? Int ?? -1 })
        #expect(Array(values.joined()) == Array(text.utf8))

        #expect(try await peripheral.interrupt() == 0)
    }

    // MARK: hc08 (seed 003)

    @Test func hc08() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["hc08", "--transport", bench.transports[0], "--json"])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)

        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:23", arguments: [
            "central", "--target", address, "--subscribe", "FFE1",
            "--write-command", "FFE1=" + Self.hex(Array("Hello from Bumble".utf8)),
        ])
        defer { central.stop() }
        // The central's write, printed as text.
        let received = try await peripheral.json("received")
        #expect(received["text"] as? String == "Hello from Bumble")
        // A line on standard input, once the central listens, arrives as a notification.
        _ = try await peripheral.json("subscribed") { $0["uuid"] as? String == "FFE1" }
        peripheral.write("Success!\n")
        let notification = try await central.next("notification") { $0["uuid"] as? String == "FFE1" }
        #expect(notification["value"] as? String == Self.hex(Array("Success!".utf8)))
        let sent = try await peripheral.json("sent")
        #expect(sent["text"] as? String == "Success!")
        #expect(sent["subscribers"] as? Int == 1)

        #expect(try await peripheral.interrupt() == 0)
        _ = try await central.next("disconnected")
    }

    // MARK: light (seed 001)

    @Test func light() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["light", "--transport", bench.transports[0], "--name", "Lights"])
        defer { peripheral.stop() }
        let address = try await peripheral.advertisedAddress()
        #expect(peripheral.lines.first?.hasPrefix("light: advertising \"Lights\" as ") == true)

        let rx = "713D0003-503E-4C75-BA94-3148F18D941E"
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:24", arguments: [
            "central", "--target", address, "--write-command", "\(rx)=0301", "--write-command", "\(rx)=0200",
        ])
        defer { central.stop() }
        _ = try await central.next("command-written") { $0["value"] as? String == "0200" }
        _ = try await peripheral.line { $0 == "received light command: light 3 on (03 01)" }
        _ = try await peripheral.line { $0 == "received light command: light 2 off (02 00)" }

        #expect(try await peripheral.interrupt() == 0)
        #expect(peripheral.lines.last == "stopped (SIGINT)")
    }

    // MARK: Errors and help (no controller needed)

    @Test func usageErrorsExitTwo() async throws {
        for arguments in [
            ["peripheral"], ["peripheral", "toaster"], ["peripheral", "hc08", "extra"],
            ["peripheral", "hc08", "--text", "x"], ["peripheral", "light", "--interval", "100"],
            ["peripheral", "heart-rate", "--interval", "0"], ["peripheral", "transfer", "--duration", "soon"],
            ["peripheral", "transfer", "--text", "a", "--file", "b"], ["peripheral", "hc08", "--bogus"],
            ["peripheral", "hc08", "--transport", "usb:0"],
            ["peripheral", "battery", "--model", "x"], ["peripheral", "heart-rate", "--level", "50"],
            ["peripheral", "database"], ["peripheral", "battery", "--level", "101"], ["peripheral", "battery", "--drain", "-1"],
            ["peripheral", "hc08", "--database", "x.json"], ["peripheral", "transfer", "--battery"],
            ["peripheral", "device-information", "--pnp-id", "pci:1:2:3"],
            ["peripheral", "device-information", "--system-id", "0102"],
            ["peripheral", "hc08", "--privacy-timeout", "60"], ["peripheral", "hc08", "--privacy", "--privacy-timeout", "0"],
            ["peripheral", "hc08", "--privacy", "--privacy-timeout", "3601"],
        ] {
            let r = try await SwiftATTProcess.run(arguments)
            #expect(r.status == 2, "\(arguments): \(r.stderr)")
            #expect(r.stderrLines.count == 1)
            #expect(r.stderr.hasPrefix("swift-att: error: "))
        }
    }

    @Test func refusedTransportExitsThreeAndMissingFileExitsOne() async throws {
        let port = BumbleBench.freePorts(1)[0]
        let refused = try await SwiftATTProcess.run(["peripheral", "light", "--transport", "tcp:127.0.0.1:\(port)"])
        #expect(refused.status == 3)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderrLines == ["swift-att: error: tcp:127.0.0.1:\(port): connect to 127.0.0.1:\(port) failed: ECONNREFUSED (Connection refused)"])

        let missing = try await SwiftATTProcess.run(["peripheral", "transfer", "--file", "/nonexistent/swift-att-text"])
        #expect(missing.status == 1)
        #expect(missing.stderrLines.count == 1)
    }

    @Test func help() async throws {
        for arguments in [["peripheral", "--help"], ["help", "peripheral"]] {
            let r = try await SwiftATTProcess.run(arguments)
            #expect(r.status == 0)
            #expect(r.stdoutLines.first?.hasPrefix("USAGE: swift-att peripheral <profile>") == true)
            for word in ["battery", "device-information", "--database <file>", "--level <percent>", "--pnp-id <id>"] {
                #expect(r.stdout.contains(word), "\(word)")
            }
        }
        #expect(try await SwiftATTProcess.run(["--help"]).stdout.contains("peripheral <profile>"))
    }

    // MARK: Helpers

    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { i in
            UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16)
        }.reduce(into: [UInt8]?([])) { out, byte in
            if let byte { out?.append(byte) } else { out = nil }
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
