import SwiftATTCore

/// The command codes the LE signaling channel (CID 0x0005) carries.
///
/// Core 5.4 Vol 3 Part A §4 Table 4.2, the rows marked for LE-U. The BR/EDR-only codes
/// (Connection Request, Configure, Echo, Information…) are not commands on LE: a peer that
/// sends one gets Command Reject "command not understood", like any other unknown code,
/// so they have no case here.
public enum LESignalingCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// L2CAP_COMMAND_REJECT_RSP (§4.1).
    case commandReject = 0x01
    /// L2CAP_DISCONNECTION_REQ (§4.6).
    case disconnectionRequest = 0x06
    /// L2CAP_DISCONNECTION_RSP (§4.7).
    case disconnectionResponse = 0x07
    /// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (§4.20).
    case connectionParameterUpdateRequest = 0x12
    /// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (§4.21).
    case connectionParameterUpdateResponse = 0x13
    /// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (§4.22).
    case leCreditBasedConnectionRequest = 0x14
    /// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (§4.23).
    case leCreditBasedConnectionResponse = 0x15
    /// L2CAP_FLOW_CONTROL_CREDIT_IND (§4.24).
    case flowControlCreditIndication = 0x16
    /// L2CAP_CREDIT_BASED_CONNECTION_REQ (§4.25).
    case creditBasedConnectionRequest = 0x17
    /// L2CAP_CREDIT_BASED_CONNECTION_RSP (§4.26).
    case creditBasedConnectionResponse = 0x18
    /// L2CAP_CREDIT_BASED_RECONFIGURE_REQ (§4.27).
    case creditBasedReconfigureRequest = 0x19
    /// L2CAP_CREDIT_BASED_RECONFIGURE_RSP (§4.28).
    case creditBasedReconfigureResponse = 0x1A

    /// The command's name as Part A §4 heads its section, without the `L2CAP_` prefix.
    public var name: String {
        switch self {
        case .commandReject: return "Command Reject"
        case .disconnectionRequest: return "Disconnection Request"
        case .disconnectionResponse: return "Disconnection Response"
        case .connectionParameterUpdateRequest: return "Connection Parameter Update Request"
        case .connectionParameterUpdateResponse: return "Connection Parameter Update Response"
        case .leCreditBasedConnectionRequest: return "LE Credit Based Connection Request"
        case .leCreditBasedConnectionResponse: return "LE Credit Based Connection Response"
        case .flowControlCreditIndication: return "Flow Control Credit Indication"
        case .creditBasedConnectionRequest: return "Credit Based Connection Request"
        case .creditBasedConnectionResponse: return "Credit Based Connection Response"
        case .creditBasedReconfigureRequest: return "Credit Based Reconfigure Request"
        case .creditBasedReconfigureResponse: return "Credit Based Reconfigure Response"
        }
    }

    /// The section of Core 5.4 Vol 3 Part A that defines the command.
    public var section: String {
        switch self {
        case .commandReject: return "§4.1"
        case .disconnectionRequest: return "§4.6"
        case .disconnectionResponse: return "§4.7"
        case .connectionParameterUpdateRequest: return "§4.20"
        case .connectionParameterUpdateResponse: return "§4.21"
        case .leCreditBasedConnectionRequest: return "§4.22"
        case .leCreditBasedConnectionResponse: return "§4.23"
        case .flowControlCreditIndication: return "§4.24"
        case .creditBasedConnectionRequest: return "§4.25"
        case .creditBasedConnectionResponse: return "§4.26"
        case .creditBasedReconfigureRequest: return "§4.27"
        case .creditBasedReconfigureResponse: return "§4.28"
        }
    }

    /// A request: the receiver owes an answer with the same identifier (a response, or
    /// Command Reject). Responses, Command Reject and the credit indication get none.
    public var isRequest: Bool {
        switch self {
        case .disconnectionRequest, .connectionParameterUpdateRequest, .leCreditBasedConnectionRequest,
             .creditBasedConnectionRequest, .creditBasedReconfigureRequest:
            return true
        case .commandReject, .disconnectionResponse, .connectionParameterUpdateResponse,
             .leCreditBasedConnectionResponse, .flowControlCreditIndication, .creditBasedConnectionResponse,
             .creditBasedReconfigureResponse:
            return false
        }
    }

    /// The lengths the command's data field may have, in octets (the 4-octet header not
    /// counted). Command Reject's depends on its reason (`CommandReject.Reason.dataLength`);
    /// the Credit Based commands end in a list of 2-octet CIDs.
    public var allowedDataLengths: [Int] {
        switch self {
        case .commandReject: return [2, 4, 6]
        case .disconnectionRequest, .disconnectionResponse, .flowControlCreditIndication: return [4]
        case .connectionParameterUpdateRequest: return [8]
        case .connectionParameterUpdateResponse, .creditBasedReconfigureResponse: return [2]
        case .leCreditBasedConnectionRequest, .leCreditBasedConnectionResponse: return [10]
        case .creditBasedConnectionRequest:
            return CreditBasedConnectionRequest.sourceCIDCounts.map { CreditBasedConnectionRequest.fixedLength + 2 * $0 }
        case .creditBasedConnectionResponse:
            return CreditBasedConnectionResponse.destinationCIDCounts.map { CreditBasedConnectionResponse.fixedLength + 2 * $0 }
        case .creditBasedReconfigureRequest:
            return CreditBasedReconfigureRequest.destinationCIDCounts.map { CreditBasedReconfigureRequest.fixedLength + 2 * $0 }
        }
    }

    /// `Disconnection Request (0x06)`.
    public var description: String { "\(name) (\(Self.hex(rawValue)))" }

    /// `0x06`: a code octet as messages print it.
    static func hex(_ octet: UInt8) -> String {
        let digits = String(octet, radix: 16)
        return digits.count == 1 ? "0x0" + digits : "0x" + digits
    }
}

extension LESignalingCode {
    /// Throws unless `data` is exactly `length` octets.
    func requireLength(_ data: ArraySlice<UInt8>, _ length: Int) throws(LESignalingDecodingError) {
        guard data.count == length else { throw .invalidLength(code: self, length: data.count, allowed: [length]) }
    }

    /// Throws unless `data` is `fixed` octets followed by a whole number of 2-octet CIDs,
    /// as many as `counts` allows; returns that number.
    func requireCIDList(_ data: ArraySlice<UInt8>, fixed: Int, counts: ClosedRange<Int>) throws(LESignalingDecodingError) -> Int {
        let listLength = data.count - fixed
        guard listLength >= 0, listLength % 2 == 0, counts.contains(listLength / 2) else {
            throw .invalidLength(code: self, length: data.count, allowed: allowedDataLengths)
        }
        return listLength / 2
    }
}

extension ArraySlice<UInt8> {
    /// `count` little-endian CIDs starting `offset` octets into the slice; the caller has
    /// checked the length.
    func cids(at offset: Int, count: Int) -> [UInt16] {
        (0..<count).map { littleEndianUInt16(at: offset + 2 * $0) }
    }
}
