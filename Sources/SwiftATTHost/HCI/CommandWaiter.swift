import SwiftATTHCI

/// Who waits for a command's answer: a callback (the floors inside the host), or the
/// task of a `Controller.send` caller itself.
///
/// The task's continuation is held as it is rather than wrapped in a callback closure:
/// a closure capturing it is a heap allocation per command, and a round trip on the
/// kernel path is spent mostly in the host's own instructions (issue 22).
enum CommandWaiter: Sendable {
    typealias Answer = Result<HCICommandAnswer, ControllerError>

    case callback(@Sendable (Answer) -> Void)
    /// `timeout` is the caller's: the command flow reports a timeout without it.
    case task(UnsafeContinuation<Answer, Never>, timeout: Duration)

    /// Hands `answer` to the waiter, exactly once.
    func settle(_ answer: Answer) {
        switch self {
        case let .callback(callback):
            callback(answer)
        case let .task(continuation, timeout):
            if case let .failure(.hci(.commandTimedOut(opcode, _))) = answer {
                continuation.resume(returning: .failure(.hci(.commandTimedOut(opcode, timeout))))
            } else {
                continuation.resume(returning: answer)
            }
        }
    }
}
