#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing
import TestSupport

/// Bond files across runs of the built binary on Bumble's virtual controllers: an
/// adapter's identity stays the same from run to run, and a central and a peripheral
/// that bonded once encrypt again later without pairing.
@Suite("swift-att bond files, end to end", .serialized)
struct BondFileEndToEndTests {
    static let secret = "A7C10004-5E4B-4C7A-9F2E-3D6B1A0C0001"

    /// The identities of a bond file, read as JSON by Foundation (an independent reader).
    static func identities(_ path: String) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return try #require(object?["identities"] as? [String: [String: Any]])
    }

    static func bonds(_ path: String, adapter: String) throws -> [[String: Any]] {
        try #require(try identities(path)[adapter]?["bonds"] as? [[String: Any]])
    }

    @Test func infoUsesTheSameIdentityEveryRun() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let scratch = try BondsCommandTests.Scratch()
        let path = scratch.path("bonds.json")
        var addresses: [String] = []
        for _ in 0..<2 {
            let result = try await SwiftATTProcess.run(["info", "--transport", bench.transports[0], "--bonds", path, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let info = try BondsCommandTests.json(result)
            #expect(info["bondFile"] as? String == path)
            addresses.append(try #require(info["randomAddress"] as? String))
        }
        #expect(addresses[0] == addresses[1])
        // Filed under the controller's public address.
        let identity = try #require(try Self.identities(path)["F0:F0:F0:F0:00:01"])
        #expect(identity["address"] as? String == addresses[0])
        #expect(identity["addressType"] as? String == "random")
        #expect((identity["irk"] as? String)?.count == 32)
    }

    @Test func aCentralAndAPeripheralBondOnceAndEncryptAgainLater() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let scratch = try BondsCommandTests.Scratch()
        let peripheralBonds = scratch.path("peripheral/bonds.json")
        let centralBonds = scratch.path("central/bonds.json")
        let database = FixtureFiles.url("gatt/sensor.json").path
        let arguments = ["--database", database, "--transport", bench.transports[0], "--json", "--bonds", peripheralBonds]

        var peripheral = try RunningSwiftATT(arguments)
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let peripheralAdapter = try #require(try Self.identities(peripheralBonds).keys.first)
        #expect(try Self.identities(peripheralBonds)[peripheralAdapter]?["address"] as? String == address)

        // The encrypted value makes the central pair; both files keep the bond.
        let read = ["central", "read", address, Self.secret, "--transport", bench.transports[1], "--bonds", centralBonds]
        let first = try await SwiftATTProcess.run(read)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("hidden"), "\(first.stdout)")
        let centralAdapter = try #require(try Self.identities(centralBonds).keys.first)
        let centralBond = try #require(try Self.bonds(centralBonds, adapter: centralAdapter).first)
        #expect(centralBond["peer"] as? String == address)
        let key = try #require((centralBond["centralKey"] as? [String: Any])?["key"] as? String)
        try await eventually("the peripheral's bond written") {
            (try? Self.bonds(peripheralBonds, adapter: peripheralAdapter).count) == 1
        }

        // The peripheral comes back under the same address; the central's next read is
        // encrypted with the stored key, without pairing (which would make a new one).
        #expect(try await peripheral.interrupt() == 0)
        peripheral = try RunningSwiftATT(arguments)
        #expect(try await peripheral.json("advertising")["address"] as? String == address)
        let second = try await SwiftATTProcess.run(read)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("hidden"), "\(second.stdout)")
        let bonds = try Self.bonds(centralBonds, adapter: centralAdapter)
        #expect(bonds.count == 1)
        #expect((bonds.first?["centralKey"] as? [String: Any])?["key"] as? String == key)
        let peripheralBond = try #require(try Self.bonds(peripheralBonds, adapter: peripheralAdapter).first)
        #expect((peripheralBond["peripheralKey"] as? [String: Any])?["key"] as? String == key)

        // Two swift-att on one file: the second is turned away, naming it.
        let clash = try await SwiftATTProcess.run(["info", "--transport", bench.transports[1], "--bonds", peripheralBonds])
        #expect(clash.status == 3)
        #expect(clash.stderrLines == [
            "swift-att: error: \(peripheralBonds) is in use: another swift-att process holds its lock (\(peripheralBonds).lock); stop it, or give this one a file of its own with --bonds FILE",
        ])
        #expect(try await peripheral.interrupt() == 0)
    }

    /// A corrupt bond file stops the host with the file and JSON path named, exit 1,
    /// and is left as it was.
    @Test func aCorruptBondFileStopsTheHost() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let scratch = try BondsCommandTests.Scratch()
        let path = scratch.path("bonds.json")
        let text = #"{"version": 1, "identities": {"F0:F0:F0:F0:00:01": {"address": "C0:00:00:00:00:01", "addressType": "random", "irk": "00", "bonds": []}}}"#
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        for command in [["info"], ["central", "scan", "--duration", "1"], ["peripheral", "heart-rate", "--duration", "1"]] {
            let result = try await SwiftATTProcess.run(command + ["--transport", bench.transports[0], "--bonds", path])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderrLines.last == "swift-att: error: \(path): identities[\"F0:F0:F0:F0:00:01\"].irk: expected 32 hex digits, found 2 (the file is left as it is: mend it, or move it away to start afresh)", "\(command)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }
}
