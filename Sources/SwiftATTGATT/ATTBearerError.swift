import SwiftATTPDU

/// Why the ATT bearer failed a request or an indication, refused an operation, closed, or
/// dropped an inbound PDU.
///
/// Outstanding work fails with `timedOut`, `bearerClosed`, `disconnected`,
/// `malformedResponse` or `pduTooLong`; the outbound calls throw the misuse cases
/// (`pduTooLong`, `queueFull`, `mtuAlreadyExchanged`, `notARequest`, …); `dropped` actions
/// carry `unexpectedResponse`, `malformedPDU`, `requestBeforeResponse` and `pduTooLong`
/// (a command longer than ATT_MTU) for the log.
public enum ATTBearerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer did not answer our request (or confirm our indication) within the
    /// transaction timeout. The bearer is closed (Core 5.4 Vol 3 Part F §3.3.3).
    case timedOut(opcode: ATTOpcode, after: Duration)
    /// This device did not answer the peer's request within the transaction timeout
    /// (`serve` was never followed by `respond`). The bearer is closed (§3.3.3).
    case responseNotSent(request: ATTOpcode, after: Duration)
    /// The link went down; whatever was pending will never be answered.
    case disconnected(reason: DisconnectReason)
    /// An earlier transaction timed out, so this bearer sends nothing more (§3.3.3).
    case bearerClosed
    /// Exchange MTU was already sent on this connection; the spec allows it once (§3.4.2.1).
    case mtuAlreadyExchanged
    /// The PDU is longer than the current ATT_MTU (§3.2.8, §3.3).
    case pduTooLong(length: Int, mtu: Int)
    /// Too many requests or indications wait already.
    case queueFull(limit: Int)
    /// The PDU answering our request (or confirming our indication) does not decode.
    case malformedResponse(ATTDecodingError)
    /// The peer sent a response or confirmation that answers nothing outstanding.
    case unexpectedResponse(ATTOpcode)
    /// The peer sent a notification, indication or command that does not decode, or a PDU
    /// with no opcode at all.
    case malformedPDU(ATTDecodingError)
    /// The peer sent a request before this device answered its previous one (§3.3.2).
    case requestBeforeResponse(ATTOpcode)
    /// `request(_:token:now:)` was given a PDU that is not a request.
    case notARequest(ATTOpcode)
    /// `send(_:)` was given a PDU that is neither a command nor a notification.
    case notACommandOrNotification(ATTOpcode)
    /// `respond(_:)` was called with no peer request awaiting an answer.
    case noRequestPending
    /// `respond(_:)` was given a PDU that does not answer the pending request (§3.4.9).
    case responseMismatch(request: ATTOpcode, response: ATTOpcode)
    /// The bearer sends this PDU itself (Exchange MTU Request, Handle Value Confirmation).
    case reservedForBearer(ATTOpcode)

    /// The reason a link closed: an HCI error code (Core 5.4 Vol 1 Part F §1.3) and its
    /// name, as the Disconnection Complete event reports it. The ATT layer does not import
    /// HCI, so the host passes the name along with the code.
    public struct DisconnectReason: Hashable, Sendable, CustomStringConvertible {
        /// The HCI error code.
        public var code: UInt8
        /// The code's name in the spec, for messages.
        public var name: String

        /// A reason of `code`, named `name`.
        public init(code: UInt8, name: String) {
            self.code = code
            self.name = name
        }

        /// Connection Timeout (0x08): the link's supervision timeout expired.
        public static let connectionTimeout = DisconnectReason(code: 0x08, name: "Connection Timeout")
        /// Remote User Terminated Connection (0x13): the peer closed the link.
        public static let remoteUserTerminated = DisconnectReason(code: 0x13, name: "Remote User Terminated Connection")
        /// Remote Device Terminated Connection due to Low Resources (0x14).
        public static let remoteLowResources = DisconnectReason(code: 0x14, name: "Remote Device Terminated Connection due to Low Resources")
        /// Remote Device Terminated Connection due to Power Off (0x15).
        public static let remotePowerOff = DisconnectReason(code: 0x15, name: "Remote Device Terminated Connection due to Power Off")
        /// Connection Terminated By Local Host (0x16): this host closed the link.
        public static let localHostTerminated = DisconnectReason(code: 0x16, name: "Connection Terminated By Local Host")
        /// Connection Terminated due to MIC Failure (0x3D): a packet failed its integrity check on
        /// an encrypted link.
        public static let messageIntegrityCheckFailed = DisconnectReason(code: 0x3D, name: "Connection Terminated due to MIC Failure")
        /// Connection Failed to be Established (0x3E).
        public static let failedToBeEstablished = DisconnectReason(code: 0x3E, name: "Connection Failed to be Established")

        /// `Remote User Terminated Connection (0x13)`.
        public var description: String {
            "\(name) (0x\(code < 0x10 ? "0" : "")\(String(code, radix: 16)))"
        }
    }

    public var description: String {
        switch self {
        case let .timedOut(opcode, after):
            let what = opcode == .handleValueIndication
                ? "confirm our Handle Value Indication" : "answer our \(opcode)"
            return "the peer did not \(what) within \(Self.seconds(after)); the ATT bearer is closed "
                + "(Core 5.4 Vol 3 Part F §3.3.3): disconnect and reconnect to use ATT again"
        case let .responseNotSent(request, after):
            return "this device did not answer the peer's \(request) within \(Self.seconds(after)); "
                + "the ATT bearer is closed (Core 5.4 Vol 3 Part F §3.3.3): the GATT server must "
                + "respond to every request it is given"
        case let .disconnected(reason):
            return "the connection is closed (\(reason)): connect again to use ATT"
        case .bearerClosed:
            return "the ATT bearer is closed after a transaction timed out (Core 5.4 Vol 3 Part F "
                + "§3.3.3): disconnect and reconnect to use ATT again"
        case .mtuAlreadyExchanged:
            return "Exchange MTU was already sent on this connection; the spec allows it once "
                + "(Core 5.4 Vol 3 Part F §3.4.2.1): read the bearer's mtu instead"
        case let .pduTooLong(length, mtu):
            return "the PDU is \(length) bytes but ATT_MTU is \(mtu): shorten the value to at most "
                + "\(mtu - 3) bytes, or use the long procedures (Read Blob, Prepare Write)"
        case let .queueFull(limit):
            return "\(limit) ATT transactions already wait behind the outstanding one: await "
                + "earlier ones before starting more, or raise the bearer's queue limit"
        case let .malformedResponse(error):
            return "the peer's answer does not decode: \(error)"
        case let .unexpectedResponse(opcode):
            return "dropped \(opcode) from the peer: it answers no outstanding "
                + (opcode == .handleValueConfirmation ? "indication" : "request")
        case let .malformedPDU(error):
            return "dropped a PDU from the peer that does not decode: \(error)"
        case let .requestBeforeResponse(opcode):
            return "dropped \(opcode) from the peer: it arrived before this device answered the "
                + "previous request (Core 5.4 Vol 3 Part F §3.3.2)"
        case let .notARequest(opcode):
            return "\(opcode) is not a request: send commands and notifications with send(_:), "
                + "indications with indicate(_:token:now:), and answers with respond(_:)"
        case let .notACommandOrNotification(opcode):
            return "\(opcode) needs an answer or is one: send(_:) takes only commands and "
                + "notifications; use request(_:token:now:), indicate(_:token:now:) or respond(_:)"
        case .noRequestPending:
            return "no request from the peer awaits an answer: respond(_:) answers the request "
                + "of the last serve action, once"
        case let .responseMismatch(request, response):
            return "\(response) does not answer the peer's \(request) (Core 5.4 Vol 3 Part F "
                + "§3.4.9): answer with its response or an Error Response naming it"
        case let .reservedForBearer(opcode):
            return "the bearer sends \(opcode) itself"
                + (opcode == .exchangeMTURequest ? ": call exchangeMTU(token:now:)" : "")
        }
    }

    private static func seconds(_ d: Duration) -> String {
        let (s, attoseconds) = d.components
        if attoseconds == 0 { return "\(s) s" }
        return "\(Double(s) + Double(attoseconds) / 1e18) s"
    }
}
