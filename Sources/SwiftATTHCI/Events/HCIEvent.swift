import SwiftATTCore

/// Any HCI event swift-att understands, decoded by event code (and LE subevent code).
/// Unknown events are kept raw so a host can log and ignore them.
public enum HCIEvent: Sendable, Hashable, ByteEncodable {
    /// Disconnection Complete (0x05).
    case disconnectionComplete(DisconnectionComplete)
    /// Encryption Change (0x08).
    case encryptionChange(EncryptionChange)
    /// Read Remote Version Information Complete (0x0C).
    case readRemoteVersionInformationComplete(ReadRemoteVersionInformationComplete)
    /// Command Complete (0x0E).
    case commandComplete(CommandComplete)
    /// Command Status (0x0F).
    case commandStatus(CommandStatus)
    /// Hardware Error (0x10).
    case hardwareError(HardwareError)
    /// Number Of Completed Packets (0x13).
    case numberOfCompletedPackets(NumberOfCompletedPackets)
    /// Encryption Key Refresh Complete (0x30).
    case encryptionKeyRefreshComplete(EncryptionKeyRefreshComplete)
    /// LE Meta (0x3E): one of the LE subevents.
    case leMeta(LEMetaEvent)
    /// An event code swift-att does not decode.
    case unknown(HCIEventPacket)

    /// Decodes an event packet's parameters by its code.
    public init(_ packet: HCIEventPacket) throws(HCIDecodingError) {
        let p = packet.parameters
        switch packet.code {
        case DisconnectionComplete.code: self = .disconnectionComplete(try .init(parameters: p))
        case EncryptionChange.code: self = .encryptionChange(try .init(parameters: p))
        case ReadRemoteVersionInformationComplete.code: self = .readRemoteVersionInformationComplete(try .init(parameters: p))
        case CommandComplete.code: self = .commandComplete(try .init(parameters: p))
        case CommandStatus.code: self = .commandStatus(try .init(parameters: p))
        case HardwareError.code: self = .hardwareError(try .init(parameters: p))
        case NumberOfCompletedPackets.code: self = .numberOfCompletedPackets(try .init(parameters: p))
        case EncryptionKeyRefreshComplete.code: self = .encryptionKeyRefreshComplete(try .init(parameters: p))
        case LEMetaEvent.code: self = .leMeta(try .init(parameters: p))
        default: self = .unknown(packet)
        }
    }

    /// Parses an event packet (without its H4 indicator) and decodes it.
    public init(parsing bytes: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try self.init(HCIEventPacket(parsing: bytes))
    }

    /// The decoded event, `nil` for an unknown one.
    public var event: (any HCIEventParameters)? {
        switch self {
        case let .disconnectionComplete(e): return e
        case let .encryptionChange(e): return e
        case let .readRemoteVersionInformationComplete(e): return e
        case let .commandComplete(e): return e
        case let .commandStatus(e): return e
        case let .hardwareError(e): return e
        case let .numberOfCompletedPackets(e): return e
        case let .encryptionKeyRefreshComplete(e): return e
        case let .leMeta(e): return e
        case .unknown: return nil
        }
    }

    /// The event as a packet (without its H4 indicator).
    public var packet: HCIEventPacket {
        if case let .unknown(packet) = self { return packet }
        return event?.packet ?? HCIEventPacket(code: 0, parameters: [])
    }

    /// The event code.
    public var code: UInt8 {
        if case let .unknown(packet) = self { return packet.code }
        return event.map { type(of: $0).code } ?? 0
    }

    /// Code, length and parameters; callers keep parameters within 255 octets.
    public var encodedLength: Int {
        if case let .unknown(packet) = self { return packet.encodedLength }
        return 2 + (event?.parametersLength ?? 0)
    }

    public func encode(into writer: inout ByteWriter) {
        if case let .unknown(packet) = self { return packet.encode(into: &writer) }
        guard let event else { return }
        writer.write(type(of: event).code)
        writer.write(UInt8(truncatingIfNeeded: event.parametersLength))
        event.encodeParameters(into: &writer)
    }
}
