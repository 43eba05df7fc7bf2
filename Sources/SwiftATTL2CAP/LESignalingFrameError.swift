/// Why octets are not an LE signaling frame: the header, or the command in it.
public enum LESignalingFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Too short for the header, or a length field that disagrees: no identifier to answer.
    case packet(LESignalingPacket.DecodingError)
    /// The header parsed; the command did not. `identifier` is what an answer carries.
    case command(identifier: UInt8, LESignalingDecodingError)

    public var description: String {
        switch self {
        case let .packet(error): return error.description
        case let .command(identifier, error): return "\(error) (identifier \(LESignalingCode.hex(identifier)))"
        }
    }
}
