/// Answers the LE signaling channel for a host that has no credit-based channels open
/// and no SPSM registered.
///
/// Core 5.4 Vol 3 Part A §4: every request gets an answer with its identifier, nothing
/// else does. A code that is not an LE command, or a request whose data does not decode,
/// gets Command Reject "command not understood" — except a Credit Based Connection
/// Request, which §4.26 answers with "all connections refused – invalid parameters" (no
/// Destination CIDs: it could not be counted). A Connection Parameter Update Request is
/// answered accepted or rejected by a central; a peripheral rejects it with Command
/// Reject. The credit-based requests are refused as a host without the service must:
/// a value outside its range with the refusal §4.23/§4.26 give for it, anything else
/// "SPSM not supported" (all channels refused for ECFC). There is no channel to
/// disconnect or reconfigure, so a Disconnection Request gets Command Reject "invalid
/// CID in request" and a Reconfigure Request "one or more Destination CIDs invalid".
/// Responses, rejects and credit indications need no answer. Pure: returns what to send.
public enum LESignalingResponder {
    /// What to do with one inbound signaling frame.
    public struct Outcome: Sendable, Hashable {
        /// A signaling frame to send back on CID 0x0005, if any.
        public var reply: [UInt8]?
        /// Accepted new parameters the central should apply (LE Connection Update).
        public var acceptedParameters: ConnectionParameterUpdateRequest?
        /// Why the frame was dropped unanswered (no header to answer), for logging.
        public var dropped: LESignalingPacket.DecodingError?
        /// The command the frame carried, when it decoded.
        public var command: LESignalingCommand?
        /// Why the frame's command did not decode, for logging; `reply` says what was answered.
        public var malformed: LESignalingDecodingError?
    }

    /// Decodes one inbound signaling frame and says what to do: the reply to send, the
    /// connection parameters a central accepted, or why the frame was dropped.
    public static func handle(_ frame: ArraySlice<UInt8>, isCentral: Bool) -> Outcome {
        let packet: LESignalingPacket
        do {
            packet = try LESignalingPacket(parsing: frame)
        } catch {
            // Too short to carry an identifier to reject: drop it.
            return Outcome(dropped: error)
        }
        let command: LESignalingCommand
        do {
            command = try LESignalingCommand(packet)
        } catch {
            let answer = answer(malformed: error, code: packet.code)
            return Outcome(reply: answer?.packet(identifier: packet.identifier).encoded(), malformed: error)
        }
        var outcome = Outcome(command: command)
        outcome.reply = answer(command, isCentral: isCentral, accepting: &outcome.acceptedParameters)?
            .packet(identifier: packet.identifier).encoded()
        return outcome
    }

    /// The answer to a command that decoded, if it is a request.
    private static func answer(_ command: LESignalingCommand, isCentral: Bool,
                               accepting accepted: inout ConnectionParameterUpdateRequest?) -> LESignalingCommand? {
        switch command {
        case let .connectionParameterUpdateRequest(request):
            guard isCentral else { return .commandReject(.commandNotUnderstood) }
            guard request.isAcceptable else { return .connectionParameterUpdateResponse(.init(result: .rejected)) }
            accepted = request
            return .connectionParameterUpdateResponse(.init(result: .accepted))
        case let .disconnectionRequest(request):
            return .commandReject(.invalidCIDInRequest(localCID: request.destinationCID, remoteCID: request.sourceCID))
        case let .leCreditBasedConnectionRequest(request):
            return .leCreditBasedConnectionResponse(.refused(refusal(of: request)))
        case let .creditBasedConnectionRequest(request):
            return .creditBasedConnectionResponse(.refused(refusal(of: request), count: request.sourceCIDs.count))
        case let .creditBasedReconfigureRequest(request):
            return .creditBasedReconfigureResponse(.init(result: refusal(of: request)))
        case .commandReject, .disconnectionResponse, .connectionParameterUpdateResponse, .leCreditBasedConnectionResponse,
             .flowControlCreditIndication, .creditBasedConnectionResponse, .creditBasedReconfigureResponse:
            return nil
        }
    }

    /// The answer to a command that did not decode: only requests, and unknown codes
    /// (which may be requests of a later spec), get one.
    private static func answer(malformed error: LESignalingDecodingError, code: UInt8) -> LESignalingCommand? {
        guard let known = LESignalingCode(rawValue: code) else { return .commandReject(.commandNotUnderstood) }
        switch known {
        case .creditBasedConnectionRequest:
            return .creditBasedConnectionResponse(.refused(.invalidParameters, count: 0))
        default:
            return known.isRequest ? .commandReject(.commandNotUnderstood) : nil
        }
    }

    /// The range checks come first (§4.22); a Source CID out of range would be refused
    /// only after the SPSM is looked up, and no SPSM is registered here.
    private static func refusal(of request: LECreditBasedConnectionRequest) -> LECreditBasedConnectionResult {
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field != .sourceCID {
            return error.leCreditBasedConnectionResult
        } catch {}
        return .spsmNotSupported
    }

    /// As for one channel: a bad Source CID would refuse only its own channel, and every
    /// channel is refused anyway.
    private static func refusal(of request: CreditBasedConnectionRequest) -> CreditBasedConnectionResult {
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field != .sourceCID {
            return error.creditBasedConnectionResult
        } catch {}
        return .spsmNotSupported
    }

    /// An MTU or MPS out of range is "other unacceptable parameters" (§4.28); otherwise
    /// the channels named are not open here.
    private static func refusal(of request: CreditBasedReconfigureRequest) -> CreditBasedReconfigureResult {
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field == .mtu || error.field == .mps {
            return error.creditBasedReconfigureResult
        } catch {}
        return .invalidDestinationCID
    }
}
