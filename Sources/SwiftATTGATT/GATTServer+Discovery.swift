import SwiftATTPDU
import SwiftATTCore

// The requests a client discovers the database with: Find Information, Find By Type
// Value, Read By Type and Read By Group Type. Core 5.4 Vol 3 Part F §3.4.3, §3.4.4.1,
// §3.4.4.9; the GATT procedures that use them are Part G §4.4–§4.7.
extension GATTServer {
    /// Whether a range request's handles make sense: Part F §3.4.3.1 and the like answer
    /// Invalid Handle, at the starting handle, for 0x0000 or a start past the end.
    static func rangeError(_ opcode: ATTOpcode, _ start: UInt16, _ end: UInt16) -> ATTPDU? {
        start == 0 || start > end ? error(opcode, start, .invalidHandle) : nil
    }

    /// Find Information (§3.4.3.1): handle–type pairs from the start handle on, all of one
    /// UUID width (the response's Format), as many as fit in ATT_MTU.
    func findInformation(_ r: FindInformationRequest, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.findInformationRequest
        if let e = Self.rangeError(op, r.startingHandle, r.endingHandle) { return e }
        let attributes = database.attributes
        var entries: [FindInformationResponse.Information] = []
        var width: BluetoothUUID.Width? = nil
        var i = database.firstIndex(atOrAfter: r.startingHandle)
        while i < attributes.count, attributes[i].handle <= r.endingHandle {
            let a = attributes[i]
            if let width, a.type.width != width { break }
            width = a.type.width
            if 2 + (entries.count + 1) * (2 + a.type.encodedLength) > mtu { break }
            entries.append(.init(handle: a.handle, uuid: a.type))
            i += 1
        }
        guard !entries.isEmpty, let response = try? FindInformationResponse(entries) else {
            return Self.error(op, r.startingHandle, .attributeNotFound)
        }
        return .findInformationResponse(response)
    }

    /// Find By Type Value (§3.4.3.3): the attributes of a 16-bit type whose value equals
    /// the request's, each with its group end (the service's or characteristic's last
    /// handle for those declarations, the attribute itself otherwise). An attribute the
    /// client may not read cannot match (Table 3.44 allows no security errors here).
    func findByTypeValue(_ r: FindByTypeValueRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.findByTypeValueRequest
        if let e = Self.rangeError(op, r.startingHandle, r.endingHandle) { return e }
        let capacity = (mtu - 1) / 4
        var entries: [FindByTypeValueResponse.HandlesInformation] = []
        for index in database.indices(ofType: BluetoothUUID(r.attributeType), in: r.startingHandle...r.endingHandle) {
            guard entries.count < capacity else { break }
            guard case let .success(value) = readValue(index, for: id, offset: 0, request: op),
                  value.elementsEqual(r.attributeValue) else { continue }
            let a = database.attributes[index]
            entries.append(.init(foundAttributeHandle: a.handle, groupEndHandle: a.groupEnd))
        }
        guard !entries.isEmpty, let response = try? FindByTypeValueResponse(entries) else {
            return Self.error(op, r.startingHandle, .attributeNotFound)
        }
        return .findByTypeValueResponse(response)
    }

    /// Read By Type (§3.4.4.1): handle–value pairs of one type, all values of one length,
    /// each cut to min(ATT_MTU−4, 253) octets (§3.4.4.2). Serves characteristic discovery
    /// (type «Characteristic») and Read Using Characteristic UUID alike. The first
    /// attribute the client may not read fails the request with its handle; a later one
    /// ends the list before it.
    func readByType(_ r: ReadByTypeRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readByTypeRequest
        if let e = Self.rangeError(op, r.startingHandle, r.endingHandle) { return e }
        let found = database.indices(ofType: r.attributeType, in: r.startingHandle...r.endingHandle)
        guard !found.isEmpty else { return Self.error(op, r.startingHandle, .attributeNotFound) }
        let cut = min(mtu - 4, 253)
        var entries: [ReadByTypeResponse.AttributeData] = []
        var length: Int? = nil
        scan: for index in found {
            // A full response needs no more reads (handlers may be expensive).
            if let length, 2 + (entries.count + 1) * (2 + length) > mtu { break }
            let a = database.attributes[index]
            switch readValue(index, for: id, offset: 0, request: op) {
            case let .failure(code):
                if entries.isEmpty { return Self.error(op, a.handle, code) }
                break scan
            case let .success(value):
                let part = value.prefix(cut)
                if let length, part.count != length { break scan }
                if 2 + (entries.count + 1) * (2 + part.count) > mtu { break scan }
                length = part.count
                entries.append(.init(handle: a.handle, value: part))
            }
        }
        guard let response = try? ReadByTypeResponse(entries) else {
            return Self.error(op, r.startingHandle, .unlikelyError)
        }
        return .readByTypeResponse(response)
    }

    /// Read By Group Type (§3.4.4.9): service declarations with their end handles, values
    /// of one length, each cut to min(ATT_MTU−6, 251) octets (§3.4.4.10). Only «Primary
    /// Service» and «Secondary Service» are grouping types here (Part G §2.5.3); any
    /// other type is Unsupported Group Type.
    func readByGroupType(_ r: ReadByGroupTypeRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readByGroupTypeRequest
        if let e = Self.rangeError(op, r.startingHandle, r.endingHandle) { return e }
        let type = r.attributeGroupType
        guard type == GATTAttributeType.primaryService || type == GATTAttributeType.secondaryService else {
            return Self.error(op, r.startingHandle, .unsupportedGroupType)
        }
        let found = database.indices(ofType: type, in: r.startingHandle...r.endingHandle)
        guard !found.isEmpty else { return Self.error(op, r.startingHandle, .attributeNotFound) }
        let cut = min(mtu - 6, 251)
        var entries: [ReadByGroupTypeResponse.AttributeData] = []
        var length: Int? = nil
        scan: for index in found {
            let a = database.attributes[index]
            switch readValue(index, for: id, offset: 0, request: op) {
            case let .failure(code):
                if entries.isEmpty { return Self.error(op, a.handle, code) }
                break scan
            case let .success(value):
                let part = value.prefix(cut)
                if let length, part.count != length { break scan }
                if 2 + (entries.count + 1) * (4 + part.count) > mtu { break scan }
                length = part.count
                entries.append(.init(attributeHandle: a.handle, endGroupHandle: a.groupEnd, value: part))
            }
        }
        guard let response = try? ReadByGroupTypeResponse(entries) else {
            return Self.error(op, r.startingHandle, .unlikelyError)
        }
        return .readByGroupTypeResponse(response)
    }
}
