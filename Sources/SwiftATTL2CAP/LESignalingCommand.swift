import SwiftATTCore

/// Any command the LE signaling channel carries, decoded: one case per code of
/// `LESignalingCode`. Core 5.4 Vol 3 Part A §4.
///
/// Decoding is in two steps, so that whoever answers always has the identifier: the
/// frame parses as an `LESignalingPacket` (code, identifier, length), and the packet's
/// data as the command its code names. An unknown code, a length the command cannot
/// have, or a reserved reason or result throws `LESignalingDecodingError`; every other
/// value decodes, and each command's `validate()` is the policy step. A decoded command
/// encodes back to the octets it came from.
public enum LESignalingCommand: Sendable, Hashable {
    /// Command Reject (§4.1).
    case commandReject(CommandReject)
    /// Disconnection Request (§4.6).
    case disconnectionRequest(DisconnectionRequest)
    /// Disconnection Response (§4.7).
    case disconnectionResponse(DisconnectionResponse)
    /// Connection Parameter Update Request (§4.20).
    case connectionParameterUpdateRequest(ConnectionParameterUpdateRequest)
    /// Connection Parameter Update Response (§4.21).
    case connectionParameterUpdateResponse(ConnectionParameterUpdateResponse)
    /// LE Credit Based Connection Request (§4.22).
    case leCreditBasedConnectionRequest(LECreditBasedConnectionRequest)
    /// LE Credit Based Connection Response (§4.23).
    case leCreditBasedConnectionResponse(LECreditBasedConnectionResponse)
    /// Flow Control Credit Indication (§4.24).
    case flowControlCreditIndication(FlowControlCreditIndication)
    /// Credit Based Connection Request (§4.25).
    case creditBasedConnectionRequest(CreditBasedConnectionRequest)
    /// Credit Based Connection Response (§4.26).
    case creditBasedConnectionResponse(CreditBasedConnectionResponse)
    /// Credit Based Reconfigure Request (§4.27).
    case creditBasedReconfigureRequest(CreditBasedReconfigureRequest)
    /// Credit Based Reconfigure Response (§4.28).
    case creditBasedReconfigureResponse(CreditBasedReconfigureResponse)

    /// Decodes the data of a command with code `code`.
    public init(code: UInt8, data: ArraySlice<UInt8>) throws(LESignalingDecodingError) {
        guard let known = LESignalingCode(rawValue: code) else { throw .unknownCode(code) }
        switch known {
        case .commandReject: self = .commandReject(try CommandReject(parsing: data))
        case .disconnectionRequest: self = .disconnectionRequest(try DisconnectionRequest(parsing: data))
        case .disconnectionResponse: self = .disconnectionResponse(try DisconnectionResponse(parsing: data))
        case .connectionParameterUpdateRequest:
            self = .connectionParameterUpdateRequest(try ConnectionParameterUpdateRequest(parsing: data))
        case .connectionParameterUpdateResponse:
            self = .connectionParameterUpdateResponse(try ConnectionParameterUpdateResponse(parsing: data))
        case .leCreditBasedConnectionRequest:
            self = .leCreditBasedConnectionRequest(try LECreditBasedConnectionRequest(parsing: data))
        case .leCreditBasedConnectionResponse:
            self = .leCreditBasedConnectionResponse(try LECreditBasedConnectionResponse(parsing: data))
        case .flowControlCreditIndication:
            self = .flowControlCreditIndication(try FlowControlCreditIndication(parsing: data))
        case .creditBasedConnectionRequest:
            self = .creditBasedConnectionRequest(try CreditBasedConnectionRequest(parsing: data))
        case .creditBasedConnectionResponse:
            self = .creditBasedConnectionResponse(try CreditBasedConnectionResponse(parsing: data))
        case .creditBasedReconfigureRequest:
            self = .creditBasedReconfigureRequest(try CreditBasedReconfigureRequest(parsing: data))
        case .creditBasedReconfigureResponse:
            self = .creditBasedReconfigureResponse(try CreditBasedReconfigureResponse(parsing: data))
        }
    }

    /// Decodes a parsed packet's command.
    public init(_ packet: LESignalingPacket) throws(LESignalingDecodingError) {
        try self.init(code: packet.code, data: packet.data)
    }

    /// The command's code.
    public var code: LESignalingCode {
        switch self {
        case .commandReject: return .commandReject
        case .disconnectionRequest: return .disconnectionRequest
        case .disconnectionResponse: return .disconnectionResponse
        case .connectionParameterUpdateRequest: return .connectionParameterUpdateRequest
        case .connectionParameterUpdateResponse: return .connectionParameterUpdateResponse
        case .leCreditBasedConnectionRequest: return .leCreditBasedConnectionRequest
        case .leCreditBasedConnectionResponse: return .leCreditBasedConnectionResponse
        case .flowControlCreditIndication: return .flowControlCreditIndication
        case .creditBasedConnectionRequest: return .creditBasedConnectionRequest
        case .creditBasedConnectionResponse: return .creditBasedConnectionResponse
        case .creditBasedReconfigureRequest: return .creditBasedReconfigureRequest
        case .creditBasedReconfigureResponse: return .creditBasedReconfigureResponse
        }
    }

    /// The whole signaling frame: this command with `identifier`, ready for CID 0x0005.
    public func packet(identifier: UInt8) -> LESignalingFrame {
        LESignalingFrame(identifier: identifier, command: self)
    }
}

extension LESignalingCommand {
    /// Octets of the data field.
    public var dataLength: Int {
        switch self {
        case let .commandReject(c): return c.encodedLength
        case let .disconnectionRequest(c): return c.encodedLength
        case let .disconnectionResponse(c): return c.encodedLength
        case let .connectionParameterUpdateRequest(c): return c.encodedLength
        case let .connectionParameterUpdateResponse(c): return c.encodedLength
        case let .leCreditBasedConnectionRequest(c): return c.encodedLength
        case let .leCreditBasedConnectionResponse(c): return c.encodedLength
        case let .flowControlCreditIndication(c): return c.encodedLength
        case let .creditBasedConnectionRequest(c): return c.encodedLength
        case let .creditBasedConnectionResponse(c): return c.encodedLength
        case let .creditBasedReconfigureRequest(c): return c.encodedLength
        case let .creditBasedReconfigureResponse(c): return c.encodedLength
        }
    }

    /// Writes the data field (no header).
    public func encodeData(into writer: inout ByteWriter) {
        switch self {
        case let .commandReject(c): c.encode(into: &writer)
        case let .disconnectionRequest(c): c.encode(into: &writer)
        case let .disconnectionResponse(c): c.encode(into: &writer)
        case let .connectionParameterUpdateRequest(c): c.encode(into: &writer)
        case let .connectionParameterUpdateResponse(c): c.encode(into: &writer)
        case let .leCreditBasedConnectionRequest(c): c.encode(into: &writer)
        case let .leCreditBasedConnectionResponse(c): c.encode(into: &writer)
        case let .flowControlCreditIndication(c): c.encode(into: &writer)
        case let .creditBasedConnectionRequest(c): c.encode(into: &writer)
        case let .creditBasedConnectionResponse(c): c.encode(into: &writer)
        case let .creditBasedReconfigureRequest(c): c.encode(into: &writer)
        case let .creditBasedReconfigureResponse(c): c.encode(into: &writer)
        }
    }
}
