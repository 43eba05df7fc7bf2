import SwiftATTCore

/// An HCI ACL data packet: a connection handle, the fragment's place in an L2CAP PDU,
/// and the fragment's bytes. Core 5.4 Vol 4 Part E §5.4.2.
public struct ACLDataPacket: Sendable, Hashable, ByteEncodable {
    /// Packet_Boundary_Flag: where this fragment sits in its L2CAP PDU.
    public enum PacketBoundary: UInt8, Sendable, Hashable {
        /// First fragment of a non-automatically-flushable PDU (host to controller on LE).
        case firstNonFlushable = 0b00
        /// A continuation fragment.
        case continuing = 0b01
        /// First fragment of an automatically-flushable PDU (controller to host on LE).
        case firstFlushable = 0b10
        /// A complete L2CAP PDU, automatically flushable (BR/EDR only; tolerated).
        case complete = 0b11

        /// Whether the fragment starts an L2CAP PDU.
        public var isStart: Bool { self != .continuing }
    }

    /// The 12-bit connection handle.
    public var handle: UInt16
    /// Packet_Boundary_Flag: the first fragment of a frame, or a continuation.
    public var packetBoundary: PacketBoundary
    /// Broadcast_Flag, 0 for LE point-to-point traffic.
    public var broadcast: UInt8
    /// The fragment: a view into the parsed bytes.
    public var data: ArraySlice<UInt8>

    /// A fragment for connection `handle` carrying `data`.
    public init(handle: UInt16, packetBoundary: PacketBoundary, broadcast: UInt8 = 0, data: ArraySlice<UInt8>) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast & 0b11
        self.data = data
    }

    /// Parses a packet without its H4 indicator: the 4-byte header then the data.
    /// Longer-than-buffer packets are accepted (controllers send them; see BENCH.md).
    public init(parsing bytes: ArraySlice<UInt8>) throws(HCIDecodingError) {
        guard bytes.count >= 4 else { throw .truncated("ACL data packet header", need: 4, have: bytes.count) }
        let header = bytes.littleEndianUInt16(at: 0)
        let length = Int(bytes.littleEndianUInt16(at: 2))
        guard bytes.count - 4 == length else {
            throw .lengthMismatch("ACL data packet", declared: length, have: bytes.count - 4)
        }
        handle = header & 0x0FFF
        packetBoundary = PacketBoundary(rawValue: UInt8((header >> 12) & 0b11))!
        broadcast = UInt8(header >> 14)
        data = bytes.bytes(from: 4)
    }

    public var encodedLength: Int { 4 + data.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(handle | UInt16(packetBoundary.rawValue) << 12 | UInt16(broadcast) << 14)
        writer.write(UInt16(truncatingIfNeeded: data.count))
        writer.write(data)
    }
}
