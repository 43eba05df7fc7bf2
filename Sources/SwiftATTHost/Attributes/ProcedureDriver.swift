import SwiftATTPDU
import SwiftATTGATT

/// A GATT client procedure queued or running on one link, with its type erased so a
/// link's queue can hold procedures of every kind. Loop-confined.
///
/// Each method returns the request to send next, or `nil` when there is none: the
/// procedure either finished (and already reported its result) or, after `cancel()`,
/// waits for the answer to its outstanding request.
protocol ProcedureDriver: AnyObject {
    /// The caller's identifier, for cancellation.
    var id: Int { get }
    /// Builds the procedure with the link's current ATT_MTU and starts it.
    func start(mtu: Int) -> ATTPDU?
    /// The answer to the last request.
    func receive(_ response: ATTPDU) -> ATTPDU?
    /// Ends the procedure without an answer (timeout, disconnection).
    func fail(_ error: GATTClientError)
    /// The bearer refused to send the last request; see `GATTProcedure.refused(_:)`.
    func refused(_ error: GATTClientError) -> ATTPDU?
    /// Asks the procedure to stop; see `GATTProcedure.cancel()`.
    func cancel() -> ATTPDU?
    /// Whether the result has been reported.
    var isFinished: Bool { get }
    /// Which bearers the procedure may run on.
    var placement: ProcedurePlacement { get }
}

/// Where a procedure may run on a link with Enhanced ATT bearers.
enum ProcedurePlacement {
    case anyBearer
    /// Exchange MTU: only the unenhanced bearer negotiates its ATT_MTU.
    case unenhanced
    /// Long and reliable writes queue prepared writes, which one client shares across
    /// bearers: one such procedure at a time.
    case preparesWrites
}

/// Drives one `GATTProcedure` and reports its result once.
///
/// The procedure is made when it starts, not when it is queued, because it sizes its
/// requests by ATT_MTU and an Exchange MTU queued before it may change that.
final class ProcedureRun<Procedure: GATTProcedure>: ProcedureDriver {
    typealias Completion = @Sendable (Result<Procedure.Output, GATTClientError>) -> Void

    let id: Int
    private let make: @Sendable (Int) -> Procedure
    private var procedure: Procedure?
    private var completion: Completion?

    init(id: Int, make: @escaping @Sendable (Int) -> Procedure, completion: @escaping Completion) {
        self.id = id
        self.make = make
        self.completion = completion
    }

    var isFinished: Bool { completion == nil }

    var placement: ProcedurePlacement {
        if Procedure.self == MTUExchange.self { return .unenhanced }
        if Procedure.self == GATTClient.WriteLongCharacteristicValues.self || Procedure.self == GATTClient.ReliableWrites.self {
            return .preparesWrites
        }
        return .anyBearer
    }

    func start(mtu: Int) -> ATTPDU? {
        var procedure = make(mtu)
        let step = procedure.start()
        self.procedure = procedure
        return follow(step)
    }

    func receive(_ response: ATTPDU) -> ATTPDU? {
        guard var procedure else { return nil }
        let step = procedure.receive(response)
        self.procedure = procedure
        return follow(step)
    }

    func fail(_ error: GATTClientError) {
        finish(.failure(error))
    }

    func refused(_ error: GATTClientError) -> ATTPDU? {
        guard var procedure else {
            finish(.failure(error))
            return nil
        }
        let step = procedure.refused(error)
        self.procedure = procedure
        return follow(step)
    }

    func cancel() -> ATTPDU? {
        guard var procedure else {
            // Not started: nothing was sent, so it ends here.
            finish(.failure(.cancelled))
            return nil
        }
        let step = procedure.cancel()
        self.procedure = procedure
        return step.flatMap(follow)
    }

    private func follow(_ step: Procedure.Step) -> ATTPDU? {
        switch step {
        case let .request(pdu): return pdu
        case let .done(output): finish(.success(output))
        case let .failed(error): finish(.failure(error))
        }
        return nil
    }

    private func finish(_ result: Result<Procedure.Output, GATTClientError>) {
        guard let completion else { return }
        self.completion = nil
        completion(result)
    }
}
