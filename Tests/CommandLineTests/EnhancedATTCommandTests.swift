#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing
import TestSupport

/// `swift-att peripheral --eatt` and `swift-att central … --eatt [N]` run as binaries over
/// Bumble's virtual controllers: the central opens Enhanced ATT bearers (pairing, as the
/// peripheral's bearers want an encrypted link), its reads go out on them (counted in
/// its own capture, decoded by `swift-att dump`), a peripheral without Enhanced ATT is
/// read over the unenhanced bearer after a warning, and bad counts are refused before
/// any radio work.
@Suite("swift-att --eatt", .serialized)
struct EnhancedATTCommandTests {
    static let temperature = "A7C10001-5E4B-4C7A-9F2E-3D6B1A0C0001"

    /// A temporary path for a capture, removed by the caller.
    static func capturePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-eatt-\(UUID().uuidString).btsnoop").path
    }

    /// The characteristic `uuid` in a `central discover --json` tree.
    static func characteristic(_ uuid: String, in tree: [String: Any]) -> [String: Any]? {
        let services = tree["services"] as? [[String: Any]] ?? []
        return services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }.first { $0["uuid"] as? String == uuid }
    }

    /// The L2CAP channel each ATT Read or Read Blob Request went out on, from
    /// `swift-att dump` of the central's capture: the fixed ATT channel 0x0004, or a
    /// dynamic CID (an Enhanced bearer, whose K-frame starts with the SDU length).
    static func readRequestChannels(inCapture path: String) async throws -> [UInt16] {
        let dump = try await SwiftATTProcess.run(["dump", path])
        try #require(dump.status == 0, "\(dump.stderr)")
        let lines = dump.stdoutLines
        var channels: [UInt16] = []
        for (index, line) in lines.enumerated() where line.contains(" < ACL Data TX: ") && index + 2 < lines.count {
            let header = lines[index + 1]
            guard let open = header.range(of: "(0x"), let cid = UInt16(header[open.upperBound...].prefix(4), radix: 16) else { continue }
            if cid == 0x0004 {
                let pdu = lines[index + 2]
                if pdu.hasSuffix("Read Request (0x0a)") || pdu.hasSuffix("Read Blob Request (0x0c)") { channels.append(cid) }
            } else if (0x0040...0x007F).contains(cid) {
                // The hex of the frame: the SDU length (two octets), then the ATT opcode.
                let octets = lines[index + 2].split(separator: " ")
                if octets.count > 2, ["0a", "0c"].contains(octets[2].lowercased()) { channels.append(cid) }
            }
        }
        return channels
    }

    @Test func aCentralOpensThreeBearersAndItsReadsGoOutOnThem() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let (peripheral, address) = try await PairingCommandTests.sensorPeripheral(on: bench, ["--eatt"])
        defer { peripheral.stop() }
        #expect(try await peripheral.json("advertising")["enhancedATT"] as? Bool == true)

        let capture = Self.capturePath()
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let discover = try await SwiftATTProcess.run(["central", "discover", address, "--eatt", "3", "--json", "--btsnoop", capture,
                                                      "--transport", bench.transports[1]])
        #expect(discover.status == 0, "\(discover.stderr)")
        let objects = CentralCommandTests.objects(discover)
        let events = objects.compactMap { $0["event"] as? String }
        // The bearers want an encrypted link: the central paired to open them.
        let paired = try #require(events.firstIndex(of: "paired"), "\(events)")
        let enhanced = try #require(objects.first { $0["event"] as? String == "enhanced-att" }, "\(discover.stdout)")
        #expect(paired < events.firstIndex(of: "enhanced-att")!)
        #expect(enhanced["requested"] as? Int == 3)
        #expect(enhanced["opened"] as? Int == 3)
        #expect(enhanced["mtus"] as? [Int] == [517, 517, 517])
        #expect(enhanced["warning"] is NSNull, "\(enhanced)")
        #expect(!discover.stderr.contains("warning"), "\(discover.stderr)")

        // The tree: Server Supported Features announces Enhanced ATT; every value read,
        // the encrypted Secret too.
        let tree = try #require(objects.first { $0["services"] != nil }, "\(discover.stdout)")
        #expect(Self.characteristic("2B3A", in: tree)?["value"] as? String == "01", "\(tree)")
        #expect(Self.characteristic("FFF1", in: tree)?["value"] as? String == "f6ff")
        #expect(Self.characteristic(Self.temperature, in: tree)?["value"] as? String == "e508")
        #expect(Self.characteristic(PairingCommandTests.sensorSecret, in: tree)?["text"] as? String == "hidden")
        #expect(Self.characteristic("2A00", in: tree)?["text"] as? String == "swift-att Sensor")

        // The ten values were read four at a time: on the unenhanced bearer and on each
        // of the three Enhanced ones.
        let channels = try await Self.readRequestChannels(inCapture: capture)
        let dynamic = Set(channels.filter { $0 != 0x0004 })
        #expect(channels.count >= 10, "\(channels)")
        #expect(channels.contains(0x0004), "\(channels)")
        #expect(dynamic.count == 3, "reads went out on \(dynamic.count) Enhanced bearers: \(channels)")

        // The peripheral paired with it. Another central (each run has a bond file of
        // its own) pairs too, opens five bearers by default, and reads, said in text.
        #expect(try await peripheral.json("paired")["keySize"] as? Int == 16)
        let read = try await SwiftATTProcess.run(["central", "read", address, PairingCommandTests.sensorSecret, "--eatt",
                                                  "--transport", bench.transports[1]])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("\"hidden\""), "\(read.stdout)")
        #expect(read.stderr.contains("swift-att: 5 Enhanced ATT bearers open (ATT_MTU 517 each)"), "\(read.stderr)")

        // With --no-pair the bearers are refused for want of security: a warning, and
        // an open value is read over the unenhanced bearer.
        let unpaired = try await SwiftATTProcess.run(["central", "read", address, Self.temperature, "--eatt", "--no-pair",
                                                      "--transport", bench.transports[1]])
        #expect(unpaired.status == 0, "\(unpaired.stderr)")
        #expect(unpaired.stdout.contains("e508"), "\(unpaired.stdout)")
        let warning = unpaired.stderrLines.first { $0.hasPrefix("swift-att: warning: the device refused Enhanced ATT bearers: ") }
        #expect(warning?.contains("insufficient") == true, "\(unpaired.stderr)")
        #expect(!unpaired.stderr.contains("paired with"), "\(unpaired.stderr)")
    }

    @Test func aPeripheralWithoutEnhancedATTIsReadOverTheUnenhancedBearer() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let (peripheral, address) = try await PairingCommandTests.sensorPeripheral(on: bench)
        defer { peripheral.stop() }
        #expect(try await peripheral.json("advertising")["enhancedATT"] as? Bool == false)

        let discover = try await SwiftATTProcess.run(["central", "discover", address, "--eatt", "--transport", bench.transports[1]])
        #expect(discover.status == 0, "\(discover.stderr)")
        let warning = try #require(discover.stderrLines.first { $0.hasPrefix("swift-att: warning: ") }, "\(discover.stderr)")
        #expect(warning.contains("the device refused Enhanced ATT bearers: it serves no Enhanced ATT"), "\(warning)")
        #expect(warning.contains("SPSM not supported"), "\(warning)")
        #expect(warning.hasSuffix("going on over the unenhanced ATT bearer"), "\(warning)")
        #expect(!discover.stderr.contains("Enhanced ATT bearers open"), "\(discover.stderr)")
        // The whole tree all the same, with no Server Supported Features.
        #expect(discover.stdout.contains("A7C10001-5E4B-4C7A-9F2E-3D6B1A0C0001  [read, notify, indicate]  value 0x0014  = e508"),
                "\(discover.stdout)")
        #expect(discover.stdout.contains("value 0x001f  = 68696464656e  \"hidden\""), "\(discover.stdout)")
        #expect(!discover.stdout.contains("2B3A"), "\(discover.stdout)")

        let json = try await SwiftATTProcess.run(["central", "read", address, Self.temperature, "--eatt", "2", "--json",
                                                  "--transport", bench.transports[1]])
        #expect(json.status == 0, "\(json.stderr)")
        let objects = CentralCommandTests.objects(json)
        let enhanced = try #require(objects.first { $0["event"] as? String == "enhanced-att" }, "\(json.stdout)")
        #expect(enhanced["opened"] as? Int == 0)
        #expect((enhanced["warning"] as? String)?.contains("SPSM not supported") == true, "\(enhanced)")
        #expect(objects.first { $0["event"] as? String == "read" }?["value"] as? String == "e508", "\(json.stdout)")
    }

    /// A built-in profile served with --eatt (its database built again with Server
    /// Supported Features) still takes its Control Point writes and notifies its
    /// measurements to a central that opened bearers.
    @Test func aProfileServedWithEnhancedATTKeepsNotifying() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["heart-rate", "--eatt", "--interval", "100", "--json", "--transport", bench.transports[0]])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let monitor = try await SwiftATTProcess.run(["central", "heart-rate", address, "--eatt", "2", "--count", "3", "--json",
                                                     "--transport", bench.transports[1]])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let objects = CentralCommandTests.objects(monitor)
        #expect(objects.first { $0["event"] as? String == "enhanced-att" }?["opened"] as? Int == 2, "\(monitor.stdout)")
        #expect(objects.first { $0["event"] as? String == "body-sensor-location" }?["value"] as? String == "01", "\(monitor.stdout)")
        let rates = objects.filter { $0["event"] as? String == "heart-rate" }.compactMap { $0["bpm"] as? Int }
        #expect(rates.count == 3 && rates.allSatisfy { (60...100).contains($0) }, "\(monitor.stdout)")
        _ = try await peripheral.json("control-point")
    }

    // MARK: Refused before any radio work

    /// The transport names a port nobody serves: had the command tried it, it would end
    /// with exit 3, not 2.
    @Test("bad --eatt counts are usage errors naming the token, before the controller is opened", arguments: [
        (["discover", "sensor", "--eatt", "0"], "'0'"),
        (["discover", "sensor", "--eatt", "33"], "'33'"),
        (["discover", "sensor", "--eatt=x"], "'x'"),
        (["discover", "--eatt", "sensor"], "'sensor'"),
        (["read", "sensor", "2A00", "--eatt", "-1"], "'-1'"),
        (["scan", "--eatt"], "--eatt is for actions that talk GATT"),
        (["pair", "sensor", "--eatt", "2"], "--eatt is for actions that talk GATT"),
    ])
    func refusedBeforeRadioWork(_ arguments: [String], _ named: String) async throws {
        let r = try await SwiftATTProcess.run(["central"] + arguments + ["--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("swift-att: error: "), "\(r.stderr)")
        #expect(r.stderr.contains(named), "\(arguments): \(r.stderr)")
    }

    /// `--eatt` alone — last, or before another option — is taken, and the command goes
    /// on to open the controller (which fails: exit 3).
    @Test(arguments: [["discover", "sensor", "--eatt"], ["discover", "sensor", "--eatt", "--json"], ["shell", "--eatt=32"]])
    func eattAloneIsAccepted(_ arguments: [String]) async throws {
        let r = try await SwiftATTProcess.run(["central"] + arguments + ["--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == 3, "\(arguments): \(r.stderr)")
    }

    @Test func peripheralTakesEattAsAFlag() async throws {
        let r = try await SwiftATTProcess.run(["peripheral", "battery", "--eatt", "3", "--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("unexpected argument '3'"), "\(r.stderr)")
    }
}
