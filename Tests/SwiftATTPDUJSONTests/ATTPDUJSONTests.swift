import Testing
import TestSupport
import SwiftATTPDU
import SwiftATTPDUJSON

@Suite("ATTPDU JSON form")
struct ATTPDUJSONTests {
    @Test("every opcode Core 5.4 defines has a sample")
    func samplesCoverEveryPDU() throws {
        let covered = Set(try PDUSample.allCases.map { try $0.pdu().opcode })
        #expect(covered == Set(ATTOpcode.allDefined))
        #expect(covered.count == 31)
    }

    @Test("hand-built PDU → bytes and JSON as written by hand", arguments: PDUSample.allCases)
    func encodesToGoldenForms(_ sample: PDUSample) throws {
        let pdu = try sample.pdu()
        #expect(Hex.encode(pdu.encoded()) == sample.hex)
        #expect(pdu.json.serialized() == sample.json)
    }

    @Test("JSON → PDU → JSON, and HEX → JSON → HEX byte-identical", arguments: PDUSample.allCases)
    func roundTrips(_ sample: PDUSample) throws {
        let pdu = try sample.pdu()
        let fromJSON = try ATTPDU(json: pdu.json)
        #expect(fromJSON == pdu)
        #expect(fromJSON.encoded() == pdu.encoded())

        let parsed = try ATTPDU(parsing: try Hex.decode(sample.hex))
        #expect(try ATTPDU(json: parsed.json).encoded() == parsed.encoded())
        #expect(try ATTPDU(json: JSONValue.parse(sample.json)).encoded() == Hex.decode(sample.hex))
    }

    @Test("informational keys are ignored, so a form without them encodes the same")
    func namesAreInformational() throws {
        let bare = #"{"opcode":1,"requestOpcode":10,"handle":41,"errorCode":2}"#
        #expect(try ATTPDU(json: JSONValue.parse(bare)).encoded() == Hex.decode("010a290002"))
        let wrongNames = #"{"opcode":1,"name":"Nonsense","requestOpcode":10,"requestOpcodeName":"x","handle":41,"errorCode":2,"errorName":"y","otherName":1}"#
        #expect(try ATTPDU(json: JSONValue.parse(wrongNames)).encoded() == Hex.decode("010a290002"))
        let signed = #"{"opcode":210,"handle":36,"value":"01","authenticationSignature":"010000001122334455667788","signCounter":99}"#
        #expect(try Hex.encode(ATTPDU(json: JSONValue.parse(signed)).encoded()) == PDUSample.signedWriteCommand.hex)
    }

    @Test("a 128-bit UUID on the Base UUID keeps its width both ways")
    func uuid128OnBaseKeepsWidth() throws {
        let pdu = try PDUSample.readByTypeRequest128OnBase.pdu()
        #expect(pdu.json["attributeType"] == .string("00002A38-0000-1000-8000-00805F9B34FB"))
        let back = try ATTPDU(json: pdu.json)
        guard case let .readByTypeRequest(request) = back else {
            Issue.record("decoded as \(back)")
            return
        }
        #expect(request.attributeType.width == .bits128)
        #expect(back.encoded().count == 21)
        // The same UUID in 16-bit form is a different (shorter) PDU.
        let short = #"{"opcode":8,"startingHandle":1,"endingHandle":65535,"attributeType":"2A38"}"#
        #expect(try ATTPDU(json: JSONValue.parse(short)).encoded().count == 7)
    }

    @Test("a truncated last tuple keeps its declared length")
    func truncatedTuple() throws {
        let bytes = try Hex.decode("2101000105006162")
        let pdu = try ATTPDU(parsing: bytes)
        #expect(pdu.json["lengthValueTupleList"]?[1]?["length"] == .integer(5))
        #expect(pdu.json["lengthValueTupleList"]?[1]?["value"] == .string("6162"))
        #expect(try ATTPDU(json: pdu.json).encoded() == bytes)
    }

    @Test("random valid PDUs survive HEX → JSON → HEX")
    func randomPDUsRoundTrip() throws {
        var rng = SplitMix64(seed: 0xA77)
        var valid = 0
        for opcode in ATTOpcode.allDefined {
            for _ in 0..<1_500 {
                var bytes: [UInt8] = [opcode.rawValue]
                let length = Int(rng.next() % 48)
                for _ in 0..<length { bytes.append(UInt8(truncatingIfNeeded: rng.next() % 4 == 0 ? rng.next() % 8 : rng.next())) }
                guard let pdu = try? ATTPDU(parsing: bytes) else { continue }
                valid += 1
                let json = pdu.json
                let back = try ATTPDU(json: json)
                #expect(back.encoded() == bytes, "\(Hex.encode(bytes)) → \(json)")
                #expect(try ATTPDU(json: JSONValue.parse(json.serialized())).encoded() == bytes)
            }
        }
        #expect(valid > 10_000)
    }

    @Test("mutated JSON forms never trap and never produce invalid bytes")
    func mutatedJSON() throws {
        var rng = SplitMix64(seed: 0xB0B)
        let pieces = Array(#"0123456789abcdefABCDEF-":,{}[]x "#)
        for sample in PDUSample.allCases {
            let text = Array(sample.json)
            for _ in 0..<300 {
                var mutated = text
                for _ in 0..<(1 + Int(rng.next() % 3)) where !mutated.isEmpty {
                    let i = Int(rng.next() % UInt64(mutated.count))
                    switch rng.next() % 3 {
                    case 0: mutated.remove(at: i)
                    case 1: mutated.insert(pieces[Int(rng.next() % UInt64(pieces.count))], at: i)
                    default: mutated[i] = pieces[Int(rng.next() % UInt64(pieces.count))]
                    }
                }
                guard let value = try? JSONValue.parse(String(mutated)), let pdu = try? ATTPDU(json: value) else { continue }
                let bytes = pdu.encoded()
                #expect(try ATTPDU(parsing: bytes) == pdu)
                #expect(try ATTPDU(json: pdu.json).encoded() == bytes)
            }
        }
    }
}
