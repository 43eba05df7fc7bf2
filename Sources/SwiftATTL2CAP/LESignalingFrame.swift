import SwiftATTCore

/// A decoded command with its identifier, as one signaling frame encodes it: code,
/// identifier, length, data (Part A §4). Written straight into the caller's buffer
/// (`ByteEncodable`), so the channel layer can put a command into ACL packets without an
/// array of its own.
public struct LESignalingFrame: Sendable, Hashable, ByteEncodable {
    /// Matches a response to its request; 0x00 is never used.
    public var identifier: UInt8
    /// The command.
    public var command: LESignalingCommand

    /// A frame carrying `command` under `identifier`.
    public init(identifier: UInt8, command: LESignalingCommand) {
        self.identifier = identifier
        self.command = command
    }

    /// Parses a whole frame: the packet, then its command.
    public init(parsing bytes: ArraySlice<UInt8>) throws(LESignalingFrameError) {
        let packet: LESignalingPacket
        do {
            packet = try LESignalingPacket(parsing: bytes)
        } catch {
            throw .packet(error)
        }
        do {
            command = try LESignalingCommand(packet)
        } catch {
            throw .command(identifier: packet.identifier, error)
        }
        identifier = packet.identifier
    }

    public var encodedLength: Int { LESignalingPacket.headerLength + command.dataLength }

    public func encode(into writer: inout ByteWriter) {
        let length = command.dataLength
        writer.write(command.code.rawValue)
        writer.write(identifier)
        writer.write(UInt16(truncatingIfNeeded: length))
        command.encodeData(into: &writer)
    }
}
