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

    @inlinable
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Bits 0–5.
    public var method: UInt8 { rawValue & 0x3F }
    /// Bit 6: the PDU is a command and gets no response.
    public var isCommand: Bool { rawValue & 0x40 != 0 }
    /// Bit 7: the PDU ends with a 12-octet authentication signature.
    public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

    @inlinable public static var errorResponse: ATTOpcode { ATTOpcode(0x01) }
    @inlinable public static var exchangeMTURequest: ATTOpcode { ATTOpcode(0x02) }
    @inlinable public static var exchangeMTUResponse: ATTOpcode { ATTOpcode(0x03) }
    @inlinable public static var findInformationRequest: ATTOpcode { ATTOpcode(0x04) }
    @inlinable public static var findInformationResponse: ATTOpcode { ATTOpcode(0x05) }
    @inlinable public static var findByTypeValueRequest: ATTOpcode { ATTOpcode(0x06) }
    @inlinable public static var findByTypeValueResponse: ATTOpcode { ATTOpcode(0x07) }
    @inlinable public static var readByTypeRequest: ATTOpcode { ATTOpcode(0x08) }
    @inlinable public static var readByTypeResponse: ATTOpcode { ATTOpcode(0x09) }
    @inlinable public static var readRequest: ATTOpcode { ATTOpcode(0x0A) }
    @inlinable public static var readResponse: ATTOpcode { ATTOpcode(0x0B) }
    @inlinable public static var readBlobRequest: ATTOpcode { ATTOpcode(0x0C) }
    @inlinable public static var readBlobResponse: ATTOpcode { ATTOpcode(0x0D) }
    @inlinable public static var readMultipleRequest: ATTOpcode { ATTOpcode(0x0E) }
    @inlinable public static var readMultipleResponse: ATTOpcode { ATTOpcode(0x0F) }
    @inlinable public static var readByGroupTypeRequest: ATTOpcode { ATTOpcode(0x10) }
    @inlinable public static var readByGroupTypeResponse: ATTOpcode { ATTOpcode(0x11) }
    @inlinable public static var writeRequest: ATTOpcode { ATTOpcode(0x12) }
    @inlinable public static var writeResponse: ATTOpcode { ATTOpcode(0x13) }
    @inlinable public static var prepareWriteRequest: ATTOpcode { ATTOpcode(0x16) }
    @inlinable public static var prepareWriteResponse: ATTOpcode { ATTOpcode(0x17) }
    @inlinable public static var executeWriteRequest: ATTOpcode { ATTOpcode(0x18) }
    @inlinable public static var executeWriteResponse: ATTOpcode { ATTOpcode(0x19) }
    @inlinable public static var handleValueNotification: ATTOpcode { ATTOpcode(0x1B) }
    @inlinable public static var handleValueIndication: ATTOpcode { ATTOpcode(0x1D) }
    @inlinable public static var handleValueConfirmation: ATTOpcode { ATTOpcode(0x1E) }
    @inlinable public static var readMultipleVariableRequest: ATTOpcode { ATTOpcode(0x20) }
    @inlinable public static var readMultipleVariableResponse: ATTOpcode { ATTOpcode(0x21) }
    @inlinable public static var multipleHandleValueNotification: ATTOpcode { ATTOpcode(0x23) }
    @inlinable public static var writeCommand: ATTOpcode { ATTOpcode(0x52) }
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
        case request, response, command, notification, indication, confirmation
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
