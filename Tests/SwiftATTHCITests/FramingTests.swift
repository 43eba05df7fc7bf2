import SwiftATTCore
@testable import SwiftATTHCI
import Testing

/// H4 framing and ACL data packets. Core 5.4 Vol 4 Part A §2, Vol 4 Part E §5.4.2.
@Suite("H4 and ACL framing")
struct FramingTests {
    /// A stream of one packet of each kind: command, event, ACL, SCO, ISO.
    static let packets: [(HCIPacketType, [UInt8])] = [
        (.command, bytes("030c00")),
        (.event, bytes("0e0401030c00")),
        (.aclData, bytes("0120 0700 0300 0400 0a0100")),
        (.synchronousData, bytes("0100 03 aabbcc")),
        (.isoData, bytes("0160 0200 dead")),
        (.event, bytes("3e1301000100000102 0000175ac00c00000048 0000")),
    ]
    static var stream: [UInt8] { packets.flatMap { [$0.0.rawValue] + $0.1 } }

    func drain(_ d: inout H4Deframer) throws -> [HCIPacket] {
        var out: [HCIPacket] = []
        while let p = try d.next() { out.append(p) }
        return out
    }

    @Test("several packets in one chunk")
    func oneChunk() throws {
        var d = H4Deframer()
        d.append(Self.stream)
        let got = try drain(&d)
        #expect(got.map { $0.type } == Self.packets.map(\.0))
        #expect(got.map { Array($0.bytes) } == Self.packets.map(\.1))
        #expect(d.pendingByteCount == 0)
    }

    /// The stream cut in two at every byte boundary, each half given to `take`, which
    /// returns the packets it took out: all of them, in order, none left over.
    func expectEverySplit(_ take: (inout H4Deframer, ArraySlice<UInt8>) throws -> [HCIPacket]) throws {
        let s = Self.stream
        for cut in 0...s.count {
            var d = H4Deframer()
            var got = try take(&d, s[..<cut])
            got += try take(&d, s[cut...])
            #expect(got.map { $0.type } == Self.packets.map(\.0), "split at \(cut)")
            #expect(got.map { Array($0.bytes) } == Self.packets.map(\.1), "split at \(cut)")
            #expect(d.pendingByteCount == 0)
        }
    }

    @Test("the stream split at every byte boundary")
    func everySplit() throws {
        try expectEverySplit { d, half in
            d.append(half)
            return try drain(&d)
        }
    }

    @Test("one byte at a time")
    func byteByByte() throws {
        var d = H4Deframer()
        var got: [HCIPacket] = []
        for b in Self.stream {
            d.append(CollectionOfOne(b))
            got += try drain(&d)
        }
        #expect(got.map { $0.type } == Self.packets.map(\.0))
        #expect(got.map { Array($0.bytes) } == Self.packets.map(\.1))
    }

    @Test("forEachPacket hands out what next() does, at every split of the stream")
    func forEachPacketMatchesNext() throws {
        try expectEverySplit { d, half in
            var got: [HCIPacket] = []
            d.append(half)
            try d.forEachPacket { got.append($0) }
            return got
        }
    }

    @Test("forEachPacket hands out the packets before a bad indicator, then throws")
    func forEachPacketStopsAtABadIndicator() throws {
        var d = H4Deframer()
        d.append([0x01, 0x03, 0x0C, 0x00, 0x04, 0x0E, 0x01, 0x01, 0x07, 0x00])
        var got: [HCIPacket] = []
        #expect(throws: HCIDecodingError.unknownPacketType(0x07)) { try d.forEachPacket { got.append($0) } }
        #expect(got.map(\.type) == [.command, .event])
        #expect(got.map { Array($0.bytes) } == [[0x03, 0x0C, 0x00], [0x0E, 0x01, 0x01]])
        #expect(d.pendingByteCount == 2, "the bad indicator and what follows stay")
    }

    @Test("feed hands out what append and forEachPacket do, at every split, the chunk's views included")
    func feedMatchesAppend() throws {
        try expectEverySplit { d, half in
            var got: [HCIPacket] = []
            // A chunk as a transport has it: a prefix of a larger read buffer.
            var readBuffer = Array(half) + [0xEE, 0xEE]
            try d.feed(readBuffer[..<half.count]) { got.append($0) }
            // The transport's next read writes over its buffer: what was kept is unchanged.
            for i in readBuffer.indices { readBuffer[i] = 0 }
            return got
        }
    }

    @Test("feed with a partial packet buffered goes on from it")
    func feedAfterAPartialPacket() throws {
        var d = H4Deframer()
        var got: [HCIPacket] = []
        try d.feed([0x04, 0x0E, 0x04, 0x01][...]) { got.append($0) }
        #expect(got.isEmpty)
        #expect(d.pendingByteCount == 4)
        try d.feed([0x03, 0x0C, 0x00, 0x01, 0x03, 0x0C][...]) { got.append($0) }
        #expect(got.map { Array($0.bytes) } == [[0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]])
        #expect(d.pendingByteCount == 3, "the next packet's first bytes wait")
    }

    @Test("feed hands out the packets before a bad indicator, then throws, keeping the rest")
    func feedStopsAtABadIndicator() throws {
        var d = H4Deframer()
        var got: [HCIPacket] = []
        #expect(throws: HCIDecodingError.unknownPacketType(0x07)) {
            try d.feed([0x01, 0x03, 0x0C, 0x00, 0x07, 0x00, 0x01][...]) { got.append($0) }
        }
        #expect(got.map(\.type) == [.command])
        #expect(d.pendingByteCount == 3)
        #expect(throws: HCIDecodingError.unknownPacketType(0x07)) { try d.next() }
    }

    @Test("an unknown indicator is a typed error")
    func unknownIndicator() throws {
        var d = H4Deframer()
        d.append([0x01, 0x03, 0x0C, 0x00, 0x07, 0x00])
        #expect(try d.next()?.type == .command)
        #expect(throws: HCIDecodingError.unknownPacketType(0x07)) { try d.next() }
        var empty = H4Deframer()
        empty.append([0x00])
        #expect(throws: HCIDecodingError.unknownPacketType(0x00)) { try empty.next() }
    }

    @Test("ISO length is 14 bits: the two top bits are flags, not length")
    func isoLengthMasking() throws {
        var d = H4Deframer()
        // Length octets 0x02 0xC0: RFU bits set, 14-bit length 2.
        d.append([0x05, 0x01, 0x60, 0x02, 0xC0, 0xAA, 0xBB, 0x04, 0x10, 0x01, 0x00])
        let iso = try #require(try d.next())
        #expect(iso.type == .isoData)
        #expect(Array(iso.bytes) == [0x01, 0x60, 0x02, 0xC0, 0xAA, 0xBB])
        #expect(try d.next()?.type == .event)
    }

    @Test("a partial packet waits for more bytes")
    func partial() throws {
        var d = H4Deframer()
        d.append([0x02, 0x01, 0x20, 0x05])
        #expect(try d.next() == nil)
        d.append([0x00, 1, 2, 3, 4])
        #expect(try d.next() == nil)
        d.append([5])
        #expect(try d.next().map { Array($0.bytes) } == [0x01, 0x20, 0x05, 0x00, 1, 2, 3, 4, 5])
        #expect(d.pendingByteCount == 0)
    }

    @Test("ACL header: handle, boundary and broadcast flags")
    func aclFlags() throws {
        let p = try ACLDataPacket(parsing: bytes("0120 0300 aabbcc")[...])
        #expect(p.handle == 0x0001)
        #expect(p.packetBoundary == .firstFlushable)
        #expect(p.broadcast == 0)
        #expect(Array(p.data) == [0xAA, 0xBB, 0xCC])
        #expect(p.encoded() == bytes("0120 0300 aabbcc"))

        let c = try ACLDataPacket(parsing: bytes("ff5e 0100 01")[...])
        #expect(c.handle == 0x0EFF)
        #expect(c.packetBoundary == .continuing)
        #expect(c.broadcast == 1)
        #expect(!c.packetBoundary.isStart)
        #expect(c.encoded() == bytes("ff5e 0100 01"))

        let all = try ACLDataPacket(parsing: bytes("ffff 0000")[...])
        #expect(all.handle == 0x0FFF && all.packetBoundary == .complete && all.broadcast == 3)
    }

    @Test("ACL handle masking: the initialiser keeps 12 bits and 2-bit broadcast")
    func aclMasking() {
        let p = ACLDataPacket(handle: 0xF001, packetBoundary: .firstNonFlushable, broadcast: 0xFF, data: [0x42])
        #expect(p.handle == 0x0001)
        #expect(p.broadcast == 3)
        #expect(p.encoded() == bytes("01c0 0100 42"))
    }

    @Test("ACL length mismatch and truncated header")
    func aclLength() {
        #expect(throws: HCIDecodingError.lengthMismatch("ACL data packet", declared: 4, have: 3)) {
            try ACLDataPacket(parsing: bytes("0120 0400 aabbcc")[...])
        }
        #expect(throws: HCIDecodingError.lengthMismatch("ACL data packet", declared: 2, have: 3)) {
            try ACLDataPacket(parsing: bytes("0120 0200 aabbcc")[...])
        }
        #expect(throws: HCIDecodingError.truncated("ACL data packet header", need: 4, have: 3)) {
            try ACLDataPacket(parsing: bytes("012002")[...])
        }
    }

    @Test("ACL packets longer than any buffer are accepted (BENCH.md quirk 10)")
    func aclLong() throws {
        let data = [UInt8](repeating: 0x5A, count: 304)
        let p = ACLDataPacket(handle: 1, packetBoundary: .firstFlushable, data: data[...])
        let parsed = try ACLDataPacket(parsing: p.encoded()[...])
        #expect(parsed.data.count == 304)
        #expect(parsed == p)
    }
}
