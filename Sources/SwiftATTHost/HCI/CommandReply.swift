import SwiftATTHCI

/// A `Controller.send` caller's task, waiting for one command's decoded return
/// parameters: the answer is decoded on the loop, from the transport's bytes where they
/// lie, and the task resumed with the result.
///
/// The answer used to go to the task as an event, which had to be copied out of the
/// transport's receive buffer into an array of its own first (the task decodes it after
/// the loop has read on, and a slice it kept would pin the buffer): a copy and an
/// allocation per command, and the array's release in the task, some 400 instructions of
/// a round trip on its critical path (callgrind). Decoding where the answer lies needs
/// the command's type on the loop, which holds waiters of every command in one queue:
/// the caller's continuation is kept with its result type erased, beside a function made
/// for the command type that decodes and resumes it. Made by an inlinable initializer, so
/// that in the caller's specialized code that function captures nothing and costs no
/// allocation.
@usableFromInline
struct CommandReply: Sendable {
    /// The caller's continuation, as the one pointer every continuation is; only
    /// `resume` knows, and restores, its result type.
    @usableFromInline
    let continuation: UnsafeContinuation<Void, Never>
    /// Decodes an answer for the command (or passes a failure on) and resumes
    /// `continuation` with it, exactly once.
    @usableFromInline
    let resume: @Sendable (Result<HCICommandAnswer, ControllerError>, UnsafeContinuation<Void, Never>) -> Void

    @inlinable
    init<C: HCICommand>(_ continuation: UnsafeContinuation<Result<C.ReturnParameters, ControllerError>, Never>,
                        for command: C.Type) {
        self.continuation = unsafeBitCast(continuation, to: UnsafeContinuation<Void, Never>.self)
        resume = { answer, erased in
            let typed = unsafeBitCast(erased, to: UnsafeContinuation<Result<C.ReturnParameters, ControllerError>, Never>.self)
            typed.resume(returning: answer.returnParameters(of: C.self))
        }
    }

    /// Hands the caller what `answer` says of its command.
    func settle(_ answer: Result<HCICommandAnswer, ControllerError>) {
        resume(answer, continuation)
    }
}
