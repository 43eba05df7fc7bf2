import SwiftATTPDU
import SwiftATTPDUJSON

/// One hand-built PDU of every kind, from the ATT module's public initializers, with its
/// wire bytes and its JSON form (written by hand from `Fixtures/att/README.md`).
enum PDUSample: String, CaseIterable, Sendable, CustomStringConvertible {
    case errorResponse, errorResponseUnknownRequest
    case exchangeMTURequest, exchangeMTUResponse
    case findInformationRequest, findInformationResponse16, findInformationResponse128
    case findInformationResponse128OnBase
    case findByTypeValueRequest, findByTypeValueResponse
    case readByTypeRequest, readByTypeRequest128OnBase, readByTypeResponse
    case readRequest, readResponse, readResponseEmpty
    case readBlobRequest, readBlobResponse
    case readMultipleRequest, readMultipleResponse
    case readByGroupTypeRequest, readByGroupTypeResponse, readByGroupTypeResponse128
    case writeRequest, writeResponse
    case prepareWriteRequest, prepareWriteResponse
    case executeWriteRequest, executeWriteRequestCancel, executeWriteResponse
    case handleValueNotification, handleValueIndication, handleValueConfirmation
    case readMultipleVariableRequest, readMultipleVariableResponse, readMultipleVariableResponseTruncated
    case multipleHandleValueNotification
    case writeCommand, signedWriteCommand

    var description: String { rawValue }

    /// The 128-bit form of a SIG UUID: on the Base UUID, but 16 bytes on the wire.
    static func onBase(_ uuid16: UInt16) -> BluetoothUUID { BluetoothUUID(uuid128: BluetoothUUID(uuid16).uuid128) }

    static let custom = BluetoothUUID("7E57A7E1-5A17-4C0D-9E1F-000000000000")!

    func pdu() throws -> ATTPDU {
        func bytes(_ hex: String) throws -> ArraySlice<UInt8> { try Hex.decode(hex)[...] }
        switch self {
        case .errorResponse:
            return .errorResponse(ErrorResponse(requestOpcode: .readRequest, handle: 0x0029, errorCode: .readNotPermitted))
        case .errorResponseUnknownRequest:
            return .errorResponse(ErrorResponse(requestOpcode: ATTOpcode(0x3F), handle: 0x002B, errorCode: ATTErrorCode(0x80)))
        case .exchangeMTURequest:
            return .exchangeMTURequest(ExchangeMTURequest(clientRxMTU: 247))
        case .exchangeMTUResponse:
            return .exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: 517))
        case .findInformationRequest:
            return .findInformationRequest(FindInformationRequest(startingHandle: 0x0001, endingHandle: 0xFFFF))
        case .findInformationResponse16:
            return .findInformationResponse(try FindInformationResponse([
                .init(handle: 1, uuid: BluetoothUUID(0x2800)), .init(handle: 2, uuid: BluetoothUUID(0x2803)),
                .init(handle: 0x40, uuid: BluetoothUUID(0xFFF0)),
            ]))
        case .findInformationResponse128:
            return .findInformationResponse(try FindInformationResponse([.init(handle: 0x1F, uuid: Self.custom)]))
        case .findInformationResponse128OnBase:
            return .findInformationResponse(try FindInformationResponse([.init(handle: 3, uuid: Self.onBase(0x2902))]))
        case .findByTypeValueRequest:
            return .findByTypeValueRequest(FindByTypeValueRequest(
                startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800, attributeValue: try bytes("0d18")))
        case .findByTypeValueResponse:
            return .findByTypeValueResponse(try FindByTypeValueResponse([
                .init(foundAttributeHandle: 0x11, groupEndHandle: 0x19), .init(foundAttributeHandle: 0x1D, groupEndHandle: 0x30),
            ]))
        case .readByTypeRequest:
            return .readByTypeRequest(ReadByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803)))
        case .readByTypeRequest128OnBase:
            return .readByTypeRequest(ReadByTypeRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: Self.onBase(0x2A38)))
        case .readByTypeResponse:
            return .readByTypeResponse(try ReadByTypeResponse([
                .init(handle: 2, value: try bytes("020300002a")), .init(handle: 4, value: try bytes("020500012a")),
            ]))
        case .readRequest:
            return .readRequest(ReadRequest(handle: 0x0017))
        case .readResponse:
            return .readResponse(ReadResponse(value: Array("swift-att".utf8)[...]))
        case .readResponseEmpty:
            return .readResponse(ReadResponse(value: []))
        case .readBlobRequest:
            return .readBlobRequest(ReadBlobRequest(handle: 0x001F, valueOffset: 22))
        case .readBlobResponse:
            return .readBlobResponse(ReadBlobResponse(value: try bytes("0102")))
        case .readMultipleRequest:
            return .readMultipleRequest(ReadMultipleRequest(setOfHandles: ATTHandleList([0x17, 0x10, 0x1C])))
        case .readMultipleResponse:
            return .readMultipleResponse(ReadMultipleResponse(setOfValues: try bytes("015a")))
        case .readByGroupTypeRequest:
            return .readByGroupTypeRequest(ReadByGroupTypeRequest(
                startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2800)))
        case .readByGroupTypeResponse:
            return .readByGroupTypeResponse(try ReadByGroupTypeResponse([
                .init(attributeHandle: 1, endGroupHandle: 5, value: try bytes("0018")),
                .init(attributeHandle: 6, endGroupHandle: 0x0D, value: try bytes("0118")),
            ]))
        case .readByGroupTypeResponse128:
            return .readByGroupTypeResponse(try ReadByGroupTypeResponse([
                .init(attributeHandle: 0x1D, endGroupHandle: 0x30, value: try bytes("0000000000001f9e0d4c175ae0a7577e")),
            ]))
        case .writeRequest:
            return .writeRequest(WriteRequest(handle: 0x0015, value: try bytes("0100")))
        case .writeResponse:
            return .writeResponse(WriteResponse())
        case .prepareWriteRequest:
            return .prepareWriteRequest(PrepareWriteRequest(handle: 0x22, valueOffset: 0, partAttributeValue: try bytes("a0a1")))
        case .prepareWriteResponse:
            return .prepareWriteResponse(PrepareWriteResponse(handle: 0x22, valueOffset: 18, partAttributeValue: try bytes("a0a1")))
        case .executeWriteRequest:
            return .executeWriteRequest(ExecuteWriteRequest(flags: .writeAll))
        case .executeWriteRequestCancel:
            return .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll))
        case .executeWriteResponse:
            return .executeWriteResponse(ExecuteWriteResponse())
        case .handleValueNotification:
            return .handleValueNotification(HandleValueNotification(handle: 0x14, value: try bytes("0648")))
        case .handleValueIndication:
            return .handleValueIndication(HandleValueIndication(handle: 0x26, value: try bytes("01")))
        case .handleValueConfirmation:
            return .handleValueConfirmation(HandleValueConfirmation())
        case .readMultipleVariableRequest:
            return .readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: ATTHandleList([0x17, 0x10])))
        case .readMultipleVariableResponse:
            return .readMultipleVariableResponse(ReadMultipleVariableResponse([
                .init(value: try bytes("01")), .init(value: try bytes("5a")),
            ]))
        case .readMultipleVariableResponseTruncated:
            return .readMultipleVariableResponse(ReadMultipleVariableResponse([
                .init(value: try bytes("01")), .init(value: try bytes("6162"), declaredLength: 5),
            ]))
        case .multipleHandleValueNotification:
            return .multipleHandleValueNotification(MultipleHandleValueNotification([
                .init(handle: 0x14, value: try bytes("0648")), .init(handle: 0x2F, value: try bytes("01")),
            ]))
        case .writeCommand:
            return .writeCommand(WriteCommand(handle: 0x24, value: try bytes("01020304")))
        case .signedWriteCommand:
            return .signedWriteCommand(try SignedWriteCommand(
                handle: 0x24, value: try bytes("01"), authenticationSignature: try bytes("010000001122334455667788")))
        }
    }

    /// The wire bytes, worked by hand from Core 5.4 Vol 3 Part F §3.4.
    var hex: String {
        switch self {
        case .errorResponse: return "010a290002"
        case .errorResponseUnknownRequest: return "013f2b0080"
        case .exchangeMTURequest: return "02f700"
        case .exchangeMTUResponse: return "030502"
        case .findInformationRequest: return "040100ffff"
        case .findInformationResponse16: return "050101000028020003284000f0ff"
        case .findInformationResponse128: return "05021f000000000000001f9e0d4c175ae1a7577e"
        case .findInformationResponse128OnBase: return "05020300fb349b5f800000800010000002290000"
        case .findByTypeValueRequest: return "060100ffff00280d18"
        case .findByTypeValueResponse: return "07110019001d003000"
        case .readByTypeRequest: return "080100ffff0328"
        case .readByTypeRequest128OnBase: return "080100fffffb349b5f8000008000100000382a0000"
        case .readByTypeResponse: return "09070200020300002a0400020500012a"
        case .readRequest: return "0a1700"
        case .readResponse: return "0b73776966742d617474"
        case .readResponseEmpty: return "0b"
        case .readBlobRequest: return "0c1f001600"
        case .readBlobResponse: return "0d0102"
        case .readMultipleRequest: return "0e170010001c00"
        case .readMultipleResponse: return "0f015a"
        case .readByGroupTypeRequest: return "100100ffff0028"
        case .readByGroupTypeResponse: return "110601000500001806000d000118"
        case .readByGroupTypeResponse128: return "11141d0030000000000000001f9e0d4c175ae0a7577e"
        case .writeRequest: return "1215000100"
        case .writeResponse: return "13"
        case .prepareWriteRequest: return "1622000000a0a1"
        case .prepareWriteResponse: return "1722001200a0a1"
        case .executeWriteRequest: return "1801"
        case .executeWriteRequestCancel: return "1800"
        case .executeWriteResponse: return "19"
        case .handleValueNotification: return "1b14000648"
        case .handleValueIndication: return "1d260001"
        case .handleValueConfirmation: return "1e"
        case .readMultipleVariableRequest: return "2017001000"
        case .readMultipleVariableResponse: return "210100010100" + "5a"
        case .readMultipleVariableResponseTruncated: return "21010001" + "05006162"
        case .multipleHandleValueNotification: return "23140002000648" + "2f00010001"
        case .writeCommand: return "52240001020304"
        case .signedWriteCommand: return "d2240001010000001122334455667788"
        }
    }

    /// The JSON form, serialized.
    var json: String {
        switch self {
        case .errorResponse:
            return #"{"opcode":1,"name":"Error Response","requestOpcode":10,"requestOpcodeName":"Read Request","handle":41,"errorCode":2,"errorName":"Read Not Permitted"}"#
        case .errorResponseUnknownRequest:
            return #"{"opcode":1,"name":"Error Response","requestOpcode":63,"handle":43,"errorCode":128,"errorName":"Application Error 0x80"}"#
        case .exchangeMTURequest:
            return #"{"opcode":2,"name":"Exchange MTU Request","clientRxMTU":247}"#
        case .exchangeMTUResponse:
            return #"{"opcode":3,"name":"Exchange MTU Response","serverRxMTU":517}"#
        case .findInformationRequest:
            return #"{"opcode":4,"name":"Find Information Request","startingHandle":1,"endingHandle":65535}"#
        case .findInformationResponse16:
            return #"{"opcode":5,"name":"Find Information Response","format":1,"informationData":[{"handle":1,"uuid":"2800","uuidName":"Primary Service"},{"handle":2,"uuid":"2803","uuidName":"Characteristic"},{"handle":64,"uuid":"FFF0"}]}"#
        case .findInformationResponse128:
            return #"{"opcode":5,"name":"Find Information Response","format":2,"informationData":[{"handle":31,"uuid":"7E57A7E1-5A17-4C0D-9E1F-000000000000"}]}"#
        case .findInformationResponse128OnBase:
            return #"{"opcode":5,"name":"Find Information Response","format":2,"informationData":[{"handle":3,"uuid":"00002902-0000-1000-8000-00805F9B34FB","uuidName":"Client Characteristic Configuration"}]}"#
        case .findByTypeValueRequest:
            return #"{"opcode":6,"name":"Find By Type Value Request","startingHandle":1,"endingHandle":65535,"attributeType":"2800","attributeTypeName":"Primary Service","attributeValue":"0d18"}"#
        case .findByTypeValueResponse:
            return #"{"opcode":7,"name":"Find By Type Value Response","handlesInformationList":[{"foundAttributeHandle":17,"groupEndHandle":25},{"foundAttributeHandle":29,"groupEndHandle":48}]}"#
        case .readByTypeRequest:
            return #"{"opcode":8,"name":"Read By Type Request","startingHandle":1,"endingHandle":65535,"attributeType":"2803","attributeTypeName":"Characteristic"}"#
        case .readByTypeRequest128OnBase:
            return #"{"opcode":8,"name":"Read By Type Request","startingHandle":1,"endingHandle":65535,"attributeType":"00002A38-0000-1000-8000-00805F9B34FB","attributeTypeName":"Body Sensor Location"}"#
        case .readByTypeResponse:
            return #"{"opcode":9,"name":"Read By Type Response","length":7,"attributeDataList":[{"handle":2,"value":"020300002a"},{"handle":4,"value":"020500012a"}]}"#
        case .readRequest:
            return #"{"opcode":10,"name":"Read Request","handle":23}"#
        case .readResponse:
            return #"{"opcode":11,"name":"Read Response","value":"73776966742d617474"}"#
        case .readResponseEmpty:
            return #"{"opcode":11,"name":"Read Response","value":""}"#
        case .readBlobRequest:
            return #"{"opcode":12,"name":"Read Blob Request","handle":31,"valueOffset":22}"#
        case .readBlobResponse:
            return #"{"opcode":13,"name":"Read Blob Response","value":"0102"}"#
        case .readMultipleRequest:
            return #"{"opcode":14,"name":"Read Multiple Request","setOfHandles":[23,16,28]}"#
        case .readMultipleResponse:
            return #"{"opcode":15,"name":"Read Multiple Response","setOfValues":"015a"}"#
        case .readByGroupTypeRequest:
            return #"{"opcode":16,"name":"Read By Group Type Request","startingHandle":1,"endingHandle":65535,"attributeGroupType":"2800","attributeGroupTypeName":"Primary Service"}"#
        case .readByGroupTypeResponse:
            return #"{"opcode":17,"name":"Read By Group Type Response","length":6,"attributeDataList":[{"attributeHandle":1,"endGroupHandle":5,"value":"0018"},{"attributeHandle":6,"endGroupHandle":13,"value":"0118"}]}"#
        case .readByGroupTypeResponse128:
            return #"{"opcode":17,"name":"Read By Group Type Response","length":20,"attributeDataList":[{"attributeHandle":29,"endGroupHandle":48,"value":"0000000000001f9e0d4c175ae0a7577e"}]}"#
        case .writeRequest:
            return #"{"opcode":18,"name":"Write Request","handle":21,"value":"0100"}"#
        case .writeResponse:
            return #"{"opcode":19,"name":"Write Response"}"#
        case .prepareWriteRequest:
            return #"{"opcode":22,"name":"Prepare Write Request","handle":34,"valueOffset":0,"partAttributeValue":"a0a1"}"#
        case .prepareWriteResponse:
            return #"{"opcode":23,"name":"Prepare Write Response","handle":34,"valueOffset":18,"partAttributeValue":"a0a1"}"#
        case .executeWriteRequest:
            return #"{"opcode":24,"name":"Execute Write Request","flags":1,"flagsName":"Immediately write all pending prepared values"}"#
        case .executeWriteRequestCancel:
            return #"{"opcode":24,"name":"Execute Write Request","flags":0,"flagsName":"Cancel all prepared writes"}"#
        case .executeWriteResponse:
            return #"{"opcode":25,"name":"Execute Write Response"}"#
        case .handleValueNotification:
            return #"{"opcode":27,"name":"Handle Value Notification","handle":20,"value":"0648"}"#
        case .handleValueIndication:
            return #"{"opcode":29,"name":"Handle Value Indication","handle":38,"value":"01"}"#
        case .handleValueConfirmation:
            return #"{"opcode":30,"name":"Handle Value Confirmation"}"#
        case .readMultipleVariableRequest:
            return #"{"opcode":32,"name":"Read Multiple Variable Request","setOfHandles":[23,16]}"#
        case .readMultipleVariableResponse:
            return #"{"opcode":33,"name":"Read Multiple Variable Response","lengthValueTupleList":[{"length":1,"value":"01"},{"length":1,"value":"5a"}]}"#
        case .readMultipleVariableResponseTruncated:
            return #"{"opcode":33,"name":"Read Multiple Variable Response","lengthValueTupleList":[{"length":1,"value":"01"},{"length":5,"value":"6162"}]}"#
        case .multipleHandleValueNotification:
            return #"{"opcode":35,"name":"Multiple Handle Value Notification","handleLengthValueTupleList":[{"handle":20,"length":2,"value":"0648"},{"handle":47,"length":1,"value":"01"}]}"#
        case .writeCommand:
            return #"{"opcode":82,"name":"Write Command","handle":36,"value":"01020304"}"#
        case .signedWriteCommand:
            return #"{"opcode":210,"name":"Signed Write Command","handle":36,"value":"01","authenticationSignature":"010000001122334455667788","signCounter":1}"#
        }
    }
}
