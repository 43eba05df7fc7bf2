/// The SDUs a credit-based channel receives: `for try await sdu in channel.sdus`.
///
/// The loop hands SDUs over a batch at a time (`SDUInbox`); an SDU counts as consumed —
/// its credits may go back to the peer — once the iterator has moved past it and asks
/// for more, so a reader that stops holds the peer to its window. Ends when the channel
/// is closed; throws `L2CAPChannelError` when the link went down or the peer broke a
/// flow-control rule. Cancelling the iterating task ends the iteration (the channel
/// stays open).
public struct L2CAPSDUStream: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = L2CAPChannelError

    let channel: L2CAPChannel

    public func makeAsyncIterator() -> Iterator { Iterator(channel: channel) }

    /// Hands out the SDUs in the order they arrived; throws when the channel fails.
    public struct Iterator: AsyncIteratorProtocol {
        let channel: L2CAPChannel
        var batch: [[UInt8]] = []
        var index = 0
        var done = false

        init(channel: L2CAPChannel) {
            self.channel = channel
        }

        public mutating func next() async throws(L2CAPChannelError) -> [UInt8]? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(L2CAPChannelError) -> [UInt8]? {
            if index < batch.count {
                defer { index += 1 }
                return batch[index]
            }
            guard !done else { return nil }
            // The batch handed out so far has been read: its credits go back.
            if !batch.isEmpty { channel.consumed(batch.count) }
            batch.removeAll(keepingCapacity: true)
            index = 0
            switch await channel.inbox.take(into: &batch, isolation: actor) {
            case .sdus:
                index = 1
                return batch[0]
            case let .ended(error):
                done = true
                if let error { throw error }
                return nil
            case .cancelled:
                done = true
                return nil
            }
        }
    }
}
