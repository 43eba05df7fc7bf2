import BenchSupport
import Foundation
import Testing

/// `swift-att central` run as a binary on one of Bumble's virtual controllers: against
/// Bumble's own GATT server (Tests/bench/bumble_server.py), and against `swift-att
/// peripheral` serving each seed profile. Values are checked, not just printed.
@Suite("swift-att central", .serialized)
struct CentralCommandTests {
    static let long = "5a7e0002-5eed-4a11-9c0d-5a7e00000000"
    static let command = "5a7e0003-5eed-4a11-9c0d-5a7e00000000"
    static let protected = "5a7e0005-5eed-4a11-9c0d-5a7e00000000"

    static func objects(_ result: SwiftATTProcess.Result) -> [[String: Any]] {
        result.stdoutLines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Bumble's GATT server on controller 0; the transport of controller 1 for swift-att.
    static func bumbleServer() async throws -> (BumbleBench, BumblePeer, String) {
        let bench = try await BumbleBench(controllers: 2)
        let server = try BumblePeer(bench: bench, controller: 0, address: "C0:B0:00:00:00:0B", arguments: [], script: "bumble_server.py")
        _ = try await server.next("ready")
        return (bench, server, bench.transports[1])
    }

    @Test func scanDiscoverReadWriteAgainstBumble() async throws {
        let (bench, server, transport) = try await Self.bumbleServer()
        defer { server.stop(); bench.stop() }

        let scan = try await SwiftATTProcess.run(["central", "scan", "--transport", transport, "--service", "180D", "--count", "1", "--json"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let device = try #require(Self.objects(scan).first)
        #expect(device["address"] as? String == "C0:B0:00:00:00:0B")
        #expect(device["name"] as? String == "Bumble HR")
        #expect((device["services"] as? [[String: Any]])?.first?["name"] as? String == "Heart Rate")
        #expect(scan.stderr.contains("1 device found"))

        // The tree, as text: services, characteristics with properties, descriptors, values.
        let tree = try await SwiftATTProcess.run(["central", "discover", "bumble", "--transport", transport])
        #expect(tree.status == 0, "\(tree.stderr)")
        #expect(tree.stdoutLines.contains("Service 180D Heart Rate  0x000e-0x0015"), "\(tree.stdout)")
        #expect(tree.stdoutLines.contains("├─ 2A37 Heart Rate Measurement  [notify]  value 0x0010"))
        #expect(tree.stdoutLines.contains("│  └─ 2902 Client Characteristic Configuration  0x0011  = notifications off, indications off  (00 00)"))
        #expect(tree.stdoutLines.contains("├─ 2A38 Body Sensor Location  [read]  value 0x0013  = Chest  (01)"))
        #expect(tree.stderr.contains("connected to C0:B0:00:00:00:0B \"Bumble HR\", ATT_MTU 517"))

        // As JSON, by address.
        let json = try await SwiftATTProcess.run(["central", "discover", "C0:B0:00:00:00:0B", "--transport", transport, "--json"])
        let database = try #require(Self.objects(json).first { $0["event"] as? String == "database" })
        let services = try #require(database["services"] as? [[String: Any]])
        #expect(services.compactMap { $0["uuid"] as? String } == ["1800", "1801", "180D", "5A7E0001-5EED-4A11-9C0D-5A7E00000000"])
        #expect((database["databaseHash"] as? String)?.count == 32)

        // A long read, whole.
        let read = try await SwiftATTProcess.run(["central", "read", "bumble", Self.long, "--transport", transport, "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        let value = try #require(Self.objects(read).first { $0["event"] as? String == "read" })
        #expect(value["value"] as? String == (0..<300).map { String(format: "%02x", $0 % 256) }.joined())

        // A long write (Prepare/Execute), then a Write Command with text.
        let written = (0..<400).map { String(format: "%02x", ($0 * 7) % 251) }.joined()
        let write = try await SwiftATTProcess.run(["central", "write", "bumble", Self.long, written, "--transport", transport])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout == "wrote 400 bytes to 5A7E0002-5EED-4A11-9C0D-5A7E00000000\n")
        #expect(try await server.next("written")["value"] as? String == written)
        let text = try await SwiftATTProcess.run(["central", "write", "bumble", Self.command, "hello there", "--text", "--without-response", "--transport", transport])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(try await server.next("written")["value"] as? String == Data("hello there".utf8).map { String(format: "%02x", $0) }.joined())

        // Refusals and mistakes: the peer's ATT error (4), an unknown characteristic (1),
        // a device that is not there (4), bad hex (1).
        let refused = try await SwiftATTProcess.run(["central", "read", "bumble", Self.protected, "--no-pair", "--transport", transport])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("Insufficient Encryption (0x0f)"), "\(refused.stderr)")
        // Without --no-pair the refusal makes the central pair, and the read succeeds.
        let paired = try await SwiftATTProcess.run(["central", "read", "bumble", Self.protected, "--transport", transport])
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(paired.stdout.contains("secret"), "\(paired.stdout)")
        let unknown = try await SwiftATTProcess.run(["central", "read", "bumble", "2A99", "--transport", transport])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("the device has no characteristic 2A99"), "\(unknown.stderr)")
        let nobody = try await SwiftATTProcess.run(["central", "read", "nobody", "2A38", "--timeout", "1", "--transport", transport])
        #expect(nobody.status == 4)
        #expect(nobody.stderr.contains("no device named like \"nobody\" found in 1.0 seconds of scanning"), "\(nobody.stderr)")
        let badHex = try await SwiftATTProcess.run(["central", "write", "bumble", Self.long, "zz", "--transport", transport])
        #expect(badHex.status == 1)
    }

    @Test func subscribeAndHeartRateAgainstBumble() async throws {
        let (bench, server, transport) = try await Self.bumbleServer()
        defer { server.stop(); bench.stop() }

        let subscriber = try RunningSwiftATT(["subscribe", "bumble", "2A37", "--count", "3", "--json", "--transport", transport], command: "central")
        defer { subscriber.stop() }
        _ = try await server.next("subscribed") { $0["uuid"] as? String == "2A37" && $0["notify"] as? Bool == true }
        // uint8 72 bpm; uint16 300 bpm with contact; uint8 with energy and two RR-intervals.
        for value in ["0048", "07" + "2c01", "18" + "50" + "3412" + "0004" + "0002"] { server.send("notify \(value)") }
        var values: [[String: Any]] = []
        for _ in 0..<3 { values.append(try await subscriber.json("notification", after: true)) }
        #expect(values.map { $0["bpm"] as? Int } == [72, 300, 80])
        #expect(values[1]["format"] as? String == "uint16")
        #expect(values[1]["contact"] as? Bool == true)
        #expect(values[2]["energy"] as? Int == 0x1234)
        #expect(values[2]["rr"] as? [Int] == [1024, 512])
        #expect(try await subscriber.exitStatus() == 0)
        // It unsubscribed before leaving.
        _ = try await server.next("subscribed") { $0["uuid"] as? String == "2A37" && $0["notify"] as? Bool == false }

        // Seed 002 as a ready command: control point reset, sensor location, BPM.
        let monitor = try RunningSwiftATT(["heart-rate", "--count", "2", "--json", "--transport", transport], command: "central")
        defer { monitor.stop() }
        #expect(try await server.next("written") { $0["uuid"] as? String == "2A39" }["value"] as? String == "01")
        #expect(try await monitor.json("body-sensor-location")["location"] as? String == "Chest")
        _ = try await server.next("subscribed") { $0["uuid"] as? String == "2A37" && $0["notify"] as? Bool == true }
        server.send("notify 0041")
        server.send("notify 012c01")
        #expect(try await monitor.json("heart-rate", after: true)["bpm"] as? Int == 65)
        let wide = try await monitor.json("heart-rate", after: true)
        #expect(wide["bpm"] as? Int == 300)
        #expect(wide["format"] as? String == "uint16")
        #expect(try await monitor.exitStatus() == 0)
    }

    // MARK: Against swift-att peripheral, profile by profile

    /// `swift-att peripheral <profile>` on controller 0, advertising.
    static func peripheral(_ bench: BumbleBench, _ arguments: [String]) async throws -> RunningSwiftATT {
        let peripheral = try RunningSwiftATT(arguments + ["--transport", bench.transports[0], "--json"])
        _ = try await peripheral.json("advertising")
        return peripheral
    }

    @Test func seedFlowsAgainstSwiftATTPeripheral() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let transport = bench.transports[1]

        // Seed 002: the BPM the central prints are the ones the peripheral sent.
        do {
            let peripheral = try await Self.peripheral(bench, ["heart-rate", "--interval", "100"])
            defer { peripheral.stop() }
            let central = try RunningSwiftATT(["heart-rate", "--count", "4", "--json", "--transport", transport], command: "central")
            defer { central.stop() }
            #expect(try await central.json("body-sensor-location")["location"] as? String == "Chest")
            var received: [Int] = []
            for _ in 0..<4 { received.append(try #require(try await central.json("heart-rate", after: true)["bpm"] as? Int)) }
            #expect(try await central.exitStatus() == 0)
            #expect(try await peripheral.json("control-point")["command"] as? String == "reset energy expended")
            let sent = peripheral.lines.compactMap { line -> Int? in
                guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], o["event"] as? String == "sent" else { return nil }
                return o["bpm"] as? Int
            }
            #expect(received.allSatisfy { (60...100).contains($0) })
            #expect(sent.count >= 4)
            // The central subscribed mid-stream: what it got is a run of what was sent.
            let found = (0...(sent.count - received.count)).contains { Array(sent[$0..<$0 + received.count]) == received }
            #expect(found, "received \(received), sent \(sent)")
        }

        // Seed 000: the transfer arrives whole, through EOM.
        do {
            let text = String(repeating: "Where the BLE things are. ", count: 40)
            let peripheral = try await Self.peripheral(bench, ["transfer", "--text", text])
            defer { peripheral.stop() }
            let central = try await SwiftATTProcess.run(["central", "transfer", "--json", "--transport", transport])
            #expect(central.status == 0, "\(central.stderr)")
            let transfer = try #require(Self.objects(central).first { $0["event"] as? String == "transfer" })
            #expect(transfer["text"] as? String == text)
            _ = try await peripheral.json("transfer-complete")
        }

        // Seed 003: text both ways through FFE1.
        do {
            let peripheral = try await Self.peripheral(bench, ["hc08"])
            defer { peripheral.stop() }
            let central = try RunningSwiftATT(["hc08", "--send", "Hello from swift-att", "--count", "1", "--json", "--transport", transport], command: "central")
            defer { central.stop() }
            #expect(try await peripheral.json("received")["text"] as? String == "Hello from swift-att")
            _ = try await peripheral.json("subscribed") { $0["uuid"] as? String == "FFE1" }
            peripheral.write("Success!\n")
            #expect(try await central.json("received")["text"] as? String == "Success!")
            #expect(try await central.exitStatus() == 0)
        }

        // Seed 001: light commands with Write Without Response.
        do {
            let peripheral = try await Self.peripheral(bench, ["light"])
            defer { peripheral.stop() }
            let central = try await SwiftATTProcess.run(["central", "light", "3=on", "0200", "--transport", transport])
            #expect(central.status == 0, "\(central.stderr)")
            #expect(central.stdoutLines == ["sent light 3 on", "sent light 2 off"])
            let first = try await peripheral.json("light-command")
            #expect(first["light"] as? Int == 3 && first["on"] as? Bool == true)
            let second = try await peripheral.json("light-command", after: true)
            #expect(second["light"] as? Int == 2 && second["on"] as? Bool == false)
        }
    }

    @Test func interactiveShell() async throws {
        let (bench, server, transport) = try await Self.bumbleServer()
        defer { server.stop(); bench.stop() }
        let shell = try RunningSwiftATT(["shell", "--json", "--transport", transport], command: "central")
        defer { shell.stop() }
        shell.write("connect bumble\n")
        #expect(try await shell.json("connected")["mtu"] as? Int == 517)
        shell.write("read 2A38\n")
        #expect(try await shell.json("read")["value"] as? String == "01")
        shell.write("write-text \(Self.long) two words\n")
        #expect(try await server.next("written")["value"] as? String == Data("two words".utf8).map { String(format: "%02x", $0) }.joined())
        shell.write("subscribe 2A37\n")
        _ = try await shell.json("subscribed")
        _ = try await server.next("subscribed") { $0["uuid"] as? String == "2A37" && $0["notify"] as? Bool == true }
        server.send("notify 004b")
        #expect(try await shell.json("notification")["bpm"] as? Int == 75)
        shell.write("mtu\n")
        #expect(try await shell.json("mtu")["mtu"] as? Int == 517)
        shell.write("fly away\n")   // an unknown command is reported, the shell goes on
        shell.write("quit\n")
        #expect(try await shell.exitStatus() == 0)
        #expect(shell.standardError.contains("unknown command 'fly'"))
        _ = try await server.next("disconnected")
    }

    @Test func usageErrors() async throws {
        for arguments in [["central"], ["central", "fly"], ["central", "read", "x"], ["central", "light"],
                          ["central", "scan", "--rssi", "loud"], ["central", "write", "a", "2A39", "01", "--count", "0"],
                          ["central", "scan", "--privacy-timeout", "60"], ["central", "scan", "--privacy", "--privacy-timeout", "soon"]] {
            let result = try await SwiftATTProcess.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        let help = try await SwiftATTProcess.run(["central", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("heart-rate   A heart-rate monitor (service 180D)"))
        #expect(help.stdout.contains("--send TEXT       hc08: a line to send first"))
    }
}
