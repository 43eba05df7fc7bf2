import Foundation
import Testing
import TestSupport

@Suite("swift-att decode ad")
struct DecodeADCommandTests {
    @Test("--json prints each vector's fields, as one line", arguments: ADVector.all)
    func json(_ v: ADVector) async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", v.hex, "--json"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines.count == 1)
        let printed = try JSONDecoder().decode(FixtureJSON.self, from: Data(r.stdout.utf8))
        #expect(printed == v.fields, "\(v.name)\n  printed: \(printed)\n  expected: \(v.fields)")
    }

    @Test("the vector tables are all there")
    func vectorsLoaded() {
        #expect(ADVector.all.count >= 20)
        #expect(ADMalformedVector.all.count >= 30)
    }

    @Test("human form of an iBeacon")
    func iBeacon() async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines == [
            "Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)",
            "Manufacturer Specific Data: 0x004C Apple, Inc.: 02 15 e2 c5 6d b5 df fb 48 d2 b0 60 d0 f5 a7 10 96 e0 00 01 00 02 c5",
            "  iBeacon",
            "    Proximity UUID:  E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
            "    Major:           1",
            "    Minor:           2",
            "    Measured power:  -59 dBm at 1 m",
        ])
    }

    @Test("human form of a heart-rate monitor")
    func heartRateMonitor() async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", "02 01 06 05 03 0d 18 0f 18 03 19 41 03 0f 09 50 6f 6c 61 72 20 48 31 30 20 31 32 33 34"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines == [
            "Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)",
            "Complete List of 16-bit Service Class UUIDs: 0x180D Heart Rate, 0x180F Battery",
            "Appearance: 0x0341 Heart Rate Sensor: Heart Rate Belt",
            #"Complete Local Name: "Polar H10 1234""#,
        ])
    }

    @Test("human form of an Eddystone-URL beacon")
    func eddystoneURL() async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", "0201060303aafe0e16aafe10ec016578616d706c6500"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines == [
            "Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)",
            "Complete List of 16-bit Service Class UUIDs: 0xFEAA",
            "Service Data - 16-bit UUID: 0xFEAA: 10 ec 01 65 78 61 6d 70 6c 65 00",
            "  Eddystone-URL",
            "    URL:       https://www.example.com/",
            "    Tx power:  -20 dBm at 0 m",
        ])
    }

    @Test("human form: values, names, raw types and padding", arguments: [
        ("0201061116aafe20000bb81780000004d200003039", [
            "  Eddystone-TLM",
            "    Battery voltage:      3000 mV",
            "    Temperature:          23.5 °C",
            "    Advertising PDUs:     1234",
            "    Time since power-on:  1234.5 s",
        ]),
        ("1716aafe00e7edd1ebeac04e5defa0170123456789ab0000", [
            "  Eddystone-UID", "    Namespace:  edd1ebeac04e5defa017", "    Instance:   0123456789ab", "    Tx power:   -25 dBm at 0 m",
        ]),
        ("0d16aafe30f61122334455667788", ["  Eddystone-EID", "    Identifier:  1122334455667788", "    Tx power:    -10 dBm at 0 m"]),
        ("020af807ff5900deadbeef", ["Tx Power Level: -8 dBm", "Manufacturer Specific Data: 0x0059 Nordic Semiconductor ASA: de ad be ef"]),
        ("02010604095461670000000000", [#"Complete Local Name: "Tag""#, "Padding: 5 bytes of zeros"]),
        ("0201060003094142", ["Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)", "Padding: 5 bytes, not all zero: 00 03 09 41 42"]),
        ("01010103040d0c025a0333abcd05084142ff43", [
            "Flags: none (no octets)",
            "Complete List of 16-bit Service Class UUIDs: (none)",
            "Class of Device: 0c 02 5a",
            "Unknown AD type 0x33: ab cd",
            #"Shortened Local Name: "AB\#u{FFFD}C" (invalid UTF-8: 41 42 ff 43)"#,
        ]),
        ("05120600800c0314121804160f185a0319c103", [
            "Peripheral Connection Interval Range: 7.5 ms – 4000 ms (0x0006-0x0C80)",
            "List of 16-bit Service Solicitation UUIDs: 0x1812 Human Interface Device",
            "Service Data - 16-bit UUID: 0x180F Battery: 5a",
            "Appearance: 0x03C1 Human Interface Device: Keyboard",
        ]),
        ("031aa000021c02081bffeeddccbbc0010717010203040506", [
            "Advertising Interval: 100 ms (0x00A0)",
            "LE Role: Peripheral and Central Role supported, Peripheral Role preferred (0x02)",
            "LE Bluetooth Device Address: C0:BB:CC:DD:EE:FF (random, static)",
            "Public Target Address: 06:05:04:03:02:01",
        ]),
        ("1524172f2f7777772e626c7565746f6f74682e636f6d", ["URI: https://www.bluetooth.com"]),
        ("02010611079ecadc240ee5a9e093f3a3b50100406e", [
            "Complete List of 128-bit Service Class UUIDs: 6E400001-B5A3-F393-E0A9-E50E24DCCA9E Nordic UART Service",
        ]),
        ("0816aafe100001417f", ["Service Data - 16-bit UUID: 0xFEAA: 10 00 01 41 7f", "  (not a valid Eddystone frame)"]),
        // A name cannot break the layout: control characters are escaped.
        ("0709410a22425c7f", [#"Complete Local Name: "A\u{a}\"B\\\u{7f}""#]),
        ("", ["(no AD structures)"]),
    ])
    func humanLines(_ hex: String, _ expected: [String]) async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", hex])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        for line in expected {
            #expect(r.stdoutLines.contains(line), "missing \(line.debugDescription) in:\n\(r.stdout)")
        }
    }

    @Test("a malformed payload exits 1 with one line naming the structure's byte offset", arguments: ADMalformedVector.all)
    func malformed(_ v: ADMalformedVector) async throws {
        for arguments in [["decode", "ad", v.hex], ["decode", "ad", v.hex, "--json"]] {
            let r = try await SwiftATTProcess.run(arguments)
            #expect(r.status == 1)
            #expect(r.stdout == "")
            #expect(r.stderrLines.count == 1)
            let line = try #require(r.stderrLines.first)
            #expect(line.hasPrefix("swift-att: error: "), "\(line)")
            #expect(line.contains("at byte \(v.offset)"), "\(v.name): \(line)")
        }
    }

    @Test("bad hex exits 1 naming the character and its position")
    func badHex() async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", "02010g"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderrLines == ["swift-att: error: invalid hex character 'g' at position 5"])

        let odd = try await SwiftATTProcess.run(["decode", "ad", "020"])
        #expect(odd.status == 1)
        #expect(odd.stderrLines == ["swift-att: error: odd number of hex digits (3): each byte needs two"])
    }

    @Test("usage errors exit 2", arguments: [
        (["decode", "ad"], "decode ad: missing <hex>, or '-' to read standard input (see 'swift-att decode --help')"),
        (["decode", "ad", "0201", "-"], "decode ad: '-' reads standard input and takes no other <hex>"),
        (["decode", "ad", "020106", "--xml"], "unknown option '--xml' for 'decode' (see 'swift-att decode --help')"),
        (["decode", "adv", "020106"], "decode: unknown protocol 'adv'; 'att' or 'ad' (see 'swift-att decode --help')"),
    ])
    func usage(_ arguments: [String], _ message: String) async throws {
        let r = try await SwiftATTProcess.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderrLines == ["swift-att: error: " + message])
    }

    @Test("the hex may be split over several arguments")
    func hexOverArguments() async throws {
        let r = try await SwiftATTProcess.run(["decode", "ad", "02", "01", "06", "--json"])
        #expect(r.status == 0)
        #expect(r.stdoutLines.first?.hasPrefix(#"{"significantLength":3,"items":[{"type":1,"#) == true)
    }

    @Test("standard input: one payload per line; blank and # lines skipped; a bad line reported, the rest decoded")
    func standardInput() async throws {
        let input = "# scan\n020a04\n\n0201\n  03194103  \r\n0x0201060003094142\n"
        let r = try await SwiftATTProcess.run(["decode", "ad", "-", "--json"], input: input)
        #expect(r.status == 1)
        #expect(r.stdoutLines == [
            #"{"significantLength":3,"items":[{"type":10,"typeName":"Tx Power Level","data":"04","txPowerLevel":4}]}"#,
            #"{"significantLength":4,"items":[{"type":25,"typeName":"Appearance","data":"4103","appearance":833,"category":13,"subcategory":1,"appearanceName":"Heart Rate Belt","categoryName":"Heart Rate Sensor"}]}"#,
            #"{"significantLength":3,"items":[{"type":1,"typeName":"Flags","data":"06","flags":6,"flagNames":["LE General Discoverable Mode","BR/EDR Not Supported"]}],"padding":"0003094142"}"#,
        ])
        #expect(r.stderrLines == [
            "swift-att: error: line 4: AD structure at byte 0 runs past the end: its length octet says 2 bytes follow, only 1 does",
        ])

        let human = try await SwiftATTProcess.run(["decode", "ad", "-"], input: "020a04\n03194103\n0201060003094142\n")
        #expect(human.status == 0)
        #expect(human.stderr == "")
        #expect(human.stdoutLines == [
            "Tx Power Level: 4 dBm",
            "",
            "Appearance: 0x0341 Heart Rate Sensor: Heart Rate Belt",
            "",
            "Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)",
            "Padding: 5 bytes, not all zero: 00 03 09 41 42",
        ])
    }

    @Test("every vector through standard input at once, human and JSON")
    func allVectorsThroughStandardInput() async throws {
        let input = ADVector.all.map(\.hex).filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
        let json = try await SwiftATTProcess.run(["decode", "ad", "-", "--json"], input: input)
        #expect(json.status == 0)
        #expect(json.stderr == "")
        let expected = ADVector.all.filter { !$0.hex.isEmpty }.map(\.fields)
        let printed = try json.stdoutLines.map { try JSONDecoder().decode(FixtureJSON.self, from: Data($0.utf8)) }
        #expect(printed == expected)

        let human = try await SwiftATTProcess.run(["decode", "ad", "-"], input: input)
        #expect(human.status == 0)
        #expect(human.stderr == "")
        #expect(human.stdoutLines.filter(\.isEmpty).count == expected.count - 1)
    }

    @Test("random payloads never crash it: each decodes or is reported on one line")
    func randomPayloads() async throws {
        var generator = SplitMix64(seed: 0xAD)
        var lines: [String] = []
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            if Int.random(in: 0..<4, using: &generator) == 0 {
                for _ in 0..<Int.random(in: 0...40, using: &generator) { bytes.append(.random(in: 0...255, using: &generator)) }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes += Self.randomStructure(using: &generator)
                }
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                }
            }
            if !bytes.isEmpty { lines.append(bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()) }
        }
        let input = lines.joined(separator: "\n") + "\n"
        for flags in [[], ["--json"]] {
            let r = try await SwiftATTProcess.run(["decode", "ad", "-"] + flags, input: input)
            #expect(r.status == 0 || r.status == 1)
            #expect(r.stderrLines.allSatisfy { $0.hasPrefix("swift-att: error: line ") })
            #expect(r.stderrLines.count < lines.count / 2, "most random structures are well formed")
            if flags.isEmpty {
                #expect(r.stdoutLines.filter(\.isEmpty).count + 1 + r.stderrLines.count == lines.count)
            } else {
                #expect(r.stdoutLines.count + r.stderrLines.count == lines.count)
                for line in r.stdoutLines {
                    #expect((try? JSONDecoder().decode(FixtureJSON.self, from: Data(line.utf8))) != nil, "\(line)")
                }
            }
        }
    }

    /// A structure of a type the tool decodes, usually of a length its type allows, with
    /// beacon prefixes now and then so iBeacon and Eddystone layouts are tried too.
    private static func randomStructure(using generator: inout SplitMix64) -> [UInt8] {
        let types: [UInt8] = [0x01, 0x03, 0x05, 0x07, 0x08, 0x09, 0x0A, 0x12, 0x16, 0x17, 0x19, 0x1A, 0x1B, 0x1C,
                              0x20, 0x21, 0x24, 0x2F, 0xFF, 0x33]
        let type = types.randomElement(using: &generator)!
        let k = Int.random(in: 0...2, using: &generator)
        var length: Int
        switch type {
        case 0x0A, 0x1C: length = 1
        case 0x19, 0x1A: length = 2
        case 0x12: length = 4
        case 0x1B: length = 7
        case 0x2F: length = Int.random(in: 3...4, using: &generator)
        case 0x03: length = 2 * k
        case 0x05: length = 4 * k
        case 0x07: length = 16 * min(k, 1)
        case 0x17: length = 6 * k
        case 0x21: length = Int.random(in: 16...24, using: &generator)
        default: length = Int.random(in: 4...24, using: &generator)
        }
        if Int.random(in: 0..<10, using: &generator) == 0 { length = Int.random(in: 0...24, using: &generator) }
        var data: [UInt8] = []
        if type == 0x16, Bool.random(using: &generator) {
            data = [0xAA, 0xFE, [0x00, 0x10, 0x20, 0x30].randomElement(using: &generator)!]
        } else if type == 0xFF, Bool.random(using: &generator) {
            data = [0x4C, 0x00, 0x02, 0x15]
        }
        while data.count < length { data.append(.random(in: 0...255, using: &generator)) }
        return [UInt8(data.count + 1), type] + data
    }

    @Test("help describes 'decode ad'")
    func help() async throws {
        let main = try await SwiftATTProcess.run(["--help"])
        #expect(main.stdout.contains("decode ad <hex> [--json]"))
        let decode = try await SwiftATTProcess.run(["decode", "ad", "--help"])
        #expect(decode.status == 0)
        #expect(decode.stdoutLines.prefix(2) == ["USAGE: swift-att decode att <hex> [--json]", "       swift-att decode ad <hex> [--json]"])
    }
}

// MARK: Fixtures/advertising

/// One entry of Fixtures/advertising/vectors.json.
struct ADVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var hex: String
    var fields: FixtureJSON

    var description: String { name }

    static let all: [ADVector] = load("vectors.json")
}

/// One entry of Fixtures/advertising/malformed.json.
struct ADMalformedVector: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var hex: String
    var offset: Int

    var description: String { name }

    static let all: [ADMalformedVector] = load("malformed.json")
}

private func load<T: Decodable>(_ file: String) -> [T] {
    (try? FixtureFiles.decode([T].self, from: "advertising/" + file)) ?? []
}
