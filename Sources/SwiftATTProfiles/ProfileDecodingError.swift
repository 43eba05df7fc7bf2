/// Why a profile value's octets could not be decoded: which value, what is wrong, and
/// where. Offsets count from the value's first octet.
public enum ProfileDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value is shorter than the fields its flags announce.
    case truncated(value: String, need: Int, have: Int)
    /// The value's length breaks its rule (an odd number of RR-interval octets, a light
    /// command that is not two octets).
    case invalidLength(value: String, length: Int, expected: String)
    /// A field holds a number the profile does not define.
    case invalidField(value: String, field: String, byte: UInt8, offset: Int)

    public var description: String {
        switch self {
        case let .truncated(value, need, have):
            return "\(value): truncated: need \(need) octets, have \(have)"
        case let .invalidLength(value, length, expected):
            return "\(value): \(length) octets, expected \(expected)"
        case let .invalidField(value, field, byte, offset):
            return "\(value): \(field) 0x\(Self.hex(byte)) at offset \(offset) is not defined"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let s = String(byte, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
}
