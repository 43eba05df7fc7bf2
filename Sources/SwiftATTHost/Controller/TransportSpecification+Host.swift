import SwiftATTTransport

extension TransportSpecification {
    /// `TransportSpecification(parsing:)` for the hosts' `start(transport: String, …)`,
    /// which throw the host's error: a string that names no transport is
    /// `ControllerError.transport(.invalidSpecification(…))`.
    static func hostParsing(_ text: String) throws(ControllerError) -> TransportSpecification {
        do {
            return try TransportSpecification(parsing: text)
        } catch {
            throw .transport(error)
        }
    }
}
