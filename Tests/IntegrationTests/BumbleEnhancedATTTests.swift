import BenchSupport
import Foundation
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTTransport
import Testing
import TestSupport

/// Enhanced ATT against Bumble's (Tests/bench/bumble_eatt.py, Bumble 0.0.236), each side
/// as client and as server, over Bumble's virtual controllers: the bearers open, the
/// values read over them are right, and the requests really were spread over them (the
/// server's own count: Bumble's by bearer, ours in our capture).
@Suite(.serialized) struct BumbleEnhancedATTTests {
    static let bumbleAddress = "C0:B0:00:00:00:41"
    static let valueCount = 24

    /// Value `index` of the test service, as both sides build it.
    static func value(_ index: Int) -> [UInt8] {
        (0..<(20 + index * 17)).map { UInt8(truncatingIfNeeded: $0 &+ index &* 7) }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func swiftATTReadsBumblesDatabaseOverFiveBearersAtOnce() async throws {
        let bench = try await BumbleBench(controllers: 2)
        let bumble = try BumblePeer(bench: bench, controller: 0, address: Self.bumbleAddress,
                                    arguments: ["serve", "--values", String(Self.valueCount)], script: "bumble_eatt.py")
        _ = try await bumble.next("ready")
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
        let peer = try await central.connect(try #require(BluetoothAddress(Self.bumbleAddress, kind: .random)))
        #expect(try await peer.openEnhancedBearers(5) == 5)
        var accepted: [[String: Any]] = []
        for _ in 0..<5 { accepted.append(try await bumble.next("bearer")) }
        #expect(accepted.allSatisfy { $0["peer_mtu"] as? Int == 517 })
        // Bumble's server announces Enhanced ATT.
        let features = try await peer.read(using: GATTAttributeType.serverSupportedFeatures)
        #expect(features.map(\.value) == [[0x01]])
        let database = try await peer.discoverDatabase()
        var characteristics: [(Int, GATTClient.Characteristic)] = []
        for index in 0..<Self.valueCount {
            characteristics.append((index, try #require(database.characteristics(uuid: BluetoothUUID(UInt16(0xEA80 + index))).first)))
        }
        let read = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<2 {
                for (index, characteristic) in characteristics {
                    group.addTask { (index + 1000 * round, try await peer.read(characteristic)) }
                }
            }
            var values: [Int: [UInt8]] = [:]
            for try await (key, value) in group { values[key] = value }
            return values
        }
        #expect(read.count == 2 * Self.valueCount)
        for (key, value) in read where value != Self.value(key % 1000) {
            Issue.record("value \(key % 1000) read as \(value.count) octets, not its own")
        }
        // Bumble counted the requests by bearer: they went over all five.
        bumble.send("stats")
        let stats = try await bumble.next("requests")
        let counts = stats["bearers"] as? [String: Int] ?? [:]
        let enhanced = counts.filter { $0.key != "att" }
        #expect(enhanced.count == 5, "requests by bearer: \(counts)")
        #expect(enhanced.values.reduce(0, +) >= Self.valueCount, "requests by bearer: \(counts)")
        // Opening the bearers set the Enhanced ATT bit of Client Supported Features first.
        #expect(stats["client_features"] as? String == "02")
        await central.close()
        bumble.stop()
        bench.stop()
    }

    @Test func bumbleReadsSwiftATTsDatabaseOverFiveBearersAfterPairing() async throws {
        let bench = try await BumbleBench(controllers: 2)
        let characteristics = (0..<Self.valueCount).map { index in
            GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xEA80 + index)), properties: [.read], value: .fixed(Self.value(index)))
        }
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0xEA70), characteristics: characteristics)],
                                        genericAccess: GATTGenericAccess(deviceName: "eatt", appearance: 0),
                                        serverFeatures: [.enhancedATT])
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("eatt-server-\(UInt64.random(in: 0...UInt64.max)).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]),
                                                    database: database, capturePath: capture)
        try await peripheral.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
        try await peripheral.startAdvertising(data: [0x02, 0x01, 0x06])
        // Our bearers ask for an encrypted link: Bumble pairs first.
        let bumble = try BumblePeer(bench: bench, controller: 1, address: Self.bumbleAddress,
                                    arguments: ["client", "--target", peripheral.info.randomAddress.description,
                                                "--bearers", "5", "--pair", "--rounds", "2"], script: "bumble_eatt.py")
        let opened = try await bumble.next("eatt-open", timeout: .seconds(30))
        #expect(opened["count"] as? Int == 5)
        var read: [String: Int] = [:]
        for _ in 0..<(2 * Self.valueCount) {
            let event = try await bumble.next("read", timeout: .seconds(30))
            let uuid = (event["uuid"] as? String ?? "").uppercased()
            guard let index = (0..<Self.valueCount).first(where: { uuid.contains(String(format: "%04X", 0xEA80 + $0)) }) else {
                Issue.record("Bumble read an unknown UUID \(uuid)")
                continue
            }
            #expect(event["hex"] as? String == Self.hex(Self.value(index)), "value \(index)")
            read[uuid, default: 0] += 1
        }
        #expect(read.count == Self.valueCount && read.values.allSatisfy { $0 == 2 })
        await peripheral.close()
        bumble.stop()
        bench.stop()
        // Our server received Bumble's reads on the five bearers it accepted.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
        var cids: Set<UInt16> = []
        for record in try BTSnoop.records(in: bytes) where record.packetType == .aclData && record.direction == .received {
            let p = Array(record.packet)
            guard p.count > 10 else { continue }
            let cid = UInt16(p[6]) | UInt16(p[7]) << 8
            // The first K-frame of an SDU: its length, then the ATT opcode.
            if (0x0040...0x007F).contains(cid), [ATTOpcode.readRequest, .readBlobRequest].contains(ATTOpcode(p[10])) {
                cids.insert(cid)
            }
        }
        #expect(cids.count == 5, "reads arrived on \(cids.count) Enhanced bearers")
    }

    /// A server that does not listen on 0x0027: the refusal is typed, the link goes on.
    @Test func aBumbleWithoutEnhancedATTRefusesAndReadsStillWork() async throws {
        let bench = try await BumbleBench(controllers: 2)
        let bumble = try BumblePeer(bench: bench, controller: 0, address: Self.bumbleAddress,
                                    arguments: ["serve", "--values", "3", "--no-eatt"], script: "bumble_eatt.py")
        _ = try await bumble.next("ready")
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
        let peer = try await central.connect(try #require(BluetoothAddress(Self.bumbleAddress, kind: .random)))
        await #expect(throws: L2CAPChannelError.refusedEnhanced(.spsmNotSupported)) { try await peer.openEnhancedBearers(2) }
        let database = try await peer.discoverDatabase()
        let characteristic = try #require(database.characteristics(uuid: BluetoothUUID(0xEA82)).first)
        #expect(try await peer.read(characteristic) == Self.value(2))
        await central.close()
        bumble.stop()
        bench.stop()
    }
}
