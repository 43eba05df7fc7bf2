import Foundation
import Testing
import TestSupport

/// `dump --json` against the fixtures: golden fields of chosen records, ATT objects the
/// same as `decode att --json` prints, and `--filter`.
@Suite("swift-att dump --json")
struct DumpJSONTests {
    static func dump(_ fixture: String, _ extra: [String] = []) async throws -> [[String: Any]] {
        let result = try await SwiftATTProcess.run(["dump", "--json"] + extra + [FixtureFiles.url(fixture).path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        return try result.stdoutLines.map(DumpCommandTests.object)
    }

    /// Every record is one object, numbered from 1; every ATT PDU tshark found is in the
    /// record tshark numbered, decoded exactly as `decode att --json` decodes its bytes.
    @Test(arguments: DumpCommandTests.captures)
    func attMatchesDecodeAttJSON(_ name: String) async throws {
        let objects = try await Self.dump("captures/\(name).btsnoop")
        #expect(objects.map { $0["record"] as? Int } == Array(1...objects.count))
        let expected = try FixtureFiles.records("captures/\(name).att.json")
        let withATT = objects.filter { $0["att"] != nil }
        #expect(withATT.count == expected.count)
        let hex = expected.compactMap { $0["pdu"] as? String }.joined(separator: "\n")
        let decoded = try await SwiftATTProcess.run(["decode", "att", "--json", "-"], input: hex + "\n")
        let reference = try decoded.stdoutLines.map(DumpCommandTests.object)
        #expect(reference.count == expected.count)
        for ((record, tshark), reference) in zip(zip(withATT, expected), reference) {
            #expect(record["record"] as? Int == tshark["frame"] as? Int)
            #expect(record["direction"] as? String == tshark["direction"] as? String)
            #expect(NSDictionary(dictionary: record["att"] as? [String: Any] ?? [:]).isEqual(to: reference))
        }
    }

    /// Golden fields: HCI command and Command Complete, an LE Meta subevent, an ATT Read
    /// Response inside ACL and L2CAP, Number Of Completed Packets.
    @Test func goldenRecords() async throws {
        let objects = try await Self.dump("captures/gatt-mtu23-central.btsnoop")
        let reset = objects[0]
        #expect(reset["type"] as? String == "hci-command")
        #expect(reset["direction"] as? String == "sent")
        #expect(reset["time"] as? Double == 0)
        let command = try #require(reset["command"] as? [String: Any])
        #expect(command["opcode"] as? Int == 0x0C03)
        #expect(command["name"] as? String == "Reset")
        #expect(command["ogf"] as? Int == 3)
        let complete = try #require(objects[1]["event"] as? [String: Any])
        #expect(complete["code"] as? Int == 0x0E)
        #expect(complete["name"] as? String == "Command Complete")
        let completeParameters = try #require(complete["parameters"] as? [String: Any])
        #expect(completeParameters["commandOpcodeName"] as? String == "Reset")
        #expect((completeParameters["returnParameters"] as? [String: Any])?["statusName"] as? String == "Success")

        let meta = try #require(objects.first { ($0["event"] as? [String: Any])?["code"] as? Int == 0x3E })
        let event = try #require(meta["event"] as? [String: Any])
        #expect(event["name"] as? String == "LE Meta")
        #expect(event["subeventCode"] as? Int == 0x01)
        #expect(event["subeventName"] as? String == "LE Connection Complete")
        let connection = try #require(event["parameters"] as? [String: Any])
        #expect(connection["connectionHandle"] as? Int == 1)
        #expect(connection["peerAddress"] as? String == "C0:5A:17:00:00:02")
        #expect(connection["roleName"] as? String == "central")

        let read = try #require(objects.first { ($0["att"] as? [String: Any])?["name"] as? String == "Read Response" })
        #expect(read["record"] as? Int == 223)
        #expect(read["direction"] as? String == "received")
        #expect((read["acl"] as? [String: Any])?["handle"] as? Int == 1)
        let l2cap = try #require(read["l2cap"] as? [String: Any])
        #expect(l2cap["channel"] as? Int == 4)
        #expect(l2cap["channelName"] as? String == "ATT")
        let att = try #require(read["att"] as? [String: Any])
        #expect(att["opcode"] as? Int == 0x0B)
        #expect(att["value"] as? String == "01")

        let completed = try #require(objects.first { ($0["event"] as? [String: Any])?["code"] as? Int == 0x13 })
        let entries = ((completed["event"] as? [String: Any])?["parameters"] as? [String: Any])?["entries"] as? [[String: Any]]
        #expect(entries?.first?["connectionHandle"] as? Int == 1)
        #expect(entries?.first?["numCompletedPackets"] as? Int == 1)
    }

    /// AD structures inside an advertising report and an advertising data command.
    @Test func advertisingData() async throws {
        let central = try await Self.dump("hci/scan-pair-central.btsnoop", ["--filter", "le-meta"])
        let report = try #require(central.first {
            ($0["event"] as? [String: Any])?["subeventCode"] as? Int == 0x0D
        })
        let reports = ((report["event"] as? [String: Any])?["parameters"] as? [String: Any])?["reports"] as? [[String: Any]]
        let first = try #require(reports?.first)
        #expect(first["data"] as? String == "0201060a0973776966742d617474")
        let items = try #require((first["dataAD"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.map { $0["typeName"] as? String } == ["Flags", "Complete Local Name"])
        #expect(items[0]["flagNames"] as? [String] == ["LE General Discoverable Mode", "BR/EDR Not Supported"])
        #expect(items[1]["name"] as? String == "swift-att")

        let peripheral = try await Self.dump("hci/scan-pair-peripheral.btsnoop", ["--filter", "advertising"])
        let set = try #require(peripheral.first { ($0["command"] as? [String: Any])?["opcode"] as? Int == 0x2038 })
        let parameters = try #require((set["command"] as? [String: Any])?["parameters"] as? [String: Any])
        #expect(parameters["scanResponseData"] as? String == "05030d180f18")
        let uuids = ((parameters["scanResponseDataAD"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["uuids"]
        #expect(uuids as? [String] == ["180D", "180F"])
    }

    /// SMP inside ACL: the code, its name and the fields.
    @Test func smp() async throws {
        let objects = try await Self.dump("hci/scan-pair-peripheral.btsnoop", ["--filter", "smp"])
        #expect(!objects.isEmpty)
        #expect(objects.allSatisfy { $0["smp"] != nil })
        let request = try #require(objects.first?["smp"] as? [String: Any])
        #expect(request["code"] as? Int == 1)
        #expect(request["name"] as? String == "Pairing Request")
        #expect(request["ioCapabilityName"] as? String == "NoInputNoOutput")
        #expect(request["maximumEncryptionKeySize"] as? Int == 16)
    }

    /// An LE signaling command inside ACL (no fixture has one: written here).
    @Test func signaling() async throws {
        // ACL handle 1, first flushable, 16 octets: L2CAP length 12 on CID 5, Connection
        // Parameter Update Request, identifier 1: interval 6-12, latency 0, timeout 100.
        let packet: [UInt8] = [0x02, 0x01, 0x20, 16, 0, 12, 0, 5, 0, 0x12, 1, 8, 0, 6, 0, 12, 0, 0, 0, 100, 0]
        var bytes = Data("btsnoop\0".utf8) + Data([0, 0, 0, 1, 0, 0, 0x03, 0xEA])
        bytes += Data(DumpCommandTests.recordHeader(length: UInt32(packet.count))) + Data(packet)
        let file = try TemporaryCapture(bytes)
        let result = try await SwiftATTProcess.run(["dump", "--json", "--filter", "l2cap-signaling", file.path])
        #expect(result.status == 0)
        let object = try DumpCommandTests.object(try #require(result.stdoutLines.first))
        let l2cap = try #require(object["l2cap"] as? [String: Any])
        #expect(l2cap["channel"] as? Int == 5)
        #expect(l2cap["channelName"] as? String == "LE Signaling")
        let signaling = try #require(object["signaling"] as? [String: Any])
        #expect(signaling["code"] as? Int == 0x12)
        #expect(signaling["name"] as? String == "Connection Parameter Update Request")
        #expect(signaling["identifier"] as? Int == 1)
        #expect(signaling["intervalMin"] as? Int == 6)
        #expect(signaling["timeoutMultiplier"] as? Int == 100)
        let text = try await SwiftATTProcess.run(["dump", file.path])
        #expect(text.stdout.contains("LE Signaling: Connection Parameter Update Request (0x12) ident 1"))
        let att = try await SwiftATTProcess.run(["dump", "--filter", "att", file.path])
        #expect(att.stdout.isEmpty)
    }

    @Test func filterByLayer() async throws {
        let att = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "att"])
        #expect(att.count == (try FixtureFiles.records("captures/gatt-mtu23-central.att.json")).count)
        #expect(att.allSatisfy { $0["att"] != nil })
        let commands = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "hci-command"])
        #expect(!commands.isEmpty)
        #expect(commands.allSatisfy { $0["type"] as? String == "hci-command" })
        let either = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "hci-command,hci-event"])
        #expect(either.count > commands.count)
        #expect(either.allSatisfy { $0["acl"] == nil })
    }

    @Test func filterByHandle() async throws {
        let all = try await Self.dump("captures/gatt-mtu23-central.btsnoop")
        let one = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "handle=0x0001"])
        let acl = all.filter { $0["acl"] != nil }
        #expect(one.filter { $0["acl"] != nil }.count == acl.count)
        #expect(!one.contains { ($0["command"] as? [String: Any])?["name"] as? String == "Reset" })
        #expect(one.contains { ($0["event"] as? [String: Any])?["subeventName"] as? String == "LE Connection Complete" })
        #expect(one.contains { ($0["event"] as? [String: Any])?["name"] as? String == "Disconnection Complete" })
        let none = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "handle=0x0040"])
        #expect(none.isEmpty)
        let attOnOne = try await Self.dump("captures/gatt-mtu23-central.btsnoop", ["--filter", "att,handle=1"])
        #expect(attOnOne.count == all.filter { $0["att"] != nil }.count)
    }
}
