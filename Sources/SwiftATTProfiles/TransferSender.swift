/// The sending side of seed 000's transfer, as a state machine: the data in chunks of at
/// most `chunkSize` octets, then "EOM". The chunk size is the link's ATT_MTU−3
/// (`TransferProfile.chunkSize(mtu:)`) and may change between chunks, when an MTU
/// exchange or a new subscriber changes what fits in one notification.
///
/// It advances only when told the chunk it offered was accepted, exactly like the seed's
/// `sendData`: offer `pending` to `updateValue`; on true call `accepted()` and offer the
/// next; on false stop and offer the same chunk again at `.readyToUpdate`.
///
///     var sender = TransferSender(text: "Hello")
///     while let chunk = sender.pending, peripheral.updateValue(chunk, for: c) {
///         sender.accepted()
///     }
///
/// Empty data sends "EOM" alone (the seed would send nothing at all).
public struct TransferSender: Hashable, Sendable {
    /// Where the transfer stands.
    public enum State: Hashable, Sendable {
        /// The chunk starting at `offset` is next.
        case sendingData(offset: Int)
        /// Every chunk was accepted; "EOM" is next.
        case sendingEndOfMessage
        /// "EOM" was accepted: nothing is left.
        case finished
    }

    /// The octets to send.
    public let data: [UInt8]
    /// The largest chunk, in octets (at least 1).
    public private(set) var chunkSize: Int
    /// What is sent next.
    public private(set) var state: State
    /// Data chunks accepted so far ("EOM" not counted).
    public private(set) var chunksSent = 0

    /// `chunkSize` below 1 is taken as 1.
    public init(data: [UInt8], chunkSize: Int = TransferProfile.defaultChunkSize) {
        self.data = data
        self.chunkSize = max(1, chunkSize)
        state = data.isEmpty ? .sendingEndOfMessage : .sendingData(offset: 0)
    }

    /// A sender of `text` as UTF-8.
    public init(text: String, chunkSize: Int = TransferProfile.defaultChunkSize) {
        self.init(data: Array(text.utf8), chunkSize: chunkSize)
    }

    /// How many data chunks the whole transfer takes: those sent plus those left at the
    /// current chunk size.
    public var chunkCount: Int { chunksSent + (data.count - bytesSent + chunkSize - 1) / chunkSize }

    /// Sends the chunks from `pending` on in pieces of at most `size` octets (at least 1);
    /// what was sent stays sent.
    public mutating func resize(to size: Int) {
        chunkSize = max(1, size)
    }

    /// Octets of data accepted so far.
    public var bytesSent: Int {
        switch state {
        case let .sendingData(offset): return offset
        case .sendingEndOfMessage, .finished: return data.count
        }
    }

    /// Whether "EOM" has been accepted.
    public var isFinished: Bool { state == .finished }
    /// Whether `pending` is the end-of-message marker.
    public var isSendingEndOfMessage: Bool { state == .sendingEndOfMessage }

    /// What to offer now; `nil` once "EOM" was accepted.
    public var pending: [UInt8]? {
        switch state {
        case let .sendingData(offset): return Array(data[offset..<min(offset + chunkSize, data.count)])
        case .sendingEndOfMessage: return TransferProfile.endOfMessage
        case .finished: return nil
        }
    }

    /// The chunk `pending` gave was sent: move past it.
    public mutating func accepted() {
        switch state {
        case let .sendingData(offset):
            let end = min(offset + chunkSize, data.count)
            chunksSent += 1
            state = end >= data.count ? .sendingEndOfMessage : .sendingData(offset: end)
        case .sendingEndOfMessage:
            state = .finished
        case .finished:
            break
        }
    }
}
