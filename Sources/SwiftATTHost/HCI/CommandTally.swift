import Synchronization

/// Counts the answers to a batch of commands and reports the first failure (or none)
/// once every command is answered.
final class CommandTally: Sendable {
    private struct State {
        var remaining: Int
        var firstFailure: ControllerError?
    }

    private let state: Mutex<State>
    private let completion: @Sendable (ControllerError?) -> Void

    init(count: Int, completion: @escaping @Sendable (ControllerError?) -> Void) {
        state = Mutex(State(remaining: count, firstFailure: nil))
        self.completion = completion
    }

    func answered(_ failure: ControllerError?) {
        let finished = state.withLock { s -> (Bool, ControllerError?) in
            s.remaining -= 1
            if s.firstFailure == nil { s.firstFailure = failure }
            return (s.remaining == 0, s.firstFailure)
        }
        if finished.0 { completion(finished.1) }
    }
}
