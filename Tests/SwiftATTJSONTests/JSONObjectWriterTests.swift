import Testing
import SwiftATTJSON

/// `JSONObjectWriter` writes the bytes `JSONValue.serialized()` writes for the same object.
@Suite struct JSONObjectWriterTests {
    @Test func emptyObject() {
        var line = JSONObjectWriter()
        #expect(line.finish() == Array("{}".utf8))
    }

    @Test func golden() {
        var line = JSONObjectWriter()
        line.member("event", literal: "chunk")
        line.member("index", 7)
        line.member("bytes", -20)
        line.member("on", false)
        line.member("value") { $0 += Array("0aff".utf8) }
        line.member("list", [1, "x", nil])
        #expect(String(decoding: line.finish(), as: UTF8.self)
            == #"{"event":"chunk","index":7,"bytes":-20,"on":false,"value":"0aff","list":[1,"x",null]}"#)
    }

    @Test(arguments: [0, 1, -1, 9, 10, -10, 99, 100, 4_096, -65_535, 1_000_000_007, Int.max, Int.min, Int.min + 1])
    func integersAsStringWritesThem(_ n: Int) {
        var line = JSONObjectWriter()
        line.member("n", n)
        #expect(String(decoding: line.finish(), as: UTF8.self) == "{\"n\":\(n)}")
    }

    /// Every kind of member, strings that need escapes included, against the
    /// serialization of the `JSONValue` a caller would otherwise have built.
    @Test(arguments: [
        "plain", "", "q\"b\\s/\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}é😀", "\u{0}", String(repeating: "long ", count: 60),
    ])
    func matchesJSONValueSerialization(_ text: String) throws {
        var line = JSONObjectWriter(capacity: 4)
        line.member("kind", literal: "sample")
        line.member("text", text)
        line.member("min", Int.min)
        line.member("max", Int.max)
        line.member("yes", true)
        line.member("nested", .object([JSONMember(text, [1.5, .object([])])]))
        let value = JSONValue.object([
            JSONMember("kind", "sample"), JSONMember("text", .string(text)), JSONMember("min", .integer(.min)), JSONMember("max", .integer(.max)),
            JSONMember("yes", true), JSONMember("nested", .object([JSONMember(text, [1.5, .object([])])])),
        ])
        let bytes = line.finish()
        #expect(String(decoding: bytes, as: UTF8.self) == value.serialized())
        #expect(try JSONValue.parse(String(decoding: bytes, as: UTF8.self)) == value)
    }

    /// On the stack: the same bytes; a line longer than its stack buffer moves to the
    /// heap mid-member and loses nothing; `finish(_:)` hands the bytes where they lie and
    /// leaves the writer empty for another object.
    @Test(arguments: [1, 8, 64, 256])
    func onTheStackTheSameBytes(_ capacity: Int) {
        let text = String(repeating: "long ", count: 60)
        let value = JSONValue.object([JSONMember("event", "chunk"), JSONMember("index", .integer(-12)),
                                      JSONMember("text", .string(text)), JSONMember("value", .string("0aff10"))])
        let written = JSONObjectWriter.withLine(capacity: capacity) { line -> (String, String) in
            line.member("event", literal: "chunk")
            line.member("index", -12)
            line.member("text", text)
            line.member("value", unescapedCount: 6) { Array("0aff10".utf8).withUnsafeBytes(UnsafeMutableRawBufferPointer($0).copyMemory) }
            let first = line.finish { String(decoding: $0, as: UTF8.self) }
            line.member("again", true)
            return (first, line.finish { String(decoding: $0, as: UTF8.self) })
        }
        #expect(written.0 == value.serialized())
        #expect(written.1 == #"{"again":true}"#)
    }

    /// Hex digits written into the line's memory (`Hex.write`'s form), beside a value
    /// from an appending closure: the same digits.
    @Test func unescapedMembersBothWays() {
        let bytes: [UInt8] = [0x00, 0x0A, 0xFF, 0x7E]
        var line = JSONObjectWriter(capacity: 2)
        line.member("a", unescapedCount: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = Array("0123456789abcdef".utf8)[Int(b >> 4)]
                out[2 * i + 1] = Array("0123456789abcdef".utf8)[Int(b & 0x0F)]
            }
        }
        line.member("b") { $0 += Array("000aff7e".utf8) }
        line.member("c", unescapedCount: 0) { _ in }
        #expect(String(decoding: line.finish(), as: UTF8.self) == #"{"a":"000aff7e","b":"000aff7e","c":""}"#)
    }
}
