import SwiftATTCore

/// The return parameters of Read Controller Index List: `count(2)` then `count` indexes.
///
/// An adapter is listed only once the kernel has finished its own setup of it (the
/// HCI_SETUP and HCI_CONFIG phases) and while no program holds it on the user channel,
/// which is what makes the list the safe moment to take an adapter down.
public struct ManagementIndexList: Hashable, Sendable {
    /// The listed adapters' indexes: 0 for `hci0`.
    public var indexes: [UInt16]

    /// A list of `indexes` (for tests and emulated kernels).
    public init(indexes: [UInt16]) { self.indexes = indexes }

    /// Decodes the reply's return parameters; fails if the count disagrees with the length.
    public init(returnParameters p: ArraySlice<UInt8>) throws(ManagementDecodingError) {
        guard p.count >= 2 else { throw .truncated("Read Controller Index List reply", need: 2, have: p.count) }
        let count = Int(p.littleEndianUInt16(at: 0))
        guard p.count == 2 + 2 * count else {
            throw .lengthMismatch("Read Controller Index List reply (\(count) indexes)", declared: 2 + 2 * count, have: p.count)
        }
        indexes = (0..<count).map { p.littleEndianUInt16(at: 2 + 2 * $0) }
    }

    /// The return parameters' wire form.
    public func encoded() -> [UInt8] {
        var bytes = [UInt8(truncatingIfNeeded: indexes.count), UInt8(truncatingIfNeeded: indexes.count >> 8)]
        for index in indexes { bytes += [UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8)] }
        return bytes
    }
}
