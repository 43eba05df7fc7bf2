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
        case errorResponse(ErrorResponse)
        case exchangeMTURequest(ExchangeMTURequest)
        case exchangeMTUResponse(ExchangeMTUResponse)
        case findInformationRequest(FindInformationRequest)
        case findInformationResponse(FindInformationResponse.Borrowed)
        case findByTypeValueRequest(FindByTypeValueRequest.Borrowed)
        case findByTypeValueResponse(FindByTypeValueResponse.Borrowed)
        case readByTypeRequest(ReadByTypeRequest)
        case readByTypeResponse(ReadByTypeResponse.Borrowed)
        case readRequest(ReadRequest)
        case readResponse(ReadResponse.Borrowed)
        case readBlobRequest(ReadBlobRequest)
        case readBlobResponse(ReadBlobResponse.Borrowed)
        case readMultipleRequest(ReadMultipleRequest.Borrowed)
        case readMultipleResponse(ReadMultipleResponse.Borrowed)
        case readByGroupTypeRequest(ReadByGroupTypeRequest)
        case readByGroupTypeResponse(ReadByGroupTypeResponse.Borrowed)
        case writeRequest(WriteRequest.Borrowed)
        case writeResponse(WriteResponse)
        case prepareWriteRequest(PrepareWriteRequest.Borrowed)
        case prepareWriteResponse(PrepareWriteResponse.Borrowed)
        case executeWriteRequest(ExecuteWriteRequest)
        case executeWriteResponse(ExecuteWriteResponse)
        case handleValueNotification(HandleValueNotification.Borrowed)
        case handleValueIndication(HandleValueIndication.Borrowed)
        case handleValueConfirmation(HandleValueConfirmation)
        case readMultipleVariableRequest(ReadMultipleVariableRequest.Borrowed)
        case readMultipleVariableResponse(ReadMultipleVariableResponse.Borrowed)
        case multipleHandleValueNotification(MultipleHandleValueNotification.Borrowed)
        case writeCommand(WriteCommand.Borrowed)
        case signedWriteCommand(SignedWriteCommand.Borrowed)

        /// Decodes one whole PDU, opcode first.
        ///
        /// The cases are the opcodes' literal values, for one jump table, as in
        /// `ATTPDU(parsing:)` (whose comment says why); the borrowed tests decode every
        /// PDU type, so a wrong literal fails them.
        @inlinable
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
