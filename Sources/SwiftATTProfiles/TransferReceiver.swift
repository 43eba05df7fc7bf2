/// The receiving side of seed 000's transfer: appends each notification's octets until
/// one is exactly "EOM", then hands over the text and starts afresh.
///
/// The seed compares the chunk, decoded as UTF-8, with "EOM"; comparing octets is the
/// same test. The text is decoded once, whole, so a character split across two chunks
/// comes out right.
///
/// Inlinable, so that a caller's `receive` is compiled for the collection it passes: the
/// unspecialized generic looked up the collection's metadata and witnesses on every
/// notification (thousands of instructions each in `central transfer`).
public struct TransferReceiver: Hashable, Sendable {
    @usableFromInline var octets: [UInt8] = []
    @usableFromInline var chunkCount = 0

    /// The octets received since the last "EOM".
    public var received: [UInt8] { octets }
    /// Data chunks received since the last "EOM".
    public var chunks: Int { chunkCount }

    /// A receiver that has received nothing.
    public init() {}

    /// Takes one notification's value; returns the message when it is "EOM".
    @inlinable
    public mutating func receive(_ chunk: some Collection<UInt8>) -> [UInt8]? {
        if chunk.count == TransferProfile.endOfMessage.count && chunk.elementsEqual(TransferProfile.endOfMessage) {
            defer {
                octets = []
                chunkCount = 0
            }
            return octets
        }
        octets.append(contentsOf: chunk)
        chunkCount += 1
        return nil
    }

    /// `receive(_:)`, the message as UTF-8 text (invalid sequences replaced).
    @inlinable
    public mutating func receiveText(_ chunk: some Collection<UInt8>) -> String? {
        receive(chunk).map { String(decoding: $0, as: UTF8.self) }
    }
}
