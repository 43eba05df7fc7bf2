/// Why a command exchange with the controller failed, in HCI's own terms: the controller
/// refused the command, did not answer it, answered with bytes that do not decode or with
/// the wrong kind of event, or reported a hardware error (Core 5.4 Vol 4 Part E §4.4,
/// §7.7.14–§7.7.16).
///
/// The host's error (`ControllerError` in SwiftATTHost) wraps this beside the transport's
/// failures, which this layer cannot name: the transports sit above the codec.
public enum HCIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller answered with a non-success status.
    case commandFailed(HCIOpcode, HCIStatus)
    /// No Command Complete or Command Status arrived in time.
    case commandTimedOut(HCIOpcode, Duration)
    /// The answer could not be decoded.
    case malformedResponse(HCIOpcode, HCIDecodingError)
    /// The command got Command Status where Command Complete was expected, or the reverse.
    case unexpectedResponse(HCIOpcode, String)
    /// The controller reported a hardware error (code as reported, meaning its maker's).
    case hardwareError(UInt8)

    public var description: String {
        switch self {
        case let .commandFailed(opcode, status):
            return "\(opcode) failed: \(status)"
        case let .commandTimedOut(opcode, timeout):
            return "\(opcode): no Command Complete or Command Status within \(timeout) (the controller did not answer)"
        case let .malformedResponse(opcode, error):
            return "\(opcode): malformed response: \(error)"
        case let .unexpectedResponse(opcode, what):
            return "\(opcode): unexpected response: \(what)"
        case let .hardwareError(code):
            return "the controller reported a hardware error (code 0x\(String(code, radix: 16)))"
        }
    }
}
