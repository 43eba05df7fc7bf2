import SwiftATTHCI
import SwiftATTTransport

/// Why an exchange with the controller failed.
public enum HCIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller answered with a non-success status.
    case commandFailed(HCIOpcode, HCIStatus)
    /// No Command Complete or Command Status arrived in time.
    case commandTimedOut(HCIOpcode, Duration)
    /// The answer could not be decoded.
    case malformedResponse(HCIOpcode, HCIDecodingError)
    /// The command got Command Status where Command Complete was expected, or the reverse.
    case unexpectedResponse(HCIOpcode, String)
    /// The transport failed or closed; everything pending fails with it.
    case transport(TransportError)
    /// The controller reported a hardware error (code as reported).
    case hardwareError(UInt8)
    /// The host was closed by its owner.
    case closed

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
        case let .transport(error):
            return error.description
        case let .hardwareError(code):
            return "the controller reported a hardware error (code 0x\(String(code, radix: 16)))"
        case .closed:
            return "the host was closed"
        }
    }
}
