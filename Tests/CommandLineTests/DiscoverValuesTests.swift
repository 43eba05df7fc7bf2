import BenchSupport
import Foundation
import Testing
import TestSupport

/// `swift-att central discover` decoding what it reads, against a swift-att peripheral on
/// Bumble's virtual controllers: Appearance, PnP ID, System ID, Battery Level, Body
/// Sensor Location in the tree and in `--json` beside the unchanged `"value"`.
@Suite("swift-att central discover: decoded values", .serialized)
struct DiscoverValuesTests {
    /// A heart-rate monitor with Battery and Device Information on controller 0; the
    /// transport of controller 1 for the central.
    static func heartRateMonitor() async throws -> (BumbleBench, RunningSwiftATT, String) {
        let bench = try await BumbleBench(controllers: 2)
        let peripheral = try RunningSwiftATT([
            "heart-rate", "--transport", bench.transports[0], "--interval", "1000", "--json", "--battery", "--level", "80",
            "--drain", "0", "--device-information", "--pnp-id", "usb:1d6b:0246:0100", "--system-id", "efcdab8967452301",
        ])
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        return (bench, peripheral, address)
    }

    @Test func theTreeShowsDecodedValuesBesideTheirHex() async throws {
        let (bench, peripheral, address) = try await Self.heartRateMonitor()
        defer { bench.stop() }
        defer { peripheral.stop() }
        let tree = try await SwiftATTProcess.run(["central", "discover", address, "--transport", bench.transports[1]])
        #expect(tree.status == 0, "\(tree.stderr)")
        for line in [
            "└─ 2A01 Appearance  [read]  value 0x0005  = Generic Heart Rate Sensor (0x0340)  (40 03)",
            "├─ 2A38 Body Sensor Location  [read]  value 0x0013  = Chest  (01)",
            "└─ 2A19 Battery Level  [read, notify]  value 0x0018  = 80 %  (50)",
            "├─ 2A23 System ID  [read]  value 0x0029  = manufacturer 0x6789ABCDEF, organisation 0x012345  (ef cd ab 89 67 45 23 01)",
            "└─ 2A50 PnP ID  [read]  value 0x002b  = USB vendor 0x1D6B, product 0x0246, version 1.0.0  (02 6b 1d 46 02 00 01)",
        ] {
            #expect(tree.stdoutLines.contains(line), "\(line) not in:\n\(tree.stdout)")
        }
    }

    @Test func theJSONKeepsItsKeysAndAddsTheDecodedFields() async throws {
        let (bench, peripheral, address) = try await Self.heartRateMonitor()
        defer { bench.stop() }
        defer { peripheral.stop() }
        let result = try await SwiftATTProcess.run(["central", "discover", address, "--transport", bench.transports[1], "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let tree = try #require(CentralCommandTests.objects(result).first { $0["event"] as? String == "database" }, "\(result.stdout)")
        let appearance = try #require(Self.characteristic("2A01", in: tree))
        #expect(appearance["value"] as? String == "4003")
        let decoded = try #require(appearance["appearance"] as? [String: Any])
        #expect(decoded["category"] as? Int == 13)
        #expect(decoded["subcategory"] as? Int == 0)
        #expect(decoded["categoryName"] as? String == "Heart Rate Sensor")
        #expect(decoded["name"] as? String == "Generic Heart Rate Sensor")

        let pnp = try #require(Self.characteristic("2A50", in: tree))
        #expect(pnp["value"] as? String == "026b1d46020001")
        let pnpID = try #require(pnp["pnpID"] as? [String: Any])
        #expect(pnpID["vendorIDSource"] as? String == "usb")
        #expect(pnpID["vendorID"] as? Int == 0x1D6B)
        #expect(pnpID["productID"] as? Int == 0x0246)
        #expect(pnpID["productVersion"] as? Int == 0x0100)
        #expect(pnpID["version"] as? String == "1.0.0")

        let system = try #require(Self.characteristic("2A23", in: tree))
        #expect(system["value"] as? String == "efcdab8967452301")
        let systemID = try #require(system["systemID"] as? [String: Any])
        #expect(systemID["manufacturerIdentifier"] as? Int == 0x67_89AB_CDEF)
        #expect(systemID["organizationallyUniqueIdentifier"] as? Int == 0x01_2345)

        let battery = try #require(Self.characteristic("2A19", in: tree))
        #expect(battery["value"] as? String == "50")
        #expect(battery["percent"] as? Int == 80)
        let location = try #require(Self.characteristic("2A38", in: tree))
        #expect(location["value"] as? String == "01")
        #expect(location["bodySensorLocation"] as? String == "Chest")
        // Nothing here is malformed or refused.
        #expect(!result.stdout.contains("\"malformed\""))
        #expect(!result.stdout.contains("\"error\""))
    }

    /// A database the user's examples come from: a Heart Rate Belt, a battery level of the
    /// wrong length with its user description and Presentation Format, and a descriptor
    /// the server will not let be read.
    static let valuesDatabase = """
        {
          "name": "swift-att Values",
          "appearance": 833,
          "services": [{
            "uuid": "180F",
            "characteristics": [{
              "uuid": "2A19", "properties": ["read"], "hex": "5000",
              "descriptors": [
                { "type": "user-description", "text": "main battery" },
                { "type": "presentation-format", "format": "uint8", "exponent": 0, "unit": "27AD", "description": 262 },
                { "uuid": "A7C1FFFE-5E4B-4C7A-9F2E-3D6B1A0C0001", "permissions": { "read": "none", "write": "open" }, "hex": "00" }
              ]
            }]
          }]
        }
        """

    /// Descriptors are read during discover; a refused read shows its ATT error in the
    /// value's place and the rest of the tree is still printed; a malformed value is hex
    /// with what is wrong.
    @Test
    func descriptorValuesRefusalsAndMalformedValues() async throws {
        let scratch = try BondsCommandTests.Scratch()
        let file = scratch.url.appendingPathComponent("values.json")
        try Self.valuesDatabase.write(to: file, atomically: true, encoding: .utf8)
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try RunningSwiftATT(["--database", file.path, "--transport", bench.transports[0], "--json"])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)

        let tree = try await SwiftATTProcess.run(["central", "discover", address, "--transport", bench.transports[1]])
        #expect(tree.status == 0, "\(tree.stderr)")
        #expect(Array(tree.stdoutLines.suffix(5)) == [
            "Service 180F Battery  0x000e-0x0013",
            "└─ 2A19 Battery Level  [read]  value 0x0010  = 50 00  (malformed: Battery Level: 2 octets, expected 1 octet)",
            "   ├─ 2901 Characteristic User Description  0x0011  = \"main battery\"",
            "   ├─ 2904 Characteristic Presentation Format  0x0012  = uint8, percentage (0x27AD), exponent 0, "
                + "namespace Bluetooth SIG, description \"main\" (0x0106)  (04 00 ad 27 01 06 01)",
            "   └─ A7C1FFFE-5E4B-4C7A-9F2E-3D6B1A0C0001  0x0013  (not read: Read Not Permitted (0x02))",
        ], "\(tree.stdout)")
        #expect(tree.stdoutLines.contains("└─ 2A01 Appearance  [read]  value 0x0005  = Heart Rate Sensor: Heart Rate Belt (0x0341)  (41 03)"))
        #expect(tree.stdoutLines.contains("│  └─ 2902 Client Characteristic Configuration  0x0009  = notifications off, indications on  (02 00)"))

        let result = try await SwiftATTProcess.run(["central", "discover", address, "--transport", bench.transports[1], "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(CentralCommandTests.objects(result).first { $0["event"] as? String == "database" }, "\(result.stdout)")
        let level = try #require(Self.characteristic("2A19", in: json))
        #expect(level["value"] as? String == "5000")
        #expect(level["malformed"] as? String == "Battery Level: 2 octets, expected 1 octet")
        let descriptors = try #require(level["descriptors"] as? [[String: Any]])
        #expect(descriptors.count == 3)
        #expect(descriptors[0]["value"] as? String == "6d61696e2062617474657279")
        #expect(descriptors[0]["text"] as? String == "main battery")
        let format = try #require(descriptors[1]["presentationFormat"] as? [String: Any])
        #expect(format["formatName"] as? String == "uint8")
        #expect(format["unit"] as? Int == 0x27AD)
        #expect(format["unitName"] as? String == "percentage")
        #expect(format["descriptionName"] as? String == "main")
        #expect(descriptors[2]["value"] == nil)
        #expect(descriptors[2]["error"] as? String == "Read Not Permitted (0x02)")
        #expect(descriptors[2]["attError"] as? Int == 2)
    }

    /// Against Bumble's GATT server (another stack): its descriptors read and decoded, and
    /// the read it never answers shown in its place once the transaction timeout ends
    /// the bearer, the tree before it whole.
    @Test
    func descriptorsOfBumblesServer() async throws {
        let (bench, server, transport) = try await CentralCommandTests.bumbleServer()
        defer { server.stop(); bench.stop() }
        let tree = try await SwiftATTProcess.run(["central", "discover", "bumble", "--transport", transport])
        #expect(tree.status == 0, "\(tree.stderr)")
        for line in [
            "│  └─ 2902 Client Characteristic Configuration  0x0011  = notifications off, indications off  (00 00)",
            "├─ 2A38 Body Sensor Location  [read]  value 0x0013  = Chest  (01)",
            "│  └─ 2901 Characteristic User Description  0x0022  = \"A read-only value\"",
            "└─ 5A7E0007-5EED-4A11-9C0D-5A7E00000000  [read]  value 0x0024  "
                + "(not read: no answer within the ATT transaction timeout (30 s); no more values read)",
        ] {
            #expect(tree.stdoutLines.contains(line), "\(line) not in:\n\(tree.stdout)")
        }
    }

    /// The characteristic `uuid` in a `central discover --json` tree.
    static func characteristic(_ uuid: String, in tree: [String: Any]) -> [String: Any]? {
        let services = tree["services"] as? [[String: Any]] ?? []
        return services.flatMap { $0["characteristics"] as? [[String: Any]] ?? [] }.first { $0["uuid"] as? String == uuid }
    }
}
