import SwiftATTPDU
import SwiftATTCore
import SwiftATTDatabaseFile
import Foundation
import SwiftATTGATT
import Synchronization
import Testing
import TestSupport

/// The example files in Fixtures/gatt/, parsed and served: every attribute where the
/// format's guide (Documentation/JSON.md) says it goes, values, permissions, and writes
/// stored and reported.
struct DatabaseFileFixtureTests {
    static func text(_ name: String) throws -> String {
        try FixtureFiles.text("gatt/" + name)
    }

    final class Writes: Sendable {
        let list = Mutex<[DatabaseFile.Write]>([])
        var all: [DatabaseFile.Write] { list.withLock { $0 } }
        func record(_ write: DatabaseFile.Write) { list.withLock { $0.append(write) } }
    }

    static let sensor = "A7C10000-5E4B-4C7A-9F2E-3D6B1A0C0001"
    static func sensorUUID(_ n: Int) -> String { "A7C1000\(n)-5E4B-4C7A-9F2E-3D6B1A0C0001" }

    @Test func sensorLayout() throws {
        let file = try DatabaseFile.parse(try Self.text("sensor.json"))
        #expect(file.name == "swift-att Sensor")
        #expect(file.appearance == 0x0540)
        #expect(file.advertisedServices.map(\.description) == [Self.sensor])
        #expect(file.names[BluetoothUUID(0xFFF1)] == "Calibration Offset")
        #expect(file.names[try #require(BluetoothUUID(Self.sensorUUID(5)))] == "Threshold")
        let db = try file.database()
        let lines = db.attributes.filter { $0.handle >= 14 }.map { a -> String in
            var line = "\(a.handle) \(a.type)"
            if [.primaryService, .secondaryService, .include, .characteristicDeclaration].contains(a.role), let v = a.constantValue {
                line += " " + Hex.encode(v)
            }
            return line
        }
        let sensor = Hex.encode(try #require(BluetoothUUID(Self.sensor)).encoded())
        func c(_ n: Int) throws -> String { Hex.encode(try #require(BluetoothUUID(Self.sensorUUID(n))).encoded()) }
        #expect(lines == [
            "14 2801 f0ff",                         // secondary service FFF0
            "15 2803 021000f1ff", "16 FFF1",
            "17 2800 " + sensor,
            "18 2802 0e001000f0ff",                 // includes 14...16, FFF0
            "19 2803 321400" + (try c(1)),          // read, notify, indicate
            "20 " + Self.sensorUUID(1), "21 2901", "22 2904", "23 2902",
            "24 2803 8a1900" + (try c(2)),          // read, write, extended
            "25 " + Self.sensorUUID(2), "26 2900", "27 2901",
            "28 2803 0c1d00" + (try c(3)),          // write without response, write
            "29 " + Self.sensorUUID(3),
            "30 2803 021f00" + (try c(4)),
            "31 " + Self.sensorUUID(4),
            "32 2803 0a2100" + (try c(5)),
            "33 " + Self.sensorUUID(5), "34 2906", "35 " + "A7C1FFFF-5E4B-4C7A-9F2E-3D6B1A0C0001",
        ])
    }

    @Test func sensorValuesPermissionsAndWrites() throws {
        let writes = Writes()
        let file = try DatabaseFile.parse(try Self.text("sensor.json"), onWrite: writes.record)
        let server = GATTServer(database: try file.database(name: "renamed"))
        server.connect(1)
        #expect(try server.respond("0a0300") == "0b" + Hex.encode(Array("renamed".utf8)))
        #expect(try server.respond("0a1000") == "0bf6ff")                   // calibration offset
        #expect(try server.respond("0a1400") == "0be508")                   // 22.77 °C
        #expect(try server.respond("0a1500") == "0b" + Hex.encode(Array("Temperature".utf8)))
        #expect(try server.respond("0a1600") == "0b0efe2f27010000")         // sint16, 10^-2, °C
        #expect(try server.respond("0a1a00") == "0b0300")                   // extended: reliable write, writable auxiliaries
        #expect(try server.respond("0a1900") == "0b" + Hex.encode(Array("kitchen".utf8)))
        #expect(try server.respond("0a1f00") == "010a1f000f")               // encrypted: Insufficient Encryption
        #expect(try server.respond("0a2100") == "0b1e00")
        #expect(try server.respond("0a2200") == "0b00006400")
        #expect(try server.respond("0a1d00") == "010a1d0002")               // Command: Read Not Permitted

        // Writes are stored and reported, each with what was written where.
        #expect(try server.respond("121900" + Hex.encode(Array("hall".utf8))) == "13")
        #expect(try server.respond("0a1900") == "0b" + Hex.encode(Array("hall".utf8)))
        #expect(try server.respond("521d00" + "0102") == nil)              // Write Command
        #expect(try server.respond("122100" + "28") == "13")               // fixed length: the first octet only
        #expect(try server.respond("0a2100") == "0b2800")
        #expect(try server.respond("122300" + Hex.encode(Array("ok".utf8))) == "13")
        #expect(try server.respond("0a2300") == "0b" + Hex.encode(Array("ok".utf8)))
        // Writable auxiliaries: the Label's user description takes writes.
        #expect(try server.respond("121b00" + Hex.encode(Array("Room".utf8))) == "13")
        #expect(try server.respond("0a1b00") == "0b" + Hex.encode(Array("Room".utf8)))
        // Not writable: the Temperature, its user description, the Valid Range.
        #expect(try server.respond("12140001") == "0112140003")
        #expect(try server.respond("12150041") == "0112150003")
        #expect(try server.respond("12220001") == "0112220003")
        // Longer than maxLength 20: Invalid Attribute Value Length.
        #expect(try server.respond("121d00" + String(repeating: "00", count: 21), mtu: 64) == "01121d000d")

        let label = try #require(BluetoothUUID(Self.sensorUUID(2)))
        let threshold = try #require(BluetoothUUID(Self.sensorUUID(5)))
        #expect(writes.all == [
            DatabaseFile.Write(characteristic: label, descriptor: nil, handle: 0x19, value: Array("hall".utf8), kind: .request),
            DatabaseFile.Write(characteristic: try #require(BluetoothUUID(Self.sensorUUID(3))), descriptor: nil, handle: 0x1D,
                               value: [1, 2], kind: .command),
            DatabaseFile.Write(characteristic: threshold, descriptor: nil, handle: 0x21, value: [0x28, 0x00], kind: .request),
            DatabaseFile.Write(characteristic: threshold, descriptor: BluetoothUUID(uuid128: 0xA7C1FFFF_5E4B_4C7A_9F2E_3D6B1A0C0001),
                               handle: 0x23, value: Array("ok".utf8), kind: .request),
        ])
    }

    @Test func heartRateFile() throws {
        let file = try DatabaseFile.parse(try Self.text("heart-rate.json"))
        #expect(file.name == "swift-att HRM (file)")
        #expect(file.appearance == 0x0340)
        #expect(file.advertisedServices == [0x180D, 0x180F, 0x180A].map { BluetoothUUID($0) })
        let db = try file.database()
        #expect(db.services.map(\.uuid) == [0x1800, 0x1801, 0x180D, 0x180F, 0x180A].map { BluetoothUUID($0) })
        let server = GATTServer(database: db)
        server.connect(1)
        #expect(try server.respond("0a1300") == "0b01")      // Body Sensor Location: chest
        #expect(try server.respond("0a1800") == "0b64")      // Battery Level 100 %
        #expect(try server.respond("0a0500") == "0b4003")    // GAP Appearance
    }

    /// The guide's example (Documentation/JSON.md) is a file that works: its JSON block
    /// parses and builds.
    @Test func guideExample() throws {
        let guide = try String(contentsOf: Repository.url("Documentation/JSON.md"), encoding: .utf8)
        let section = try #require(guide.range(of: "## A GATT database in JSON"))
        let after = guide[section.upperBound...]
        let start = try #require(after.range(of: "```json\n"))
        let end = try #require(after[start.upperBound...].range(of: "```"))
        let file = try DatabaseFile.parse(String(after[start.upperBound..<end.lowerBound]))
        #expect(file.services.map(\.uuid.description) == ["FFF0", Self.sensor])
        #expect(file.services[1].includedServices.first === file.services[0])
        #expect(file.appearance == 0x0540)
        _ = try file.database()
    }

    /// Without "advertise": the primary services' 16-bit UUIDs, or else the first 128-bit one.
    @Test func defaultAdvertisedServices() throws {
        let only128 = try DatabaseFile.parse(#"{"services":[{"uuid":"\#(Self.sensor)"},{"uuid":"\#(Self.sensorUUID(9))"}]}"#)
        #expect(only128.advertisedServices.map(\.description) == [Self.sensor])
        let mixed = try DatabaseFile.parse(#"{"services":[{"uuid":"\#(Self.sensor)"},{"uuid":"FEAA"},{"uuid":"FEAB","primary":false}]}"#)
        #expect(mixed.advertisedServices == [BluetoothUUID(0xFEAA)])
        #expect(mixed.name == nil)
        let db = try mixed.database()
        let name = try #require(db.deviceName)
        #expect(GATTServer(database: db).value(of: name) == Array("swift-att".utf8))
    }
}

extension GATTServer {
    func respond(_ request: String, from connection: ConnectionID = 1, mtu: Int = 23) throws -> String? {
        let pdu = try ATTPDU(parsing: Hex.decode(request))
        return handle(pdu, from: connection, mtu: mtu).map { Hex.encode($0.encoded()) }
    }
}
