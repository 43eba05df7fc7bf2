import Foundation
import Testing

@Suite("swift-att errors: one line on stderr, nothing on stdout")
struct CommandLineErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        var input = ""
        var status: Int32
        var message: String
        var description: String { arguments.joined(separator: " ") }
    }

    @Test("bad input data exits 1, usage errors exit 2", arguments: [
        Case(arguments: ["decode", "att", "zz"], status: 1, message: "invalid hex character 'z' at position 0"),
        Case(arguments: ["decode", "att", "0a1"], status: 1, message: "odd number of hex digits (3): each byte needs two"),
        Case(arguments: ["decode", "att", ""], status: 1, message: "empty ATT PDU: no opcode"),
        Case(arguments: ["decode", "att", "3f"], status: 1, message: "unknown opcode 0x3f: not defined by Core 5.4"),
        Case(arguments: ["decode", "att", "0a03"], status: 1, message: "Read Request truncated: needs at least 3 bytes, has 2"),
        Case(arguments: ["decode", "att", "--json", "0a17000000"], status: 1, message: "Read Request must be exactly 3 bytes, has 5"),
        Case(arguments: ["encode", "att", #"{"opcode":10,"#], status: 1,
             message: #"not valid JSON at offset 13, after '{"opcode":10,': unexpected end of input, expected a string key"#),
        Case(arguments: ["encode", "att", #"{"opcode":10 "handle":1}"#], status: 1,
             message: #"not valid JSON at offset 13, after '{"opcode":10 ': unexpected character '"', expected ',' or '}' after an object member"#),
        Case(arguments: ["encode", "att", #"{"opcode":10}"#], status: 1, message: "handle: missing field"),
        Case(arguments: ["encode", "att", #"{"opcode":10,"handle":1,"foo":2}"#], status: 1, message: "foo: unknown key (expected handle)"),
        Case(arguments: ["encode", "att", #"{"opcode":10,"handle":65536}"#], status: 1, message: "handle: 65536 is out of range 0...65535"),
        Case(arguments: ["encode", "att", #"{"opcode":63}"#], status: 1, message: "opcode: 63 (0x3f) is not an opcode Core 5.4 defines"),
        Case(arguments: ["encode", "att", "-"], input: "not json", status: 1,
             message: "'not json' is not JSON: give " + EncodeCommandTests.wanted),
        Case(arguments: ["encode", "att", "-"], input: "", status: 1,
             message: "nothing to encode: give " + EncodeCommandTests.wanted),
        Case(arguments: [], status: 2, message: "missing command (see 'swift-att --help')"),
        Case(arguments: ["frobnicate"], status: 2, message: "unknown command 'frobnicate' (see 'swift-att --help')"),
        Case(arguments: ["--frobnicate"], status: 2, message: "unknown option '--frobnicate' (see 'swift-att --help')"),
        Case(arguments: ["decode"], status: 2, message: "decode: missing protocol: 'att' or 'ad' (see 'swift-att decode --help')"),
        Case(arguments: ["decode", "l2cap", "0201"], status: 2,
             message: "decode: unknown protocol 'l2cap'; 'att' or 'ad' (see 'swift-att decode --help')"),
        Case(arguments: ["decode", "att"], status: 2,
             message: "decode att: missing <hex>, or '-' to read standard input (see 'swift-att decode --help')"),
        Case(arguments: ["decode", "att", "0a1700", "--xml"], status: 2,
             message: "unknown option '--xml' for 'decode' (see 'swift-att decode --help')"),
        Case(arguments: ["encode", "att", "{}", "{}"], status: 2, message: "encode att: expected one <json> argument, got 2 (quote the JSON)"),
        Case(arguments: ["encode", "att", "--json", "{}"], status: 2, message: "unknown option '--json' for 'encode' (see 'swift-att encode --help')"),
        Case(arguments: ["help", "frobnicate"], status: 2, message: "no help for unknown command 'frobnicate' (see 'swift-att --help')"),
    ])
    func fails(_ c: Case) async throws {
        let r = try await SwiftATTProcess.run(c.arguments, input: c.input)
        #expect(r.status == c.status)
        #expect(r.stdout == "")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr == "swift-att: error: \(c.message)\n")
    }

    /// Arguments too long to print whole in a test name.
    struct Hostile: Sendable, CustomStringConvertible {
        var arguments: [String]
        var description: String {
            arguments.map { $0.count > 40 ? "\($0.prefix(20))… (\($0.count) characters)" : $0 }.joined(separator: " ")
        }
    }

    @Test("hostile input is an error, never a crash", arguments: [
        Hostile(arguments: ["decode", "att", String(repeating: "ff", count: 5000)]),
        Hostile(arguments: ["decode", "att", "0x"]),
        Hostile(arguments: ["decode", "att", "\u{0}"]),
        Hostile(arguments: ["decode", "att", "é"]),
        Hostile(arguments: ["decode", "att", "0a\n17"]),
        Hostile(arguments: ["encode", "att", String(repeating: "[", count: 100_000)]),
        Hostile(arguments: ["encode", "att", #"{"opcode":11,"value":""# + String(repeating: "00", count: 600) + #""}"#]),
        Hostile(arguments: ["encode", "att", #""\ud800""#]),
        Hostile(arguments: ["encode", "att", ""]),
    ])
    func hostile(_ c: Hostile) async throws {
        let r = try await SwiftATTProcess.run(c.arguments)
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.hasPrefix("swift-att: error: "))
    }
}
