import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Prepare Write and Execute Write: long writes, reliable writes, cancel, queue limits
/// and the errors found at execution. Against `Fixtures.values`, ATT_MTU 23.
/// Core 5.4 Vol 3 Part F §3.4.6.
@Suite("GATT server: queued writes")
struct GATTServerQueuedWriteTests {
    /// A 100-octet value written long at ATT_MTU 23 (18 octets per part).
    static let newValue: [UInt8] = (0..<100).map { UInt8(0xFF - $0) }

    @Test("a long write: each part echoed, written at Execute, the old tail gone")
    func longWrite() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        for offset in stride(from: 0, to: 100, by: 18) {
            let part = Self.newValue[offset..<min(offset + 18, 100)]
            let request = PrepareWriteRequest(handle: 0x0003, valueOffset: UInt16(offset), partAttributeValue: part)
            let response = server.handle(.prepareWriteRequest(request), from: 1, mtu: 23)
            #expect(response == .prepareWriteResponse(PrepareWriteResponse(handle: 0x0003, valueOffset: UInt16(offset), partAttributeValue: part)))
        }
        #expect(try server.respond("0a 0300") == "0b" + Hex.encode(Fixtures.longValue.prefix(22)), "nothing written before Execute")
        #expect(try server.respond("18 01") == "19")
        var read: [UInt8] = []
        while true {
            let r = try #require(try server.respond("0c 0300 " + handleText(UInt16(read.count).byteSwapped)))
            let part = try bytes(r).dropFirst()
            read += part
            if part.count < 22 { break }
        }
        #expect(read == Self.newValue)
        #expect(try server.respond("18 01") == "19", "the queue is empty afterwards")
    }

    static let scripts: [(String, [Exchange])] = [
        ("Execute with nothing queued", [
            Exchange(name: "execute", request: "18 01", response: "19"),
            Exchange(name: "cancel", request: "18 00", response: "19"),
        ]),
        ("cancel discards the queue", [
            Exchange(name: "prepare", request: "16 0700 0000 78797a", response: "17 0700 0000 78797a"),
            Exchange(name: "cancel", request: "18 00", response: "19"),
            Exchange(name: "unchanged", request: "0a 0700", response: "0b 616263"),
            Exchange(name: "nothing left to execute", request: "18 01", response: "19"),
            Exchange(name: "still unchanged", request: "0a 0700", response: "0b 616263"),
        ]),
        ("a reliable write to a characteristic and its User Description, in one go", [
            Exchange(name: "prepare value", request: "16 1100 0000 6f6b", response: "17 1100 0000 6f6b"),
            Exchange(name: "prepare description", request: "16 1300 0000 4e6577", response: "17 1300 0000 4e6577"),
            Exchange(name: "execute", request: "18 01", response: "19"),
            Exchange(name: "value", request: "0a 1100", response: "0b 6f6b"),
            Exchange(name: "description", request: "0a 1300", response: "0b 4e6577"),
        ]),
        ("writing at an offset inside the current value keeps what is before it", [
            Exchange(name: "prepare at 1", request: "16 0700 0100 7a", response: "17 0700 0100 7a"),
            Exchange(name: "execute", request: "18 01", response: "19"),
            Exchange(name: "read", request: "0a 0700", response: "0b 617a"),
        ]),
        ("Invalid Offset at Execute: nothing written, queue cleared", [
            Exchange(name: "valid part for FFE1", request: "16 0300 0000 01", response: "17 0300 0000 01"),
            Exchange(name: "offset 5 in a 3-octet value", request: "16 0700 0500 7a7a", response: "17 0700 0500 7a7a"),
            Exchange(name: "execute", request: "18 01", response: "01 18 0700 07"),
            Exchange(name: "FFE1 unchanged", request: "0c 0300 0000", response: "0d " + Hex.encode(Fixtures.longValue.prefix(22))),
            Exchange(name: "FFE3 unchanged", request: "0a 0700", response: "0b 616263"),
            Exchange(name: "queue gone", request: "18 01", response: "19"),
        ]),
        ("a gap between parts is Invalid Offset", [
            Exchange(name: "part 1", request: "16 0700 0000 3132", response: "17 0700 0000 3132"),
            Exchange(name: "part 2 after a gap", request: "16 0700 0300 33", response: "17 0700 0300 33"),
            Exchange(name: "execute", request: "18 01", response: "01 18 0700 07"),
        ]),
        ("Invalid Attribute Value Length at Execute", [
            Exchange(name: "15 octets", request: "16 0700 0000 " + String(repeating: "61", count: 15), response: "17 0700 0000 " + String(repeating: "61", count: 15)),
            Exchange(name: "10 more", request: "16 0700 0f00 " + String(repeating: "62", count: 10), response: "17 0700 0f00 " + String(repeating: "62", count: 10)),
            Exchange(name: "execute", request: "18 01", response: "01 18 0700 0d"),
            Exchange(name: "unchanged", request: "0a 0700", response: "0b 616263"),
        ]),
        ("a fixed value overrun at Execute", [
            Exchange(name: "prepare", request: "16 0b00 0300 0102", response: "17 0b00 0300 0102"),
            Exchange(name: "execute", request: "18 01", response: "01 18 0b00 0d"),
        ]),
        ("prepared CCCD parts form one value, checked at Execute", [
            Exchange(name: "low octet", request: "16 0c00 0000 01", response: "17 0c00 0000 01"),
            Exchange(name: "high octet", request: "16 0c00 0100 00", response: "17 0c00 0100 00"),
            Exchange(name: "execute", request: "18 01", response: "19"),
            Exchange(name: "subscribed", request: "0a 0c00", response: "0b 0100"),
            Exchange(name: "indication, not allowed", request: "16 0c00 0000 02", response: "17 0c00 0000 02"),
            Exchange(name: "execute", request: "18 01", response: "01 18 0c00 fd"),
            Exchange(name: "still notification", request: "0a 0c00", response: "0b 0100"),
        ]),
        ("the application's error at Execute names its handle", [
            Exchange(name: "prepare", request: "16 0900 0000 01", response: "17 0900 0000 01"),
            Exchange(name: "execute", request: "18 01", response: "01 18 0900 81"),
        ]),
        ("Prepare Write errors", [
            Exchange(name: "read-only", request: "16 0500 0000 01", response: "01 16 0500 03"),
            Exchange(name: "a declaration", request: "16 0400 0000 01", response: "01 16 0400 03"),
            Exchange(name: "no such handle", request: "16 6300 0000 01", response: "01 16 6300 01"),
            Exchange(name: "handle 0x0000", request: "16 0000 0000 01", response: "01 16 0000 01"),
            Exchange(name: "a refused Prepare is not queued", request: "18 01", response: "19"),
        ]),
    ]

    @Test("request → response scripts", arguments: scripts.map(\.0))
    func script(_ name: String) throws {
        let exchanges = try #require(Self.scripts.first { $0.0 == name }?.1)
        let server = GATTServer(database: try Fixtures.values().database)
        try server.expect(exchanges)
    }

    /// Found by the gatt-server fuzz target (Fixtures/fuzz/gatt-server/crash-prepare-write-
    /// part-exceeds-mtu): a 24-octet Prepare Write Request at ATT_MTU 23 was queued, and its
    /// echo was a response the bearer could not send, so the request went unanswered.
    @Test("a part longer than ATT_MTU−5 gets Invalid PDU and is not queued (§3.4.6.1)")
    func partLongerThanMTU() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        let part = Hex.encode((0..<19).map { UInt8($0) })
        #expect(try server.respond("16 0700 0000 " + part, mtu: 23) == hex("01 16 0700 04"))
        #expect(try server.respond("18 01") == "19")
        #expect(try server.respond("0a 0700") == "0b616263", "nothing was queued")
        #expect(try server.respond("16 0700 0000 " + part, mtu: 24) == hex("17 0700 0000 " + part), "it fits ATT_MTU 24")
    }

    @Test("Prepare Queue Full by count, then by octets; the queue stays as it was")
    func queueFull() throws {
        let db = try Fixtures.values().database
        let byCount = GATTServer(database: db, configuration: .init(prepareQueueLimit: 3, prepareQueueByteLimit: 1000))
        try byCount.expect([
            Exchange(name: "1", request: "16 0700 0000 31", response: "17 0700 0000 31"),
            Exchange(name: "2", request: "16 0700 0100 32", response: "17 0700 0100 32"),
            Exchange(name: "3", request: "16 0700 0200 33", response: "17 0700 0200 33"),
            Exchange(name: "4: full", request: "16 0700 0300 34", response: "01 16 0700 09"),
            Exchange(name: "execute the three", request: "18 01", response: "19"),
            Exchange(name: "read", request: "0a 0700", response: "0b 313233"),
            Exchange(name: "room again", request: "16 0700 0000 35", response: "17 0700 0000 35"),
        ])
        let byOctets = GATTServer(database: db, configuration: .init(prepareQueueLimit: 64, prepareQueueByteLimit: 20))
        try byOctets.expect([
            Exchange(name: "18 octets", request: "16 0300 0000 " + String(repeating: "00", count: 18), response: "17 0300 0000 " + String(repeating: "00", count: 18)),
            Exchange(name: "3 more: over 20", request: "16 0300 1200 000000", response: "01 16 0300 09"),
            Exchange(name: "2 more: exactly 20", request: "16 0300 1200 0000", response: "17 0300 1200 0000"),
        ])
        #expect(byOctets.prepareQueueUsage(of: 1) == .init(writes: 2, octets: 20))
        #expect(byOctets.prepareQueueUsage(of: 2) == nil, "not connected")
        #expect(try byOctets.respond("18 00") == "19")
        #expect(byOctets.prepareQueueUsage(of: 1) == .init(writes: 0, octets: 0))
    }

    @Test("each connection has its own queue")
    func queuesPerConnection() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        #expect(try server.respond("16 0700 0000 31", from: 1) == "1707000000" + "31")
        #expect(try server.respond("16 0700 0000 32", from: 2) == "1707000000" + "32")
        #expect(try server.respond("18 00", from: 1) == "19")
        #expect(try server.respond("18 01", from: 2) == "19")
        #expect(try server.respond("0a 0700") == "0b32")
        server.disconnect(2)
        #expect(try server.respond("16 0700 0000 33", from: 2) == "1707000000" + "33")
        server.disconnect(2)
        #expect(try server.respond("18 01", from: 2) == "19", "disconnect dropped the queue")
        #expect(try server.respond("0a 0700") == "0b32")
    }

    @Test("a dynamic value gets one write of the joined parts, with the first part's offset")
    func dynamicLongWrite() throws {
        let recorder = Recorder()
        let server = GATTServer(database: try Fixtures.values(recorder: recorder).database)
        try server.expect([
            Exchange(name: "part 1", request: "16 1500 0400 " + String(repeating: "aa", count: 18), response: "17 1500 0400 " + String(repeating: "aa", count: 18)),
            Exchange(name: "part 2", request: "16 1500 1600 bbbbbb", response: "17 1500 1600 bbbbbb"),
            Exchange(name: "execute", request: "18 01", response: "19"),
        ])
        let log = recorder.recordedWrites.map { "\($0.offset) \(Hex.encode($0.value)) \($0.kind) \($0.isQueued)" }
        #expect(log == ["4 " + String(repeating: "aa", count: 18) + "bbbbbb queued true"])
    }
}
