import SwiftATTPDU
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Synchronization
import Testing

struct HeartRateProfileTests {
    /// Handle, type, and for declarations the value, of every attribute in `range`.
    static func layout(_ database: GATTDatabase, _ range: ClosedRange<UInt16>) -> [String] {
        database.attributes.filter { range.contains($0.handle) }.map { a in
            var line = "\(a.handle) \(a.type)"
            if a.role == .characteristicDeclaration || a.role == .primaryService, let v = a.constantValue {
                line += " " + Hex.encode(v)
            }
            return line
        }
    }

    @Test func databaseLayout() throws {
        let server = try HeartRateProfile.Server()
        let db = server.database
        // GAP (1–5) and GATT (6–13) come first.
        let range = try #require(db.handles(of: server.service))
        #expect(range == 14...21)
        #expect(Self.layout(db, range) == [
            "14 2800 0d18",
            "15 2803 101000372a",   // notify, value 0x0010
            "16 2A37",
            "17 2902",              // CCCD
            "18 2803 021300382a",   // read
            "19 2A38",
            "20 2803 081500392a",   // write
            "21 2A39",
        ])
        #expect(db.valueHandle(of: server.measurement) == 16)
        #expect(db.clientConfigurationHandle(of: server.measurement) == 17)
        #expect(db.deviceName.flatMap { db.valueHandle(of: $0) } == 3)
        #expect(HeartRateProfile.names[HeartRateProfile.measurement] == "Heart Rate Measurement")
    }

    @Test func servesBodySensorLocationAndControlPoint() throws {
        let writes = Mutex<[HeartRateControlPoint.Write]>([])
        let profile = try HeartRateProfile.Server(location: .wrist) { write in writes.withLock { $0.append(write) } }
        let server = GATTServer(database: profile.database)
        server.connect(1)
        // Read Body Sensor Location (0x0013): 2 = wrist.
        #expect(try server.respond("0a1300") == "0b02")
        // Write 0x01 to the Control Point (0x0015): accepted.
        #expect(try server.respond("12150001") == "13")
        // Write 0x02: Error Response, Write Request, 0x0015, 0x80.
        #expect(try server.respond("12150002") == "0112150080")
        // Two octets: the value is one octet long.
        #expect(try server.respond("1215000101") == "011215000d")
        let seen = writes.withLock { $0 }
        #expect(seen.map(\.value) == [[0x01], [0x02]])
        #expect(seen.map(\.command) == [.resetEnergyExpended, nil])
        #expect(seen.last?.error == ATTErrorCode(0x80))
    }

    @Test func bodySensorLocations() throws {
        #expect(BodySensorLocation.allCases.map(\.name) == ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"])
        #expect(try BodySensorLocation(decoding: [0x05][...]) == .earLobe)
        #expect(BodySensorLocation(name: "ear-lobe") == .earLobe)
        #expect(BodySensorLocation(name: "CHEST") == .chest)
        #expect(BodySensorLocation(name: "elbow") == nil)
        #expect(throws: ProfileDecodingError.invalidField(value: "Body Sensor Location", field: "location", byte: 7, offset: 0)) {
            try BodySensorLocation(decoding: [0x07][...])
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "Body Sensor Location", length: 0, expected: "1 octet")) {
            try BodySensorLocation(decoding: [][...])
        }
    }

    @Test func advertisement() throws {
        let ad = try HeartRateProfile.advertisement()
        // Flags 0x06; 16-bit service list 180D; appearance 0x0340; "swift-att HRM".
        #expect(Hex.encode(ad.data) == "020106" + "03030d18" + "03194003" + "0e09" + Hex.encode(Array("swift-att HRM".utf8)))
        #expect(ad.scanResponse.isEmpty)
    }

    @Test func simulatorIsDeterministicAndInRange() {
        var a = HeartRateSimulator(seed: 42)
        var b = HeartRateSimulator(seed: 42)
        var c = HeartRateSimulator(seed: 43)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        #expect(first != (0..<100).map { _ in c.next() })
        for (i, m) in first.enumerated() {
            #expect(HeartRateSimulator.range.contains(m.beatsPerMinute))
            #expect(m.sensorContact == .detected)
            #expect(m.format == .uint8)
            #expect(m.rrIntervals.count == 1)
            #expect((m.energyExpended != nil) == (i % 10 == 0))
            // The RR-interval matches the rate within its jitter.
            let expected = 61440 / Int(m.beatsPerMinute)
            #expect(abs(Int(m.rrIntervals[0]) - expected) <= 8)
        }
        // The wave rises, then falls.
        let rates = first.map { Int($0.beatsPerMinute) }
        #expect(rates[18] > rates[2] + 20)
        #expect(rates[38] < rates[22] - 20)
        // Energy accumulates, and the Control Point resets it.
        #expect((first[20].energyExpended ?? 0) > (first[10].energyExpended ?? 0))
        a.resetEnergyExpended()
        #expect(a.energyExpended == 0)
        var wide = HeartRateSimulator(seed: 1, format: .uint16)
        #expect(wide.next().encoded().first.map { $0 & 0x01 } == 0x01)
    }
}

extension GATTServer {
    func respond(_ request: String, from connection: ConnectionID = 1, mtu: Int = 23) throws -> String? {
        let pdu = try ATTPDU(parsing: Hex.decode(request))
        return handle(pdu, from: connection, mtu: mtu).map { Hex.encode($0.encoded()) }
    }
}
