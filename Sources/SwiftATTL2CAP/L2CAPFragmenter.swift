import SwiftATTCore
import SwiftATTHCI

/// Splits an outgoing L2CAP frame into ACL packets that fit the controller's buffer.
/// Core 5.4 Vol 3 Part A §7.2: the first packet is marked "first, non-automatically-
/// flushable" (LE hosts use only that), the rest "continuing".
public enum L2CAPFragmenter {
    /// The frame (basic header and payload) as encoded HCI ACL data packets (4-octet ACL
    /// header and fragment each, no H4 indicator), handed to `emit` in order.
    ///
    /// This is the host's send path. A frame that fits one buffer (every notification
    /// up to the buffer length) is written once, straight from `payload`'s encoder into
    /// its packet: one allocation per frame and no intermediate copy of the PDU.
    @inlinable
    public static func encodePackets(channel: UInt16, payload: some ByteEncodable, handle: UInt16, bufferLength: Int,
                                     emit: (ArraySlice<UInt8>) -> Void) {
        let payloadLength = payload.encodedLength
        let frameLength = 4 + payloadLength
        let size = max(1, bufferLength)
        if frameLength <= size {
            // Written on the stack, then copied into an array reserved to size, rather
            // than built in place with `Array(unsafeUninitializedCapacity:)`: that
            // initializer runs unspecialized here and looks up the array's generic
            // metadata on every packet (Documentation/Benchmarks.md).
            var packet: [UInt8] = []
            packet.reserveCapacity(4 + frameLength)
            withUnsafeTemporaryAllocation(byteCount: 4 + frameLength, alignment: 1) { buffer in
                var writer = ByteWriter(buffer)
                writer.write(aclHeader(handle: handle, boundary: .firstNonFlushable))
                writer.write(UInt16(truncatingIfNeeded: frameLength))
                writer.write(UInt16(truncatingIfNeeded: payloadLength))
                writer.write(channel)
                payload.encode(into: &writer)
                packet.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<writer.count]))
            }
            emit(packet[...])
            return
        }
        // Longer frames: the frame once, then every packet of it in one array.
        let frame = [UInt8](unsafeUninitializedCapacity: frameLength) { buffer, initialized in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            writer.write(UInt16(truncatingIfNeeded: payloadLength))
            writer.write(channel)
            payload.encode(into: &writer)
            initialized = writer.count
        }
        let count = (frameLength + size - 1) / size
        let packets = [UInt8](unsafeUninitializedCapacity: frameLength + 4 * count) { buffer, initialized in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            var offset = 0
            while offset < frameLength {
                let end = min(frameLength, offset + size)
                writer.write(aclHeader(handle: handle, boundary: offset == 0 ? .firstNonFlushable : .continuing))
                writer.write(UInt16(truncatingIfNeeded: end - offset))
                writer.write(frame[offset..<end])
                offset = end
            }
            initialized = writer.count
        }
        var start = 0
        var offset = 0
        while offset < frameLength {
            let end = min(frameLength, offset + size)
            let length = 4 + end - offset
            emit(packets[start..<(start + length)])
            start += length
            offset = end
        }
    }

    /// The first header field of an ACL packet: handle, Packet_Boundary_Flag, no broadcast.
    @inlinable
    static func aclHeader(handle: UInt16, boundary: ACLDataPacket.PacketBoundary) -> UInt16 {
        (handle & 0x0FFF) | UInt16(boundary.rawValue) << 12
    }
}

/// Bytes already encoded, as a payload for `L2CAPFragmenter.encodePackets` (an LE
/// signaling reply, a PDU the ATT bearer encoded).
public struct EncodedBytes: ByteEncodable {
    /// The encoded bytes.
    public let bytes: ArraySlice<UInt8>

    /// Bytes already encoded, as a view.
    @inlinable public init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    /// Bytes already encoded.
    @inlinable public init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    @inlinable public var encodedLength: Int { bytes.count }
    @inlinable public func encode(into writer: inout ByteWriter) { writer.write(bytes) }
}
