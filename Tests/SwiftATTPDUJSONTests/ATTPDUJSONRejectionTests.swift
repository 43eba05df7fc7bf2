import Testing
import SwiftATTPDU
import SwiftATTPDUJSON

@Suite("ATTPDU(json:) rejects what is not a PDU, naming the key path")
struct ATTPDUJSONRejectionTests {
    typealias Reason = ATTJSONError.Reason

    @Test("exact errors", arguments: [
        (#"{"opcode":10}"#, ATTJSONError(.missingKey, at: "handle")),
        (#"{"handle":1}"#, ATTJSONError(.missingKey, at: "opcode")),
        (#"{"opcode":10,"handle":65536}"#, ATTJSONError(.outOfRange(65536, allowed: 0...65535), at: "handle")),
        (#"{"opcode":10,"handle":-1}"#, ATTJSONError(.outOfRange(-1, allowed: 0...65535), at: "handle")),
        (#"{"opcode":10,"handle":"1"}"#, ATTJSONError(.wrongType(expected: "an integer", found: "a string"), at: "handle")),
        (#"{"opcode":10,"handle":1.0}"#, ATTJSONError(.wrongType(expected: "an integer", found: "a number"), at: "handle")),
        (#"{"opcode":10,"handle":null}"#, ATTJSONError(.wrongType(expected: "an integer", found: "null"), at: "handle")),
        (#"{"opcode":63}"#, ATTJSONError(.unknownOpcode(0x3F), at: "opcode")),
        (#"{"opcode":256}"#, ATTJSONError(.outOfRange(256, allowed: 0...255), at: "opcode")),
        (#"{"opcode":"0a"}"#, ATTJSONError(.wrongType(expected: "an integer", found: "a string"), at: "opcode")),
        (#"[{"opcode":10}]"#, ATTJSONError(.wrongType(expected: "an object", found: "an array"), at: "")),
        (#"{"opcode":10,"handle":1,"foo":1}"#, ATTJSONError(.unknownKey(expected: ["handle"]), at: "foo")),
        (#"{"opcode":10,"handle":1,"signCounter":1}"#, ATTJSONError(.unknownKey(expected: ["handle"]), at: "signCounter")),
        (#"{"opcode":19,"handle":1}"#, ATTJSONError(.unknownKey(expected: []), at: "handle")),
        (#"{"opcode":11,"value":"0g"}"#, ATTJSONError(.invalidHex("invalid character 'g' at position 1"), at: "value")),
        (#"{"opcode":11,"value":"abc"}"#, ATTJSONError(.invalidHex("odd number of hex digits (3): each byte needs two"), at: "value")),
        (#"{"opcode":11,"value":"0a 0b"}"#, ATTJSONError(.invalidHex("invalid character ' ' at position 2"), at: "value")),
        (#"{"opcode":11,"value":[10]}"#, ATTJSONError(.wrongType(expected: "a hex string", found: "an array"), at: "value")),
        (#"{"opcode":9,"length":7,"attributeDataList":[{"handle":1,"value":"0a0300002a"},{"handle":2,"value":"0a0300002a"},{"handle":3,"value":12}]}"#,
         ATTJSONError(.wrongType(expected: "a hex string", found: "an integer"), at: "attributeDataList[2].value")),
        (#"{"opcode":9,"length":7,"attributeDataList":[{"handle":1,"value":"0a0300002a"},{"handle":2,"value":"0a03"}]}"#,
         ATTJSONError(.inconsistent("2 bytes, but length 7 means 5-byte values (length = 2 + value bytes)"), at: "attributeDataList[1].value")),
        (#"{"opcode":9,"length":7,"attributeDataList":[{"handle":1,"value":"0a0300002a","uuid":"2803"}]}"#,
         ATTJSONError(.unknownKey(expected: ["handle", "value"]), at: "attributeDataList[0].uuid")),
        (#"{"opcode":9,"length":7,"attributeDataList":[{"value":"0a0300002a"}]}"#, ATTJSONError(.missingKey, at: "attributeDataList[0].handle")),
        (#"{"opcode":9,"length":256,"attributeDataList":[]}"#, ATTJSONError(.outOfRange(256, allowed: 2...255), at: "length")),
        (#"{"opcode":9,"length":7,"attributeDataList":{}}"#, ATTJSONError(.wrongType(expected: "an array", found: "an object"), at: "attributeDataList")),
        (#"{"opcode":17,"length":3,"attributeDataList":[]}"#, ATTJSONError(.outOfRange(3, allowed: 4...255), at: "length")),
        (#"{"opcode":8,"startingHandle":1,"endingHandle":2,"attributeType":"0000180D"}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(uuid32: 0x180D), allowed: "a 16-bit or a 128-bit UUID (32-bit UUIDs never appear in ATT PDUs)"), at: "attributeType")),
        (#"{"opcode":8,"startingHandle":1,"endingHandle":2,"attributeType":"28O3"}"#, ATTJSONError(.invalidUUID("28O3"), at: "attributeType")),
        (#"{"opcode":8,"startingHandle":1,"endingHandle":2,"attributeType":"280"}"#, ATTJSONError(.invalidUUID("280"), at: "attributeType")),
        (#"{"opcode":8,"startingHandle":1,"endingHandle":2,"attributeType":2803}"#, ATTJSONError(.wrongType(expected: "a UUID string", found: "an integer"), at: "attributeType")),
        (#"{"opcode":16,"startingHandle":1,"endingHandle":2,"attributeGroupType":"00002800"}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(uuid32: 0x2800), allowed: "a 16-bit or a 128-bit UUID (32-bit UUIDs never appear in ATT PDUs)"), at: "attributeGroupType")),
        (#"{"opcode":6,"startingHandle":1,"endingHandle":2,"attributeType":"00002800-0000-1000-8000-00805F9B34FB","attributeValue":""}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(uuid128: BluetoothUUID(0x2800).uuid128), allowed: "only a 16-bit UUID"), at: "attributeType")),
        (#"{"opcode":5,"format":1,"informationData":[{"handle":1,"uuid":"00002800-0000-1000-8000-00805F9B34FB"}]}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(uuid128: BluetoothUUID(0x2800).uuid128), allowed: "only 16-bit UUIDs in format 1"), at: "informationData[0].uuid")),
        (#"{"opcode":5,"format":2,"informationData":[{"handle":1,"uuid":"2800"}]}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(0x2800), allowed: "only 128-bit UUIDs in format 2"), at: "informationData[0].uuid")),
        (#"{"opcode":5,"format":1,"informationData":[{"handle":1,"uuid":"0000180D"}]}"#,
         ATTJSONError(.uuidWidthNotAllowed(BluetoothUUID(uuid32: 0x180D), allowed: "only 16-bit UUIDs in format 1"), at: "informationData[0].uuid")),
        (#"{"opcode":5,"format":3,"informationData":[]}"#, ATTJSONError(.outOfRange(3, allowed: 1...2), at: "format")),
        (#"{"opcode":24,"flags":2}"#, ATTJSONError(.outOfRange(2, allowed: 0...1), at: "flags")),
        (#"{"opcode":14,"setOfHandles":[1,"x"]}"#, ATTJSONError(.wrongType(expected: "an integer", found: "a string"), at: "setOfHandles[1]")),
        (#"{"opcode":14,"setOfHandles":[1,70000]}"#, ATTJSONError(.outOfRange(70000, allowed: 0...65535), at: "setOfHandles[1]")),
        (#"{"opcode":33,"lengthValueTupleList":[{"length":5,"value":"01"},{"length":1,"value":"02"}]}"#,
         ATTJSONError(.inconsistent("5 exceeds the value's 1 bytes; only the last tuple may be truncated"), at: "lengthValueTupleList[0].length")),
        (#"{"opcode":33,"lengthValueTupleList":[{"length":1,"value":"0102"}]}"#,
         ATTJSONError(.inconsistent("1 is less than the value's 2 bytes"), at: "lengthValueTupleList[0].length")),
        (#"{"opcode":33,"lengthValueTupleList":[{"length":65536,"value":"01"}]}"#,
         ATTJSONError(.outOfRange(65536, allowed: 0...65535), at: "lengthValueTupleList[0].length")),
        (#"{"opcode":35,"handleLengthValueTupleList":[{"handle":1,"length":3,"value":"01"},{"handle":2,"length":1,"value":"02"}]}"#,
         ATTJSONError(.inconsistent("3 does not match the value's 1 bytes"), at: "handleLengthValueTupleList[0].length")),
        (#"{"opcode":35,"handleLengthValueTupleList":[{"length":1,"value":"01"}]}"#,
         ATTJSONError(.missingKey, at: "handleLengthValueTupleList[0].handle")),
        (#"{"opcode":210,"handle":1,"value":"","authenticationSignature":"0011"}"#,
         ATTJSONError(.invalidPDU(.invalidSignatureLength(2)), at: "authenticationSignature")),
    ] as [(String, ATTJSONError)])
    func rejects(_ text: String, _ expected: ATTJSONError) throws {
        let json = try JSONValue.parse(text)
        #expect(throws: expected) { try ATTPDU(json: json) }
    }

    @Test("fields the codec rejects: the JSON cannot produce invalid bytes", arguments: [
        (#"{"opcode":9,"length":7,"attributeDataList":[]}"#, "attributeDataList"),
        (#"{"opcode":5,"format":1,"informationData":[]}"#, "informationData"),
        (#"{"opcode":7,"handlesInformationList":[]}"#, "handlesInformationList"),
        (#"{"opcode":17,"length":6,"attributeDataList":[]}"#, "attributeDataList"),
        (#"{"opcode":14,"setOfHandles":[1]}"#, ""),
        (#"{"opcode":32,"setOfHandles":[]}"#, ""),
        (#"{"opcode":33,"lengthValueTupleList":[]}"#, ""),
        (#"{"opcode":35,"handleLengthValueTupleList":[{"handle":1,"length":1,"value":"01"}]}"#, ""),
        (#"{"opcode":33,"lengthValueTupleList":[{"length":600,"value":"01"}]}"#, ""),
        (#"{"opcode":11,"value":""# + String(repeating: "00", count: 513) + #""}"#, ""),
        (#"{"opcode":18,"handle":1,"value":""# + String(repeating: "00", count: 513) + #""}"#, ""),
    ])
    func rejectsInvalidPDUs(_ text: String, _ path: String) throws {
        let json = try JSONValue.parse(text)
        do {
            let pdu = try ATTPDU(json: json)
            Issue.record("accepted as \(Hex.encode(pdu.encoded()))")
        } catch {
            #expect(error.path == path)
            guard case .invalidPDU = error.reason else {
                Issue.record("expected an ATTDecodingError, got \(error)")
                return
            }
        }
    }

    @Test("descriptions read as path: problem")
    func descriptions() throws {
        let json = try JSONValue.parse(#"{"opcode":9,"length":7,"attributeDataList":[{"handle":1,"value":"0a0300002a"},{"handle":2,"value":"0a0300002a"},{"handle":3,"value":12}]}"#)
        do {
            _ = try ATTPDU(json: json)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "attributeDataList[2].value: expected a hex string, found an integer")
        }
        #expect(ATTJSONError(.unknownOpcode(0x3F), at: "opcode").description == "opcode: 63 (0x3f) is not an opcode Core 5.4 defines")
        #expect(ATTJSONError(.invalidPDU(.empty), at: "").description == "not a valid PDU: empty ATT PDU: no opcode")
    }
}
