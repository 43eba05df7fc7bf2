/// The event that answers a command (Core 5.4 Vol 4 Part E §4.4): Command Complete with
/// its return parameters, or Command Status, whose outcome a later event reports.
public enum HCICommandAnswer: Sendable, Hashable {
    /// Command Complete, with the return parameters.
    case complete(CommandComplete)
    /// Command Status: the command was accepted or refused; its own event reports the rest.
    case status(CommandStatus)
}

extension HCICommand {
    /// What `answer` says of this command: its decoded return parameters, or why it
    /// failed. A command acknowledged with Command Status succeeds once the status is
    /// Success (its outcome arrives later as an event of its own); any non-success status
    /// fails with `.commandFailed` naming the status, whichever event carried it.
    @inlinable
    public static func returnParameters(from answer: HCICommandAnswer) throws(HCIError) -> ReturnParameters {
        // Switched on the answer itself, not on a tuple of it and the completion: the
        // tuple was a copy, retaining the return parameters' buffer on every call.
        switch completion {
        case .commandComplete:
            switch answer {
            case let .complete(complete):
                let parameters: ReturnParameters
                do throws(HCIDecodingError) {
                    parameters = try complete.returnParameters(for: Self.self)
                } catch {
                    throw .malformedResponse(opcode, error)
                }
                guard parameters.status.isSuccess else { throw .commandFailed(opcode, parameters.status) }
                return parameters
            case let .status(status):
                // A controller may refuse any command with a Command Status error.
                if !status.status.isSuccess { throw .commandFailed(opcode, status.status) }
                throw .unexpectedResponse(opcode, "Command Status where Command Complete was expected")
            }
        case .commandStatus:
            switch answer {
            case let .status(status):
                guard status.status.isSuccess else { throw .commandFailed(opcode, status.status) }
                do throws(HCIDecodingError) {
                    return try ReturnParameters(returnParameters: [status.status.rawValue])
                } catch {
                    throw .malformedResponse(opcode, error)
                }
            case let .complete(complete):
                if let status = complete.status, !status.isSuccess { throw .commandFailed(opcode, status) }
                throw .unexpectedResponse(opcode, "Command Complete where Command Status was expected")
            }
        }
    }
}
