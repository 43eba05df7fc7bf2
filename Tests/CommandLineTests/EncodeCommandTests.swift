import Foundation
import Testing

@Suite("swift-att encode att")
struct EncodeCommandTests {
    /// What the messages about a text that is not JSON ask for.
    static let wanted = #"a JSON object like the ones 'decode att --json' prints, such as {"opcode":10,"name":"Read Request","handle":3}"#

    @Test("prints lowercase hex", arguments: [
        (#"{"opcode":10,"handle":23}"#, "0a1700"),
        (#"{"opcode":18,"name":"Write Request","handle":21,"value":"0100"}"#, "1215000100"),
        (#"{"opcode":8,"startingHandle":1,"endingHandle":65535,"attributeType":"00002A38-0000-1000-8000-00805F9B34FB"}"#,
         "080100fffffb349b5f8000008000100000382a0000"),
        (#"{"opcode":33,"lengthValueTupleList":[{"length":1,"value":"01"},{"length":5,"value":"6162"}]}"#, "2101000105006162"),
        ("{\n  \"opcode\": 19\n}", "13"),
    ])
    func encodes(_ json: String, _ hex: String) async throws {
        let r = try await SwiftATTProcess.run(["encode", "att", json])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == hex + "\n")
    }

    @Test("an array encodes each PDU on its own line")
    func array() async throws {
        let r = try await SwiftATTProcess.run(["encode", "att", #"[{"opcode":10,"handle":1},{"opcode":19}]"#])
        #expect(r.status == 0)
        #expect(r.stdoutLines == ["0a0100", "13"])
    }

    @Test("standard input: one object per line, or one pretty-printed document")
    func standardInput() async throws {
        let lines = try await SwiftATTProcess.run(["encode", "att", "-"], input: "{\"opcode\":10,\"handle\":1}\n\n{\"opcode\":19}\n")
        #expect(lines.status == 0)
        #expect(lines.stdoutLines == ["0a0100", "13"])

        let pretty = try await SwiftATTProcess.run(["encode", "att", "-"], input: "{\n  \"opcode\": 10,\n  \"handle\": 1\n}\n")
        #expect(pretty.status == 0)
        #expect(pretty.stdoutLines == ["0a0100"])

        let bad = try await SwiftATTProcess.run(["encode", "att", "-"], input: "{\"opcode\":10,\"handle\":1}\n{\"opcode\":10}\n{\"opcode\":19}\n")
        #expect(bad.status == 1)
        #expect(bad.stdoutLines == ["0a0100", "13"])
        #expect(bad.stderrLines == ["swift-att: error: line 2: handle: missing field"])
    }
}
