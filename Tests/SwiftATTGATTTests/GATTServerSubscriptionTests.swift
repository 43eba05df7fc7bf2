import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Client Characteristic Configuration per connection, notifications and indications
/// (Core 5.4 Vol 3 Part G §3.3.3.3, §4.10–§4.11; Part F §3.4.7), against
/// `Fixtures.values`: FFE5 (value 000B, CCCD 000C, notify), FFE6 (000E/000F,
/// indicate), FFE9 (0017/0018, notify and indicate).
@Suite("GATT server: subscriptions")
struct GATTServerSubscriptionTests {
    static func server() throws -> (GATTServer, Fixtures.Values) {
        let f = try Fixtures.values()
        let server = GATTServer(database: f.database)
        return (server, f)
    }

    @Test("two connections keep separate CCCD values")
    func perConnection() throws {
        let recorder = Recorder()
        let (server, f) = try Self.server()
        server.connect(1)
        server.connect(2, mtu: 50)
        #expect(try server.respond("12 1800 0100", from: 1) == "13")
        #expect(try server.respond("12 1800 0200", from: 2) == "13")
        #expect(try server.respond("0a 1800", from: 1) == "0b0100")
        #expect(try server.respond("0a 1800", from: 2) == "0b0200")
        #expect(try server.respond("0a 1800", from: 3) == "0b0000")
        #expect(server.configuration(of: f.both, for: 1) == .notification)
        #expect(server.configuration(of: f.both, for: 2) == .indication)
        #expect(server.subscribers(of: f.both) == [1, 2])
        #expect(recorder.changes(of: server) == ["1 0017 1 written", "2 0017 2 written"])
        // Writing the same value again is not a change.
        #expect(try server.respond("12 1800 0100", from: 1) == "13")
        #expect(recorder.changes(of: server).count == 2)
    }

    @Test("update: a notification or indication per subscriber, cut to its ATT_MTU−3")
    func update() throws {
        let (server, f) = try Self.server()
        server.connect(1)
        server.connect(2, mtu: 50)
        server.connect(3)
        _ = try server.respond("12 1800 0100", from: 1)
        _ = try server.respond("12 1800 0200", from: 2, mtu: 50)
        let value = (0..<30).map { UInt8($0) }
        let pushed = server.update(f.both, value: value)
        #expect(pushed.described == [
            "1: 1b1700" + Hex.encode(value.prefix(20)),
            "2: 1d1700" + Hex.encode(value),
        ])
        #expect(server.value(of: f.both) == value)
        // setMTU changes the cut for later pushes.
        server.setMTU(100, for: 1)
        #expect(server.update(f.both, value: value, only: 1).described == ["1: 1b1700" + Hex.encode(value)])
        #expect(server.update(valueHandle: 0x0017, value: [0x42]).described == ["1: 1b170042", "2: 1d170042"])
        #expect(server.update(valueHandle: 0x0003, value: [0x42]).isEmpty, "FFE1 has no subscribers")
        #expect(server.update(valueHandle: 0x0063, value: [0x42]).isEmpty)
    }

    @Test("the ATT_MTU of the latest request is the one notifications are cut to")
    func mtuFromRequests() throws {
        let (server, f) = try Self.server()
        _ = try server.respond("12 1800 0100", from: 1, mtu: 40)
        let value = [UInt8](repeating: 0x5A, count: 60)
        #expect(server.update(f.both, value: value).described == ["1: 1b1700" + Hex.encode(value.prefix(37))])
    }

    @Test("a fixed-length value is pushed as stored: a shorter update keeps the other octets")
    func fixedLengthPush() throws {
        let (server, f) = try Self.server()
        _ = try server.respond("12 0c00 0100", from: 1)
        #expect(server.update(f.notifying, value: [0xAA]).described == ["1: 1b0b00aa020304"])
        #expect(server.update(f.notifying, value: [1, 2, 3, 4, 5, 6]).described == ["1: 1b0b0001020304"])
    }

    @Test("a run of values: each subscriber gets what one update per value sends, in order, and the last is kept")
    func runOfValues() throws {
        // Two servers in the same state: one is given the values one at a time, the
        // other as a run; what they send and what they keep must not differ.
        let (single, f) = try Self.server()
        let (batched, g) = try Self.server()
        for server in [single, batched] {
            server.connect(1)
            server.connect(2, mtu: 50)
            server.connect(3)
            _ = try server.respond("12 1800 0100", from: 1)
            _ = try server.respond("12 1800 0200", from: 2, mtu: 50)
            _ = try server.respond("12 0c00 0100", from: 3)
        }
        let run: [[UInt8]] = [[0xAA], (0..<30).map { UInt8($0) }, [], [1, 2, 3, 4, 5, 6], [0xBB, 0xCC]]
        for (characteristic, other) in [(f.both, g.both), (f.notifying, g.notifying), (f.short, g.short)] {
            for only: GATTServer.ConnectionID? in [nil, 2] {
                var expected: [(GATTServer.ConnectionID, ATTPDU)] = []
                for value in run { expected += single.update(characteristic, value: value, only: only) }
                var sent: [(GATTServer.ConnectionID, ATTPDU)] = []
                batched.update(other, values: run, only: only) { sent.append(($0, $1)) }
                #expect(sent.described == expected.described)
                #expect(batched.value(of: other) == single.value(of: characteristic))
            }
        }
        // Spot checks against the bytes: FFE5 is fixed at four octets, so [0xBB, 0xCC]
        // keeps the octets the run's earlier value left; FFE3 keeps at most 20.
        #expect(batched.value(of: g.notifying) == [0xBB, 0xCC, 0x03, 0x04])
        #expect(batched.value(of: g.both) == [0xBB, 0xCC])
        var toThree: [String] = []
        batched.update(g.notifying, values: [[9], [8, 8]]) { toThree.append([($0, $1)].described[0]) }
        #expect(toThree == ["3: 1b0b0009cc0304", "3: 1b0b0008080304"])
        batched.update(g.short, values: [[1], [UInt8](repeating: 7, count: 30)]) { _, _ in Issue.record("FFE3 has no subscribers") }
        #expect(batched.value(of: g.short) == [UInt8](repeating: 7, count: 20))
        batched.update(g.both, values: []) { _, _ in Issue.record("an empty run sends nothing") }
        #expect(batched.value(of: g.both) == [0xBB, 0xCC])
    }

    @Test("both bits set: the notification is sent")
    func bothBits() throws {
        let (server, f) = try Self.server()
        _ = try server.respond("12 1800 0300", from: 1)
        #expect(server.update(f.both, value: [0x01]).described == ["1: 1b170001"])
    }

    @Test("unsubscribing stops the pushes")
    func unsubscribe() throws {
        let recorder = Recorder()
        let (server, f) = try Self.server()
        _ = try server.respond("12 0c00 0100", from: 1)
        #expect(server.update(f.notifying, value: [9, 9, 9, 9]).described == ["1: 1b0b0009090909"])
        _ = try server.respond("12 0c00 0000", from: 1)
        #expect(server.update(f.notifying, value: [8, 8, 8, 8]).isEmpty)
        #expect(recorder.changes(of: server) == ["1 000b 1 written", "1 000b 0 written"])
    }

    @Test("disconnecting drops the configuration of a client that is not bonded")
    func disconnect() throws {
        let recorder = Recorder()
        let (server, f) = try Self.server()
        server.connect(1)
        _ = try server.respond("12 0f00 0200", from: 1)
        server.disconnect(1)
        #expect(server.update(f.indicating, value: [0x01]).isEmpty)
        server.connect(1)
        #expect(try server.respond("0a 0f00", from: 1) == "0b0000")
        #expect(recorder.changes(of: server) == ["1 000e 2 written", "1 000e 0 disconnected"])
        #expect(server.connectedClients == [1])
    }

    @Test("a bonded client's configuration comes back under its bond")
    func bonded() throws {
        let recorder = Recorder()
        let (server, f) = try Self.server()
        let peer = BluetoothAddress(0xC0B0_0000_0001, kind: .random)
        let stranger = BluetoothAddress(0xC0B0_0000_0002, kind: .random)
        server.connect(1, bond: peer)
        _ = try server.respond("12 0f00 0200", from: 1)
        server.disconnect(1)
        server.connect(2, bond: stranger)
        #expect(try server.respond("0a 0f00", from: 2) == "0b0000")
        server.connect(5, bond: peer)
        #expect(try server.respond("0a 0f00", from: 5) == "0b0200")
        #expect(server.update(f.indicating, value: [0x07]).described == ["5: 1d0e0007"])
        #expect(recorder.changes(of: server) == ["1 000e 2 written", "1 000e 0 disconnected", "5 000e 2 restored"])
        server.disconnect(5)
        server.forgetBond(peer)
        server.connect(6, bond: peer)
        #expect(try server.respond("0a 0f00", from: 6) == "0b0000")
    }

    @Test("a client that bonds during the connection keeps its configuration")
    func bondsLater() throws {
        let (server, _) = try Self.server()
        let peer = BluetoothAddress(0xC0B0_0000_0001, kind: .random)
        server.connect(1)
        _ = try server.respond("12 0c00 0100", from: 1)
        server.setBond(peer, for: 1)
        server.disconnect(1)
        server.connect(2, bond: peer)
        #expect(try server.respond("0a 0c00", from: 2) == "0b0100")
    }

    @Test("no pushes to a client whose link cannot read the value")
    func securityGatesPushes() throws {
        let server = GATTServer(database: try Fixtures.security())
        server.connect(1)
        server.connect(2, security: .encrypted(keySize: 16))
        _ = try server.respond("12 1200 0100", from: 1)
        _ = try server.respond("12 1200 0100", from: 2)
        #expect(server.update(valueHandle: 0x0011, value: [0x02]).described == ["2: 1b110002"])
        server.setSecurity(.encrypted(keySize: 7), for: 1)
        #expect(server.update(valueHandle: 0x0011, value: [0x03]).described == ["1: 1b110003", "2: 1b110003"])
    }

    @Test("the heart-rate measurement: a dynamic value pushed to its subscriber")
    func heartRate() throws {
        let f = try Fixtures.heartRate()
        let server = GATTServer(database: f.database)
        #expect(try server.respond("12 1100 0100") == "13")
        #expect(server.update(f.measurement, value: [0x00, 0x48]).described == ["1: 1b10000048"])
        #expect(server.value(of: f.measurement) == nil)
    }

    @Test("the heart-rate control point: writes reach the handler, its error comes back")
    func controlPoint() throws {
        let recorder = Recorder()
        let server = GATTServer(database: try Fixtures.heartRate(recorder: recorder).database)
        #expect(try server.respond("12 1500 01") == "13")
        #expect(try server.respond("12 1500 02") == "0112150080")
        #expect(try server.respond("0a 1500") == "010a150002")
        #expect(recorder.recordedWrites.map(\.value) == [[1], [2]])
    }
}
