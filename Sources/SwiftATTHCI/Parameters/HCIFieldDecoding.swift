import SwiftATTCore

/// Reading a coded field into its typed value, failing with the field's name and the
/// octet found when the spec reserves that value.
@usableFromInline
enum HCIField {
    @inlinable
    static func decode<T: RawRepresentable>(
        _ type: T.Type, _ raw: T.RawValue, _ what: @autoclosure () -> String
    ) throws(HCIDecodingError) -> T where T.RawValue: BinaryInteger {
        guard let value = T(rawValue: raw) else { throw .invalidField(what(), value: Int(raw)) }
        return value
    }

    /// A 0x00/0x01 field; anything else is reserved.
    @inlinable
    static func decodeBool(_ raw: UInt8, _ what: @autoclosure () -> String) throws(HCIDecodingError) -> Bool {
        switch raw {
        case 0: return false
        case 1: return true
        default: throw .invalidField(what(), value: Int(raw))
        }
    }

    /// An option set with no bits outside `known`.
    @inlinable
    static func decodeBits<T: OptionSet>(
        _ type: T.Type, _ raw: T.RawValue, known: T, _ what: @autoclosure () -> String
    ) throws(HCIDecodingError) -> T where T.RawValue: BinaryInteger {
        guard raw & ~known.rawValue == 0 else { throw .invalidField(what(), value: Int(raw)) }
        return T(rawValue: raw)
    }
}

extension ArraySlice<UInt8> {
    /// The six address octets at `offset`, as an address of the given kind: read as a
    /// 32-bit and a 16-bit field, with no slice of them made (a retain and a release)
    /// and no loop over it (every event that names a device carries one).
    @inlinable
    func address(at offset: Int, kind: BluetoothAddress.Kind) -> BluetoothAddress {
        BluetoothAddress(UInt64(littleEndianUInt32(at: offset)) | UInt64(littleEndianUInt16(at: offset &+ 4)) &<< 32,
                         kind: kind)
    }

    /// A signed octet (RSSI, TX power).
    @inlinable
    func int8(at offset: Int) -> Int8 { Int8(bitPattern: byte(at: offset)) }
}

extension HCIWire {
    /// A status-first return block checked with `checkReturn`; when an error status came
    /// with fewer octets than `length`, the block padded with zeros so every field reads 0.
    static func returnBlock(
        _ p: borrowing ArraySlice<UInt8>, _ what: @autoclosure () -> String, length: Int
    ) throws(HCIDecodingError) -> ArraySlice<UInt8> {
        try checkReturn(p, what(), length: length)
        if p.count >= length { return copy p }
        return (Array(copy p) + repeatElement(0, count: length - p.count))[...]
    }
}
