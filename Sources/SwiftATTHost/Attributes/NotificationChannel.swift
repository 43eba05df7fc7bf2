#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The buffer between the loop thread, which appends each notification or indication a
/// link receives, and the task iterating a `GATTNotificationStream`.
///
/// Built for streams of thousands of values per second: the loop appends each batch it
/// read from the transport under one lock (`NotificationStaging`) and wakes a waiting
/// consumer once per batch (`AttributeLinks.flushNotifications`), or, when the consumer
/// waits on another thread, once per few batches while the loop stays busy
/// (`AttributeLinks.wakeOwedConsumers`); the consumer takes the whole buffer at once and
/// iterates it without the lock. One thread hand-off per batch or more, not per value,
/// which an `AsyncThrowingStream` cannot offer.
final class NotificationChannel: Sendable {
    typealias Waiter = UnsafeContinuation<Void, Never>

    private struct State {
        var buffer = NotificationBatch()
        var waiter: Waiter?
        /// The thread the waiting consumer suspended on: the loop's own thread when its
        /// task prefers the loop.
        var waiterThread: pthread_t = 0
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

    /// What queuing a batch asks of the loop.
    enum Wake {
        /// No consumer waits: it is running, and takes the values when it next looks.
        case none
        /// A consumer waits on the loop's own thread (its task prefers the loop): wake
        /// it now, which costs an entry in the loop's own queue.
        case now(Waiter)
        /// A consumer waits on another thread: waking it costs a thread wake-up, which
        /// the loop owes, and may pay for several batches at once (`wakeOwed`).
        case owed
    }

    /// Queues a batch the loop staged (`NotificationStaging`), leaving `batch` empty:
    /// one lock per batch, and when the consumer has taken everything the arrays are
    /// swapped rather than copied. Called on the loop thread; says whom to wake.
    func append(contentsOf batch: inout NotificationBatch) -> Wake {
        guard !batch.isEmpty else { return .none }
        defer { batch.removeAll() }
        return state.withLock { s in
            guard s.ending == nil, !s.cancelled else { return .none }
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
            guard let waiter = s.waiter else { return .none }
            guard pthread_equal(s.waiterThread, pthread_self()) != 0 else { return .owed }
            s.waiter = nil
            return .now(waiter)
        }
    }

    /// Wakes the consumer an earlier `append` left owed, if it still waits (the stream
    /// ending or the task being cancelled may have woken it since), and says how many
    /// values it will find.
    @discardableResult
    func wakeOwed() -> Int {
        let (waiter, count) = state.withLock { s -> (Waiter?, Int) in
            defer { s.waiter = nil }
            return (s.waiter, s.buffer.count)
        }
        waiter?.resume()
        return count
    }

    /// How many values wait for the consumer.
    var bufferedCount: Int { state.withLock { $0.buffer.count } }

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
    func take(into batch: inout NotificationBatch, isolation actor: isolated (any Actor)? = #isolation) async -> Outcome {
        while true {
            if let outcome = poll(into: &batch) { return outcome }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: Waiter) in
                    let ready = state.withLock { s -> Bool in
                        if !s.buffer.isEmpty || s.ending != nil || s.cancelled { return true }
                        s.waiter = waiter
                        s.waiterThread = pthread_self()
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

    private func poll(into batch: inout NotificationBatch) -> Outcome? {
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
