import SwiftATTCore

extension ATTPDU {
    /// Any ATT PDU decoded from borrowed bytes: the bearer's entry point when the bytes
    /// are a buffer it lends for the call, as a host's receive path does.
    ///
    /// `ATTPDU.Borrowed(parsing: span)` validates exactly as `ATTPDU(parsing:)` does and
    /// throws the same errors, but keeps each byte field as the `Range<Int>` of `span` it
    /// covers (see `ATTBorrowedPDU`): a PDU with no byte fields is its own type, any
    /// other its type's `Borrowed`. The result holds no reference, so decoding one
    /// retains, releases and allocates nothing, whatever the PDU.
    ///
    ///     switch try ATTPDU.Borrowed(parsing: span) {
    ///     case let .handleValueNotification(n): deliver(n.handle, span.extracting(n.value))
    ///     …
    ///     }
    ///
    /// `owned(in:)` gives the slice decoder's `ATTPDU` for the same bytes, for a PDU kept
    /// past the buffer's loan. Core 5.4 Vol 3 Part F §3.4.
    public enum Borrowed: Sendable, Hashable {
        /// ATT_ERROR_RSP (§3.4.1.1): a request failed, and why.
        case errorResponse(ErrorResponse)
        /// ATT_EXCHANGE_MTU_REQ (§3.4.2.1): the client's receive MTU.
        case exchangeMTURequest(ExchangeMTURequest)
        /// ATT_EXCHANGE_MTU_RSP (§3.4.2.2): the server's receive MTU.
        case exchangeMTUResponse(ExchangeMTUResponse)
        /// ATT_FIND_INFORMATION_REQ (§3.4.3.1): the types of the attributes in a handle range.
        case findInformationRequest(FindInformationRequest)
        /// ATT_FIND_INFORMATION_RSP (§3.4.3.2): handles and their attribute types.
        case findInformationResponse(FindInformationResponse.Borrowed)
        /// ATT_FIND_BY_TYPE_VALUE_REQ (§3.4.3.3): the attributes of a 16-bit type with a given
        /// value.
        case findByTypeValueRequest(FindByTypeValueRequest.Borrowed)
        /// ATT_FIND_BY_TYPE_VALUE_RSP (§3.4.3.4): the handle ranges found.
        case findByTypeValueResponse(FindByTypeValueResponse.Borrowed)
        /// ATT_READ_BY_TYPE_REQ (§3.4.4.1): the values of the attributes of a type in a range.
        case readByTypeRequest(ReadByTypeRequest)
        /// ATT_READ_BY_TYPE_RSP (§3.4.4.2): handles and values.
        case readByTypeResponse(ReadByTypeResponse.Borrowed)
        /// ATT_READ_REQ (§3.4.4.3): an attribute's value.
        case readRequest(ReadRequest)
        /// ATT_READ_RSP (§3.4.4.4): the value.
        case readResponse(ReadResponse.Borrowed)
        /// ATT_READ_BLOB_REQ (§3.4.4.5): part of a long value, from an offset.
        case readBlobRequest(ReadBlobRequest)
        /// ATT_READ_BLOB_RSP (§3.4.4.6): that part.
        case readBlobResponse(ReadBlobResponse.Borrowed)
        /// ATT_READ_MULTIPLE_REQ (§3.4.4.7): several values of known lengths.
        case readMultipleRequest(ReadMultipleRequest.Borrowed)
        /// ATT_READ_MULTIPLE_RSP (§3.4.4.8): the values, concatenated.
        case readMultipleResponse(ReadMultipleResponse.Borrowed)
        /// ATT_READ_BY_GROUP_TYPE_REQ (§3.4.4.9): the groups (services) of a type in a range.
        case readByGroupTypeRequest(ReadByGroupTypeRequest)
        /// ATT_READ_BY_GROUP_TYPE_RSP (§3.4.4.10): the groups found, with their values.
        case readByGroupTypeResponse(ReadByGroupTypeResponse.Borrowed)
        /// ATT_WRITE_REQ (§3.4.5.1): write a value, acknowledged.
        case writeRequest(WriteRequest.Borrowed)
        /// ATT_WRITE_RSP (§3.4.5.2): the write was done.
        case writeResponse(WriteResponse)
        /// ATT_PREPARE_WRITE_REQ (§3.4.6.1): queue part of a value.
        case prepareWriteRequest(PrepareWriteRequest.Borrowed)
        /// ATT_PREPARE_WRITE_RSP (§3.4.6.2): the part queued, echoed.
        case prepareWriteResponse(PrepareWriteResponse.Borrowed)
        /// ATT_EXECUTE_WRITE_REQ (§3.4.6.3): write or discard the queue.
        case executeWriteRequest(ExecuteWriteRequest)
        /// ATT_EXECUTE_WRITE_RSP (§3.4.6.4): the queue was handled.
        case executeWriteResponse(ExecuteWriteResponse)
        /// ATT_HANDLE_VALUE_NTF (§3.4.7.1): a value pushed, unconfirmed.
        case handleValueNotification(HandleValueNotification.Borrowed)
        /// ATT_HANDLE_VALUE_IND (§3.4.7.2): a value pushed, to be confirmed.
        case handleValueIndication(HandleValueIndication.Borrowed)
        /// ATT_HANDLE_VALUE_CFM (§3.4.7.3): an indication confirmed.
        case handleValueConfirmation(HandleValueConfirmation)
        /// ATT_READ_MULTIPLE_VARIABLE_REQ (§3.4.4.11): several values of any length.
        case readMultipleVariableRequest(ReadMultipleVariableRequest.Borrowed)
        /// ATT_READ_MULTIPLE_VARIABLE_RSP (§3.4.4.12): the values, each with its length.
        case readMultipleVariableResponse(ReadMultipleVariableResponse.Borrowed)
        /// ATT_MULTIPLE_HANDLE_VALUE_NTF (§3.4.7.4): several values pushed at once.
        case multipleHandleValueNotification(MultipleHandleValueNotification.Borrowed)
        /// ATT_WRITE_CMD (§3.4.5.3): write a value, unacknowledged.
        case writeCommand(WriteCommand.Borrowed)
        /// ATT_SIGNED_WRITE_CMD (§3.4.5.4): write a value, unacknowledged and signed.
        case signedWriteCommand(SignedWriteCommand.Borrowed)

        /// Decodes one whole PDU, opcode first.
        ///
        /// The cases are the opcodes' literal values, for one jump table, as in
        /// `ATTPDU(parsing:)` (whose comment says why); the borrowed tests decode every
        /// PDU type, so a wrong literal fails them.
        ///
        /// Always inlined into its caller. Called, it saved five registers on entry
        /// (for its error paths) and reached its return through chained jumps, which
        /// for a PDU of a few fixed fields is most of the work: the codec benchmark's mix
        /// decoded back to back took 8.1–8.9 ns a PDU called and 7.1–7.5 inlined, and
        /// Exchange MTU Request 3.8–6.4 ns (2.8–3.8× its floor) called against mostly
        /// 3.2–3.3 (2.4×) inlined. A program has a call site or two; each grows by the
        /// switch (the benchmark's binary did not grow).
        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            guard !pdu.isEmpty else { throw .empty }
            let first = pdu[0]
            switch first {
            case 0x01: self = .errorResponse(try ErrorResponse(parsing: pdu))
            case 0x02: self = .exchangeMTURequest(try ExchangeMTURequest(parsing: pdu))
            case 0x03: self = .exchangeMTUResponse(try ExchangeMTUResponse(parsing: pdu))
            case 0x04: self = .findInformationRequest(try FindInformationRequest(parsing: pdu))
            case 0x05: self = .findInformationResponse(try FindInformationResponse.Borrowed(parsing: pdu))
            case 0x06: self = .findByTypeValueRequest(try FindByTypeValueRequest.Borrowed(parsing: pdu))
            case 0x07: self = .findByTypeValueResponse(try FindByTypeValueResponse.Borrowed(parsing: pdu))
            case 0x08: self = .readByTypeRequest(try ReadByTypeRequest(parsing: pdu))
            case 0x09: self = .readByTypeResponse(try ReadByTypeResponse.Borrowed(parsing: pdu))
            case 0x0A: self = .readRequest(try ReadRequest(parsing: pdu))
            case 0x0B: self = .readResponse(try ReadResponse.Borrowed(parsing: pdu))
            case 0x0C: self = .readBlobRequest(try ReadBlobRequest(parsing: pdu))
            case 0x0D: self = .readBlobResponse(try ReadBlobResponse.Borrowed(parsing: pdu))
            case 0x0E: self = .readMultipleRequest(try ReadMultipleRequest.Borrowed(parsing: pdu))
            case 0x0F: self = .readMultipleResponse(try ReadMultipleResponse.Borrowed(parsing: pdu))
            case 0x10: self = .readByGroupTypeRequest(try ReadByGroupTypeRequest(parsing: pdu))
            case 0x11: self = .readByGroupTypeResponse(try ReadByGroupTypeResponse.Borrowed(parsing: pdu))
            case 0x12: self = .writeRequest(try WriteRequest.Borrowed(parsing: pdu))
            case 0x13: self = .writeResponse(try WriteResponse(parsing: pdu))
            case 0x16: self = .prepareWriteRequest(try PrepareWriteRequest.Borrowed(parsing: pdu))
            case 0x17: self = .prepareWriteResponse(try PrepareWriteResponse.Borrowed(parsing: pdu))
            case 0x18: self = .executeWriteRequest(try ExecuteWriteRequest(parsing: pdu))
            case 0x19: self = .executeWriteResponse(try ExecuteWriteResponse(parsing: pdu))
            case 0x1B: self = .handleValueNotification(try HandleValueNotification.Borrowed(parsing: pdu))
            case 0x1D: self = .handleValueIndication(try HandleValueIndication.Borrowed(parsing: pdu))
            case 0x1E: self = .handleValueConfirmation(try HandleValueConfirmation(parsing: pdu))
            case 0x20: self = .readMultipleVariableRequest(try ReadMultipleVariableRequest.Borrowed(parsing: pdu))
            case 0x21: self = .readMultipleVariableResponse(try ReadMultipleVariableResponse.Borrowed(parsing: pdu))
            case 0x23: self = .multipleHandleValueNotification(try MultipleHandleValueNotification.Borrowed(parsing: pdu))
            case 0x52: self = .writeCommand(try WriteCommand.Borrowed(parsing: pdu))
            case 0xD2: self = .signedWriteCommand(try SignedWriteCommand.Borrowed(parsing: pdu))
            default: throw .unknownOpcode(ATTOpcode(first))
            }
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

        /// The PDU as `ATTPDU(parsing:)` decodes it, its byte fields views of `pdu`: the
        /// bytes this was decoded from (a slice of them, counted from its first byte).
        public func owned(in pdu: ArraySlice<UInt8>) -> ATTPDU {
            switch self {
            case let .errorResponse(p): return .errorResponse(p.owned(in: pdu))
            case let .exchangeMTURequest(p): return .exchangeMTURequest(p.owned(in: pdu))
            case let .exchangeMTUResponse(p): return .exchangeMTUResponse(p.owned(in: pdu))
            case let .findInformationRequest(p): return .findInformationRequest(p.owned(in: pdu))
            case let .findInformationResponse(p): return .findInformationResponse(p.owned(in: pdu))
            case let .findByTypeValueRequest(p): return .findByTypeValueRequest(p.owned(in: pdu))
            case let .findByTypeValueResponse(p): return .findByTypeValueResponse(p.owned(in: pdu))
            case let .readByTypeRequest(p): return .readByTypeRequest(p.owned(in: pdu))
            case let .readByTypeResponse(p): return .readByTypeResponse(p.owned(in: pdu))
            case let .readRequest(p): return .readRequest(p.owned(in: pdu))
            case let .readResponse(p): return .readResponse(p.owned(in: pdu))
            case let .readBlobRequest(p): return .readBlobRequest(p.owned(in: pdu))
            case let .readBlobResponse(p): return .readBlobResponse(p.owned(in: pdu))
            case let .readMultipleRequest(p): return .readMultipleRequest(p.owned(in: pdu))
            case let .readMultipleResponse(p): return .readMultipleResponse(p.owned(in: pdu))
            case let .readByGroupTypeRequest(p): return .readByGroupTypeRequest(p.owned(in: pdu))
            case let .readByGroupTypeResponse(p): return .readByGroupTypeResponse(p.owned(in: pdu))
            case let .writeRequest(p): return .writeRequest(p.owned(in: pdu))
            case let .writeResponse(p): return .writeResponse(p.owned(in: pdu))
            case let .prepareWriteRequest(p): return .prepareWriteRequest(p.owned(in: pdu))
            case let .prepareWriteResponse(p): return .prepareWriteResponse(p.owned(in: pdu))
            case let .executeWriteRequest(p): return .executeWriteRequest(p.owned(in: pdu))
            case let .executeWriteResponse(p): return .executeWriteResponse(p.owned(in: pdu))
            case let .handleValueNotification(p): return .handleValueNotification(p.owned(in: pdu))
            case let .handleValueIndication(p): return .handleValueIndication(p.owned(in: pdu))
            case let .handleValueConfirmation(p): return .handleValueConfirmation(p.owned(in: pdu))
            case let .readMultipleVariableRequest(p): return .readMultipleVariableRequest(p.owned(in: pdu))
            case let .readMultipleVariableResponse(p): return .readMultipleVariableResponse(p.owned(in: pdu))
            case let .multipleHandleValueNotification(p): return .multipleHandleValueNotification(p.owned(in: pdu))
            case let .writeCommand(p): return .writeCommand(p.owned(in: pdu))
            case let .signedWriteCommand(p): return .signedWriteCommand(p.owned(in: pdu))
            }
        }
    }
}
