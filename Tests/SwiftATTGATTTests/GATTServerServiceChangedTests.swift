import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// The GATT service: Service Changed indications, database replacement, Client
/// Supported Features and Robust Caching (Core 5.4 Vol 3 Part G §2.5.2, §7), against
/// `Fixtures.heartRate`: Service Changed value 0008 and CCCD 0009, Client Supported
/// Features 000B, Database Hash 000D.
@Suite("GATT server: GATT service")
struct GATTServerServiceChangedTests {
    static func newDatabase() throws -> GATTDatabase {
        let measurement = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: .dynamic())
        let battery = GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .bytes([0x64]))
        return try GATTDatabase(services: [
            GATTService(uuid: BluetoothUUID(0x180D), characteristics: [measurement]),
            GATTService(uuid: BluetoothUUID(0x180F), characteristics: [battery]),
        ])
    }

    @Test("the Service Changed value is never read; its CCCD is")
    func serviceChangedValue() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        try server.expect([
            Exchange(name: "value", request: "0a 0800", response: "01 0a 0800 02"),
            Exchange(name: "write value", request: "12 0800 00000000", response: "01 12 0800 03"),
            Exchange(name: "CCCD", request: "0a 0900", response: "0b 0000"),
            Exchange(name: "notification refused", request: "12 0900 0100", response: "01 12 0900 fd"),
            Exchange(name: "indication", request: "12 0900 0200", response: "13"),
        ])
    }

    @Test("serviceChangedIndication: the range to each connection that enabled it")
    func indication() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        server.connect(1)
        server.connect(2)
        _ = try server.respond("12 0900 0200", from: 2)
        #expect(server.serviceChangedIndication(0x000E...0x0015).described == ["2: 1d08000e001500"])
    }

    @Test("replaceDatabase: indications, surviving subscriptions, new values")
    func replace() throws {
        let recorder = Recorder()
        let server = GATTServer(database: try Fixtures.heartRate().database)
        _ = try server.respond("12 0900 0200", from: 1)
        _ = try server.respond("12 1100 0100", from: 1)
        _ = try server.respond("12 1100 0100", from: 2)
        let new = try Self.newDatabase()
        let pushed = server.replaceDatabase(new, changedRange: 0x000E...0xFFFF)
        #expect(pushed.described == ["1: 1d08000e00ffff"])
        // 2A37 is still at 0010 with notify, so both subscriptions survive.
        #expect(try server.respond("0a 1100", from: 2) == "0b0100")
        #expect(server.database.attributes.count == new.attributes.count)
        try server.expect([
            Exchange(name: "the new service", request: "10 1200 ffff 0028", response: "11 06 1200 1500 0f18"),
            Exchange(name: "its value", request: "0a 1400", response: "0b 64"),
        ], from: 2)
        #expect(recorder.changes(of: server) == ["1 0008 2 written", "1 0010 1 written", "2 0010 1 written"])
    }

    @Test("replaceDatabase: a subscription whose characteristic is gone ends")
    func replaceEndsSubscriptions() throws {
        let recorder = Recorder()
        let f = try Fixtures.heartRate()
        let server = GATTServer(database: f.database)
        _ = try server.respond("12 1100 0100", from: 1)
        let other = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .bytes([0x64])),
        ])])
        #expect(server.replaceDatabase(other).isEmpty, "nobody enabled Service Changed")
        #expect(recorder.changes(of: server) == ["1 0010 1 written", "1 0010 0 databaseChanged"])
        #expect(server.update(f.measurement, value: [0]).isEmpty)
    }

    @Test("a bonded client away during a change gets the Service Changed indication on reconnection")
    func bondedAway() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let peer = BluetoothAddress(0x1122_3344_5566)
        server.connect(1, bond: peer)
        _ = try server.respond("12 0900 0200", from: 1)
        server.disconnect(1)
        #expect(server.replaceDatabase(try Self.newDatabase(), changedRange: 0x000E...0x0015).isEmpty)
        #expect(server.serviceChangedIndication(0x0012...0x0020).isEmpty)
        let owed = server.connect(2, bond: peer)
        #expect(owed.map { Hex.encode($0.encoded()) } == ["1d08000e002000"])
        #expect(server.connect(3, bond: BluetoothAddress(0x0000_0000_0001)).isEmpty)
    }

    @Test("Client Supported Features: per connection, bits cannot be cleared")
    func clientSupportedFeatures() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        try server.expect([
            Exchange(name: "initially zero", request: "0a 0b00", response: "0b 00"),
            Exchange(name: "Robust Caching", request: "12 0b00 01", response: "13"),
            Exchange(name: "read back", request: "0a 0b00", response: "0b 01"),
            Exchange(name: "clearing is Value Not Allowed", request: "12 0b00 00", response: "01 12 0b00 13"),
            Exchange(name: "an empty value clears too", request: "12 0b00", response: "01 12 0b00 13"),
            Exchange(name: "adding bits", request: "12 0b00 05", response: "13"),
            Exchange(name: "more octets", request: "12 0b00 0500", response: "13"),
            Exchange(name: "too long", request: "12 0b00 050000000000000000", response: "01 12 0b00 0d"),
        ])
        #expect(try server.respond("0a 0b00", from: 2) == "0b00")
        #expect(server.clientSupportedFeatures(of: 1) == [0x05, 0x00])
    }

    @Test("Robust Caching: Database Out Of Sync once, then the next request is served")
    func outOfSync() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        _ = try server.respond("12 0b00 01", from: 1)
        _ = try server.respond("12 1100 0100", from: 1)
        _ = server.replaceDatabase(try Self.newDatabase())
        try server.expect([
            Exchange(name: "a command is dropped", request: "52 0300 41", response: nil),
            Exchange(name: "discovery by range is served", request: "10 0100 ffff 0028",
                     response: "11 06 0100 0500 0018 0600 0d00 0118 0e00 1100 0d18"),
            Exchange(name: "Read By Type «Characteristic» is served", request: "08 0e00 ffff 0328",
                     response: "09 07 0f00 101000372a 1300 121400192a"),
            Exchange(name: "a read at a handle is refused", request: "0a 0300", response: "01 0a 0300 12"),
            Exchange(name: "the next request is served", request: "0a 0300", response: "0b 73776966742d617474"),
            Exchange(name: "and the one after", request: "0a 0500", response: "0b 0000"),
        ])
        // Change-aware again: commands work.
        #expect(try server.respond("52 0300 41") == nil)
    }

    @Test("Robust Caching: the requests that are refused while change-unaware")
    func refusedRequests() throws {
        let refused = [
            "0a 0300", "0c 0300 0000", "0e 0300 0500", "20 0300 0500", "12 0300 41", "16 0300 0000 41",
            "08 0100 0500 002a",
        ]
        for request in refused {
            let server = GATTServer(database: try Fixtures.heartRate().database)
            _ = try server.respond("12 0b00 01")
            _ = server.replaceDatabase(try Fixtures.heartRate().database)
            let response = try #require(try server.respond(request))
            let bytes = try bytes(response)
            #expect(bytes.first == 0x01 && bytes.last == 0x12, "\(request) → \(response)")
        }
    }

    @Test("Robust Caching: reading the Database Hash makes the next request aware; no pushes before")
    func hashRead() throws {
        let f = try Fixtures.heartRate()
        let server = GATTServer(database: f.database)
        _ = try server.respond("12 0b00 01")
        _ = try server.respond("12 1100 0100")
        _ = try server.respond("12 0900 0200")
        let indications = server.replaceDatabase(try Fixtures.heartRate().database)
        #expect(indications.described == ["1: 1d08000100ffff"], "Service Changed still goes out")
        #expect(server.update(valueHandle: 0x0010, value: [0x01]).isEmpty)
        let hash = Hex.encode(server.database.databaseHashValue)
        #expect(try server.respond("08 0100 ffff 2a2b") == "0912" + "0d00" + hash)
        #expect(try server.respond("0a 0500") == "0b0000")
        #expect(server.update(valueHandle: 0x0010, value: [0x01]).described == ["1: 1b100001"])
    }

    @Test("Robust Caching: a confirmed Service Changed indication makes the client aware")
    func confirmation() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        _ = try server.respond("12 0b00 01")
        _ = try server.respond("12 0900 0200")
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        server.indicationConfirmed(valueHandle: 0x0010, by: 1)
        #expect(try server.respond("0a 0500") == "010a050012", "another handle's confirmation does not count")
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        server.indicationConfirmed(valueHandle: 0x0008, by: 1)
        #expect(try server.respond("0a 0500") == "0b0000")
    }

    /// Part G §2.5.2.1 with Enhanced ATT: Database Out Of Sync goes out once per bearer,
    /// and a client using more than one bearer becomes change-aware only by reading the
    /// Database Hash — neither the request after an Out Of Sync answer nor a confirmed
    /// Service Changed tells that it knows (a request on another bearer may have left
    /// before it did).
    @Test("Robust Caching with Enhanced bearers: Out Of Sync once per bearer, aware only by the hash")
    func severalBearers() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let enhanced = GATTServer.Bearer.enhanced(cid: 0x0040)
        _ = try server.respond("12 0b00 03")
        _ = try server.respond("12 0900 0200")
        _ = try server.respond("12 1100 0100")
        server.bearerOpened(enhanced, for: 1)
        #expect(server.enhancedBearers(of: 1) == [0x0040])
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        #expect(try server.respond("0a 0300") == "010a030012")
        #expect(try server.respond("0a 0300", bearer: enhanced) == "010a030012", "once per bearer: this one's first")
        #expect(try server.respond("0a 0300") == "0b" + "73776966742d617474", "served after its bearer's answer…")
        #expect(try server.respond("0a 0300", bearer: enhanced) == "0b" + "73776966742d617474")
        #expect(server.update(valueHandle: 0x0010, value: [0x01]).isEmpty, "…but still change-unaware")
        server.indicationConfirmed(valueHandle: 0x0008, by: 1)
        #expect(server.update(valueHandle: 0x0010, value: [0x01]).isEmpty, "a confirmation does not tell either")
        #expect(try server.respond("52 0300 41", bearer: enhanced) == nil)
        let hash = Hex.encode(server.database.databaseHashValue)
        #expect(try server.respond("08 0100 ffff 2a2b", bearer: enhanced) == "0912" + "0d00" + hash)
        #expect(try server.respond("0a 0500") == "0b0000", "the request after the hash, on any bearer")
        #expect(server.update(valueHandle: 0x0010, value: [0x01]).described == ["1: 1b100001"])

        // Its Enhanced bearer closed, the client is back to one bearer: a confirmation tells again.
        server.bearerClosed(enhanced, for: 1)
        #expect(server.enhancedBearers(of: 1).isEmpty)
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        server.indicationConfirmed(valueHandle: 0x0008, by: 1)
        #expect(try server.respond("0a 0500") == "0b0000")
    }

    @Test("Robust Caching: an Enhanced bearer the server was not told of counts from its first request")
    func bearerLearnedFromTraffic() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        _ = try server.respond("12 0b00 01")
        _ = try server.respond("12 0900 0200")
        #expect(try server.respond("0a 0500", bearer: .enhanced(cid: 0x0041)) == "0b0000")
        #expect(server.enhancedBearers(of: 1) == [0x0041])
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        #expect(try server.respond("0a 0500") == "010a050012")
        #expect(try server.respond("0a 0500") == "0b0000")
        #expect(try server.respond("52 0300 41") == nil, "still change-unaware: the command is dropped")
        #expect(try server.respond("0a 0300") == "0b" + "73776966742d617474")
        server.disconnect(1)
        #expect(server.enhancedBearers(of: 1).isEmpty)
    }

    @Test("Enhanced bearers: a client without Robust Caching is made aware by a confirmation, as always")
    func severalBearersWithoutRobustCaching() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let peer = BluetoothAddress(0x1122_3344_5566)
        server.connect(1, bond: peer)
        _ = try server.respond("12 0b00 02")
        _ = try server.respond("12 0900 0200")
        server.bearerOpened(.enhanced(cid: 0x0040), for: 1)
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        server.indicationConfirmed(valueHandle: 0x0008, by: 1)
        server.disconnect(1)
        #expect(server.bondedClient(peer)?.changeAware == true)
        #expect(server.bondedClient(peer)?.clientSupportedFeatures == [0x02])
    }

    /// Pushes go out on the unenhanced bearer: a request on an Enhanced bearer with a
    /// larger ATT_MTU does not let notifications grow past the unenhanced bearer's.
    @Test("an Enhanced bearer's ATT_MTU is not the one pushes are cut to")
    func enhancedMTUIsNotThePushes() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        _ = try server.respond("12 1100 0100")
        let value = [UInt8](repeating: 0x5A, count: 40)
        let cut = "1b1000" + String(repeating: "5a", count: 20)
        #expect(server.update(valueHandle: 0x0010, value: value).described == ["1: " + cut])
        #expect(try server.respond("0a 0500", bearer: .enhanced(cid: 0x0040), mtu: 517) == "0b0000")
        #expect(server.update(valueHandle: 0x0010, value: value).described == ["1: " + cut])
        #expect(try server.respond("0a 0500", mtu: 30) == "0b0000")
        #expect(server.update(valueHandle: 0x0010, value: value).described == ["1: 1b1000" + String(repeating: "5a", count: 27)])
    }

    @Test("Robust Caching: a client that did not opt in is served as always; a queued write made stale is refused")
    func notOptedIn() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        #expect(try server.respond("16 1500 0000 01") == "1715000000" + "01")
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        try server.expect([
            Exchange(name: "read", request: "0a 0500", response: "0b 0000"),
            Exchange(name: "stale queue", request: "18 01", response: "01 18 1500 12"),
            Exchange(name: "queue gone", request: "18 01", response: "19"),
        ])
    }

    @Test("a bonded client stays change-unaware across a reconnection")
    func bondedUnaware() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let peer = BluetoothAddress(0x1122_3344_5566)
        server.connect(1, bond: peer)
        _ = try server.respond("12 0b00 01", from: 1)
        server.disconnect(1)
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        server.connect(2, bond: peer)
        #expect(server.clientSupportedFeatures(of: 2) == [0x01])
        #expect(try server.respond("0a 0500", from: 2) == "010a050012")
        server.connect(3)
        #expect(try server.respond("0a 0500", from: 3) == "0b0000", "a new client starts change-aware")
    }
}
