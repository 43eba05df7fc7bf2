import SwiftATTPDU

/// A GATT client procedure (Core 5.4 Vol 3 Part G §4) as a pure state machine.
///
/// The host drives it over an `ATTBearer`, one request at a time:
///
///     var procedure = GATTClient.ReadLongCharacteristicValues(handle: 0x0003, mtu: bearer.mtu)
///     var step = procedure.start()
///     while case let .request(pdu) = step {
///         // bearer.request(pdu, token: …); the bearer's `.response(token, answer)` action:
///         step = procedure.receive(answer)
///     }
///     // step is .done(value) or .failed(error)
///
/// A bearer's `.requestFailed(token, error)` ends the procedure without it: the host
/// fails it with `GATTClientError(error)` (timed out, disconnected, malformed answer).
/// A request the bearer refuses to send goes back to the procedure (`refused(_:)`).
/// Every procedure splits values by the ATT_MTU it was made with (`mtu`): make it with
/// the bearer's current `mtu`. Each is bounded: a server that answers wrong (handles out
/// of order or going backwards, lists that make no progress, responses to other
/// requests) fails it with `malformedResponse` or `unexpectedResponse`, and no server
/// keeps one going for more round trips than its handle range can need.
public protocol GATTProcedure: Sendable {
    /// What the procedure produces.
    associatedtype Output: Sendable
    /// What each call returns: a request to send, the output, or the failure.
    typealias Step = GATTProcedureStep<Output>

    /// The ATT_MTU the procedure sizes its requests and reads its responses by.
    var mtu: Int { get }

    /// The first step. Call once.
    mutating func start() -> Step

    /// The next step, given the answer (the bearer's `.response` PDU, an Error Response
    /// included) to the last `.request` step.
    mutating func receive(_ response: ATTPDU) -> Step

    /// Asks the procedure to stop. Before `start()` it fails at once with `.cancelled`.
    /// With a request outstanding it returns `nil`: pass that request's answer to
    /// `receive(_:)` as usual, and the procedure winds down — it sends nothing more
    /// except an Execute Write Request (cancel) to discard writes it prepared, then
    /// fails with `.cancelled`. An answer that finishes the procedure (the Write
    /// Response to a Write Request, the Execute Write Response) still reports what
    /// happened, because the server has done it. `nil` too when it has finished.
    mutating func cancel() -> Step?

    /// The host could not send the last `.request` (the bearer refused it: ATT_MTU
    /// shrank below it when the peer exchanged MTU again, the queue was full, the bearer
    /// closed). The procedure fails with `error`; if it has Prepare Write Requests
    /// queued on the server, it first asks for an Execute Write Request (cancel), so a
    /// later long or reliable write does not execute this one's parts with its own.
    mutating func refused(_ error: GATTClientError) -> Step
}

/// What a GATT procedure asks of the host next.
public enum GATTProcedureStep<Output: Sendable>: Sendable {
    /// Send this request on the bearer and pass its answer to `receive(_:)`.
    case request(ATTPDU)
    /// The procedure finished.
    case done(Output)
    /// The procedure failed; it asks for nothing more.
    case failed(GATTClientError)
}

extension GATTProcedureStep: Equatable where Output: Equatable {}
extension GATTProcedureStep: Hashable where Output: Hashable {}
