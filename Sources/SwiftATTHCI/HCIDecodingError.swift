/// Why bytes are not a valid HCI packet (or capture record), with what and where.
public enum HCIDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the named structure needs.
    case truncated(String, need: Int, have: Int)
    /// A header's length field disagrees with the bytes present.
    case lengthMismatch(String, declared: Int, have: Int)
    /// A packet indicator that is not 0x01–0x05.
    case unknownPacketType(UInt8)
    /// A capture file that does not start with `btsnoop\0`.
    case notBTSnoop
    /// A btsnoop version or datalink this reader does not handle.
    case unsupportedBTSnoop(version: UInt32, datalink: UInt32)
    /// A value that breaks the spec's rules for a field.
    case invalidField(String, value: Int)

    public var description: String {
        switch self {
        case let .truncated(what, need, have):
            return "\(what) truncated: needs \(need) bytes, has \(have)"
        case let .lengthMismatch(what, declared, have):
            return "\(what): length field says \(declared) bytes, \(have) present"
        case let .unknownPacketType(t):
            return "unknown HCI packet type 0x\(String(t, radix: 16))"
        case .notBTSnoop:
            return "not a btsnoop file (no 'btsnoop\\0' header)"
        case let .unsupportedBTSnoop(version, datalink):
            return "unsupported btsnoop version \(version) / datalink \(datalink) (expected version 1, datalink 1001 or 1002)"
        case let .invalidField(what, value):
            return "invalid \(what): \(value)"
        }
    }
}
