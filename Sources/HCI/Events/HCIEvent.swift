/// Any HCI event swift-att understands, decoded by event code (and LE subevent code).
/// Unknown events are kept raw so a host can log and ignore them.
public enum HCIEvent: Sendable, Hashable {
    case commandComplete(CommandComplete)
    case commandStatus(CommandStatus)
    /// An event code swift-att does not decode.
    case unknown(HCIEventPacket)

    /// Decodes an event packet's parameters by its code.
    public init(_ packet: HCIEventPacket) throws(HCIDecodingError) {
        switch packet.code {
        case CommandComplete.code: self = .commandComplete(try CommandComplete(parameters: packet.parameters))
        case CommandStatus.code: self = .commandStatus(try CommandStatus(parameters: packet.parameters))
        default: self = .unknown(packet)
        }
    }

    /// Parses an event packet (without its H4 indicator) and decodes it.
    public init(parsing bytes: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try self.init(HCIEventPacket(parsing: bytes))
    }
}
