import Testing
import SwiftATTJSON

@Suite("JSONValue.serialized")
struct JSONValueSerializationTests {
    @Test("compact, keys in order", arguments: [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.integer(-42), "-42"),
        (.double(1.5), "1.5"),
        (.double(-0.0125), "-0.0125"),
        (.double(.infinity), "null"),
        (.double(.nan), "null"),
        (.array([]), "[]"),
        (.object([]), "{}"),
        (.object([JSONMember("b", 1), JSONMember("a", [true, nil, "x"])]), #"{"b":1,"a":[true,null,"x"]}"#),
        (.string("q\"b\\s/\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}é😀"), #""q\"b\\s/\n\r\t\b\f\u0001\u001f"# + "\u{7F}é😀\""),
        (.string("\u{0}"), #""\u0000""#),
        // No byte to escape: appended whole, non-ASCII and DEL included.
        (.string("é😀 plain \u{7F} text"), "\"é😀 plain \u{7F} text\""),
        (.string(""), #""""#),
    ])
    func serializes(_ value: JSONValue, _ expected: String) {
        #expect(value.serialized() == expected)
    }

    @Test("parse(serialized()) gives the value back", arguments: [
        JSONValue.object([
            JSONMember("opcode", 17), JSONMember("name", "Read By Group Type Response"),
            JSONMember("list", [.object([JSONMember("value", "0018")]), 1.25, -7, false, nil]),
            JSONMember("text", "tab\there \"quoted\" \\ é 😀 \u{1}"),
        ]),
        .array([.double(1e300), .double(-2.5e-300), .integer(Int.max), .integer(Int.min)]),
    ])
    func roundTrips(_ value: JSONValue) throws {
        #expect(try JSONValue.parse(value.serialized()) == value)
    }

    @Test("compact text re-serializes to itself", arguments: [
        #"{"opcode":1,"name":"Error Response","requestOpcode":10,"handle":41}"#,
        #"[1,-2,"a\"b",{"k":[true,false,null]},{}]"#,
    ])
    func textRoundTrips(_ text: String) throws {
        #expect(try JSONValue.parse(text).serialized() == text)
    }
}
