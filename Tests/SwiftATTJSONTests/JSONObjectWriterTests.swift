import Testing
import SwiftATTJSON

/// `JSONObjectWriter` writes the bytes `JSONValue.serialized()` writes for the same object.
@Suite struct JSONObjectWriterTests {
    @Test func emptyObject() {
        #expect(JSONObjectWriter().finish() == Array("{}".utf8))
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
}
