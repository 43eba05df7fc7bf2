import Synchronization

/// The buffer between the loop thread, which appends each notification or indication a
/// link receives, and the task iterating a `GATTNotificationStream`.
///
/// Built for streams of thousands of values per second: the loop appends each batch it
/// read from the transport under one lock (`NotificationStaging`) and wakes a waiting
/// consumer once per batch (`AttributeLinks.flushNotifications`); the consumer takes
/// the whole buffer at once and iterates it without the lock. One thread hand-off per
/// batch, not per value, which an `AsyncThrowingStream` cannot offer.
final class NotificationChannel: Sendable {
    typealias Waiter = UnsafeContinuation<Void, Never>

    private struct State {
        var buffer: [GATTNotification] = []
        var waiter: Waiter?
        /// Set once the loop ended the stream, with why (nil: ended without error).
        var ending: (any Error)??
        /// The consumer's task was cancelled.
        var cancelled = false
        /// Values dropped because the consumer fell `limit` behind.
        var dropped = 0
    }

    /// How many values may wait for the consumer; beyond it the oldest quarter goes.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(4, limit)
    }

    // MARK: The loop's side

    /// Queues a batch the loop staged (`NotificationStaging`), leaving `batch` empty:
    /// one lock per batch, and when the consumer has taken everything the arrays are
    /// swapped rather than copied. Returns the waiting consumer, as `append` does.
    func append(contentsOf batch: inout [GATTNotification]) -> Waiter? {
        guard !batch.isEmpty else { return nil }
        defer { batch.removeAll(keepingCapacity: true) }
        return state.withLock { s in
            guard s.ending == nil, !s.cancelled else { return nil }
            if s.buffer.isEmpty {
                swap(&s.buffer, &batch)
            } else {
                s.buffer.append(contentsOf: batch)
            }
            let excess = s.buffer.count - limit
            if excess > 0 {
                // The oldest go, a quarter of the limit at a time.
                let quarter = limit / 4
                let drop = (excess + quarter - 1) / quarter * quarter
                s.buffer.removeFirst(drop)
                s.dropped += drop
            }
            defer { s.waiter = nil }
            return s.waiter
        }
    }

    /// Ends the stream: the consumer gets what is buffered, then `error` (or the end).
    func finish(throwing error: (any Error)? = nil) {
        let waiter = state.withLock { s -> Waiter? in
            guard s.ending == nil else { return nil }
            s.ending = .some(error)
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// Whether a consumer is parked waiting for values (for tests: the moment a wake-up
    /// is owed).
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }

    /// Whether the loop ended the stream (rather than the consumer leaving it).
    var isFinished: Bool { state.withLock { $0.ending != nil } }

    // MARK: The consumer's side

    /// What `take` found.
    enum Outcome {
        case values
        case ended((any Error)?)
        case cancelled
    }

    /// Waits until values are buffered (swapped into `batch`, which must be empty), the
    /// stream ended, or the task was cancelled.
    func take(into batch: inout [GATTNotification], isolation actor: isolated (any Actor)? = #isolation) async -> Outcome {
        while true {
            if let outcome = poll(into: &batch) { return outcome }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: Waiter) in
                    let ready = state.withLock { s -> Bool in
                        if !s.buffer.isEmpty || s.ending != nil || s.cancelled { return true }
                        s.waiter = waiter
                        return false
                    }
                    if ready { waiter.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { s -> Waiter? in
                    s.cancelled = true
                    defer { s.waiter = nil }
                    return s.waiter
                }
                waiter?.resume()
            }
        }
    }

    private func poll(into batch: inout [GATTNotification]) -> Outcome? {
        state.withLock { s -> Outcome? in
            if !s.buffer.isEmpty {
                swap(&s.buffer, &batch)
                return .values
            }
            if let ending = s.ending {
                // Reported once; afterwards the stream just ends.
                s.ending = .some(nil)
                return .ended(ending)
            }
            if s.cancelled { return .cancelled }
            return nil
        }
    }
}
