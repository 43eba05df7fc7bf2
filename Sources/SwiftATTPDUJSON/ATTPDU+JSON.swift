// `pdu.json` and `ATTPDU(json:)` speak `JSONValue`, so this module's one import gives its
// user the JSON module too.
@_exported import SwiftATTJSON
import SwiftATTPDU

extension ATTPDU {
    /// The PDU in the JSON form of `Fixtures/att/README.md`: `opcode`, `name`, then the
    /// fields in the spec's order, with informational `…Name` keys where a name is known.
    /// `ATTPDU(json: pdu.json).encoded() == pdu.encoded()` for every valid PDU.
    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o["opcode"] = .integer(Int(opcode.rawValue))
        o["name"] = opcode.name.map(JSONValue.string)
        switch self {
        case let .errorResponse(p):
            o["requestOpcode"] = .integer(Int(p.requestOpcode.rawValue))
            o["requestOpcodeName"] = p.requestOpcode.name.map(JSONValue.string)
            o["handle"] = .handle(p.handle)
            o["errorCode"] = .integer(Int(p.errorCode.rawValue))
            o["errorName"] = .string(p.errorCode.name)
        case let .exchangeMTURequest(p):
            o["clientRxMTU"] = .integer(Int(p.clientRxMTU))
        case let .exchangeMTUResponse(p):
            o["serverRxMTU"] = .integer(Int(p.serverRxMTU))
        case let .findInformationRequest(p):
            o["startingHandle"] = .handle(p.startingHandle)
            o["endingHandle"] = .handle(p.endingHandle)
        case let .findInformationResponse(p):
            o["format"] = .integer(Int(p.format.rawValue))
            o["informationData"] = .array(p.informationData.map { info in
                var e = JSONObjectBuilder()
                e["handle"] = .handle(info.handle)
                e["uuid"] = .uuid(info.uuid)
                e["uuidName"] = info.uuid.assignedName.map(JSONValue.string)
                return e.value
            })
        case let .findByTypeValueRequest(p):
            let type = BluetoothUUID(p.attributeType)
            o["startingHandle"] = .handle(p.startingHandle)
            o["endingHandle"] = .handle(p.endingHandle)
            o["attributeType"] = .uuid(type)
            o["attributeTypeName"] = type.assignedName.map(JSONValue.string)
            o["attributeValue"] = .hex(p.attributeValue)
        case let .findByTypeValueResponse(p):
            o["handlesInformationList"] = .array(p.handlesInformationList.map { info in
                var e = JSONObjectBuilder()
                e["foundAttributeHandle"] = .handle(info.foundAttributeHandle)
                e["groupEndHandle"] = .handle(info.groupEndHandle)
                return e.value
            })
        case let .readByTypeRequest(p):
            o["startingHandle"] = .handle(p.startingHandle)
            o["endingHandle"] = .handle(p.endingHandle)
            o["attributeType"] = .uuid(p.attributeType)
            o["attributeTypeName"] = p.attributeType.assignedName.map(JSONValue.string)
        case let .readByTypeResponse(p):
            o["length"] = .integer(p.length)
            o["attributeDataList"] = .array(p.attributeDataList.map { data in
                var e = JSONObjectBuilder()
                e["handle"] = .handle(data.handle)
                e["value"] = .hex(data.value)
                return e.value
            })
        case let .readRequest(p):
            o["handle"] = .handle(p.handle)
        case let .readResponse(p):
            o["value"] = .hex(p.value)
        case let .readBlobRequest(p):
            o["handle"] = .handle(p.handle)
            o["valueOffset"] = .integer(Int(p.valueOffset))
        case let .readBlobResponse(p):
            o["value"] = .hex(p.value)
        case let .readMultipleRequest(p):
            o["setOfHandles"] = .array(p.setOfHandles.map(JSONValue.handle))
        case let .readMultipleResponse(p):
            o["setOfValues"] = .hex(p.setOfValues)
        case let .readByGroupTypeRequest(p):
            o["startingHandle"] = .handle(p.startingHandle)
            o["endingHandle"] = .handle(p.endingHandle)
            o["attributeGroupType"] = .uuid(p.attributeGroupType)
            o["attributeGroupTypeName"] = p.attributeGroupType.assignedName.map(JSONValue.string)
        case let .readByGroupTypeResponse(p):
            o["length"] = .integer(p.length)
            o["attributeDataList"] = .array(p.attributeDataList.map { data in
                var e = JSONObjectBuilder()
                e["attributeHandle"] = .handle(data.attributeHandle)
                e["endGroupHandle"] = .handle(data.endGroupHandle)
                e["value"] = .hex(data.value)
                return e.value
            })
        case let .writeRequest(p):
            o.handleValue(p)
        case .writeResponse:
            break
        case let .prepareWriteRequest(p):
            o.preparedValue(p)
        case let .prepareWriteResponse(p):
            o.preparedValue(p)
        case let .executeWriteRequest(p):
            o["flags"] = .integer(Int(p.flags.rawValue))
            o["flagsName"] = .string(p.flags.name)
        case .executeWriteResponse:
            break
        case let .handleValueNotification(p):
            o.handleValue(p)
        case let .handleValueIndication(p):
            o.handleValue(p)
        case .handleValueConfirmation:
            break
        case let .readMultipleVariableRequest(p):
            o["setOfHandles"] = .array(p.setOfHandles.map(JSONValue.handle))
        case let .readMultipleVariableResponse(p):
            o["lengthValueTupleList"] = .array(p.lengthValueTupleList.map { tuple in
                var e = JSONObjectBuilder()
                e["length"] = .integer(tuple.declaredLength)
                e["value"] = .hex(tuple.value)
                return e.value
            })
        case let .multipleHandleValueNotification(p):
            o["handleLengthValueTupleList"] = .array(p.handleLengthValueTupleList.map { tuple in
                var e = JSONObjectBuilder()
                e["handle"] = .handle(tuple.handle ?? 0)
                e["length"] = .integer(tuple.declaredLength)
                e["value"] = .hex(tuple.value)
                return e.value
            })
        case let .writeCommand(p):
            o.handleValue(p)
        case let .signedWriteCommand(p):
            o.handleValue(p)
            o["authenticationSignature"] = .hex(p.authenticationSignature)
            o["signCounter"] = .integer(Int(p.signCounter))
        }
        return o.value
    }
}

extension ExecuteWriteRequest.Flags {
    /// The spec's words for the flag (Core 5.4 Vol 3 Part F §3.4.6.3, Table 3.37).
    public var name: String {
        switch self {
        case .cancelAll: return "Cancel all prepared writes"
        case .writeAll: return "Immediately write all pending prepared values"
        }
    }
}

/// Members appended in order; assigning `nil` leaves a key out (an unknown name).
struct JSONObjectBuilder {
    private(set) var members: [JSONMember] = []

    var value: JSONValue { .object(members) }

    subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set { if let newValue { members.append(JSONMember(key, newValue)) } }
    }

    mutating func handleValue(_ p: some ATTHandleValuePDU) {
        self["handle"] = .handle(p.handle)
        self["value"] = .hex(p.value)
    }

    mutating func handleValue(_ p: SignedWriteCommand) {
        self["handle"] = .handle(p.handle)
        self["value"] = .hex(p.value)
    }

    mutating func preparedValue(_ p: some ATTPreparedValuePDU) {
        self["handle"] = .handle(p.handle)
        self["valueOffset"] = .integer(Int(p.valueOffset))
        self["partAttributeValue"] = .hex(p.partAttributeValue)
    }
}

extension JSONValue {
    static func handle(_ h: UInt16) -> JSONValue { .integer(Int(h)) }
    static func hex(_ bytes: ArraySlice<UInt8>) -> JSONValue { .string(Hex.encode(bytes)) }
    static func uuid(_ uuid: BluetoothUUID) -> JSONValue { .string(uuid.description) }
}
