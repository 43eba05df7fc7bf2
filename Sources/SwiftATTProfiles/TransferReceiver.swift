/// The receiving side of seed 000's transfer: appends each notification's octets until
/// one is exactly "EOM", then hands over the text and starts afresh.
///
/// The seed compares the chunk, decoded as UTF-8, with "EOM"; comparing octets is the
/// same test. The text is decoded once, whole, so a character split across two chunks
/// comes out right.
public struct TransferReceiver: Hashable, Sendable {
    /// The octets received since the last "EOM".
    public private(set) var received: [UInt8] = []
    /// Data chunks received since the last "EOM".
    public private(set) var chunks = 0

    /// A receiver that has received nothing.
    public init() {}

    /// Takes one notification's value; returns the message when it is "EOM".
    public mutating func receive(_ chunk: some Collection<UInt8>) -> [UInt8]? {
        if chunk.elementsEqual(TransferProfile.endOfMessage) {
            defer {
                received = []
                chunks = 0
            }
            return received
        }
        received.append(contentsOf: chunk)
        chunks += 1
        return nil
    }

    /// `receive(_:)`, the message as UTF-8 text (invalid sequences replaced).
    public mutating func receiveText(_ chunk: some Collection<UInt8>) -> String? {
        receive(chunk).map { String(decoding: $0, as: UTF8.self) }
    }
}
