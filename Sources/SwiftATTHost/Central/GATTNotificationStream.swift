import Synchronization

/// The values a peer notifies or indicates, as `Peer.notifications(of:)` and
/// `Peer.values(of:)` hand them out: `for try await value in stream`.
///
/// Like an `AsyncThrowingStream`: it ends with an error when the link goes down, ends
/// (and unsubscribes, for `notifications(of:)`) when the iterating task is cancelled or
/// the stream and its iterators are released, and keeps the newest values (about 65,536)
/// if the consumer falls behind. Unlike one, the loop thread hands values over a batch
/// at a time (`NotificationChannel`), so a fast stream costs one thread wake-up per
/// batch rather than per value.
public struct GATTNotificationStream: AsyncSequence, Sendable {
    public typealias Element = GATTNotification
    public typealias Failure = any Error

    let subscription: NotificationSubscription

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription)
    }

    /// Hands out the values in the order they arrived; ends when the subscription does.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline let subscription: NotificationSubscription
        @usableFromInline var batch = NotificationBatch()
        @usableFromInline var index = 0
        @usableFromInline var done = false

        init(subscription: NotificationSubscription) {
            self.subscription = subscription
        }

        public mutating func next() async throws -> GATTNotification? {
            try await next(isolation: nil)
        }

        /// What `for try await` calls. A value already in the batch is returned right
        /// here, inlined into the caller's loop: an out-of-line call would switch to
        /// the callee's executor and back, and with a task executor preference each
        /// switch takes the task's status lock in the runtime, twice per value.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> GATTNotification? {
            if index < batch.count {
                defer { index += 1 }
                return batch.notification(at: index)
            }
            return try await refill(isolation: actor)
        }

        /// The batch is used up: the next one from the channel, or the end.
        @usableFromInline
        mutating func refill(isolation actor: isolated (any Actor)?) async throws -> GATTNotification? {
            guard !done else { return nil }
            if Task.isCancelled {
                done = true
                subscription.end()
                return nil
            }
            batch.removeAll()
            index = 0
            switch await subscription.channel.take(into: &batch, isolation: actor) {
            case .values:
                index = 1
                return batch.notification(at: 0)
            case let .ended(error):
                done = true
                if let error { throw error }
                return nil
            case .cancelled:
                done = true
                subscription.end()
                return nil
            }
        }
    }
}

/// Owns a stream's listener on the loop: ending it (task cancelled, or the last stream
/// or iterator released) runs the clean-up once.
@usableFromInline
final class NotificationSubscription: Sendable {
    let channel: NotificationChannel
    /// Called once with true when the consumer left before the loop ended the stream.
    private let onEnd: Mutex<(@Sendable (_ cancelled: Bool) -> Void)?>

    init(channel: NotificationChannel, onEnd: @escaping @Sendable (_ cancelled: Bool) -> Void) {
        self.channel = channel
        self.onEnd = Mutex(onEnd)
    }

    deinit { end() }

    func end() {
        guard let onEnd = onEnd.withLock({ body -> (@Sendable (Bool) -> Void)? in
            defer { body = nil }
            return body
        }) else { return }
        onEnd(!channel.isFinished)
    }
}
