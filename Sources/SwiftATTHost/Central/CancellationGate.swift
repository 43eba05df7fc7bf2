import Synchronization

/// Orders a call's submission to the loop against its task's cancellation, so that a
/// cancel job never reaches the loop before the work it cancels (the loop would find
/// nothing to cancel, and the work would then run uncancelled).
final class CancellationGate: Sendable {
    private struct State {
        var submitted = false
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Runs `submit` unless the task was cancelled first; false when it was.
    func submit(_ submit: () -> Void) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.submitted = true
            submit()
            return true
        }
    }

    /// Marks the task cancelled and, if the work was submitted, runs `cancel`.
    func cancel(_ cancel: () -> Void) {
        state.withLock { state in
            state.cancelled = true
            if state.submitted { cancel() }
        }
    }
}
