import SwiftATTPDU

// Reading values: Read, Read Blob, Read Multiple, Read Multiple Variable.
// Core 5.4 Vol 3 Part F §3.4.4.3–§3.4.4.8, §3.4.4.11–§3.4.4.12.
extension GATTServer {
    /// The whole value of the attribute at `index` as `id` may read it, after the
    /// permission checks (`readError`). Handlers' errors pass through; a handler value
    /// over 512 octets is an Unlikely Error (Part F §3.2.9).
    func readValue(_ index: Int, for id: ConnectionID, offset: Int, request: ATTOpcode) -> Result<[UInt8], ATTErrorCode> {
        let attribute = database.attributes[index]
        let state = state(id)
        if let code = readError(attribute, state) { return .failure(code) }
        let value: [UInt8]
        switch attribute.storage {
        case let .constant(bytes):
            value = bytes
        case let .stored(slot, _, _), let .serverConfiguration(slot):
            value = values[slot]
        case let .dynamic(read, _, _):
            guard let read else { return .failure(.readNotPermitted) }
            let context = GATTReadContext(connection: id, handle: attribute.handle, offset: offset, request: request)
            switch read(context) {
            case let .failure(code): return .failure(code)
            case let .success(bytes):
                guard bytes.count <= ATTLimits.maximumAttributeValueLength else { return .failure(.unlikelyError) }
                value = bytes
            }
        case let .clientConfiguration(valueHandle, _):
            value = (state.subscriptions[valueHandle] ?? []).encoded
        case .clientSupportedFeatures:
            value = state.clientFeatures
        case .serviceChanged:
            return .failure(.readNotPermitted)
        }
        if attribute.handle == database.databaseHashValueHandle && !state.changeAware {
            connections[id]?.readHashWhileUnaware = true
        }
        return .success(value)
    }

    /// Read (§3.4.4.3): the value, cut to ATT_MTU−1 octets.
    func read(_ r: ReadRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readRequest
        guard let index = database.index(of: r.handle) else { return Self.error(op, r.handle, .invalidHandle) }
        switch readValue(index, for: id, offset: 0, request: op) {
        case let .failure(code): return Self.error(op, r.handle, code)
        case let .success(value): return .readResponse(ReadResponse(value: value.prefix(mtu - 1)))
        }
    }

    /// Read Blob (§3.4.4.5): up to ATT_MTU−1 octets from the offset; an empty part at
    /// exactly the end; Invalid Offset past it.
    ///
    /// Attribute Not Long is a "may" for a fixed-length value of at most ATT_MTU−1
    /// octets. This server sends it for such a value only at a non-zero offset: a Read
    /// Blob at offset 0 reads the same octets a Read would, and refusing it would only
    /// break clients that start every long read with Read Blob. Variable-length values
    /// never get it: their length may grow past ATT_MTU−1. (Bumble's server never sends
    /// it; its client stops a long read on it as on Invalid Offset.)
    func readBlob(_ r: ReadBlobRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readBlobRequest
        guard let index = database.index(of: r.handle) else { return Self.error(op, r.handle, .invalidHandle) }
        let offset = Int(r.valueOffset)
        switch readValue(index, for: id, offset: offset, request: op) {
        case let .failure(code):
            return Self.error(op, r.handle, code)
        case let .success(value):
            guard offset <= value.count else { return Self.error(op, r.handle, .invalidOffset) }
            if offset > 0, let fixed = database.attributes[index].fixedLength, fixed <= mtu - 1 {
                return Self.error(op, r.handle, .attributeNotLong)
            }
            return .readBlobResponse(ReadBlobResponse(value: value[offset..<min(value.count, offset + mtu - 1)]))
        }
    }

    /// Read Multiple (§3.4.4.7): the values concatenated, cut to ATT_MTU−1 octets. Any
    /// handle that cannot be read fails the whole request, naming the first such handle.
    func readMultiple(_ r: ReadMultipleRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readMultipleRequest
        var values: [UInt8] = []
        for handle in r.setOfHandles {
            guard let index = database.index(of: handle) else { return Self.error(op, handle, .invalidHandle) }
            switch readValue(index, for: id, offset: 0, request: op) {
            case let .failure(code): return Self.error(op, handle, code)
            case let .success(value): values += value.prefix(max(0, mtu - 1 - values.count))
            }
        }
        return .readMultipleResponse(ReadMultipleResponse(setOfValues: values[...]))
    }

    /// Read Multiple Variable (§3.4.4.11): a length–value tuple per handle. The list is
    /// cut after ATT_MTU−1 octets, or before a tuple whose length field would not fit
    /// (§3.4.4.12); a cut tuple keeps its value's full length in the length field.
    func readMultipleVariable(_ r: ReadMultipleVariableRequest, from id: ConnectionID, mtu: Int) -> ATTPDU {
        let op = ATTOpcode.readMultipleVariableRequest
        var tuples: [ATTTupleList.Tuple] = []
        var used = 1
        var full = false
        for handle in r.setOfHandles {
            guard let index = database.index(of: handle) else { return Self.error(op, handle, .invalidHandle) }
            switch readValue(index, for: id, offset: 0, request: op) {
            case let .failure(code):
                return Self.error(op, handle, code)
            case let .success(value):
                let room = mtu - used
                if full || room < 2 {
                    full = true
                    continue
                }
                let present = min(value.count, room - 2)
                tuples.append(ATTTupleList.Tuple(value: value.prefix(present), declaredLength: value.count))
                used += 2 + present
                full = present < value.count
            }
        }
        return .readMultipleVariableResponse(ReadMultipleVariableResponse(tuples))
    }
}
