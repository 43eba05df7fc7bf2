import SwiftATTPDU
import Foundation

/// A decoded PDU's fields under the names `Fixtures/captures/dissect.py` gives tshark's,
/// so the two can be compared key by key. tshark writes UUIDs as lowercase hex digits
/// in reading order (4 or 32 digits) and byte strings as lowercase hex.
struct TSharkView {
    var fields: [String: Any] = [:]

    init(_ pdu: ATTPDU) {
        switch pdu {
        case let .errorResponse(p):
            fields = ["requestOpcode": Int(p.requestOpcode.rawValue), "handle": Int(p.handle), "errorCode": Int(p.errorCode.rawValue)]
        case let .exchangeMTURequest(p): fields = ["clientRxMTU": Int(p.clientRxMTU)]
        case let .exchangeMTUResponse(p): fields = ["serverRxMTU": Int(p.serverRxMTU)]
        case let .findInformationRequest(p): range(p.startingHandle, p.endingHandle)
        case let .findInformationResponse(p):
            fields["format"] = Int(p.format.rawValue)
            fields["informationData"] = p.informationData.map { ["handle": Int($0.handle), "uuid": Self.uuid($0.uuid)] as [String: Any] }
        case let .findByTypeValueRequest(p):
            range(p.startingHandle, p.endingHandle)
            fields["uuid"] = Self.uuid(BluetoothUUID(p.attributeType))
            fields["value"] = Hex.encode(p.attributeValue)
        case let .findByTypeValueResponse(p):
            fields["handlesInformation"] = p.handlesInformationList.map {
                ["foundHandle": Int($0.foundAttributeHandle), "groupEndHandle": Int($0.groupEndHandle)] as [String: Any]
            }
        case let .readByTypeRequest(p):
            range(p.startingHandle, p.endingHandle)
            fields["uuid"] = Self.uuid(p.attributeType)
        case let .readByTypeResponse(p):
            fields["length"] = p.length
            fields["attributeData"] = p.attributeDataList.map { ["handle": Int($0.handle), "value": Hex.encode($0.value)] as [String: Any] }
        case let .readRequest(p): fields["handle"] = Int(p.handle)
        case let .readResponse(p): fields["value"] = Hex.encode(p.value)
        case let .readBlobRequest(p): fields = ["handle": Int(p.handle), "offset": Int(p.valueOffset)]
        case let .readBlobResponse(p): fields["value"] = Hex.encode(p.value)
        case let .readMultipleRequest(p): fields["handles"] = p.setOfHandles.map { Int($0) }
        case let .readMultipleResponse(p): fields["value"] = Hex.encode(p.setOfValues)
        case let .readByGroupTypeRequest(p):
            range(p.startingHandle, p.endingHandle)
            fields["uuid"] = Self.uuid(p.attributeGroupType)
        case let .readByGroupTypeResponse(p):
            fields["length"] = p.length
            fields["attributeData"] = p.attributeDataList.map {
                ["handle": Int($0.attributeHandle), "endGroupHandle": Int($0.endGroupHandle), "value": Hex.encode($0.value)] as [String: Any]
            }
        case let .writeRequest(p): handleValue(p.handle, p.value)
        case let .writeCommand(p): handleValue(p.handle, p.value)
        case let .handleValueNotification(p): handleValue(p.handle, p.value)
        case let .handleValueIndication(p): handleValue(p.handle, p.value)
        case let .signedWriteCommand(p): handleValue(p.handle, p.value)
        case let .prepareWriteRequest(p):
            handleValue(p.handle, p.partAttributeValue)
            fields["offset"] = Int(p.valueOffset)
        case let .prepareWriteResponse(p):
            handleValue(p.handle, p.partAttributeValue)
            fields["offset"] = Int(p.valueOffset)
        case let .executeWriteRequest(p): fields["flags"] = Int(p.flags.rawValue)
        case let .readMultipleVariableRequest(p): fields["handles"] = p.setOfHandles.map { Int($0) }
        case .readMultipleVariableResponse, .multipleHandleValueNotification,
             .writeResponse, .executeWriteResponse, .handleValueConfirmation:
            break
        }
    }

    private mutating func range(_ start: UInt16, _ end: UInt16) {
        fields["startingHandle"] = Int(start)
        fields["endingHandle"] = Int(end)
    }

    private mutating func handleValue(_ handle: UInt16, _ value: ArraySlice<UInt8>) {
        fields["handle"] = Int(handle)
        fields["value"] = Hex.encode(value)
    }

    static func uuid(_ uuid: BluetoothUUID) -> String {
        let digits = uuid.width == .bits16 ? 4 : 32
        let value = uuid.width == .bits16 ? uuid.uuid128 >> 96 : uuid.uuid128
        let s = String(value, radix: 16)
        return String(repeating: "0", count: digits - s.count) + s
    }

    /// Deep equality of the JSON-ish values on both sides.
    static func same(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case let (x as Int, y as Int): return x == y
        case let (x as Int, y as NSNumber): return x == y.intValue
        case let (x as String, y as String): return x == y
        case let (x as [Int], y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case let (x as [[String: Any]], y as [Any]):
            guard x.count == y.count else { return false }
            return zip(x, y).allSatisfy { mine, theirs in
                guard let theirs = theirs as? [String: Any], Set(theirs.keys) == Set(mine.keys) else { return false }
                return theirs.allSatisfy { key, value in mine[key].map { same($0, value) } ?? false }
            }
        default: return false
        }
    }
}
