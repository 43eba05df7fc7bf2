import SwiftATTPDU
import TestSupport

/// The JSON form of a PDU (Documentation/JSON.md), read from the decoded PDU's typed properties, and
/// a PDU built back from that form through the public initialisers.
///
/// Written for the tests alone: a second reading of Fixtures/att/README.md, so the
/// golden vectors check the codec rather than the codec checking itself.
enum PDUFields {
    typealias Fields = [String: FixtureJSON]

    static func hex(_ bytes: some Collection<UInt8>) -> FixtureJSON { .string(Hex.encode(bytes)) }
    static func int(_ v: some BinaryInteger) -> FixtureJSON { .int(Int(v)) }
    static func uuid(_ u: BluetoothUUID) -> FixtureJSON { .string(u.description) }

    /// `opcode`, `name`, then the PDU's fields, without informational `…Name` keys.
    static func of(_ pdu: ATTPDU) -> Fields {
        var f: Fields = ["opcode": int(pdu.opcode.rawValue), "name": .string(pdu.opcode.name ?? "")]
        switch pdu {
        case let .errorResponse(p):
            f["requestOpcode"] = int(p.requestOpcode.rawValue)
            f["handle"] = int(p.handle)
            f["errorCode"] = int(p.errorCode.rawValue)
        case let .exchangeMTURequest(p):
            f["clientRxMTU"] = int(p.clientRxMTU)
        case let .exchangeMTUResponse(p):
            f["serverRxMTU"] = int(p.serverRxMTU)
        case let .findInformationRequest(p):
            f["startingHandle"] = int(p.startingHandle)
            f["endingHandle"] = int(p.endingHandle)
        case let .findInformationResponse(p):
            f["format"] = int(p.format.rawValue)
            f["informationData"] = .array(p.informationData.map {
                .object(["handle": int($0.handle), "uuid": uuid($0.uuid)])
            })
        case let .findByTypeValueRequest(p):
            f["startingHandle"] = int(p.startingHandle)
            f["endingHandle"] = int(p.endingHandle)
            f["attributeType"] = uuid(BluetoothUUID(p.attributeType))
            f["attributeValue"] = hex(p.attributeValue)
        case let .findByTypeValueResponse(p):
            f["handlesInformationList"] = .array(p.handlesInformationList.map {
                .object(["foundAttributeHandle": int($0.foundAttributeHandle), "groupEndHandle": int($0.groupEndHandle)])
            })
        case let .readByTypeRequest(p):
            f["startingHandle"] = int(p.startingHandle)
            f["endingHandle"] = int(p.endingHandle)
            f["attributeType"] = uuid(p.attributeType)
        case let .readByTypeResponse(p):
            f["length"] = int(p.length)
            f["attributeDataList"] = .array(p.attributeDataList.map {
                .object(["handle": int($0.handle), "value": hex($0.value)])
            })
        case let .readRequest(p):
            f["handle"] = int(p.handle)
        case let .readResponse(p):
            f["value"] = hex(p.value)
        case let .readBlobRequest(p):
            f["handle"] = int(p.handle)
            f["valueOffset"] = int(p.valueOffset)
        case let .readBlobResponse(p):
            f["value"] = hex(p.value)
        case let .readMultipleRequest(p):
            f["setOfHandles"] = .array(p.setOfHandles.map { int($0) })
        case let .readMultipleResponse(p):
            f["setOfValues"] = hex(p.setOfValues)
        case let .readByGroupTypeRequest(p):
            f["startingHandle"] = int(p.startingHandle)
            f["endingHandle"] = int(p.endingHandle)
            f["attributeGroupType"] = uuid(p.attributeGroupType)
        case let .readByGroupTypeResponse(p):
            f["length"] = int(p.length)
            f["attributeDataList"] = .array(p.attributeDataList.map {
                .object(["attributeHandle": int($0.attributeHandle), "endGroupHandle": int($0.endGroupHandle), "value": hex($0.value)])
            })
        case let .writeRequest(p):
            f["handle"] = int(p.handle)
            f["value"] = hex(p.value)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case let .prepareWriteRequest(p):
            f["handle"] = int(p.handle)
            f["valueOffset"] = int(p.valueOffset)
            f["partAttributeValue"] = hex(p.partAttributeValue)
        case let .prepareWriteResponse(p):
            f["handle"] = int(p.handle)
            f["valueOffset"] = int(p.valueOffset)
            f["partAttributeValue"] = hex(p.partAttributeValue)
        case let .executeWriteRequest(p):
            f["flags"] = int(p.flags.rawValue)
        case let .handleValueNotification(p):
            f["handle"] = int(p.handle)
            f["value"] = hex(p.value)
        case let .handleValueIndication(p):
            f["handle"] = int(p.handle)
            f["value"] = hex(p.value)
        case let .readMultipleVariableRequest(p):
            f["setOfHandles"] = .array(p.setOfHandles.map { int($0) })
        case let .readMultipleVariableResponse(p):
            f["lengthValueTupleList"] = .array(p.lengthValueTupleList.map {
                .object(["length": int($0.declaredLength), "value": hex($0.value)])
            })
        case let .multipleHandleValueNotification(p):
            f["handleLengthValueTupleList"] = .array(p.handleLengthValueTupleList.map {
                .object(["handle": int($0.handle ?? 0), "length": int($0.declaredLength), "value": hex($0.value)])
            })
        case let .writeCommand(p):
            f["handle"] = int(p.handle)
            f["value"] = hex(p.value)
        case let .signedWriteCommand(p):
            f["handle"] = int(p.handle)
            f["value"] = hex(p.value)
            f["authenticationSignature"] = hex(p.authenticationSignature)
            f["signCounter"] = int(p.signCounter)
        }
        return f
    }

    /// Why `build` could not make a PDU from a vector's fields.
    struct BuildError: Error, CustomStringConvertible {
        let description: String
    }

    /// A PDU made from `fields` with the public memberwise and list initialisers.
    static func build(_ fields: Fields) throws -> ATTPDU {
        let r = Reader(fields: fields)
        switch try r.int("opcode") {
        case 0x01:
            return .errorResponse(ErrorResponse(
                requestOpcode: ATTOpcode(try r.u8("requestOpcode")), handle: try r.u16("handle"),
                errorCode: ATTErrorCode(try r.u8("errorCode"))))
        case 0x02: return .exchangeMTURequest(ExchangeMTURequest(clientRxMTU: try r.u16("clientRxMTU")))
        case 0x03: return .exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: try r.u16("serverRxMTU")))
        case 0x04:
            return .findInformationRequest(FindInformationRequest(
                startingHandle: try r.u16("startingHandle"), endingHandle: try r.u16("endingHandle")))
        case 0x05:
            let entries = try r.objects("informationData").map { e in
                FindInformationResponse.Information(handle: try e.u16("handle"), uuid: try e.uuid("uuid"))
            }
            return .findInformationResponse(try FindInformationResponse(entries))
        case 0x06:
            guard let type = try r.uuid("attributeType").uuid16 else { throw BuildError(description: "attributeType not 16-bit") }
            return .findByTypeValueRequest(FindByTypeValueRequest(
                startingHandle: try r.u16("startingHandle"), endingHandle: try r.u16("endingHandle"),
                attributeType: type, attributeValue: try r.bytes("attributeValue")))
        case 0x07:
            let entries = try r.objects("handlesInformationList").map { e in
                FindByTypeValueResponse.HandlesInformation(
                    foundAttributeHandle: try e.u16("foundAttributeHandle"), groupEndHandle: try e.u16("groupEndHandle"))
            }
            return .findByTypeValueResponse(try FindByTypeValueResponse(entries))
        case 0x08:
            return .readByTypeRequest(ReadByTypeRequest(
                startingHandle: try r.u16("startingHandle"), endingHandle: try r.u16("endingHandle"),
                attributeType: try r.uuid("attributeType")))
        case 0x09:
            let entries = try r.objects("attributeDataList").map { e in
                ReadByTypeResponse.AttributeData(handle: try e.u16("handle"), value: try e.bytes("value"))
            }
            return .readByTypeResponse(try ReadByTypeResponse(entries))
        case 0x0A: return .readRequest(ReadRequest(handle: try r.u16("handle")))
        case 0x0B: return .readResponse(ReadResponse(value: try r.bytes("value")))
        case 0x0C:
            return .readBlobRequest(ReadBlobRequest(handle: try r.u16("handle"), valueOffset: try r.u16("valueOffset")))
        case 0x0D: return .readBlobResponse(ReadBlobResponse(value: try r.bytes("value")))
        case 0x0E: return .readMultipleRequest(ReadMultipleRequest(setOfHandles: ATTHandleList(try r.u16s("setOfHandles"))))
        case 0x0F: return .readMultipleResponse(ReadMultipleResponse(setOfValues: try r.bytes("setOfValues")))
        case 0x10:
            return .readByGroupTypeRequest(ReadByGroupTypeRequest(
                startingHandle: try r.u16("startingHandle"), endingHandle: try r.u16("endingHandle"),
                attributeGroupType: try r.uuid("attributeGroupType")))
        case 0x11:
            let entries = try r.objects("attributeDataList").map { e in
                ReadByGroupTypeResponse.AttributeData(
                    attributeHandle: try e.u16("attributeHandle"), endGroupHandle: try e.u16("endGroupHandle"),
                    value: try e.bytes("value"))
            }
            return .readByGroupTypeResponse(try ReadByGroupTypeResponse(entries))
        case 0x12: return .writeRequest(WriteRequest(handle: try r.u16("handle"), value: try r.bytes("value")))
        case 0x13: return .writeResponse(WriteResponse())
        case 0x16:
            return .prepareWriteRequest(PrepareWriteRequest(
                handle: try r.u16("handle"), valueOffset: try r.u16("valueOffset"),
                partAttributeValue: try r.bytes("partAttributeValue")))
        case 0x17:
            return .prepareWriteResponse(PrepareWriteResponse(
                handle: try r.u16("handle"), valueOffset: try r.u16("valueOffset"),
                partAttributeValue: try r.bytes("partAttributeValue")))
        case 0x18:
            guard let flags = ExecuteWriteRequest.Flags(rawValue: try r.u8("flags")) else {
                throw BuildError(description: "flags")
            }
            return .executeWriteRequest(ExecuteWriteRequest(flags: flags))
        case 0x19: return .executeWriteResponse(ExecuteWriteResponse())
        case 0x1B: return .handleValueNotification(HandleValueNotification(handle: try r.u16("handle"), value: try r.bytes("value")))
        case 0x1D: return .handleValueIndication(HandleValueIndication(handle: try r.u16("handle"), value: try r.bytes("value")))
        case 0x1E: return .handleValueConfirmation(HandleValueConfirmation())
        case 0x20:
            return .readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: ATTHandleList(try r.u16s("setOfHandles"))))
        case 0x21:
            let tuples = try r.objects("lengthValueTupleList").map { t in
                ATTTupleList.Tuple(value: try t.bytes("value"), declaredLength: try t.int("length"))
            }
            return .readMultipleVariableResponse(ReadMultipleVariableResponse(tuples))
        case 0x23:
            let tuples = try r.objects("handleLengthValueTupleList").map { t in
                ATTTupleList.Tuple(handle: try t.u16("handle"), value: try t.bytes("value"), declaredLength: try t.int("length"))
            }
            return .multipleHandleValueNotification(MultipleHandleValueNotification(tuples))
        case 0x52: return .writeCommand(WriteCommand(handle: try r.u16("handle"), value: try r.bytes("value")))
        case 0xD2:
            return .signedWriteCommand(try SignedWriteCommand(
                handle: try r.u16("handle"), value: try r.bytes("value"),
                authenticationSignature: try r.bytes("authenticationSignature")))
        case let other:
            throw BuildError(description: "opcode \(other)")
        }
    }

    /// Typed reads from a fields object, throwing `BuildError` naming the key.
    private struct Reader {
        let fields: Fields

        func value(_ k: String) throws -> FixtureJSON {
            guard let v = fields[k] else { throw BuildError(description: "missing \(k)") }
            return v
        }
        func int(_ k: String) throws -> Int {
            guard let i = try value(k).int else { throw BuildError(description: "\(k) is not a number") }
            return i
        }
        func u8(_ k: String) throws -> UInt8 {
            guard let v = UInt8(exactly: try int(k)) else { throw BuildError(description: "\(k) out of range") }
            return v
        }
        func u16(_ k: String) throws -> UInt16 {
            guard let v = UInt16(exactly: try int(k)) else { throw BuildError(description: "\(k) out of range") }
            return v
        }
        func string(_ k: String) throws -> String {
            guard let s = try value(k).string else { throw BuildError(description: "\(k) is not a string") }
            return s
        }
        func bytes(_ k: String) throws -> ArraySlice<UInt8> {
            try Hex.decode(try string(k))[...]
        }
        func uuid(_ k: String) throws -> BluetoothUUID {
            guard let u = BluetoothUUID(try string(k)) else { throw BuildError(description: "\(k) is not a UUID") }
            return u
        }
        func u16s(_ k: String) throws -> [UInt16] {
            guard let a = try value(k).array else { throw BuildError(description: "\(k) is not an array") }
            return try a.map {
                guard let v = $0.int.flatMap(UInt16.init(exactly:)) else { throw BuildError(description: "\(k) element") }
                return v
            }
        }
        func objects(_ k: String) throws -> [Reader] {
            guard let a = try value(k).array else { throw BuildError(description: "\(k) is not an array") }
            return try a.map {
                guard let o = $0.object else { throw BuildError(description: "\(k) element is not an object") }
                return Reader(fields: o)
            }
        }
    }
}
