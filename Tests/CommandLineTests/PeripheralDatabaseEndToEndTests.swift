#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing
import TestSupport

/// `swift-att peripheral` as a built binary on one Bumble virtual controller, Bumble's host
/// as the central on another, reading back the whole database (`bumble_peer.py central
/// --read-all`: services, included services, characteristics, descriptors, every readable
/// value) and checking it against what the profile or file says, value by value.
@Suite("swift-att peripheral: whole databases", .serialized)
struct PeripheralDatabaseEndToEndTests {
    static let gap = ["service 1800 1-5", "characteristic 1800/2A00 3 0x02", "characteristic 1800/2A01 5 0x02"]
    static let gatt = [
        "service 1801 6-13", "characteristic 1801/2A05 8 0x20 2902@9", "characteristic 1801/2B29 11 0x0A",
        "characteristic 1801/2B2A 13 0x02",
    ]

    // MARK: heart-rate with Battery and Device Information

    @Test func heartRateMonitorWithBatteryAndDeviceInformation() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT([
            "heart-rate", "--transport", bench.transports[0], "--interval", "100", "--json", "--battery", "--level", "77",
            "--drain", "0", "--device-information", "--model", "HRM-7", "--serial", "SN-0007", "--pnp-id", "usb:1d6b:0246:0542",
        ])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:51", arguments: [
            "central", "--target", address, "--read-all", "--write", "2A39=01", "--subscribe", "2A37",
        ])
        defer { central.stop() }
        let db = try await Discovered(central.collect(until: "read-all"))
        #expect(db.tree == Self.gap + Self.gatt + [
            "service 180D 14-21", "characteristic 180D/2A37 16 0x10 2902@17", "characteristic 180D/2A38 19 0x02",
            "characteristic 180D/2A39 21 0x08",
            "service 180F 22-26", "characteristic 180F/2A19 24 0x12 2904@25 2902@26",
            "service 180A 27-43", "characteristic 180A/2A29 29 0x02", "characteristic 180A/2A24 31 0x02",
            "characteristic 180A/2A25 33 0x02", "characteristic 180A/2A27 35 0x02", "characteristic 180A/2A26 37 0x02",
            "characteristic 180A/2A28 39 0x02", "characteristic 180A/2A23 41 0x02", "characteristic 180A/2A50 43 0x02",
        ])
        #expect(db.values["2A00"] == Self.hex("swift-att HRM"))
        #expect(db.values["2A01"] == "4003")                    // Generic Heart Rate Sensor
        #expect(db.values["2A38"] == "01")                      // chest
        #expect(db.values["2A19"] == "4d")                      // 77 %
        #expect(db.descriptors["2A19/2904"] == "0400ad27010601")
        #expect(db.values["2A29"] == Self.hex("swift-att"))
        #expect(db.values["2A24"] == Self.hex("HRM-7"))
        #expect(db.values["2A25"] == Self.hex("SN-0007"))
        #expect(db.values["2A50"] == "026b1d46024205")
        #expect(db.values["2A23"] == "0100000000000000")

        // The Control Point write and decoded notifications, as seed 002's central does.
        _ = try await central.next("written") { $0["uuid"] as? String == "2A39" }
        _ = try await peripheral.json("control-point") { $0["command"] as? String == "reset energy expended" }
        for _ in 0..<3 {
            let value = try await #require(Self.bytes(try central.next("notification") { $0["uuid"] as? String == "2A37" }["value"] as? String))
            let flags = value[0]
            #expect(flags & 0x01 == 0)
            #expect((60...100).contains(Int(value[1])))
            #expect(value.count == 2 + (flags & 0x08 != 0 ? 2 : 0) + (flags & 0x10 != 0 ? 2 : 0))
        }
        #expect(try await peripheral.interrupt() == 0)
    }

    // MARK: transfer at ATT_MTU 247

    @Test func transferFillsEachNotificationAtMTU247() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let text = (1...120).map { "line \($0): ünïcödé ✓" }.joined(separator: "\n")
        let count = text.utf8.count
        let peripheral = try RunningSwiftATT(["transfer", "--transport", bench.transports[0], "--text", text, "--json"])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:52", arguments: [
            "central", "--target", address, "--mtu", "247", "--subscribe", "08590F7E-DB05-467E-8757-72F6FAEB13D4",
        ])
        defer { central.stop() }
        #expect(try await central.next("mtu")["mtu"] as? Int == 247)
        var chunks: [[UInt8]] = []
        while true {
            let value = try await #require(Self.bytes(try central.next("notification")["value"] as? String))
            if value == Array("EOM".utf8) { break }
            chunks.append(value)
            try #require(chunks.joined().count <= count, "more data than the text")
        }
        #expect(Array(chunks.joined()) == Array(text.utf8))
        #expect(chunks.dropLast().allSatisfy { $0.count == 244 }, "\(chunks.map(\.count))")
        #expect(chunks.count == (count + 243) / 244)
        let started = try await peripheral.json("transfer-started")
        #expect(started["chunks"] as? Int == chunks.count)
        #expect(try await peripheral.json("transfer-complete")["bytes"] as? Int == count)
        #expect(try await peripheral.interrupt() == 0)
    }

    // MARK: battery

    @Test func batteryLevelIsReadSetAndDrained() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["battery", "--transport", bench.transports[0], "--level", "42", "--drain", "300", "--json"])
        defer { peripheral.stop() }
        let advertising = try await peripheral.json("advertising")
        #expect(advertising["service"] as? String == "180F")
        let address = try #require(advertising["address"] as? String)
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:53", arguments: [
            "central", "--target", address, "--read-all", "--subscribe", "2A19",
        ])
        defer { central.stop() }
        let db = try await Discovered(central.collect(until: "read-all"))
        #expect(db.tree == Self.gap + Self.gatt + ["service 180F 14-18", "characteristic 180F/2A19 16 0x12 2904@17 2902@18"])
        let read = try #require(db.values["2A19"].flatMap(Self.bytes)?.first)
        // It started at 42 and drains a percent every 300 ms: how many went by before the
        // read depends on the machine's load, not that it is a percentage at or below 42.
        #expect((0...42).contains(read), "\(read)")
        #expect(db.descriptors["2A19/2904"] == "0400ad27010601")
        _ = try await central.next("subscribed")
        _ = try await peripheral.json("subscribed") { $0["uuid"] as? String == "2A19" }

        // Set from standard input: stored and notified.
        peripheral.write("90%\n")
        _ = try await central.next("notification") { $0["value"] as? String == "5a" }
        _ = try await peripheral.json("battery") { $0["level"] as? Int == 90 && $0["cause"] as? String == "set" }
        // Then it drains: 89, 88, each a notification.
        _ = try await central.next("notification") { $0["value"] as? String == "59" }
        _ = try await central.next("notification") { $0["value"] as? String == "58" }
        _ = try await peripheral.json("battery") { $0["level"] as? Int == 88 && $0["cause"] as? String == "drained" }
        peripheral.write("101\n")
        _ = try await peripheral.json("input-ignored") { $0["text"] as? String == "101" }
        #expect(try await peripheral.interrupt() == 0)
    }

    // MARK: device-information

    @Test func deviceInformationServesTheGivenValues() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT([
            "device-information", "--transport", bench.transports[0], "--manufacturer", "Acme Sensors", "--model", "",
            "--firmware-revision", "fw 2.0", "--system-id", "0102030405060708", "--pnp-id", "bluetooth:ffff:0042:0100",
        ])
        defer { peripheral.stop() }
        let address = try await peripheral.advertisedAddress()
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:54", arguments: [
            "central", "--target", address, "--read-all",
        ])
        defer { central.stop() }
        let db = try await Discovered(central.collect(until: "read-all"))
        // --model "" leaves Model Number out.
        #expect(db.tree == Self.gap + Self.gatt + [
            "service 180A 14-28", "characteristic 180A/2A29 16 0x02", "characteristic 180A/2A25 18 0x02",
            "characteristic 180A/2A27 20 0x02", "characteristic 180A/2A26 22 0x02", "characteristic 180A/2A28 24 0x02",
            "characteristic 180A/2A23 26 0x02", "characteristic 180A/2A50 28 0x02",
        ])
        #expect(db.values["2A00"] == Self.hex("swift-att Device"))
        #expect(db.values["2A29"] == Self.hex("Acme Sensors"))
        #expect(db.values["2A25"] == Self.hex("0001"))
        #expect(db.values["2A27"] == Self.hex("1.0"))
        #expect(db.values["2A26"] == Self.hex("fw 2.0"))
        #expect(db.values["2A28"].map { !$0.isEmpty } == true)   // the tool's version
        #expect(db.values["2A23"] == "0102030405060708")
        #expect(db.values["2A50"] == "01ffff42000001")
        #expect(try await peripheral.interrupt() == 0)
    }

    // MARK: --database

    @Test func databaseFileIsServedAsWritten() async throws {
        let bench = try await BumbleBench(controllers: 3)
        defer { bench.stop() }
        let file = FixtureFiles.url("gatt/sensor.json").path
        let peripheral = try RunningSwiftATT(["--database", file, "--transport", bench.transports[0], "--json"])
        defer { peripheral.stop() }
        let advertising = try await peripheral.json("advertising")
        #expect(advertising["name"] as? String == "swift-att Sensor")
        #expect(advertising["service"] as? String == "A7C10000-5E4B-4C7A-9F2E-3D6B1A0C0001")
        let address = try #require(advertising["address"] as? String)
        let label = "A7C10002-5E4B-4C7A-9F2E-3D6B1A0C0001"
        let command = "A7C10003-5E4B-4C7A-9F2E-3D6B1A0C0001"
        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:55", arguments: [
            "central", "--target", address, "--read-all", "--write", "\(label)=\(Self.hex("hall"))",
            "--write-command", "\(command)=0102",
        ])
        defer { central.stop() }
        let db = try await Discovered(central.collect(until: "read-all"))
        func c(_ n: Int) -> String { "A7C1000\(n)5E4B4C7A9F2E3D6B1A0C0001" }
        let sensor = c(0)
        #expect(db.tree == Self.gap + Self.gatt + [
            "service \(sensor) 17-35",
            "characteristic \(sensor)/\(c(1)) 20 0x32 2901@21 2904@22 2902@23",
            "characteristic \(sensor)/\(c(2)) 25 0x8A 2900@26 2901@27",
            "characteristic \(sensor)/\(c(3)) 29 0x0C",
            "characteristic \(sensor)/\(c(4)) 31 0x02",
            "characteristic \(sensor)/\(c(5)) 33 0x0A 2906@34 A7C1FFFF5E4B4C7A9F2E3D6B1A0C0001@35",
            // Then the included (secondary) service, reached only through the include.
            "includes FFF0 14-16", "characteristic FFF0/FFF1 16 0x02",
        ])
        #expect(db.values["2A00"] == Self.hex("swift-att Sensor"))
        #expect(db.values["2A01"] == "4005")
        #expect(db.values["FFF1"] == "f6ff")
        #expect(db.values[c(1)] == "e508")
        #expect(db.descriptors["\(c(1))/2901"] == Self.hex("Temperature"))
        #expect(db.descriptors["\(c(1))/2904"] == "0efe2f27010000")
        #expect(db.values[c(2)] == Self.hex("kitchen"))
        #expect(db.descriptors["\(c(2))/2900"] == "0300")
        #expect(db.failures[c(4)] == 0x0F)                       // Insufficient Encryption
        #expect(db.values[c(5)] == "1e00")
        #expect(db.descriptors["\(c(5))/2906"] == "00006400")

        // Writes are printed as they come, and stored.
        _ = try await central.next("command-written")
        let written = try await peripheral.json("written") { $0["uuid"] as? String == label }
        #expect(written["text"] as? String == "hall")
        #expect(written["kind"] as? String == "write request")
        #expect(written["name"] as? String == "Label")
        let commanded = try await peripheral.json("written") { $0["uuid"] as? String == command }
        #expect(commanded["value"] as? String == "0102")
        #expect(commanded["kind"] as? String == "write command")
        central.send("disconnect")
        _ = try await central.next("disconnected")

        // Advertising resumed by itself: another central connects and reads the stored label.
        let second = try BumblePeer(bench: bench, controller: 2, address: "C0:B0:00:00:00:56", arguments: [
            "central", "--target", address, "--read", label,
        ])
        defer { second.stop() }
        #expect(try await second.next("read")["value"] as? String == Self.hex("hall"))
        _ = try await peripheral.json("advertising-resumed")
        #expect(try await peripheral.interrupt() == 0)
    }

    @Test func aMalformedDatabaseFileExitsOneNamingThePlace() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-db-\(UUID().uuidString).json")
        try Data(#"{"services":[{"uuid":"180F"},{"uuid":"180A","characteristics":[{"uuid":"2A29","properties":["read","sing"]}]}]}"#.utf8)
            .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try await SwiftATTProcess.run(["peripheral", "--database", file.path])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines == ["swift-att: error: \(file.path): services[1].characteristics[0].properties[1]: unknown property 'sing' "
            + "(expected broadcast, read, write-without-response, write, notify, indicate, authenticated-signed-writes, "
            + "reliable-write, writable-auxiliaries)"])
    }

    // MARK: Helpers

    /// What `--read-all` reported, in comparable lines and by UUID.
    struct Discovered {
        var tree: [String] = []
        var values: [String: String] = [:]
        var descriptors: [String: String] = [:]
        var failures: [String: Int] = [:]

        init(_ events: [[String: Any]]) throws {
            for e in events {
                switch e["event"] as? String {
                case "service":
                    tree.append("service \(e["uuid"] ?? "?") \(e["start"] ?? "?")-\(e["end"] ?? "?")")
                case "included":
                    tree.append("includes \(e["uuid"] ?? "?") \(e["start"] ?? "?")-\(e["end"] ?? "?")")
                case "characteristic":
                    let properties = String(format: "0x%02X", e["properties"] as? Int ?? -1)
                    let descriptors = (e["descriptors"] as? [[Any]] ?? []).map { "\($0.first ?? "?")@\($0.last ?? "?")" }
                    tree.append((["characteristic \(e["service"] ?? "?")/\(e["uuid"] ?? "?") \(e["handle"] ?? "?") \(properties)"]
                                 + descriptors).joined(separator: " "))
                case "value":
                    if let uuid = e["uuid"] as? String, values[uuid] == nil { values[uuid] = e["value"] as? String }
                case "descriptor":
                    descriptors["\(e["characteristic"] ?? "?")/\(e["uuid"] ?? "?")"] = e["value"] as? String
                case "value-failed":
                    if let uuid = e["uuid"] as? String { failures[uuid] = e["code"] as? Int ?? -1 }
                case "included-failed", "descriptor-failed":
                    Issue.record("the central could not read: \(e)")
                default:
                    break
                }
            }
        }
    }

    static func hex(_ text: String) -> String { PeripheralCommandTests.hex(Array(text.utf8)) }

    static func bytes(_ hex: String?) -> [UInt8]? { hex.flatMap(PeripheralCommandTests.bytes) }
}
