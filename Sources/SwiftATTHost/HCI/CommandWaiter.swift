import SwiftATTHCI

/// Who waits for a command's answer: a callback (the floors inside the host), the task
/// of a `Controller.exchange` caller, which gets the answer itself, or the task of a
/// `Controller.send` caller, which gets its command's decoded return parameters.
///
/// A task's continuation is held as it is rather than wrapped in a callback closure:
/// a closure capturing it is a heap allocation per command, and a round trip on the
/// kernel path is spent mostly in the host's own instructions (issue 22).
///
/// `settle` is given the answer as the loop decoded it, its return parameters a slice of
/// the transport's receive buffer. Only `.reply` decodes them there; the others get a
/// compact copy, as they may keep the answer after the loop reads on.
enum CommandWaiter: Sendable {
    typealias Answer = Result<HCICommandAnswer, ControllerError>

    case callback(@Sendable (Answer) -> Void)
    /// `timeout` is the caller's: the command flow reports a timeout without it.
    case task(UnsafeContinuation<Answer, Never>, timeout: Duration)
    /// As `task`, the answer decoded on the loop (`CommandReply`).
    case reply(CommandReply, timeout: Duration)

    /// Hands `answer` to the waiter, exactly once. Consuming: a caller's `if let` over
    /// the optional waiter a command flow returns then has nothing left to destroy, and
    /// the destroy of an optional this large is a call through its type's value
    /// witnesses (metadata looked up, a generic enum destroy: some 100 instructions).
    consuming func settle(_ answer: Answer) {
        switch consume self {
        case let .callback(callback):
            callback(answer.compacted)
        case let .task(continuation, timeout):
            continuation.resume(returning: answer.compacted.timingOut(after: timeout))
        case let .reply(reply, timeout):
            reply.settle(answer.timingOut(after: timeout))
        }
    }
}

extension Result where Success == HCICommandAnswer, Failure == ControllerError {
    /// The answer with its return parameters in an array of their own, not a slice of
    /// the transport's receive buffer: what leaves the loop pins nothing.
    var compacted: Self {
        guard case var .success(.complete(complete)) = self else { return self }
        complete.returnParameters = Array(complete.returnParameters)[...]
        return .success(.complete(complete))
    }

    /// A timeout as the caller asked for it: the command flow reports one without it.
    func timingOut(after timeout: Duration) -> Self {
        guard case let .failure(.hci(.commandTimedOut(opcode, _))) = self else { return self }
        return .failure(.hci(.commandTimedOut(opcode, timeout)))
    }
}
