import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Read, Read Blob, Read Multiple, Read Multiple Variable against `Fixtures.values`
/// (handles in its comment), ATT_MTU 23 unless noted. Core 5.4 Vol 3 Part F §3.4.4.
@Suite("GATT server: reads")
struct GATTServerReadTests {
    static let long = Fixtures.longValue

    static let exchanges: [Exchange] = [
        Exchange(name: "Read: a short value", request: "0a 0500", response: "0b 1122"),
        Exchange(name: "Read: text", request: "0a 0700", response: "0b 616263"),
        Exchange(name: "Read: a long value is cut to ATT_MTU−1",
                 request: "0a 0300", response: "0b " + Hex.encode(long.prefix(22))),
        Exchange(name: "Read: at ATT_MTU 100", request: "0a 0300",
                 response: "0b " + Hex.encode(long.prefix(99)), mtu: 100),
        Exchange(name: "Read: a declaration", request: "0a 0200", response: "0b 0a0300e1ff"),
        Exchange(name: "Read: Extended Properties", request: "0a 1200", response: "0b 0300"),
        Exchange(name: "Read: User Description", request: "0a 1300", response: "0b 4e616d65"),
        Exchange(name: "Read: a CCCD starts at 0000", request: "0a 0c00", response: "0b 0000"),
        Exchange(name: "Read: the application's error", request: "0a 0900", response: "01 0a 0900 80"),
        Exchange(name: "Read: a value without the read property", request: "0a 1700", response: "01 0a 1700 02"),
        Exchange(name: "Read: handle 0x0000", request: "0a 0000", response: "01 0a 0000 01"),
        Exchange(name: "Read: no such handle", request: "0a 1900", response: "01 0a 1900 01"),

        Exchange(name: "Read Blob: offset 0", request: "0c 0300 0000", response: "0d " + Hex.encode(long.prefix(22))),
        Exchange(name: "Read Blob: offset 22", request: "0c 0300 1600", response: "0d " + Hex.encode(long[22..<44])),
        Exchange(name: "Read Blob: the last part", request: "0c 0300 1e01", response: "0d " + Hex.encode(long[286..<300])),
        Exchange(name: "Read Blob: offset = length gives an empty part", request: "0c 0300 2c01", response: "0d"),
        Exchange(name: "Read Blob: offset past the end", request: "0c 0300 2d01", response: "01 0c 0300 07"),
        Exchange(name: "Read Blob: a short variable value at offset 1", request: "0c 0700 0100", response: "0d 6263"),
        Exchange(name: "Read Blob: a short fixed value at offset 0 reads as Read", request: "0c 0500 0000", response: "0d 1122"),
        Exchange(name: "Read Blob: a short fixed value at offset 1 is not long", request: "0c 0500 0100", response: "01 0c 0500 0b"),
        Exchange(name: "Read Blob: a fixed value past its end is Invalid Offset first", request: "0c 0500 0300", response: "01 0c 0500 07"),
        Exchange(name: "Read Blob: a declaration is fixed too", request: "0c 0200 0100", response: "01 0c 0200 0b"),
        Exchange(name: "Read Blob: the application's error", request: "0c 0900 0100", response: "01 0c 0900 80"),
        Exchange(name: "Read Blob: not readable", request: "0c 1700 0000", response: "01 0c 1700 02"),
        Exchange(name: "Read Blob: no such handle", request: "0c 2000 0000", response: "01 0c 2000 01"),

        Exchange(name: "Read Multiple: two fixed values", request: "0e 0500 0b00", response: "0f 1122 01020304"),
        Exchange(name: "Read Multiple: order is the request's", request: "0e 0b00 0500 0500", response: "0f 01020304 1122 1122"),
        Exchange(name: "Read Multiple: cut to ATT_MTU−1", request: "0e 0500 0300",
                 response: "0f 1122" + Hex.encode(long.prefix(20))),
        Exchange(name: "Read Multiple: an invalid handle fails all", request: "0e 0500 6300", response: "01 0e 6300 01"),
        Exchange(name: "Read Multiple: the first failing handle is named", request: "0e 0500 0900 1700", response: "01 0e 0900 80"),
        Exchange(name: "Read Multiple: an unreadable one fails all", request: "0e 1700 0500", response: "01 0e 1700 02"),
        Exchange(name: "Read Multiple: errors count even past ATT_MTU", request: "0e 0300 0300 6300", response: "01 0e 6300 01"),

        Exchange(name: "Read Multiple Variable: lengths and values", request: "20 0500 0700", response: "21 0200 1122 0300 616263"),
        Exchange(name: "Read Multiple Variable: the last tuple cut, full length kept", request: "20 0500 0300",
                 response: "21 0200 1122 2c01" + Hex.encode(long.prefix(16))),
        Exchange(name: "Read Multiple Variable: a long first value fills the PDU", request: "20 0300 0500",
                 response: "21 2c01" + Hex.encode(long.prefix(20))),
        Exchange(name: "Read Multiple Variable: an invalid handle", request: "20 0500 6300", response: "01 20 6300 01"),
        Exchange(name: "Read Multiple Variable: the application's error", request: "20 0900 0500", response: "01 20 0900 80"),
    ]

    @Test("request → response", arguments: exchanges)
    func exchange(_ e: Exchange) throws {
        let server = GATTServer(database: try Fixtures.values().database)
        try server.expect([e])
    }

    @Test("a 300-octet value read whole at ATT_MTU 23: Read, then Read Blob until a short part")
    func longRead() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        var value: [UInt8] = []
        var requests = 0
        var response = try #require(server.handle(.readRequest(ReadRequest(handle: 0x0003)), from: 1, mtu: 23))
        while true {
            requests += 1
            let part: ArraySlice<UInt8>
            switch response {
            case let .readResponse(r): part = r.value
            case let .readBlobResponse(r): part = r.value
            default: Issue.record("unexpected \(response)"); return
            }
            value += part
            if part.count < 22 { break }
            response = try #require(server.handle(
                .readBlobRequest(ReadBlobRequest(handle: 0x0003, valueOffset: UInt16(value.count))), from: 1, mtu: 23))
        }
        #expect(value == Fixtures.longValue)
        #expect(requests == 14)
    }

    @Test("Read Multiple Variable leaves out a tuple whose length field would not fit")
    func tupleHeaderDoesNotFit() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        // 19 octets in FFE3: 1 + 2 + 19 = 22, one octet left, less than a length field.
        #expect(try server.respond("12 0700 " + String(repeating: "41", count: 19)) == "13")
        #expect(try server.respond("20 0700 0500") == (try hex("21 1300" + String(repeating: "41", count: 19))))
        // 18 octets: exactly a length field left, so the next tuple comes with no value octets.
        #expect(try server.respond("12 0700 " + String(repeating: "42", count: 18)) == "13")
        #expect(try server.respond("20 0700 0500") == (try hex("21 1200" + String(repeating: "42", count: 18) + "0200")))
    }

    @Test("read handlers see the connection, the handle, the offset and the request")
    func readContext() throws {
        let seen = Recorder()
        let c = GATTCharacteristic(uuid: BluetoothUUID(0xFFC1), properties: [.read], value: .dynamic(read: { context in
            seen.record(GATTWriteContext(connection: context.connection, handle: context.handle, offset: context.offset,
                                         value: [context.request.rawValue], kind: .request))
            return .success(Array(repeating: 0xAB, count: 40))
        }))
        let server = GATTServer(database: try GATTDatabase(
            services: [GATTService(uuid: BluetoothUUID(0xFFC0), characteristics: [c])],
            genericAccess: nil, includesGenericAttributeService: false))
        _ = try server.respond("0a 0300", from: 7)
        _ = try server.respond("0c 0300 1600", from: 7)
        let log = seen.recordedWrites.map { "\($0.connection.rawValue) \(handleText($0.handle)) \($0.offset) \(Hex.encode($0.value))" }
        #expect(log == ["7 0003 0 0a", "7 0003 22 0c"])
    }

    @Test("a read handler returning more than 512 octets is an Unlikely Error")
    func oversizedHandlerValue() throws {
        let c = GATTCharacteristic(uuid: BluetoothUUID(0xFFC1), properties: [.read],
                                   value: .dynamic(read: { _ in .success([UInt8](repeating: 0, count: 513)) }))
        let server = GATTServer(database: try GATTDatabase(
            services: [GATTService(uuid: BluetoothUUID(0xFFC0), characteristics: [c])],
            genericAccess: nil, includesGenericAttributeService: false))
        #expect(try server.respond("0a 0300") == "010a03000e")
    }
}
