import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Write Request, Write Command, Signed Write Command and the requests a server does not
/// answer, against `Fixtures.values` (handles in its comment). Core 5.4 Vol 3 Part F §3.4.5.
@Suite("GATT server: writes")
struct GATTServerWriteTests {
    /// Scripts: each runs in order against a fresh server.
    static let scripts: [(String, [Exchange])] = [
        ("a variable value takes the written length", [
            Exchange(name: "write", request: "12 0700 68656c6c6f", response: "13"),
            Exchange(name: "read back", request: "0a 0700", response: "0b 68656c6c6f"),
            Exchange(name: "write shorter", request: "12 0700 6869", response: "13"),
            Exchange(name: "read back", request: "0a 0700", response: "0b 6869"),
            Exchange(name: "write empty", request: "12 0700", response: "13"),
            Exchange(name: "read back", request: "0a 0700", response: "0b"),
        ]),
        ("a variable value's limit", [
            Exchange(name: "20 octets", request: "12 0700 " + String(repeating: "7a", count: 20), response: "13"),
            Exchange(name: "21 octets", request: "12 0700 " + String(repeating: "7a", count: 21), response: "01 12 0700 0d"),
            Exchange(name: "unchanged", request: "0a 0700", response: "0b " + String(repeating: "7a", count: 20)),
        ]),
        ("a long value replaced by a short one", [
            Exchange(name: "write", request: "12 0300 0102", response: "13"),
            Exchange(name: "read", request: "0a 0300", response: "0b 0102"),
        ]),
        ("a fixed value: shorter writes change only their octets, longer ones fail", [
            Exchange(name: "one octet", request: "12 0b00 aa", response: "13"),
            Exchange(name: "read", request: "0a 0b00", response: "0b aa020304"),
            Exchange(name: "five octets", request: "12 0b00 0102030405", response: "01 12 0b00 0d"),
            Exchange(name: "four octets", request: "12 0b00 05060708", response: "13"),
            Exchange(name: "read", request: "0a 0b00", response: "0b 05060708"),
        ]),
        ("not writable", [
            Exchange(name: "read-only value", request: "12 0500 00", response: "01 12 0500 03"),
            Exchange(name: "declaration", request: "12 0200 00", response: "01 12 0200 03"),
            Exchange(name: "Extended Properties", request: "12 1200 0000", response: "01 12 1200 03"),
            Exchange(name: "handle 0x0000", request: "12 0000 00", response: "01 12 0000 01"),
            Exchange(name: "no such handle", request: "12 1900 00", response: "01 12 1900 01"),
        ]),
        ("the application's error", [
            Exchange(name: "write", request: "12 0900 01", response: "01 12 0900 81"),
        ]),
        ("User Description is writable with Writable Auxiliaries", [
            Exchange(name: "write", request: "12 1300 4869", response: "13"),
            Exchange(name: "read", request: "0a 1300", response: "0b 4869"),
        ]),
        ("CCCD values", [
            Exchange(name: "notification on a notify characteristic", request: "12 0c00 0100", response: "13"),
            Exchange(name: "read back", request: "0a 0c00", response: "0b 0100"),
            Exchange(name: "indication on a notify-only characteristic", request: "12 0c00 0200", response: "01 12 0c00 fd"),
            Exchange(name: "both on a notify-only characteristic", request: "12 0c00 0300", response: "01 12 0c00 fd"),
            Exchange(name: "still notification", request: "0a 0c00", response: "0b 0100"),
            Exchange(name: "one octet", request: "12 0c00 01", response: "01 12 0c00 0d"),
            Exchange(name: "three octets", request: "12 0c00 010000", response: "01 12 0c00 0d"),
            Exchange(name: "reserved bits are ignored", request: "12 0f00 02f0", response: "13"),
            Exchange(name: "read back", request: "0a 0f00", response: "0b 0200"),
            Exchange(name: "notification on indicate-only", request: "12 0f00 0100", response: "01 12 0f00 fd"),
            Exchange(name: "both allowed on notify|indicate", request: "12 1800 0300", response: "13"),
            Exchange(name: "off", request: "12 0c00 0000", response: "13"),
            Exchange(name: "read back", request: "0a 0c00", response: "0b 0000"),
        ]),
        ("Write Command: no response, errors ignored", [
            Exchange(name: "write", request: "52 0700 7a7a", response: nil),
            Exchange(name: "read", request: "0a 0700", response: "0b 7a7a"),
            Exchange(name: "too long", request: "52 0700 " + String(repeating: "41", count: 21), response: nil),
            Exchange(name: "unchanged", request: "0a 0700", response: "0b 7a7a"),
            Exchange(name: "not writable", request: "52 0500 00", response: nil),
            Exchange(name: "no such handle", request: "52 6300 00", response: nil),
            Exchange(name: "application error", request: "52 0900 00", response: nil),
            Exchange(name: "bad CCCD value", request: "52 0c00 0200", response: nil),
            Exchange(name: "CCCD unchanged", request: "0a 0c00", response: "0b 0000"),
        ]),
        ("Signed Write Command is ignored until the Security Manager provides keys", [
            Exchange(name: "signed write", request: "d2 0700 7a7a 000000000000000000000000", response: nil),
            Exchange(name: "unchanged", request: "0a 0700", response: "0b 616263"),
        ]),
        ("PDUs that are not requests to a server get nothing", [
            Exchange(name: "Read Response", request: "0b 01", response: nil),
            Exchange(name: "Error Response", request: "01 0a 0100 0a", response: nil),
            Exchange(name: "Handle Value Notification", request: "1b 0300 01", response: nil),
            Exchange(name: "Handle Value Confirmation", request: "1e", response: nil),
            Exchange(name: "Write Response", request: "13", response: nil),
        ]),
        ("Exchange MTU belongs to the bearer", [
            Exchange(name: "Exchange MTU Request", request: "02 f700", response: "01 02 0000 06"),
        ]),
    ]

    @Test("request → response scripts", arguments: scripts.map(\.0))
    func script(_ name: String) throws {
        let exchanges = try #require(Self.scripts.first { $0.0 == name }?.1)
        let server = GATTServer(database: try Fixtures.values().database)
        try server.expect(exchanges)
    }

    @Test("write handlers see the connection, handle, offset, value and kind")
    func writeContext() throws {
        let recorder = Recorder()
        let server = GATTServer(database: try Fixtures.values(recorder: recorder).database)
        #expect(try server.respond("12 1500 0102", from: 3) == "13")
        #expect(try server.respond("52 1500 03", from: 4) == nil)
        let log = recorder.recordedWrites.map {
            "\($0.connection.rawValue) \(handleText($0.handle)) \($0.offset) \(Hex.encode($0.value)) \($0.kind) \($0.isCommand)"
        }
        #expect(log == ["3 0015 0 0102 request false", "4 0015 0 03 command true"])
        #expect(try server.respond("0a 1500") == "0b03")
    }

    @Test("a stored value's write handler can refuse a write, which then leaves the value alone")
    func storedValueHandler() throws {
        let recorder = Recorder()
        let c = GATTCharacteristic(uuid: BluetoothUUID(0xFFC1), properties: [.read, .write], value: .fixed([0, 0, 0], onWrite: { context in
            recorder.record(context)
            return context.value.first == 0xFF ? ATTErrorCode(0x13) : nil
        }))
        let server = GATTServer(database: try GATTDatabase(
            services: [GATTService(uuid: BluetoothUUID(0xFFC0), characteristics: [c])],
            genericAccess: nil, includesGenericAttributeService: false))
        #expect(try server.respond("12 0300 01") == "13")
        #expect(try server.respond("12 0300 ff") == "0112030013")
        #expect(try server.respond("0a 0300") == "0b010000")
        // The handler sees the complete new value (the fixed value's other octets kept).
        #expect(recorder.recordedWrites.map { Hex.encode($0.value) } == ["010000", "ff0000"])
        #expect(server.value(of: c) == [1, 0, 0])
    }

    @Test("Server Characteristic Configuration: one value for all clients, only the Broadcast bit")
    func serverConfiguration() throws {
        let c = GATTCharacteristic(uuid: BluetoothUUID(0xFFC1), properties: [.broadcast, .read], value: .bytes([0x01]))
        let db = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0xFFC0), characteristics: [c])],
                                  genericAccess: nil, includesGenericAttributeService: false)
        let server = GATTServer(database: db)
        try server.expect([
            Exchange(name: "initially off", request: "0a 0400", response: "0b 0000"),
            Exchange(name: "Broadcast on", request: "12 0400 0100", response: "13"),
            Exchange(name: "one octet", request: "12 0400 01", response: "01 12 0400 0d"),
            Exchange(name: "reserved bits dropped", request: "12 0400 0380", response: "13"),
        ])
        #expect(try server.respond("0a 0400", from: 2) == "0b0100", "another client sees the same value")
        #expect(server.value(at: 0x0004) == [0x01, 0x00])
    }

    @Test("the application sets values the server holds")
    func setValue() throws {
        let f = try Fixtures.values()
        let server = GATTServer(database: f.database)
        #expect(server.setValue([0x09], for: f.short))
        #expect(try server.respond("0a 0700") == "0b09")
        #expect(server.setValue([0xEE], for: f.notifying))
        #expect(server.value(of: f.notifying) == [0xEE, 2, 3, 4])
        #expect(!server.setValue([0x01], for: f.dynamic))
        #expect(server.value(of: f.dynamic) == nil)
        #expect(server.setValue(Array(repeating: 0x41, count: 30), for: f.short))
        #expect(server.value(of: f.short)?.count == 20)
        #expect(server.value(at: 0x0002) == [0x0a, 0x03, 0x00, 0xe1, 0xff])
    }
}
