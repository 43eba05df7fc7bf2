import SwiftATTPDU
import SwiftATTPDUJSON

extension ATTPDU {
    /// The PDU for people: `Read By Group Type Response (0x11)`, then its fields indented,
    /// one list entry per line, in the spirit of btmon.
    var text: String {
        var t = FieldsText(title: opcode.description)
        switch self {
        case let .errorResponse(p):
            t.field("Request opcode", ValueText.opcode(p.requestOpcode))
            t.field("Handle", Hex.handle(p.handle))
            t.field("Error", ValueText.errorCode(p.errorCode))
        case let .exchangeMTURequest(p):
            t.field("Client RX MTU", "\(p.clientRxMTU)")
        case let .exchangeMTUResponse(p):
            t.field("Server RX MTU", "\(p.serverRxMTU)")
        case let .findInformationRequest(p):
            t.field("Handle range", ValueText.handleRange(p.startingHandle, p.endingHandle))
        case let .findInformationResponse(p):
            t.field("Format", "\(ValueText.byte(p.format.rawValue)) (\(p.format == .uuid16 ? "16" : "128")-bit UUIDs)")
            t.field("Information data", Self.count(p.informationData.count))
            for info in p.informationData {
                t.entry([Hex.handle(info.handle), ValueText.uuid(info.uuid)])
            }
        case let .findByTypeValueRequest(p):
            let type = BluetoothUUID(p.attributeType)
            t.field("Handle range", ValueText.handleRange(p.startingHandle, p.endingHandle))
            t.field("Attribute type", ValueText.uuid(type))
            var value = ValueText.bytes(p.attributeValue)
            if type.assignedKind == .declaration, let uuid = ValueText.uuidValue(p.attributeValue) {
                value[0] += "  (\(ValueText.uuid(uuid)))"
            }
            t.field("Attribute value", value)
        case let .findByTypeValueResponse(p):
            t.field("Handles information list", Self.count(p.handlesInformationList.count))
            for info in p.handlesInformationList {
                t.entry([ValueText.handleRange(info.foundAttributeHandle, info.groupEndHandle)])
            }
        case let .readByTypeRequest(p):
            t.field("Handle range", ValueText.handleRange(p.startingHandle, p.endingHandle))
            t.field("Attribute type", ValueText.uuid(p.attributeType))
        case let .readByTypeResponse(p):
            t.field("Length", "\(p.length)")
            t.field("Attribute data list", Self.count(p.attributeDataList.count))
            for data in p.attributeDataList {
                var value = ValueText.bytes(data.value)
                if let hint = ValueText.characteristicDeclaration(data.value) { value.append(hint) }
                t.entry([Hex.handle(data.handle), value[0]], more: Array(value.dropFirst()))
            }
        case let .readRequest(p):
            t.field("Handle", Hex.handle(p.handle))
        case let .readResponse(p):
            t.field("Value", ValueText.bytes(p.value))
        case let .readBlobRequest(p):
            t.field("Handle", Hex.handle(p.handle))
            t.field("Value offset", "\(p.valueOffset)")
        case let .readBlobResponse(p):
            t.field("Value", ValueText.bytes(p.value))
        case let .readMultipleRequest(p):
            t.field("Set of handles", p.setOfHandles.map(Hex.handle).joined(separator: " "))
        case let .readMultipleResponse(p):
            t.field("Set of values", ValueText.bytes(p.setOfValues))
        case let .readByGroupTypeRequest(p):
            t.field("Handle range", ValueText.handleRange(p.startingHandle, p.endingHandle))
            t.field("Attribute group type", ValueText.uuid(p.attributeGroupType))
        case let .readByGroupTypeResponse(p):
            t.field("Length", "\(p.length)")
            t.field("Attribute data list", Self.count(p.attributeDataList.count))
            for data in p.attributeDataList {
                let range = ValueText.handleRange(data.attributeHandle, data.endGroupHandle)
                if let uuid = ValueText.uuidValue(data.value) {
                    t.entry([range, ValueText.uuid(uuid)])
                } else {
                    let value = ValueText.bytes(data.value)
                    t.entry([range, value[0]], more: Array(value.dropFirst()))
                }
            }
        case let .writeRequest(p):
            Self.handleValue(p.handle, p.value, into: &t)
        case .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        case let .prepareWriteRequest(p):
            Self.preparedValue(p, into: &t)
        case let .prepareWriteResponse(p):
            Self.preparedValue(p, into: &t)
        case let .executeWriteRequest(p):
            t.field("Flags", "\(ValueText.byte(p.flags.rawValue)) \(p.flags.name)")
        case let .handleValueNotification(p):
            Self.handleValue(p.handle, p.value, into: &t)
        case let .handleValueIndication(p):
            Self.handleValue(p.handle, p.value, into: &t)
        case let .readMultipleVariableRequest(p):
            t.field("Set of handles", p.setOfHandles.map(Hex.handle).joined(separator: " "))
        case let .readMultipleVariableResponse(p):
            let tuples = Array(p.lengthValueTupleList)
            t.field("Length value tuple list", Self.count(tuples.count))
            for tuple in tuples {
                var value = ValueText.bytes(tuple.value)
                if tuple.isTruncated { value.append("(truncated: \(tuple.value.count) of \(String(count: tuple.declaredLength, "byte")))") }
                t.entry(["length \(tuple.declaredLength)", value[0]], more: Array(value.dropFirst()))
            }
        case let .multipleHandleValueNotification(p):
            let tuples = Array(p.handleLengthValueTupleList)
            t.field("Handle length value tuple list", Self.count(tuples.count))
            for tuple in tuples {
                let value = ValueText.bytes(tuple.value)
                t.entry([Hex.handle(tuple.handle ?? 0), "length \(tuple.declaredLength)", value[0]],
                        more: Array(value.dropFirst()))
            }
        case let .writeCommand(p):
            Self.handleValue(p.handle, p.value, into: &t)
        case let .signedWriteCommand(p):
            Self.handleValue(p.handle, p.value, into: &t)
            t.field("Signature", Hex.encode(p.authenticationSignature))
            t.field("Sign counter", "\(p.signCounter)")
        }
        return t.rendered
    }

    private static func count(_ n: Int) -> String { String(count: n, "entry", plural: "entries") }

    private static func handleValue(_ handle: UInt16, _ value: ArraySlice<UInt8>, into t: inout FieldsText) {
        t.field("Handle", Hex.handle(handle))
        t.field("Value", ValueText.bytes(value))
    }

    private static func preparedValue(_ p: some ATTPreparedValuePDU, into t: inout FieldsText) {
        t.field("Handle", Hex.handle(p.handle))
        t.field("Value offset", "\(p.valueOffset)")
        t.field("Part value", ValueText.bytes(p.partAttributeValue))
    }
}
