import SwiftATTPDU

extension GATTClientDatabase {
    /// Applies an indication, if it is the server's Service Changed indication (Core 5.4
    /// Vol 3 Part G §7.1): drops the cached services in the changed range and returns
    /// what went and what to discover again. `nil` when `handle` is not the cached
    /// Service Changed characteristic's value handle (the indication is some other
    /// characteristic's). The bearer has already confirmed the indication.
    ///
    /// Throws `malformedResponse` when the value is not a start and an end handle
    /// (four octets, 0x0001 ≤ start ≤ end); the cache is then left as it was, and a
    /// careful client discovers everything again.
    public mutating func applyServiceChanged(handle: UInt16, value: some Collection<UInt8>) throws(GATTClientError) -> Invalidation? {
        guard handle == serviceChangedValueHandle else { return nil }
        return invalidate(try Self.serviceChangedRange(value, handle: handle))
    }

    /// Where a Service Changed value holds the affected range's ends (Part G §7.1).
    enum ServiceChangedField {
        static let startOfAffectedHandleRange = 0..<2
        static let endOfAffectedHandleRange = 2..<4
        static let valueLength = endOfAffectedHandleRange.upperBound
    }

    /// The affected handle range a Service Changed value carries: start, end, little-endian.
    public static func serviceChangedRange(_ value: some Collection<UInt8>, handle: UInt16) throws(GATTClientError) -> ClosedRange<UInt16> {
        typealias Field = ServiceChangedField
        let bytes = Array(value)[...]
        let opcode = ATTOpcode.handleValueIndication
        guard bytes.count == Field.valueLength else {
            throw .malformedResponse(.invalidValueLength(opcode, handle: handle, length: bytes.count, expected: [Field.valueLength]))
        }
        let start = bytes.littleEndianUInt16(at: Field.startOfAffectedHandleRange)
        let end = bytes.littleEndianUInt16(at: Field.endOfAffectedHandleRange)
        guard start != 0, start <= end else { throw .malformedResponse(.invalidGroup(opcode, start: start, end: end)) }
        return start...end
    }
}
