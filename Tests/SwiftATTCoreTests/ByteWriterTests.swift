import SwiftATTCore
import Testing

/// ByteWriter, ByteEncodable and the little-endian readers and appenders: every
/// multi-octet field least significant octet first (Core 5.4 Vol 3 Part F §3.3).
@Suite("ByteWriter")
struct ByteWriterTests {
    /// Runs `body` over a fresh writer of `capacity` bytes; returns what it wrote.
    static func write(capacity: Int, _ body: (inout ByteWriter) -> Void) -> (bytes: [UInt8], count: Int) {
        var storage = [UInt8](repeating: 0xEE, count: capacity)
        var count = 0
        storage.withUnsafeMutableBytes { buffer in
            var writer = ByteWriter(buffer)
            #expect(writer.count == 0)
            body(&writer)
            count = writer.count
        }
        return (storage, count)
    }

    @Test("each width is little-endian and advances by exactly its size")
    func widths() {
        #expect(Self.write(capacity: 1) { $0.write(UInt8(0xAB)) } == ([0xAB], 1))
        #expect(Self.write(capacity: 2) { $0.write(UInt16(0x1234)) } == ([0x34, 0x12], 2))
        #expect(Self.write(capacity: 3) { $0.writeUInt24(0x12_3456) } == ([0x56, 0x34, 0x12], 3))
        #expect(Self.write(capacity: 3) { $0.writeUInt24(0xFF12_3456) } == ([0x56, 0x34, 0x12], 3), "only the low 24 bits")
        #expect(Self.write(capacity: 4) { $0.write(UInt32(0x1234_5678)) } == ([0x78, 0x56, 0x34, 0x12], 4))
        #expect(Self.write(capacity: 8) { $0.write(UInt64(0x0102_0304_0506_0708)) }
            == ([0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01], 8))
        let u128: UInt128 = 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10
        #expect(Self.write(capacity: 16) { $0.write(u128) } == ((1...16).reversed().map { UInt8($0) }, 16))
    }

    @Test("fields in sequence, byte strings verbatim, exact counts")
    func sequence() {
        let payload: [UInt8] = [0xEE, 0xA0, 0xA1, 0xA2, 0xEE]
        let (bytes, count) = Self.write(capacity: 12) { w in
            w.write(UInt8(0x12))
            w.write(UInt16(0x0022))
            w.write(payload[1..<4])
            #expect(w.count == 6)
            w.write([UInt8]())
            w.write(ArraySlice<UInt8>())
            #expect(w.count == 6, "empty writes write nothing")
            w.write([0xB0, 0xB1])
        }
        #expect(count == 8)
        #expect(bytes == [0x12, 0x22, 0x00, 0xA0, 0xA1, 0xA2, 0xB0, 0xB1, 0xEE, 0xEE, 0xEE, 0xEE], "nothing past count")
    }

    @Test("a writer over an empty buffer takes empty writes")
    func emptyBuffer() {
        #expect(Self.write(capacity: 0) { $0.write([UInt8]()) } == ([], 0))
    }

    struct Pair: ByteEncodable {
        var a: UInt16
        var b: UInt32
        var encodedLength: Int { 6 }
        func encode(into writer: inout ByteWriter) {
            writer.write(a)
            writer.write(b)
        }
    }

    @Test("ByteEncodable: encoded(), encode(appendingTo:), encode(into:)")
    func byteEncodable() {
        let p = Pair(a: 0x0102, b: 0x0304_0506)
        let wire: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x04, 0x03]
        #expect(p.encoded() == wire)

        var out: [UInt8] = [0xAA]
        p.encode(appendingTo: &out)
        p.encode(appendingTo: &out)
        #expect(out == [0xAA] + wire + wire)

        var exact = [UInt8](repeating: 0, count: 6)
        #expect(exact.withUnsafeMutableBytes { p.encode(into: $0) } == 6)
        #expect(exact == wire)

        var small = [UInt8](repeating: 0xEE, count: 5)
        #expect(small.withUnsafeMutableBytes { p.encode(into: $0) } == nil)
        #expect(small == [UInt8](repeating: 0xEE, count: 5), "a refused encode writes nothing")
    }

    @Test("Array appends little-endian fields")
    func arrayAppending() {
        var a: [UInt8] = []
        a.append(littleEndian: UInt16(0x1234))
        a.append(littleEndian: UInt32(0x0102_0304))
        #expect(a == [0x34, 0x12, 0x04, 0x03, 0x02, 0x01])
    }

    @Test("slices read little-endian fields from their own start")
    func reading() {
        let bytes: [UInt8] = [0xEE, 0xEE, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
                              0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10]
        let s = bytes[2...]
        #expect(s.byte(at: 0) == 0x01)
        #expect(s.littleEndianUInt16(at: 0) == 0x0201)
        #expect(s.littleEndianUInt16(at: 1) == 0x0302)
        #expect(s.littleEndianUInt24(at: 0) == 0x03_0201)
        #expect(s.littleEndianUInt32(at: 0) == 0x0403_0201)
        #expect(s.littleEndianUInt64(at: 0) == 0x0807_0605_0403_0201)
        #expect(s.littleEndianUInt128(at: 0) == 0x100F_0E0D_0C0B_0A09_0807_0605_0403_0201)
        #expect(Array(s.bytes(at: 2, count: 3)) == [0x03, 0x04, 0x05])
        #expect(s.bytes(at: 2, count: 3).startIndex == 4, "a view, indexed like the array")
        #expect(Array(s.bytes(from: 14)) == [0x0F, 0x10])
        #expect(s.bytes(from: 16).isEmpty)
    }

    @Test("what the writer writes, the reader reads")
    func writerReaderRoundTrip() {
        let (bytes, _) = Self.write(capacity: 33) { w in
            w.write(UInt16(0xBEEF))
            w.writeUInt24(0xC0_FFEE)
            w.write(UInt32(0xDEAD_BEEF))
            w.write(UInt64(0x0123_4567_89AB_CDEF))
            w.write(UInt128(0xFEDC_BA98_7654_3210_0F1E_2D3C_4B5A_6978))
        }
        let s = bytes[...]
        #expect(s.littleEndianUInt16(at: 0) == 0xBEEF)
        #expect(s.littleEndianUInt24(at: 2) == 0xC0_FFEE)
        #expect(s.littleEndianUInt32(at: 5) == 0xDEAD_BEEF)
        #expect(s.littleEndianUInt64(at: 9) == 0x0123_4567_89AB_CDEF)
        #expect(s.littleEndianUInt128(at: 17) == 0xFEDC_BA98_7654_3210_0F1E_2D3C_4B5A_6978)
    }
}
