import SwiftATTPDU
import Foundation
import SwiftATTHCI
import Testing

/// Every ATT PDU in every capture decodes, re-encodes to the same bytes, and agrees
/// field by field with tshark's dissection of the same capture.
@Suite struct TSharkAgreementTests {
    @Test(arguments: CaptureFixture.all)
    func capturesHaveFixtures(_ capture: CaptureFixture) throws {
        #expect(try !capture.tsharkRecords().isEmpty)
    }

    @Test func fixturesExist() {
        #expect(CaptureFixture.all.count >= 2, "Fixtures/captures should hold the Bumble captures")
    }

    @Test(arguments: CaptureFixture.all)
    func sameATTPDUsAsTShark(_ capture: CaptureFixture) throws {
        let (pdus, drops) = try capture.attPDUs()
        let records = try capture.tsharkRecords()
        #expect(drops.isEmpty, "recombination dropped: \(drops)")
        try #require(pdus.count == records.count, "\(pdus.count) ATT PDUs found, tshark found \(records.count)")
        for (pdu, record) in zip(pdus, records) {
            #expect(Hex.encode(pdu.bytes) == record["pdu"] as? String, "frame \(record["frame"] ?? "?")")
            let direction = pdu.direction == .sent ? "sent" : "received"
            #expect(direction == record["direction"] as? String, "frame \(record["frame"] ?? "?")")
        }
    }

    @Test(arguments: CaptureFixture.all)
    func decodedFieldsMatchTShark(_ capture: CaptureFixture) throws {
        for record in try capture.tsharkRecords() {
            let frame = record["frame"] as? Int ?? -1
            let bytes = try Hex.decode(try #require(record["pdu"] as? String))
            let pdu = try ATTPDU(parsing: bytes)
            #expect(pdu.encoded() == bytes, "frame \(frame): re-encoding differs")
            #expect(Int(pdu.opcode.rawValue) == record["opcode"] as? Int, "frame \(frame)")
            let ours = TSharkView(pdu).fields
            let theirs = record["fields"] as? [String: Any] ?? [:]
            for (key, value) in theirs {
                let mine = try #require(ours[key], "frame \(frame): tshark dissected '\(key)' that the decoder has no field for")
                #expect(TSharkView.same(mine, value), "frame \(frame) \(pdu.opcode) \(key): ours \(mine), tshark \(value)")
            }
        }
    }

    @Test func everyCapturedOpcodeIsCovered() throws {
        var seen = Set<UInt8>()
        for capture in CaptureFixture.all {
            for record in try capture.tsharkRecords() {
                if let op = record["opcode"] as? Int { seen.insert(UInt8(op)) }
            }
        }
        // The procedures the capture script runs (Fixtures/captures/README.md).
        let expected: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
                                 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x16, 0x17, 0x18, 0x19, 0x1B, 0x1D, 0x1E,
                                 0x20, 0x21, 0x52]
        #expect(Set(expected).isSubset(of: seen), "missing: \(Set(expected).subtracting(seen).sorted())")
    }
}
