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

    /// The scan skips eight bytes at a time: every ASCII byte, and a multi-byte
    /// character, at every offset of strings up to three words long, against an escaper
    /// that goes a byte at a time.
    @Test func everyByteAtEveryOffsetIsEscapedAsAByteAtATimeWould() {
        let fillers: [Character] = ["a", "é", "\u{7F}"]
        for length in 1...24 {
            for offset in 0..<length {
                for code in UInt8(0)...UInt8(0x7F) {
                    var text = String(repeating: fillers[length % fillers.count], count: length)
                    let index = text.index(text.startIndex, offsetBy: offset)
                    text.replaceSubrange(index...index, with: String(UnicodeScalar(code)))
                    let expected = "\"" + Self.escapedByteAtATime(text) + "\""
                    if JSONValue.string(text).serialized() != expected {
                        Issue.record("length \(length), byte 0x\(String(code, radix: 16)) at \(offset)")
                        return
                    }
                }
            }
        }
    }

    /// Many bytes to escape to a word, next to each other and apart: strings drawn from a
    /// mix of them and plain characters (a fixed seed), against the byte-at-a-time escaper.
    @Test func mixedStringsAreEscapedAsAByteAtATimeWould() {
        let pieces: [String] = ["a", "\n", "\"", "\\", "\u{01}", "\u{1F}", " ", "é", "\u{7F}", "😀", "!", "~"]
        var seed: UInt64 = 0x5EED
        for _ in 0..<3000 {
            var text = ""
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(seed >> 58) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                text += pieces[Int(seed >> 33) % pieces.count]
            }
            let expected = "\"" + Self.escapedByteAtATime(text) + "\""
            if JSONValue.string(text).serialized() != expected {
                Issue.record("\(text.debugDescription) gave \(JSONValue.string(text).serialized())")
                return
            }
        }
    }

    static func escapedByteAtATime(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
