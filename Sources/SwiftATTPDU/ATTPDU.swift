@_exported import SwiftATTCore

/// Any ATT PDU, decoded by its opcode.
///
/// The entry point for a bearer: `ATTPDU(parsing:)` reads the opcode and hands the bytes
/// to that PDU's parser. Every case's payload is a view into the input (see
/// `ATTPDUCodable`), so decoding allocates nothing. Core 5.4 Vol 3 Part F §3.4.
public enum ATTPDU: Sendable, Hashable {
    /// ATT_ERROR_RSP (§3.4.1.1): a request failed, and why.
    case errorResponse(ErrorResponse)
    /// ATT_EXCHANGE_MTU_REQ (§3.4.2.1): the client's receive MTU.
    case exchangeMTURequest(ExchangeMTURequest)
    /// ATT_EXCHANGE_MTU_RSP (§3.4.2.2): the server's receive MTU.
    case exchangeMTUResponse(ExchangeMTUResponse)
    /// ATT_FIND_INFORMATION_REQ (§3.4.3.1): the types of the attributes in a handle range.
    case findInformationRequest(FindInformationRequest)
    /// ATT_FIND_INFORMATION_RSP (§3.4.3.2): handles and their attribute types.
    case findInformationResponse(FindInformationResponse)
    /// ATT_FIND_BY_TYPE_VALUE_REQ (§3.4.3.3): the attributes of a 16-bit type with a given value.
    case findByTypeValueRequest(FindByTypeValueRequest)
    /// ATT_FIND_BY_TYPE_VALUE_RSP (§3.4.3.4): the handle ranges found.
    case findByTypeValueResponse(FindByTypeValueResponse)
    /// ATT_READ_BY_TYPE_REQ (§3.4.4.1): the values of the attributes of a type in a range.
    case readByTypeRequest(ReadByTypeRequest)
    /// ATT_READ_BY_TYPE_RSP (§3.4.4.2): handles and values.
    case readByTypeResponse(ReadByTypeResponse)
    /// ATT_READ_REQ (§3.4.4.3): an attribute's value.
    case readRequest(ReadRequest)
    /// ATT_READ_RSP (§3.4.4.4): the value.
    case readResponse(ReadResponse)
    /// ATT_READ_BLOB_REQ (§3.4.4.5): part of a long value, from an offset.
    case readBlobRequest(ReadBlobRequest)
    /// ATT_READ_BLOB_RSP (§3.4.4.6): that part.
    case readBlobResponse(ReadBlobResponse)
    /// ATT_READ_MULTIPLE_REQ (§3.4.4.7): several values of known lengths.
    case readMultipleRequest(ReadMultipleRequest)
    /// ATT_READ_MULTIPLE_RSP (§3.4.4.8): the values, concatenated.
    case readMultipleResponse(ReadMultipleResponse)
    /// ATT_READ_BY_GROUP_TYPE_REQ (§3.4.4.9): the groups (services) of a type in a range.
    case readByGroupTypeRequest(ReadByGroupTypeRequest)
    /// ATT_READ_BY_GROUP_TYPE_RSP (§3.4.4.10): the groups found, with their values.
    case readByGroupTypeResponse(ReadByGroupTypeResponse)
    /// ATT_WRITE_REQ (§3.4.5.1): write a value, acknowledged.
    case writeRequest(WriteRequest)
    /// ATT_WRITE_RSP (§3.4.5.2): the write was done.
    case writeResponse(WriteResponse)
    /// ATT_PREPARE_WRITE_REQ (§3.4.6.1): queue part of a value.
    case prepareWriteRequest(PrepareWriteRequest)
    /// ATT_PREPARE_WRITE_RSP (§3.4.6.2): the part queued, echoed.
    case prepareWriteResponse(PrepareWriteResponse)
    /// ATT_EXECUTE_WRITE_REQ (§3.4.6.3): write or discard the queue.
    case executeWriteRequest(ExecuteWriteRequest)
    /// ATT_EXECUTE_WRITE_RSP (§3.4.6.4): the queue was handled.
    case executeWriteResponse(ExecuteWriteResponse)
    /// ATT_HANDLE_VALUE_NTF (§3.4.7.1): a value pushed, unconfirmed.
    case handleValueNotification(HandleValueNotification)
    /// ATT_HANDLE_VALUE_IND (§3.4.7.2): a value pushed, to be confirmed.
    case handleValueIndication(HandleValueIndication)
    /// ATT_HANDLE_VALUE_CFM (§3.4.7.3): an indication confirmed.
    case handleValueConfirmation(HandleValueConfirmation)
    /// ATT_READ_MULTIPLE_VARIABLE_REQ (§3.4.4.11): several values of any length.
    case readMultipleVariableRequest(ReadMultipleVariableRequest)
    /// ATT_READ_MULTIPLE_VARIABLE_RSP (§3.4.4.12): the values, each with its length.
    case readMultipleVariableResponse(ReadMultipleVariableResponse)
    /// ATT_MULTIPLE_HANDLE_VALUE_NTF (§3.4.7.4): several values pushed at once.
    case multipleHandleValueNotification(MultipleHandleValueNotification)
    /// ATT_WRITE_CMD (§3.4.5.3): write a value, unacknowledged.
    case writeCommand(WriteCommand)
    /// ATT_SIGNED_WRITE_CMD (§3.4.5.4): write a value, unacknowledged and signed.
    case signedWriteCommand(SignedWriteCommand)

    /// Decodes one whole PDU, opcode first.
    ///
    /// The cases are the opcodes' literal values (each line names its PDU type), so the
    /// switch is one jump table and every opcode costs the same to dispatch. Patterns
    /// such as `Type.opcode.rawValue` are not constants to the compiler: it tests them one
    /// after another, and a PDU late in the list decodes slower than an early one
    /// (Documentation/Benchmarks.md). The golden-vector tests decode every PDU type, so a
    /// wrong literal fails them.
    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        guard let first = pdu.first else { throw .empty }
        switch first {
        case 0x01: self = .errorResponse(try ErrorResponse(parsing: pdu))
        case 0x02: self = .exchangeMTURequest(try ExchangeMTURequest(parsing: pdu))
        case 0x03: self = .exchangeMTUResponse(try ExchangeMTUResponse(parsing: pdu))
        case 0x04: self = .findInformationRequest(try FindInformationRequest(parsing: pdu))
        case 0x05: self = .findInformationResponse(try FindInformationResponse(parsing: pdu))
        case 0x06: self = .findByTypeValueRequest(try FindByTypeValueRequest(parsing: pdu))
        case 0x07: self = .findByTypeValueResponse(try FindByTypeValueResponse(parsing: pdu))
        case 0x08: self = .readByTypeRequest(try ReadByTypeRequest(parsing: pdu))
        case 0x09: self = .readByTypeResponse(try ReadByTypeResponse(parsing: pdu))
        case 0x0A: self = .readRequest(try ReadRequest(parsing: pdu))
        case 0x0B: self = .readResponse(try ReadResponse(parsing: pdu))
        case 0x0C: self = .readBlobRequest(try ReadBlobRequest(parsing: pdu))
        case 0x0D: self = .readBlobResponse(try ReadBlobResponse(parsing: pdu))
        case 0x0E: self = .readMultipleRequest(try ReadMultipleRequest(parsing: pdu))
        case 0x0F: self = .readMultipleResponse(try ReadMultipleResponse(parsing: pdu))
        case 0x10: self = .readByGroupTypeRequest(try ReadByGroupTypeRequest(parsing: pdu))
        case 0x11: self = .readByGroupTypeResponse(try ReadByGroupTypeResponse(parsing: pdu))
        case 0x12: self = .writeRequest(try WriteRequest(parsing: pdu))
        case 0x13: self = .writeResponse(try WriteResponse(parsing: pdu))
        case 0x16: self = .prepareWriteRequest(try PrepareWriteRequest(parsing: pdu))
        case 0x17: self = .prepareWriteResponse(try PrepareWriteResponse(parsing: pdu))
        case 0x18: self = .executeWriteRequest(try ExecuteWriteRequest(parsing: pdu))
        case 0x19: self = .executeWriteResponse(try ExecuteWriteResponse(parsing: pdu))
        case 0x1B: self = .handleValueNotification(try HandleValueNotification(parsing: pdu))
        case 0x1D: self = .handleValueIndication(try HandleValueIndication(parsing: pdu))
        case 0x1E: self = .handleValueConfirmation(try HandleValueConfirmation(parsing: pdu))
        case 0x20: self = .readMultipleVariableRequest(try ReadMultipleVariableRequest(parsing: pdu))
        case 0x21: self = .readMultipleVariableResponse(try ReadMultipleVariableResponse(parsing: pdu))
        case 0x23: self = .multipleHandleValueNotification(try MultipleHandleValueNotification(parsing: pdu))
        case 0x52: self = .writeCommand(try WriteCommand(parsing: pdu))
        case 0xD2: self = .signedWriteCommand(try SignedWriteCommand(parsing: pdu))
        default: throw .unknownOpcode(ATTOpcode(first))
        }
    }

    /// Decodes one whole PDU held in an array.
    @inlinable
    public init(parsing pdu: [UInt8]) throws(ATTDecodingError) {
        try self.init(parsing: pdu[...])
    }

    /// The PDU's opcode.
    public var opcode: ATTOpcode {
        switch self {
        case .errorResponse: return ErrorResponse.opcode
        case .exchangeMTURequest: return ExchangeMTURequest.opcode
        case .exchangeMTUResponse: return ExchangeMTUResponse.opcode
        case .findInformationRequest: return FindInformationRequest.opcode
        case .findInformationResponse: return FindInformationResponse.opcode
        case .findByTypeValueRequest: return FindByTypeValueRequest.opcode
        case .findByTypeValueResponse: return FindByTypeValueResponse.opcode
        case .readByTypeRequest: return ReadByTypeRequest.opcode
        case .readByTypeResponse: return ReadByTypeResponse.opcode
        case .readRequest: return ReadRequest.opcode
        case .readResponse: return ReadResponse.opcode
        case .readBlobRequest: return ReadBlobRequest.opcode
        case .readBlobResponse: return ReadBlobResponse.opcode
        case .readMultipleRequest: return ReadMultipleRequest.opcode
        case .readMultipleResponse: return ReadMultipleResponse.opcode
        case .readByGroupTypeRequest: return ReadByGroupTypeRequest.opcode
        case .readByGroupTypeResponse: return ReadByGroupTypeResponse.opcode
        case .writeRequest: return WriteRequest.opcode
        case .writeResponse: return WriteResponse.opcode
        case .prepareWriteRequest: return PrepareWriteRequest.opcode
        case .prepareWriteResponse: return PrepareWriteResponse.opcode
        case .executeWriteRequest: return ExecuteWriteRequest.opcode
        case .executeWriteResponse: return ExecuteWriteResponse.opcode
        case .handleValueNotification: return HandleValueNotification.opcode
        case .handleValueIndication: return HandleValueIndication.opcode
        case .handleValueConfirmation: return HandleValueConfirmation.opcode
        case .readMultipleVariableRequest: return ReadMultipleVariableRequest.opcode
        case .readMultipleVariableResponse: return ReadMultipleVariableResponse.opcode
        case .multipleHandleValueNotification: return MultipleHandleValueNotification.opcode
        case .writeCommand: return WriteCommand.opcode
        case .signedWriteCommand: return SignedWriteCommand.opcode
        }
    }

    /// The PDU as its concrete type, for code that treats every PDU alike.
    public var payload: any ATTPDUCodable {
        switch self {
        case let .errorResponse(p): return p
        case let .exchangeMTURequest(p): return p
        case let .exchangeMTUResponse(p): return p
        case let .findInformationRequest(p): return p
        case let .findInformationResponse(p): return p
        case let .findByTypeValueRequest(p): return p
        case let .findByTypeValueResponse(p): return p
        case let .readByTypeRequest(p): return p
        case let .readByTypeResponse(p): return p
        case let .readRequest(p): return p
        case let .readResponse(p): return p
        case let .readBlobRequest(p): return p
        case let .readBlobResponse(p): return p
        case let .readMultipleRequest(p): return p
        case let .readMultipleResponse(p): return p
        case let .readByGroupTypeRequest(p): return p
        case let .readByGroupTypeResponse(p): return p
        case let .writeRequest(p): return p
        case let .writeResponse(p): return p
        case let .prepareWriteRequest(p): return p
        case let .prepareWriteResponse(p): return p
        case let .executeWriteRequest(p): return p
        case let .executeWriteResponse(p): return p
        case let .handleValueNotification(p): return p
        case let .handleValueIndication(p): return p
        case let .handleValueConfirmation(p): return p
        case let .readMultipleVariableRequest(p): return p
        case let .readMultipleVariableResponse(p): return p
        case let .multipleHandleValueNotification(p): return p
        case let .writeCommand(p): return p
        case let .signedWriteCommand(p): return p
        }
    }
}

extension ATTPDU: ByteEncodable {
    public var encodedLength: Int {
        switch self {
        case let .errorResponse(p): return p.encodedLength
        case let .exchangeMTURequest(p): return p.encodedLength
        case let .exchangeMTUResponse(p): return p.encodedLength
        case let .findInformationRequest(p): return p.encodedLength
        case let .findInformationResponse(p): return p.encodedLength
        case let .findByTypeValueRequest(p): return p.encodedLength
        case let .findByTypeValueResponse(p): return p.encodedLength
        case let .readByTypeRequest(p): return p.encodedLength
        case let .readByTypeResponse(p): return p.encodedLength
        case let .readRequest(p): return p.encodedLength
        case let .readResponse(p): return p.encodedLength
        case let .readBlobRequest(p): return p.encodedLength
        case let .readBlobResponse(p): return p.encodedLength
        case let .readMultipleRequest(p): return p.encodedLength
        case let .readMultipleResponse(p): return p.encodedLength
        case let .readByGroupTypeRequest(p): return p.encodedLength
        case let .readByGroupTypeResponse(p): return p.encodedLength
        case let .writeRequest(p): return p.encodedLength
        case let .writeResponse(p): return p.encodedLength
        case let .prepareWriteRequest(p): return p.encodedLength
        case let .prepareWriteResponse(p): return p.encodedLength
        case let .executeWriteRequest(p): return p.encodedLength
        case let .executeWriteResponse(p): return p.encodedLength
        case let .handleValueNotification(p): return p.encodedLength
        case let .handleValueIndication(p): return p.encodedLength
        case let .handleValueConfirmation(p): return p.encodedLength
        case let .readMultipleVariableRequest(p): return p.encodedLength
        case let .readMultipleVariableResponse(p): return p.encodedLength
        case let .multipleHandleValueNotification(p): return p.encodedLength
        case let .writeCommand(p): return p.encodedLength
        case let .signedWriteCommand(p): return p.encodedLength
        }
    }

    public func encode(into writer: inout ByteWriter) {
        switch self {
        case let .errorResponse(p): p.encode(into: &writer)
        case let .exchangeMTURequest(p): p.encode(into: &writer)
        case let .exchangeMTUResponse(p): p.encode(into: &writer)
        case let .findInformationRequest(p): p.encode(into: &writer)
        case let .findInformationResponse(p): p.encode(into: &writer)
        case let .findByTypeValueRequest(p): p.encode(into: &writer)
        case let .findByTypeValueResponse(p): p.encode(into: &writer)
        case let .readByTypeRequest(p): p.encode(into: &writer)
        case let .readByTypeResponse(p): p.encode(into: &writer)
        case let .readRequest(p): p.encode(into: &writer)
        case let .readResponse(p): p.encode(into: &writer)
        case let .readBlobRequest(p): p.encode(into: &writer)
        case let .readBlobResponse(p): p.encode(into: &writer)
        case let .readMultipleRequest(p): p.encode(into: &writer)
        case let .readMultipleResponse(p): p.encode(into: &writer)
        case let .readByGroupTypeRequest(p): p.encode(into: &writer)
        case let .readByGroupTypeResponse(p): p.encode(into: &writer)
        case let .writeRequest(p): p.encode(into: &writer)
        case let .writeResponse(p): p.encode(into: &writer)
        case let .prepareWriteRequest(p): p.encode(into: &writer)
        case let .prepareWriteResponse(p): p.encode(into: &writer)
        case let .executeWriteRequest(p): p.encode(into: &writer)
        case let .executeWriteResponse(p): p.encode(into: &writer)
        case let .handleValueNotification(p): p.encode(into: &writer)
        case let .handleValueIndication(p): p.encode(into: &writer)
        case let .handleValueConfirmation(p): p.encode(into: &writer)
        case let .readMultipleVariableRequest(p): p.encode(into: &writer)
        case let .readMultipleVariableResponse(p): p.encode(into: &writer)
        case let .multipleHandleValueNotification(p): p.encode(into: &writer)
        case let .writeCommand(p): p.encode(into: &writer)
        case let .signedWriteCommand(p): p.encode(into: &writer)
        }
    }
}
