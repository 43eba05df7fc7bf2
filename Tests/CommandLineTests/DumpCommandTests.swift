import Foundation
import Testing
import TestSupport

@Suite("swift-att dump")
struct DumpCommandTests {
    static let captures = ["gatt-mtu247-central", "gatt-mtu247-peripheral", "gatt-mtu23-central", "gatt-mtu23-peripheral"]

    /// Every ATT PDU tshark found in a capture appears decoded in the dump, by name, and
    /// nothing in the capture is reported malformed.
    @Test(arguments: captures)
    func decodesEveryPacket(_ name: String) async throws {
        let result = try await SwiftATTProcess.run(["dump", FixtureFiles.url("captures/\(name).btsnoop").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("malformed"))
        let records = try FixtureFiles.records("captures/\(name).att.json")
        let attLines = result.stdoutLines.filter { $0.contains("L2CAP: ATT (0x0004)") }
        #expect(attLines.count == records.count)
        #expect(result.stdout.contains("#1 < HCI Command: Reset (0x0c03) plen 0"))
        #expect(result.stdout.contains("HCI Event: LE Meta (0x3e) plen 19"))
        #expect(result.stdout.contains("Subevent: LE Connection Complete (0x01)"))
        #expect(result.stdout.contains("Read By Group Type Response (0x11)"))
        #expect(result.stdout.contains("0x180D Heart Rate"))
        #expect(result.stdout.contains("Disconnection Complete"))
    }

    /// swift-att's own --btsnoop captures (Fixtures/hci): every packet decodes.
    @Test(arguments: ["swift-att-link-layer-central", "swift-att-link-layer-peripheral"])
    func decodesSwiftATTCaptures(_ name: String) async throws {
        let path = FixtureFiles.url("hci/\(name).btsnoop").path
        let result = try await SwiftATTProcess.run(["dump", path])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("malformed"))
        #expect(!result.stdout.contains("Unknown"))
        #expect(result.stdout.contains("HCI Command: LE Set Random Address (0x2005)"))
        #expect(result.stdout.contains("Subevent: LE Connection Complete (0x01)"))
        #expect(result.stdout.contains("HCI Event: Disconnection Complete"))
        if name.hasSuffix("central") {
            #expect(result.stdout.contains("HCI Command: LE Create Connection (0x200d)"))
            #expect(result.stdout.contains("Subevent: LE Extended Advertising Report (0x0d)"))
        } else {
            #expect(result.stdout.contains("HCI Command: LE Set Advertising Enable (0x200a)"))
        }
    }

    /// Advertising data inside LE Set Extended Advertising / Scan Response Data commands
    /// and inside advertising reports is decoded into AD structures, as btmon does.
    @Test func advertisingDataIsDecodedInText() async throws {
        let peripheral = try await SwiftATTProcess.run(["dump", FixtureFiles.url("hci/scan-pair-peripheral.btsnoop").path])
        #expect(peripheral.status == 0)
        #expect(peripheral.stdout.contains("""
                Advertising data: 02 01 06 0a 09 73 77 69 66 74 2d 61 74 74
                  Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)
                  Complete Local Name: "swift-att"
            """))
        #expect(peripheral.stdout.contains("      Complete List of 16-bit Service Class UUIDs: 0x180D Heart Rate, 0x180F Battery"))
        let central = try await SwiftATTProcess.run(["dump", FixtureFiles.url("hci/scan-pair-central.btsnoop").path])
        #expect(central.stdout.contains("""
                Report [0] advertising data:
                  Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)
                  Complete Local Name: "swift-att"
            """))
    }

    @Test func missingFileIsOneLineError() async throws {
        let result = try await SwiftATTProcess.run(["dump", "/nonexistent/capture.btsnoop"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["swift-att: error: cannot open /nonexistent/capture.btsnoop: No such file or directory (ENOENT)"])
    }

    @Test func directorySaysWhy() async throws {
        let directory = FixtureFiles.url("captures").path
        let result = try await SwiftATTProcess.run(["dump", directory])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["swift-att: error: cannot read \(directory): Is a directory (EISDIR)"])
    }

    @Test func notACaptureIsOneLineError() async throws {
        let readme = Repository.url("README.md").path
        let result = try await SwiftATTProcess.run(["dump", readme])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["swift-att: error: \(readme): not a btsnoop file (no 'btsnoop\\0' header)"])
    }

    /// The record an error names has the number the listing would have given it.
    @Test(arguments: [false, true])
    func truncatedCaptureKeepsWhatItReadThenFails(_ json: Bool) async throws {
        let bytes = Data(try FixtureFiles.bytes("captures/gatt-mtu23-central.btsnoop"))
        let cut = try TemporaryCapture(bytes.prefix(bytes.count - 3))
        let result = try await SwiftATTProcess.run(["dump"] + (json ? ["--json"] : []) + [cut.path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        let last: Int
        if json {
            let objects = try result.stdoutLines.map(Self.object)
            #expect(objects.map { $0["record"] as? Int } == Array(1...objects.count))
            last = objects.count
        } else {
            #expect(result.stdout.contains("#1 < HCI Command: Reset"))
            last = try #require(result.stdoutLines.last { $0.hasPrefix("#") }.flatMap { Int($0.dropFirst().prefix { $0 != " " }) })
        }
        #expect(last == 534)
        #expect(result.stderrLines.first?.contains("\(cut.path): btsnoop record \(last + 1) truncated: needs") == true)
    }

    @Test func unknownPacketTypeNamesItsRecord() async throws {
        // Record 1 is a 1-octet "command" (malformed), record 2 a Reset, record 3 type 0x09.
        var bytes = Data("btsnoop\0".utf8) + Data([0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        bytes += Data(Self.recordHeader(length: 1)) + Data([0x01])
        bytes += Data(Self.recordHeader(length: 4)) + Data([0x01, 0x03, 0x0C, 0x00])
        bytes += Data(Self.recordHeader(length: 1)) + Data([0x09])
        let file = try TemporaryCapture(bytes)
        let result = try await SwiftATTProcess.run(["dump", file.path])
        #expect(result.status == 1)
        #expect(result.stdoutLines.first?.hasPrefix("#1 < HCI Command: malformed") == true)
        #expect(result.stdoutLines.contains { $0.hasPrefix("#2 < HCI Command: Reset") })
        #expect(result.stderrLines == ["swift-att: error: \(file.path): btsnoop record 3: unknown HCI packet type 0x9"])
    }

    /// A record claiming more octets than any HCI packet is refused before it is read.
    @Test func implausibleLengthNamesItsRecord() async throws {
        var bytes = Data("btsnoop\0".utf8) + Data([0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        bytes += Data(Self.recordHeader(length: 4)) + Data([0x01, 0x03, 0x0C, 0x00])
        bytes += Data(Self.recordHeader(length: 0x7FFF_FFFF)) + Data([0x02, 0x01, 0x20])
        let file = try TemporaryCapture(bytes)
        let result = try await SwiftATTProcess.run(["dump", file.path])
        #expect(result.status == 1)
        #expect(result.stdoutLines.first?.hasPrefix("#1 < HCI Command: Reset") == true)
        #expect(result.stderrLines == ["swift-att: error: \(file.path): btsnoop record 2: invalid included length: 2147483647 (longer than any HCI packet, 65540 octets)"])
    }

    static func recordHeader(length: UInt32) -> [UInt8] {
        let l = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        return l + l + [0, 0, 0, 2] + [0, 0, 0, 0] + [0, 0xDC, 0xDD, 0xB3, 0x0F, 0x2F, 0x80, 0x00]
    }

    @Test func usageErrors() async throws {
        #expect(try await SwiftATTProcess.run(["dump"]).status == 2)
        #expect(try await SwiftATTProcess.run(["dump", "a", "b"]).status == 2)
        #expect(try await SwiftATTProcess.run(["dump", "--bogus", "x"]).status == 2)
        let badLayer = try await SwiftATTProcess.run(["dump", "--filter", "gatt", "x"])
        #expect(badLayer.status == 2)
        #expect(badLayer.stderr.contains("unknown term 'gatt'"))
        #expect(try await SwiftATTProcess.run(["dump", "--filter", "handle=0xZZ", "x"]).status == 2)
        #expect(try await SwiftATTProcess.run(["dump", "--filter"]).status == 2)
    }

    @Test func helpDocumentsJSONAndFilter() async throws {
        let result = try await SwiftATTProcess.run(["dump", "--help"])
        #expect(result.status == 0)
        #expect(result.stdoutLines.first == "USAGE: swift-att dump <file.btsnoop> [--json] [--filter <terms>]")
        for word in ["--json", "handle=0x0040", "hci-command", "hci-event", "acl", "att", "smp", "l2cap-signaling"] {
            #expect(result.stdout.contains(word))
        }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

/// A capture written to a temporary file for one test, removed when it goes.
final class TemporaryCapture {
    let url: URL
    var path: String { url.path }

    init(_ bytes: some DataProtocol) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-dump-\(UUID().uuidString).btsnoop")
        try Data(bytes).write(to: url)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
