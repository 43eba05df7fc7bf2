import Foundation
import Testing

@Suite("swift-att decode att")
struct DecodeCommandTests {
    @Test("human form of a Read By Group Type Response")
    func readByGroupTypeResponse() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "1106110019000d181a001c000a18"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines == [
            "Read By Group Type Response (0x11)",
            "  Length:               6",
            "  Attribute data list:  2 entries",
            "    0x0011-0x0019  0x180D Heart Rate",
            "    0x001a-0x001c  0x180A Device Information",
        ])
    }

    @Test("human form of an Error Response")
    func errorResponse() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "01 10 31 00 0a"])
        #expect(r.status == 0)
        #expect(r.stdoutLines == [
            "Error Response (0x01)",
            "  Request opcode:  0x10 Read By Group Type Request",
            "  Handle:          0x0031",
            "  Error:           0x0a Attribute Not Found",
        ])
    }

    @Test("human form of a Find Information Response")
    func findInformationResponse() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "05:01:01:00:00:28:02:00:03:28:03:00:00:2a"])
        #expect(r.status == 0)
        #expect(r.stdoutLines == [
            "Find Information Response (0x05)",
            "  Format:            0x01 (16-bit UUIDs)",
            "  Information data:  3 entries",
            "    0x0001  0x2800 Primary Service",
            "    0x0002  0x2803 Characteristic",
            "    0x0003  0x2A00 Device Name",
        ])
    }

    @Test("names and values in the human form", arguments: [
        ("080100ffff0328", ["Read By Type Request (0x08)", "  Handle range:    0x0001-0xffff", "  Attribute type:  0x2803 Characteristic"]),
        ("0x100100ffff0028", ["Read By Group Type Request (0x10)", "  Attribute group type:  0x2800 Primary Service"]),
        ("060100ffff00280d18", ["  Attribute value:  0d18  (0x180D Heart Rate)"]),
        ("0b73776966742d6174742062656e6368", ["Read Response (0x0b)", #"  Value:  73776966742d6174742062656e6368  "swift-att bench""#]),
        ("0b0102", ["  Value:  0102"]),
        ("0b", ["  Value:  (empty)"]),
        ("09070200020300002a", [
            "    0x0002  020300002a",
            "            characteristic: properties 0x02 (Read), value handle 0x0003, UUID 0x2A00 Device Name",
        ]),
        ("0915" + "1e00" + "021f00" + "0000000000001f9e0d4c175ae1a7577e", [
            "            characteristic: properties 0x02 (Read), value handle 0x001f, UUID 7E57A7E1-5A17-4C0D-9E1F-000000000000",
        ]),
        ("010a290002", ["  Request opcode:  0x0a Read Request", "  Handle:          0x0029", "  Error:           0x02 Read Not Permitted"]),
        ("013f2b0080", ["  Request opcode:  0x3f (unknown opcode)", "  Error:           0x80 Application Error"]),
        ("1801", ["Execute Write Request (0x18)", "  Flags:  0x01 Immediately write all pending prepared values"]),
        ("13", ["Write Response (0x13)"]),
        ("2101000105006162", ["    length 1  01", #"    length 5  6162  "ab""#, "              (truncated: 2 of 5 bytes)"]),
        ("02f700", ["Exchange MTU Request (0x02)", "  Client RX MTU:  247"]),
    ])
    func humanLines(_ hex: String, _ expected: [String]) async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", hex])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let lines = r.stdoutLines
        for line in expected {
            #expect(lines.contains(line), "missing \(line.debugDescription) in:\n\(r.stdout)")
        }
    }

    @Test("the hex may be split over several arguments")
    func hexOverArguments() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "0a", "17", "00"])
        #expect(r.status == 0)
        #expect(r.stdoutLines == ["Read Request (0x0a)", "  Handle:  0x0017"])
    }

    @Test("--json prints one parseable object with opcode and name", arguments: [
        ("110601000500001806000d0001180e0010000f18", 17, "Read By Group Type Response"),
        ("011031000a", 1, "Error Response"),
        ("1e", 30, "Handle Value Confirmation"),
        ("d2240001010000001122334455667788", 210, "Signed Write Command"),
    ])
    func json(_ hex: String, _ opcode: Int, _ name: String) async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "--json", hex])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["opcode"] as? Int == opcode)
        #expect(object["name"] as? String == name)
        #expect(r.stdout.hasPrefix(#"{"opcode":\#(opcode),"name":"\#(name)""#))
    }

    @Test("standard input: one PDU per line; blank and # lines skipped; a bad line reported, the rest decoded")
    func standardInput() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "-", "--json"], input: "# capture\n0a1700\n\nzz\n  0b01  \r\n")
        #expect(r.status == 1)
        #expect(r.stdoutLines == [#"{"opcode":10,"name":"Read Request","handle":23}"#, #"{"opcode":11,"name":"Read Response","value":"01"}"#])
        #expect(r.stderrLines == ["swift-att: error: line 4: invalid hex character 'z' at position 0"])

        let human = try await SwiftATTProcess.run(["decode", "att", "-"], input: "0a1700\n1e\n")
        #expect(human.status == 0)
        #expect(human.stdoutLines == ["Read Request (0x0a)", "  Handle:  0x0017", "", "Handle Value Confirmation (0x1e)"])
    }
}
