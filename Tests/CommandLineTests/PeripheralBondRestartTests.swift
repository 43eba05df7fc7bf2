#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing
import TestSupport

/// `swift-att peripheral` stopped and started again with the same `--bonds` file, over
/// Bumble's controllers, with Bumble's host as the bonded central: the central's
/// subscriptions outlive the process, so the next run notifies it without it writing a
/// descriptor again; a run whose database changed indicates Service Changed to it first
/// (Core 5.4 Vol 3 Part G §3.3.3.3, §7.1).
@Suite("swift-att peripheral restarted with its bond file", .serialized)
struct PeripheralBondRestartTests {
    static let bumbleAddress = "C0:B0:00:00:00:3A"
    static let bumbleIRK = "3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a3a"
    /// Heart Rate Measurement's value, and Service Changed's, in the heart-rate profile's
    /// database (the GAP and GATT services first).
    static let serviceChangedHandle = 0x0008

    /// The `gatt` member of the file's one bond, read by Foundation (an independent reader).
    static func gatt(_ path: String) throws -> [String: Any]? {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let adapter = (object?["identities"] as? [String: [String: Any]])?.values.first
        return ((adapter?["bonds"] as? [[String: Any]])?.first)?["gatt"] as? [String: Any]
    }

    static func subscribed(_ gatt: [String: Any]?) -> [String] {
        ((gatt?["subscriptions"] as? [[String: Any]]) ?? []).compactMap { $0["uuid"] as? String }
    }

    @Test func aBondedCentralIsNotifiedAfterRestartsAndToldOfAChangedDatabase() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let scratch = try BondsCommandTests.Scratch()
        let bonds = scratch.path("bonds.json")
        let arguments = ["heart-rate", "--transport", bench.transports[0], "--json", "--bonds", bonds]

        // First run: Bumble pairs, and subscribes to Service Changed and the measurement.
        var peripheral = try RunningSwiftATT(arguments)
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let central = try BumblePeer(bench: bench, controller: 1, address: Self.bumbleAddress, arguments: [
            "--irk", Self.bumbleIRK, "central", "--target", address, "--pair",
            "--subscribe", "2A05", "--subscribe", "2A37", "--watch-values",
        ])
        defer { central.stop() }
        _ = try await central.next("paired", timeout: .seconds(20))
        _ = try await central.next("subscribed", where: { $0["uuid"] as? String == "2A37" })
        let first = try await central.next("value-notified")
        let measurement = try #require(first["handle"] as? Int)
        try await eventually("the subscriptions in the bond file") {
            (try? Self.subscribed(Self.gatt(bonds))) == ["2A05", "2A37"]
        }
        let hash = try #require(try Self.gatt(bonds)?["databaseHash"] as? String)
        #expect(try await peripheral.interrupt() == 0)
        _ = try await central.next("disconnected")

        // Second run, the same database: the bonded central comes back, encrypts with its
        // key, writes nothing, and the measurements come.
        peripheral = try RunningSwiftATT(arguments)
        #expect(try await peripheral.json("advertising")["address"] as? String == address)
        central.send("reconnect")
        _ = try await central.next("encrypted", timeout: .seconds(20))
        _ = try await central.next("value-notified", where: { $0["handle"] as? Int == measurement })
        let restored = try await peripheral.json("subscribed", where: { $0["uuid"] as? String == "2A37" })
        #expect(restored["cause"] as? String == "restored")
        #expect(try await peripheral.interrupt() == 0)
        _ = try await central.next("disconnected")
        #expect(try Self.gatt(bonds)?["databaseHash"] as? String == hash)

        // Third run, with a Battery service after the heart-rate one: Service Changed over
        // every handle, confirmed; the measurement kept its handle, and still comes.
        peripheral = try RunningSwiftATT(arguments + ["--battery"])
        #expect(try await peripheral.json("advertising")["address"] as? String == address)
        central.send("reconnect")
        let changed = try await central.next("value-indicated", timeout: .seconds(20),
                                             where: { $0["handle"] as? Int == Self.serviceChangedHandle })
        #expect(changed["value"] as? String == "0100ffff")
        _ = try await central.next("value-notified", where: { $0["handle"] as? Int == measurement })
        #expect(try await peripheral.interrupt() == 0)
        let gatt = try #require(try Self.gatt(bonds))
        #expect(gatt["databaseHash"] as? String != hash)
        #expect(gatt["changeAware"] as? Bool == true)
        #expect(gatt["serviceChangedOwed"] == nil)
        #expect(Self.subscribed(gatt) == ["2A05", "2A37"])
    }
}
