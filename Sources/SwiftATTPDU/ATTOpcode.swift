import SwiftATTCore

/// The first octet of every ATT PDU: a method plus two flag bits.
///
/// Core 5.4 Vol 3 Part F §3.3.1: bits 0–5 are the method, bit 6 the Command flag (no
/// response is ever sent) and bit 7 the Authentication Signature flag (a 12-octet
/// signature ends the PDU). A bearer uses the Command flag to decide whether an opcode
/// it does not know gets Request Not Supported or is silently ignored.
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The opcode of octet `rawValue`.
    @inlinable
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Bits 0–5.
    public var method: UInt8 { rawValue & 0x3F }
    /// Bit 6: the PDU is a command and gets no response.
    public var isCommand: Bool { rawValue & 0x40 != 0 }
    /// Bit 7: the PDU ends with a 12-octet authentication signature.
    public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

    /// The opcode of ATT_ERROR_RSP (§3.4.1.1).
    @inlinable public static var errorResponse: ATTOpcode { ATTOpcode(0x01) }
    /// The opcode of ATT_EXCHANGE_MTU_REQ (§3.4.2.1).
    @inlinable public static var exchangeMTURequest: ATTOpcode { ATTOpcode(0x02) }
    /// The opcode of ATT_EXCHANGE_MTU_RSP (§3.4.2.2).
    @inlinable public static var exchangeMTUResponse: ATTOpcode { ATTOpcode(0x03) }
    /// The opcode of ATT_FIND_INFORMATION_REQ (§3.4.3.1).
    @inlinable public static var findInformationRequest: ATTOpcode { ATTOpcode(0x04) }
    /// The opcode of ATT_FIND_INFORMATION_RSP (§3.4.3.2).
    @inlinable public static var findInformationResponse: ATTOpcode { ATTOpcode(0x05) }
    /// The opcode of ATT_FIND_BY_TYPE_VALUE_REQ (§3.4.3.3).
    @inlinable public static var findByTypeValueRequest: ATTOpcode { ATTOpcode(0x06) }
    /// The opcode of ATT_FIND_BY_TYPE_VALUE_RSP (§3.4.3.4).
    @inlinable public static var findByTypeValueResponse: ATTOpcode { ATTOpcode(0x07) }
    /// The opcode of ATT_READ_BY_TYPE_REQ (§3.4.4.1).
    @inlinable public static var readByTypeRequest: ATTOpcode { ATTOpcode(0x08) }
    /// The opcode of ATT_READ_BY_TYPE_RSP (§3.4.4.2).
    @inlinable public static var readByTypeResponse: ATTOpcode { ATTOpcode(0x09) }
    /// The opcode of ATT_READ_REQ (§3.4.4.3).
    @inlinable public static var readRequest: ATTOpcode { ATTOpcode(0x0A) }
    /// The opcode of ATT_READ_RSP (§3.4.4.4).
    @inlinable public static var readResponse: ATTOpcode { ATTOpcode(0x0B) }
    /// The opcode of ATT_READ_BLOB_REQ (§3.4.4.5).
    @inlinable public static var readBlobRequest: ATTOpcode { ATTOpcode(0x0C) }
    /// The opcode of ATT_READ_BLOB_RSP (§3.4.4.6).
    @inlinable public static var readBlobResponse: ATTOpcode { ATTOpcode(0x0D) }
    /// The opcode of ATT_READ_MULTIPLE_REQ (§3.4.4.7).
    @inlinable public static var readMultipleRequest: ATTOpcode { ATTOpcode(0x0E) }
    /// The opcode of ATT_READ_MULTIPLE_RSP (§3.4.4.8).
    @inlinable public static var readMultipleResponse: ATTOpcode { ATTOpcode(0x0F) }
    /// The opcode of ATT_READ_BY_GROUP_TYPE_REQ (§3.4.4.9).
    @inlinable public static var readByGroupTypeRequest: ATTOpcode { ATTOpcode(0x10) }
    /// The opcode of ATT_READ_BY_GROUP_TYPE_RSP (§3.4.4.10).
    @inlinable public static var readByGroupTypeResponse: ATTOpcode { ATTOpcode(0x11) }
    /// The opcode of ATT_WRITE_REQ (§3.4.5.1).
    @inlinable public static var writeRequest: ATTOpcode { ATTOpcode(0x12) }
    /// The opcode of ATT_WRITE_RSP (§3.4.5.2).
    @inlinable public static var writeResponse: ATTOpcode { ATTOpcode(0x13) }
    /// The opcode of ATT_PREPARE_WRITE_REQ (§3.4.6.1).
    @inlinable public static var prepareWriteRequest: ATTOpcode { ATTOpcode(0x16) }
    /// The opcode of ATT_PREPARE_WRITE_RSP (§3.4.6.2).
    @inlinable public static var prepareWriteResponse: ATTOpcode { ATTOpcode(0x17) }
    /// The opcode of ATT_EXECUTE_WRITE_REQ (§3.4.6.3).
    @inlinable public static var executeWriteRequest: ATTOpcode { ATTOpcode(0x18) }
    /// The opcode of ATT_EXECUTE_WRITE_RSP (§3.4.6.4).
    @inlinable public static var executeWriteResponse: ATTOpcode { ATTOpcode(0x19) }
    /// The opcode of ATT_HANDLE_VALUE_NTF (§3.4.7.1).
    @inlinable public static var handleValueNotification: ATTOpcode { ATTOpcode(0x1B) }
    /// The opcode of ATT_HANDLE_VALUE_IND (§3.4.7.2).
    @inlinable public static var handleValueIndication: ATTOpcode { ATTOpcode(0x1D) }
    /// The opcode of ATT_HANDLE_VALUE_CFM (§3.4.7.3).
    @inlinable public static var handleValueConfirmation: ATTOpcode { ATTOpcode(0x1E) }
    /// The opcode of ATT_READ_MULTIPLE_VARIABLE_REQ (§3.4.4.11).
    @inlinable public static var readMultipleVariableRequest: ATTOpcode { ATTOpcode(0x20) }
    /// The opcode of ATT_READ_MULTIPLE_VARIABLE_RSP (§3.4.4.12).
    @inlinable public static var readMultipleVariableResponse: ATTOpcode { ATTOpcode(0x21) }
    /// The opcode of ATT_MULTIPLE_HANDLE_VALUE_NTF (§3.4.7.4).
    @inlinable public static var multipleHandleValueNotification: ATTOpcode { ATTOpcode(0x23) }
    /// The opcode of ATT_WRITE_CMD (§3.4.5.3).
    @inlinable public static var writeCommand: ATTOpcode { ATTOpcode(0x52) }
    /// The opcode of ATT_SIGNED_WRITE_CMD (§3.4.5.4).
    @inlinable public static var signedWriteCommand: ATTOpcode { ATTOpcode(0xD2) }

    /// Every opcode Core 5.4 defines, in numeric order.
    public static let allDefined: [ATTOpcode] = [
        .errorResponse, .exchangeMTURequest, .exchangeMTUResponse,
        .findInformationRequest, .findInformationResponse,
        .findByTypeValueRequest, .findByTypeValueResponse,
        .readByTypeRequest, .readByTypeResponse, .readRequest, .readResponse,
        .readBlobRequest, .readBlobResponse, .readMultipleRequest, .readMultipleResponse,
        .readByGroupTypeRequest, .readByGroupTypeResponse, .writeRequest, .writeResponse,
        .prepareWriteRequest, .prepareWriteResponse, .executeWriteRequest, .executeWriteResponse,
        .handleValueNotification, .handleValueIndication, .handleValueConfirmation,
        .readMultipleVariableRequest, .readMultipleVariableResponse,
        .multipleHandleValueNotification, .writeCommand, .signedWriteCommand,
    ]

    /// The spec's name for the PDU ("Read By Type Request"), or `nil` for an undefined opcode.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Error Response"
        case 0x02: return "Exchange MTU Request"
        case 0x03: return "Exchange MTU Response"
        case 0x04: return "Find Information Request"
        case 0x05: return "Find Information Response"
        case 0x06: return "Find By Type Value Request"
        case 0x07: return "Find By Type Value Response"
        case 0x08: return "Read By Type Request"
        case 0x09: return "Read By Type Response"
        case 0x0A: return "Read Request"
        case 0x0B: return "Read Response"
        case 0x0C: return "Read Blob Request"
        case 0x0D: return "Read Blob Response"
        case 0x0E: return "Read Multiple Request"
        case 0x0F: return "Read Multiple Response"
        case 0x10: return "Read By Group Type Request"
        case 0x11: return "Read By Group Type Response"
        case 0x12: return "Write Request"
        case 0x13: return "Write Response"
        case 0x16: return "Prepare Write Request"
        case 0x17: return "Prepare Write Response"
        case 0x18: return "Execute Write Request"
        case 0x19: return "Execute Write Response"
        case 0x1B: return "Handle Value Notification"
        case 0x1D: return "Handle Value Indication"
        case 0x1E: return "Handle Value Confirmation"
        case 0x20: return "Read Multiple Variable Request"
        case 0x21: return "Read Multiple Variable Response"
        case 0x23: return "Multiple Handle Value Notification"
        case 0x52: return "Write Command"
        case 0xD2: return "Signed Write Command"
        default: return nil
        }
    }

    /// The kind of exchange the PDU belongs to (Core 5.4 Vol 3 Part F §3.3).
    public enum Kind: Sendable, Equatable {
        /// Client to server; the server answers with a response or an Error Response.
        case request
        /// Server to client, answering a request.
        case response
        /// Client to server, with no answer (the Command flag is set).
        case command
        /// Server to client, unconfirmed.
        case notification
        /// Server to client; the client confirms it.
        case indication
        /// Client to server, confirming an indication.
        case confirmation
    }

    /// The PDU's kind, derived from the defined opcodes; for undefined ones only the
    /// Command flag is known, and anything else is treated as a request (so a server
    /// answers it with Request Not Supported).
    public var kind: Kind {
        switch rawValue {
        case 0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x0D, 0x0F, 0x11, 0x13, 0x17, 0x19, 0x21:
            return .response
        case 0x1B, 0x23: return .notification
        case 0x1D: return .indication
        case 0x1E: return .confirmation
        default: return isCommand ? .command : .request
        }
    }

    /// `Read Request (0x0a)`, or `unknown opcode 0x3f`.
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16)
        if let name { return "\(name) (\(hex))" }
        return "unknown opcode \(hex)"
    }
}
