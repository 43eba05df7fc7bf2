/// Appending little-endian fields to a growable byte array.
///
/// For building wire forms off the hot path (list construction, tests, tools); hot
/// encoders write through `ByteWriter` into a pre-sized buffer instead.
extension Array<UInt8> {
    /// Appends a 16-bit field, least significant octet first.
    @inlinable
    public mutating func append(littleEndian value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value &>> 8))
    }

    /// Appends a 32-bit field, least significant octet first.
    @inlinable
    public mutating func append(littleEndian value: UInt32) {
        append(littleEndian: UInt16(truncatingIfNeeded: value))
        append(littleEndian: UInt16(truncatingIfNeeded: value &>> 16))
    }
}
