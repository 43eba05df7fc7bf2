import SwiftATTJSON
import SwiftATTPDU

extension ATTPDU {
    /// Builds a PDU from its JSON form (the inverse of `json`).
    ///
    /// Rejects missing fields, wrong JSON types, numbers out of the field's range, bad
    /// hex or UUID text, undefined opcodes and unknown keys (informational `name`, `…Name`
    /// and, in a Signed Write Command, `signCounter` are ignored). The PDU is then encoded
    /// and decoded again: bytes the ATT decoder would reject, or that would decode to
    /// something else, are an error too, so the JSON form cannot produce an invalid PDU.
    public init(json: JSONValue) throws(ATTJSONError) {
        let opcodeValue = try JSONObjectReader(json, at: "", keys: nil).integer("opcode", in: 0...0xFF)
        let opcode = ATTOpcode(UInt8(opcodeValue))
        let built = try Self.build(opcode, from: json)
        let bytes = built.encoded()
        let reparsed: ATTPDU
        do {
            reparsed = try ATTPDU(parsing: bytes)
        } catch {
            throw ATTJSONError(.invalidPDU(error), at: "")
        }
        guard reparsed == built else {
            throw ATTJSONError(.inconsistent("the fields do not survive encoding: the bytes \(Hex.encode(bytes)) decode differently"), at: "")
        }
        self = reparsed
    }

    private static func reader(_ json: JSONValue, _ keys: [String], informational: [String] = []) throws(ATTJSONError) -> JSONObjectReader {
        try JSONObjectReader(json, at: "", keys: ["opcode"] + keys, informational: informational)
    }

    private static func build(_ opcode: ATTOpcode, from json: JSONValue) throws(ATTJSONError) -> ATTPDU {
        switch opcode {
        case .errorResponse:
            let r = try reader(json, ["requestOpcode", "handle", "errorCode"])
            return .errorResponse(ErrorResponse(
                requestOpcode: ATTOpcode(try r.uint8("requestOpcode")), handle: try r.uint16("handle"),
                errorCode: ATTErrorCode(try r.uint8("errorCode"))))
        case .exchangeMTURequest:
            let r = try reader(json, ["clientRxMTU"])
            return .exchangeMTURequest(ExchangeMTURequest(clientRxMTU: try r.uint16("clientRxMTU")))
        case .exchangeMTUResponse:
            let r = try reader(json, ["serverRxMTU"])
            return .exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: try r.uint16("serverRxMTU")))
        case .findInformationRequest:
            let r = try reader(json, ["startingHandle", "endingHandle"])
            return .findInformationRequest(FindInformationRequest(
                startingHandle: try r.uint16("startingHandle"), endingHandle: try r.uint16("endingHandle")))
        case .findInformationResponse:
            return .findInformationResponse(try findInformationResponse(json))
        case .findByTypeValueRequest:
            let r = try reader(json, ["startingHandle", "endingHandle", "attributeType", "attributeValue"])
            let type = try r.uuid("attributeType", widths: [.bits16], allowed: "only a 16-bit UUID")
            return .findByTypeValueRequest(FindByTypeValueRequest(
                startingHandle: try r.uint16("startingHandle"), endingHandle: try r.uint16("endingHandle"),
                attributeType: type.uuid16 ?? 0, attributeValue: try r.bytes("attributeValue")))
        case .findByTypeValueResponse:
            let r = try reader(json, ["handlesInformationList"])
            var entries: [FindByTypeValueResponse.HandlesInformation] = []
            for (element, path) in try r.array("handlesInformationList") {
                let e = try JSONObjectReader(element, at: path, keys: ["foundAttributeHandle", "groupEndHandle"])
                entries.append(.init(foundAttributeHandle: try e.uint16("foundAttributeHandle"), groupEndHandle: try e.uint16("groupEndHandle")))
            }
            return .findByTypeValueResponse(try wrap(r.pathOf("handlesInformationList")) { () throws(ATTDecodingError) in
                try FindByTypeValueResponse(entries)
            })
        case .readByTypeRequest:
            let r = try reader(json, ["startingHandle", "endingHandle", "attributeType"])
            return .readByTypeRequest(ReadByTypeRequest(
                startingHandle: try r.uint16("startingHandle"), endingHandle: try r.uint16("endingHandle"),
                attributeType: try r.uuid("attributeType", widths: [.bits16, .bits128], allowed: Self.wireUUIDs)))
        case .readByTypeResponse:
            let r = try reader(json, ["length", "attributeDataList"])
            let length = try r.integer("length", in: 2...0xFF)
            var entries: [ReadByTypeResponse.AttributeData] = []
            for (element, path) in try r.array("attributeDataList") {
                let e = try JSONObjectReader(element, at: path, keys: ["handle", "value"])
                let value = try e.bytes("value")
                try checkEntry(value, header: 2, length: length, at: e.pathOf("value"))
                entries.append(.init(handle: try e.uint16("handle"), value: value))
            }
            return .readByTypeResponse(try wrap(r.pathOf("attributeDataList")) { () throws(ATTDecodingError) in
                try ReadByTypeResponse(entries)
            })
        case .readRequest:
            let r = try reader(json, ["handle"])
            return .readRequest(ReadRequest(handle: try r.uint16("handle")))
        case .readResponse:
            let r = try reader(json, ["value"])
            return .readResponse(ReadResponse(value: try r.bytes("value")))
        case .readBlobRequest:
            let r = try reader(json, ["handle", "valueOffset"])
            return .readBlobRequest(ReadBlobRequest(handle: try r.uint16("handle"), valueOffset: try r.uint16("valueOffset")))
        case .readBlobResponse:
            let r = try reader(json, ["value"])
            return .readBlobResponse(ReadBlobResponse(value: try r.bytes("value")))
        case .readMultipleRequest:
            let r = try reader(json, ["setOfHandles"])
            return .readMultipleRequest(ReadMultipleRequest(setOfHandles: try handles(r)))
        case .readMultipleResponse:
            let r = try reader(json, ["setOfValues"])
            return .readMultipleResponse(ReadMultipleResponse(setOfValues: try r.bytes("setOfValues")))
        case .readByGroupTypeRequest:
            let r = try reader(json, ["startingHandle", "endingHandle", "attributeGroupType"])
            return .readByGroupTypeRequest(ReadByGroupTypeRequest(
                startingHandle: try r.uint16("startingHandle"), endingHandle: try r.uint16("endingHandle"),
                attributeGroupType: try r.uuid("attributeGroupType", widths: [.bits16, .bits128], allowed: Self.wireUUIDs)))
        case .readByGroupTypeResponse:
            let r = try reader(json, ["length", "attributeDataList"])
            let length = try r.integer("length", in: 4...0xFF)
            var entries: [ReadByGroupTypeResponse.AttributeData] = []
            for (element, path) in try r.array("attributeDataList") {
                let e = try JSONObjectReader(element, at: path, keys: ["attributeHandle", "endGroupHandle", "value"])
                let value = try e.bytes("value")
                try checkEntry(value, header: 4, length: length, at: e.pathOf("value"))
                entries.append(.init(
                    attributeHandle: try e.uint16("attributeHandle"), endGroupHandle: try e.uint16("endGroupHandle"), value: value))
            }
            return .readByGroupTypeResponse(try wrap(r.pathOf("attributeDataList")) { () throws(ATTDecodingError) in
                try ReadByGroupTypeResponse(entries)
            })
        case .writeRequest:
            let (handle, value) = try handleValue(json)
            return .writeRequest(WriteRequest(handle: handle, value: value))
        case .writeResponse:
            _ = try reader(json, [])
            return .writeResponse(WriteResponse())
        case .prepareWriteRequest:
            let (handle, offset, part) = try preparedValue(json)
            return .prepareWriteRequest(PrepareWriteRequest(handle: handle, valueOffset: offset, partAttributeValue: part))
        case .prepareWriteResponse:
            let (handle, offset, part) = try preparedValue(json)
            return .prepareWriteResponse(PrepareWriteResponse(handle: handle, valueOffset: offset, partAttributeValue: part))
        case .executeWriteRequest:
            let r = try reader(json, ["flags"])
            let raw = try r.integer("flags", in: 0...1)
            return .executeWriteRequest(ExecuteWriteRequest(flags: raw == 0 ? .cancelAll : .writeAll))
        case .executeWriteResponse:
            _ = try reader(json, [])
            return .executeWriteResponse(ExecuteWriteResponse())
        case .handleValueNotification:
            let (handle, value) = try handleValue(json)
            return .handleValueNotification(HandleValueNotification(handle: handle, value: value))
        case .handleValueIndication:
            let (handle, value) = try handleValue(json)
            return .handleValueIndication(HandleValueIndication(handle: handle, value: value))
        case .handleValueConfirmation:
            _ = try reader(json, [])
            return .handleValueConfirmation(HandleValueConfirmation())
        case .readMultipleVariableRequest:
            let r = try reader(json, ["setOfHandles"])
            return .readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: try handles(r)))
        case .readMultipleVariableResponse:
            let r = try reader(json, ["lengthValueTupleList"])
            return .readMultipleVariableResponse(ReadMultipleVariableResponse(
                try tuples(r, key: "lengthValueTupleList", hasHandles: false)))
        case .multipleHandleValueNotification:
            let r = try reader(json, ["handleLengthValueTupleList"])
            return .multipleHandleValueNotification(MultipleHandleValueNotification(
                try tuples(r, key: "handleLengthValueTupleList", hasHandles: true)))
        case .writeCommand:
            let (handle, value) = try handleValue(json)
            return .writeCommand(WriteCommand(handle: handle, value: value))
        case .signedWriteCommand:
            let r = try reader(json, ["handle", "value", "authenticationSignature"], informational: ["signCounter"])
            let handle = try r.uint16("handle")
            let value = try r.bytes("value")
            let signature = try r.bytes("authenticationSignature")
            return .signedWriteCommand(try wrap(r.pathOf("authenticationSignature")) { () throws(ATTDecodingError) in
                try SignedWriteCommand(handle: handle, value: value, authenticationSignature: signature)
            })
        default:
            throw ATTJSONError(.unknownOpcode(opcode.rawValue), at: "opcode")
        }
    }

    private static let wireUUIDs = "a 16-bit or a 128-bit UUID (32-bit UUIDs never appear in ATT PDUs)"

    private static func findInformationResponse(_ json: JSONValue) throws(ATTJSONError) -> FindInformationResponse {
        let r = try reader(json, ["format", "informationData"])
        let format = try r.integer("format", in: 1...2)
        let width: BluetoothUUID.Width = format == 1 ? .bits16 : .bits128
        let allowed = format == 1 ? "only 16-bit UUIDs in format 1" : "only 128-bit UUIDs in format 2"
        var entries: [FindInformationResponse.Information] = []
        for (element, path) in try r.array("informationData") {
            let e = try JSONObjectReader(element, at: path, keys: ["handle", "uuid"])
            entries.append(.init(handle: try e.uint16("handle"), uuid: try e.uuid("uuid", widths: [width], allowed: allowed)))
        }
        return try wrap(r.pathOf("informationData")) { () throws(ATTDecodingError) in
            try FindInformationResponse(entries)
        }
    }

    /// Every entry of a Read By (Group) Type Response has `length − header` value bytes.
    private static func checkEntry(_ value: ArraySlice<UInt8>, header: Int, length: Int, at path: String) throws(ATTJSONError) {
        guard value.count == length - header else {
            throw ATTJSONError(.inconsistent(
                "\(value.count) bytes, but length \(length) means \(length - header)-byte values (length = \(header) + value bytes)"), at: path)
        }
    }

    private static func handles(_ r: JSONObjectReader) throws(ATTJSONError) -> ATTHandleList {
        var handles: [UInt16] = []
        for (element, path) in try r.array("setOfHandles") {
            handles.append(UInt16(try JSONObjectReader.integer(element, in: 0...0xFFFF, at: path)))
        }
        return ATTHandleList(handles)
    }

    private static func handleValue(_ json: JSONValue) throws(ATTJSONError) -> (UInt16, ArraySlice<UInt8>) {
        let r = try reader(json, ["handle", "value"])
        return (try r.uint16("handle"), try r.bytes("value"))
    }

    private static func preparedValue(_ json: JSONValue) throws(ATTJSONError) -> (UInt16, UInt16, ArraySlice<UInt8>) {
        let r = try reader(json, ["handle", "valueOffset", "partAttributeValue"])
        return (try r.uint16("handle"), try r.uint16("valueOffset"), try r.bytes("partAttributeValue"))
    }

    /// Length-prefixed tuples. Only the last tuple of a Read Multiple Variable Response may
    /// declare more bytes than it carries (it was cut at ATT_MTU−1); any other mismatch
    /// would encode to bytes that mean something else.
    private static func tuples(_ r: JSONObjectReader, key: String, hasHandles: Bool) throws(ATTJSONError) -> [ATTTupleList.Tuple] {
        let elements = try r.array(key)
        var tuples: [ATTTupleList.Tuple] = []
        for (i, (element, path)) in elements.enumerated() {
            let e = try JSONObjectReader(element, at: path, keys: hasHandles ? ["handle", "length", "value"] : ["length", "value"])
            let handle: UInt16? = hasHandles ? try e.uint16("handle") : nil
            let length = try e.integer("length", in: 0...0xFFFF)
            let value = try e.bytes("value")
            if length < value.count {
                throw ATTJSONError(.inconsistent("\(length) is less than the value's \(value.count) bytes"), at: e.pathOf("length"))
            }
            if length > value.count {
                if hasHandles {
                    throw ATTJSONError(.inconsistent("\(length) does not match the value's \(value.count) bytes"), at: e.pathOf("length"))
                }
                if i != elements.count - 1 {
                    throw ATTJSONError(.inconsistent(
                        "\(length) exceeds the value's \(value.count) bytes; only the last tuple may be truncated"), at: e.pathOf("length"))
                }
            }
            tuples.append(ATTTupleList.Tuple(handle: handle, value: value, declaredLength: length))
        }
        return tuples
    }

    /// Runs a codec initializer, naming `path` if it rejects the fields.
    private static func wrap<T>(_ path: String, _ body: () throws(ATTDecodingError) -> T) throws(ATTJSONError) -> T {
        do {
            return try body()
        } catch {
            throw ATTJSONError(.invalidPDU(error), at: path)
        }
    }
}
