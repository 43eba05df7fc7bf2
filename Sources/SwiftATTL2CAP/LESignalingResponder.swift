/// Answers the LE signaling channel for a host that opens no credit-based channels.
///
/// Core 5.4 Vol 3 Part A §4: a command the host does not support gets Command Reject
/// "Command not understood" (reason 0x0000) with the same identifier; a Connection
/// Parameter Update Request is answered accepted (0x0000) or rejected (0x0001) — only a
/// central receives it; a peripheral rejects it with Command Reject, as the spec says.
/// Responses and rejects from the peer need no answer. Pure: returns what to send.
public enum LESignalingResponder {
    /// What to do with one inbound signaling frame.
    public struct Outcome: Sendable, Hashable {
        /// A signaling frame to send back on CID 0x0005, if any.
        public var reply: [UInt8]?
        /// Accepted new parameters the central should apply (LE Connection Update).
        public var acceptedParameters: ConnectionParameterUpdateRequest?
        /// Why the frame was dropped, for logging.
        public var dropped: LESignalingPacket.DecodingError?
    }

    public static func handle(_ frame: ArraySlice<UInt8>, isCentral: Bool) -> Outcome {
        let packet: LESignalingPacket
        do {
            packet = try LESignalingPacket(parsing: frame)
        } catch {
            // Too short to carry an identifier to reject: drop it.
            return Outcome(reply: nil, acceptedParameters: nil, dropped: error)
        }
        switch packet.code {
        case LESignalingPacket.commandReject, LESignalingPacket.connectionParameterUpdateResponse:
            return Outcome()
        case LESignalingPacket.connectionParameterUpdateRequest where isCentral:
            guard let request = try? ConnectionParameterUpdateRequest(parsing: packet.data) else {
                return Outcome(reply: reject(packet.identifier))
            }
            let accepted = request.isAcceptable
            let result: UInt16 = accepted ? 0x0000 : 0x0001
            let response = LESignalingPacket(code: LESignalingPacket.connectionParameterUpdateResponse,
                                             identifier: packet.identifier,
                                             data: [UInt8(result & 0xFF), UInt8(result >> 8)])
            return Outcome(reply: response.encoded(), acceptedParameters: accepted ? request : nil)
        default:
            return Outcome(reply: reject(packet.identifier))
        }
    }

    /// Command Reject, reason 0x0000 "Command not understood".
    static func reject(_ identifier: UInt8) -> [UInt8] {
        LESignalingPacket(code: LESignalingPacket.commandReject, identifier: identifier, data: [0x00, 0x00]).encoded()
    }
}
