import Testing
import SwiftATTJSON
import TestSupport

@Suite("JSONValue.parse")
struct JSONValueParseTests {
    @Test("valid documents", arguments: [
        ("null", JSONValue.null),
        (" true ", .bool(true)),
        ("\t\r\nfalse\n", .bool(false)),
        ("0", .integer(0)),
        ("-0", .integer(0)),
        ("123", .integer(123)),
        ("-123", .integer(-123)),
        ("9223372036854775807", .integer(Int.max)),
        ("-9223372036854775808", .integer(Int.min)),
        ("9223372036854775808", .double(9223372036854775808.0)),
        ("1.5", .double(1.5)),
        ("1e3", .double(1000)),
        ("-1.25E-2", .double(-0.0125)),
        ("2E+2", .double(200)),
        ("\"\"", .string("")),
        (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{08}\u{0C}\n\r\t")),
        (#""\u00e9\u00E9""#, .string("éé")),
        (#""\u0000""#, .string("\u{0}")),
        (#""\uD83D\uDE00""#, .string("😀")),
        ("\"é😀 ok\"", .string("é😀 ok")),
        ("[]", .array([])),
        ("{}", .object([])),
        ("[1,[2,[3]],{}]", .array([1, [2, [3]], .object([])])),
        (" { \"b\" : 1 , \"a\" : [ true , null ] } ", .object([JSONMember("b", 1), JSONMember("a", [true, nil])])),
    ])
    func parsesValid(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test("object keys keep their order")
    func keepsKeyOrder() throws {
        let value = try JSONValue.parse(#"{"z":1,"a":2,"m":3}"#)
        guard case let .object(members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(value["a"] == .integer(2))
        #expect(value["missing"] == nil)
        #expect(JSONValue.integer(1)["a"] == nil)
    }

    typealias Reason = JSONParseError.Reason

    @Test("malformed documents name what and where (character offsets)", arguments: [
        ("", Reason.unexpectedEndOfInput(expected: "a value"), 0),
        ("   ", .unexpectedEndOfInput(expected: "a value"), 3),
        ("[1,]", .unexpectedCharacter("]", expected: "a value"), 3),
        (#"{"a":1,}"#, .unexpectedCharacter("}", expected: "a string key"), 7),
        (#"{"a" 1}"#, .unexpectedCharacter("1", expected: "':' after a key"), 5),
        ("{a:1}", .unexpectedCharacter("a", expected: "a string key"), 1),
        ("[1 2]", .unexpectedCharacter("2", expected: "',' or ']' after an array element"), 3),
        ("[1", .unexpectedEndOfInput(expected: "',' or ']'"), 2),
        (#"{"a":1"#, .unexpectedEndOfInput(expected: "',' or '}'"), 6),
        ("01", .invalidNumber("leading zero"), 1),
        ("1.", .invalidNumber("a digit must follow '.'"), 2),
        ("1.e5", .invalidNumber("a digit must follow '.'"), 2),
        ("1e", .invalidNumber("a digit must follow the exponent"), 2),
        ("1e+", .invalidNumber("a digit must follow the exponent"), 3),
        ("-", .unexpectedEndOfInput(expected: "a digit"), 1),
        ("-x", .unexpectedCharacter("x", expected: "a digit after '-'"), 1),
        ("+1", .unexpectedCharacter("+", expected: "a value"), 0),
        (".5", .unexpectedCharacter(".", expected: "a value"), 0),
        ("NaN", .unexpectedCharacter("N", expected: "a value"), 0),
        ("tru", .unexpectedEndOfInput(expected: "'true'"), 3),
        ("trUe", .unexpectedCharacter("U", expected: "'true'"), 2),
        ("nul", .unexpectedEndOfInput(expected: "'null'"), 3),
        (#""abc"#, .unexpectedEndOfInput(expected: "'\"' to close the string"), 4),
        (#""a\x""#, .invalidEscape("x"), 2),
        (#""a\"#, .unexpectedEndOfInput(expected: "an escape character"), 3),
        (#""\u12""#, .invalidUnicodeEscape, 1),
        (#""\uZZZZ""#, .invalidUnicodeEscape, 1),
        (#""\uD800""#, .unpairedSurrogate(0xD800), 1),
        (#""\uDC00""#, .unpairedSurrogate(0xDC00), 1),
        (#""\uD800\u0041""#, .unpairedSurrogate(0xD800), 1),
        (#""x\uD83Dy""#, .unpairedSurrogate(0xD83D), 2),
        ("\"a\u{01}b\"", .controlCharacterInString(0x01), 2),
        ("\"a\nb\"", .controlCharacterInString(0x0A), 2),
        ("[1] x", .unexpectedCharacter("x", expected: "end of input"), 4),
        ("1 2", .unexpectedCharacter("2", expected: "end of input"), 2),
        (#"{"a":1,"a":2}"#, .duplicateKey("a"), 7),
        ("1e999", .numberOutOfRange, 0),
        ("-1e400", .numberOutOfRange, 0),
        ("\"é\" x", .unexpectedCharacter("x", expected: "end of input"), 4),
        ("[\"😀\", ]", .unexpectedCharacter("]", expected: "a value"), 6),
        ("\u{FEFF}1", .unexpectedCharacter("\u{FEFF}", expected: "a value"), 0),
        ("'a'", .unexpectedCharacter("'", expected: "a value"), 0),
        ("[1,/*c*/2]", .unexpectedCharacter("/", expected: "a value"), 3),
    ])
    func rejectsMalformed(_ text: String, _ reason: Reason, _ offset: Int) {
        #expect(throws: JSONParseError(reason, offset: offset)) { try JSONValue.parse(text) }
    }

    @Test("error descriptions say what and at which offset")
    func errorDescription() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[1,]") }
        do {
            _ = try JSONValue.parse(#"{"opcode":10,"#)
            Issue.record("parsed")
        } catch {
            #expect(error.description == "unexpected end of input, expected a string key at offset 13")
        }
        #expect(JSONParseError(.unexpectedCharacter("\u{7}", expected: "a value"), offset: 2).description
            == "unexpected character U+0007, expected a value at offset 2")
        // The reason alone, for a caller that gives the place its own way.
        #expect(JSONParseError.Reason.duplicateKey("a").description == #"duplicate key "a""#)
    }

    @Test("nesting up to the limit parses; deeper is an error, not a crash")
    func nestingLimit() throws {
        let limit = JSONValue.maximumNestingDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try JSONValue.parse(ok)
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        _ = try JSONValue.parse(objects)

        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONParseError(.nestingTooDeep(limit: limit), offset: limit)) { try JSONValue.parse(tooDeep) }
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONParseError(.nestingTooDeep(limit: limit), offset: limit)) { try JSONValue.parse(hostile) }
        let hostileObjects = String(repeating: #"{"a":["#, count: 200_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(hostileObjects) }
    }

    @Test("random text never traps")
    func fuzz() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]",:0123456789-+.eE\u tfnrlasDd"#) + ["é", "😀", "\u{01}", "\n", " "]
        var parsed = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 24)
            var text = ""
            for _ in 0..<length { text.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            if let value = try? JSONValue.parse(text) {
                parsed += 1
                #expect(try JSONValue.parse(value.serialized()) == value)
            }
        }
        #expect(parsed > 0)
    }
}
