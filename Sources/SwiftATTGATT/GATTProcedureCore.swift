import SwiftATTPDU

/// The part every procedure shares: which request is outstanding, whether the answer
/// answers it (Core 5.4 Vol 3 Part F §3.4.9), cancellation, discarding prepared writes
/// before failing (Part G §4.9.4–§4.9.5), and the bound on round trips.
///
/// A procedure computes its next step from an accepted answer; `emit` records it and
/// turns it into what the host must do: a request is counted (and refused past the
/// bound, or after `cancel`), a failure with writes still prepared on the server first
/// sends Execute Write (cancel) and fails when that is answered.
struct GATTProcedureCore<Output: Sendable>: Sendable {
    typealias Step = GATTProcedureStep<Output>

    enum Phase: Sendable {
        case ready
        case awaiting(ATTOpcode)
        /// Execute Write (cancel) is outstanding; then the procedure fails with this.
        case discarding(GATTClientError)
        case finished
    }

    /// What to do with an answer.
    enum Intake: Sendable {
        /// It answers the outstanding request (its response, or an Error Response naming
        /// it): the procedure takes it from here.
        case handle(ATTPDU)
        /// The procedure is over, or winds down: return this.
        case stop(Step)
    }

    private(set) var phase = Phase.ready
    private var cancelRequested = false
    /// Prepare Write Requests were sent and neither executed nor cancelled yet.
    private var preparedWritesQueued = false
    private var roundTrips = 0
    let roundTripLimit: Int

    init(roundTripLimit: Int) {
        self.roundTripLimit = max(roundTripLimit, 1)
    }

    /// Emits the first step, unless the procedure already started.
    mutating func begin(_ first: Step) -> Step {
        guard case .ready = phase else {
            return .failed(.notSupported("this procedure has already started: a procedure runs once; make a new one"))
        }
        return emit(first)
    }

    /// Checks an answer against the outstanding request.
    mutating func intake(_ response: ATTPDU) -> Intake {
        switch phase {
        case .ready, .finished:
            return .stop(.failed(.unexpectedResponse(response.opcode, request: nil)))
        case let .discarding(error):
            // Whatever answers the cancel, the queue is gone or the bearer will close.
            phase = .finished
            return .stop(.failed(error))
        case let .awaiting(request):
            if case let .errorResponse(error) = response {
                if error.requestOpcode == request { return .handle(response) }
            } else if response.opcode.kind == .response, response.opcode.rawValue == request.rawValue &+ 1 {
                return .handle(response)
            }
            return .stop(fail(.unexpectedResponse(response.opcode, request: request)))
        }
    }

    /// Records the procedure's next step and returns what the host must do.
    mutating func emit(_ step: Step) -> Step {
        switch step {
        case let .request(pdu):
            if cancelRequested { return fail(.cancelled) }
            guard roundTrips < roundTripLimit else {
                return fail(.malformedResponse(.tooManyRoundTrips(limit: roundTripLimit)))
            }
            roundTrips += 1
            switch pdu {
            case .prepareWriteRequest: preparedWritesQueued = true
            case .executeWriteRequest: preparedWritesQueued = false
            default: break
            }
            phase = .awaiting(pdu.opcode)
            return step
        case .done:
            phase = .finished
            return step
        case let .failed(error):
            return fail(error)
        }
    }

    /// Fails the procedure, discarding the server's prepared writes first if any.
    mutating func fail(_ error: GATTClientError) -> Step {
        guard preparedWritesQueued else {
            phase = .finished
            return .failed(error)
        }
        preparedWritesQueued = false
        phase = .discarding(error)
        return .request(.executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
    }

    /// See `GATTProcedure.refused(_:)`.
    mutating func refused(_ error: GATTClientError) -> Step {
        switch phase {
        case .awaiting:
            return fail(error)
        case let .discarding(first):
            // The Execute Write (cancel) itself was refused: the first failure is the news.
            phase = .finished
            return .failed(first)
        case .ready, .finished:
            phase = .finished
            return .failed(error)
        }
    }

    /// See `GATTProcedure.cancel()`.
    mutating func cancel() -> Step? {
        switch phase {
        case .ready:
            phase = .finished
            return .failed(.cancelled)
        case .awaiting:
            cancelRequested = true
            return nil
        case .discarding, .finished:
            return nil
        }
    }
}

/// A procedure that keeps its shared part in a `GATTProcedureCore`: it begins with
/// `core.begin(_:)` and says, in `advance(_:)`, where an answer takes it. Its
/// `receive(_:)`, `cancel()` and `refused(_:)` are the core's, written once here: the core
/// checks every answer against the outstanding request before `advance(_:)` sees it, and
/// records the step `advance(_:)` returns.
protocol GATTCoreProcedure: GATTProcedure {
    var core: GATTProcedureCore<Output> { get set }

    /// The next step, given an answer the core accepted: the outstanding request's
    /// response, or an Error Response naming that request.
    mutating func advance(_ answer: ATTPDU) -> Step
}

extension GATTCoreProcedure {
    public mutating func receive(_ response: ATTPDU) -> Step {
        switch core.intake(response) {
        case let .stop(step):
            return step
        case let .handle(answer):
            let next = advance(answer)
            return core.emit(next)
        }
    }

    public mutating func cancel() -> Step? { core.cancel() }

    public mutating func refused(_ error: GATTClientError) -> Step { core.refused(error) }
}
