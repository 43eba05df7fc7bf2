import Foundation
import Testing
import TestSupport

/// Every ATT PDU that two Bumble hosts exchanged (Fixtures/captures), through the real
/// binary: HEX → JSON with `decode att - --json`, JSON → HEX with `encode att -`, one
/// process per direction per capture.
@Suite("captures through swift-att")
struct CaptureRoundTripTests {
    struct Record {
        var pdu: String
        var opcode: Int
        var fields: [String: Any]
    }

    static var captureNames: [String] { FixtureFiles.names(in: "captures", endingWith: ".att.json") }

    static func records(_ name: String) throws -> [Record] {
        try FixtureFiles.records("captures/" + name).map { record in
            Record(
                pdu: try #require(record["pdu"] as? String),
                opcode: try #require(record["opcode"] as? Int),
                fields: record["fields"] as? [String: Any] ?? [:])
        }
    }

    @Test("the captures are there")
    func capturesExist() throws {
        #expect(Self.captureNames.count >= 4)
        let total = try Self.captureNames.reduce(0) { $0 + (try Self.records($1).count) }
        #expect(total > 1000)
    }

    @Test("HEX → JSON → HEX is byte-identical for every PDU", arguments: captureNames)
    func roundTrip(_ name: String) async throws {
        let records = try Self.records(name)
        #expect(!records.isEmpty)
        let hex = records.map(\.pdu)

        let decoded = try await SwiftATTProcess.run(["decode", "att", "-", "--json"], input: hex.joined(separator: "\n") + "\n")
        #expect(decoded.status == 0)
        #expect(decoded.stderr == "")
        let jsonLines = decoded.stdoutLines
        try #require(jsonLines.count == records.count)

        // Each line is JSON another parser accepts, with the capture's opcode, and agrees
        // with tshark on every scalar field both name.
        let sharedKeys = ["requestOpcode", "handle", "errorCode", "clientRxMTU", "serverRxMTU",
                          "startingHandle", "endingHandle", "format", "flags"]
        for (line, record) in zip(jsonLines, records) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["opcode"] as? Int == record.opcode, "\(record.pdu)")
            #expect(object["name"] is String)
            for key in sharedKeys {
                guard let theirs = record.fields[key] as? Int, let ours = object[key] as? Int else { continue }
                #expect(ours == theirs, "\(key) of \(record.pdu)")
            }
            if let offset = record.fields["offset"] as? Int, let ours = object["valueOffset"] as? Int {
                #expect(ours == offset, "valueOffset of \(record.pdu)")
            }
        }

        let encoded = try await SwiftATTProcess.run(["encode", "att", "-"], input: decoded.stdout)
        #expect(encoded.status == 0)
        #expect(encoded.stderr == "")
        let back = encoded.stdoutLines
        try #require(back.count == hex.count)
        for (original, again) in zip(hex, back) where original != again {
            Issue.record("\(original) came back as \(again)")
        }
    }

    @Test("the human form decodes every PDU of a capture", arguments: captureNames)
    func humanForm(_ name: String) async throws {
        let records = try Self.records(name)
        let r = try await SwiftATTProcess.run(["decode", "att", "-"], input: records.map(\.pdu).joined(separator: "\n"))
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let titles = r.stdoutLines.filter { !$0.isEmpty && !$0.hasPrefix(" ") }
        #expect(titles.count == records.count)
    }
}
