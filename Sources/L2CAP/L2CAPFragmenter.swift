import BluetoothCore
import HCI

/// Splits an outgoing L2CAP frame into ACL packets that fit the controller's buffer.
/// Core 5.4 Vol 3 Part A §7.2: the first packet is marked "first, non-automatically-
/// flushable" (LE hosts use only that), the rest "continuing".
public enum L2CAPFragmenter {
    /// The frame's basic header and payload in one array, cut into `bufferLength`-sized
    /// views: one allocation per frame, none per fragment.
    public static func fragments(channel: UInt16, payload: some Collection<UInt8>, handle: UInt16, bufferLength: Int) -> [ACLDataPacket] {
        var frame: [UInt8] = []
        frame.reserveCapacity(4 + payload.count)
        frame.append(littleEndian: UInt16(truncatingIfNeeded: payload.count))
        frame.append(littleEndian: channel)
        frame.append(contentsOf: payload)
        let size = max(1, bufferLength)
        var packets: [ACLDataPacket] = []
        packets.reserveCapacity((frame.count + size - 1) / size)
        var offset = 0
        while offset < frame.count {
            let end = min(frame.count, offset + size)
            packets.append(ACLDataPacket(handle: handle, packetBoundary: offset == 0 ? .firstNonFlushable : .continuing, data: frame[offset..<end]))
            offset = end
        }
        return packets
    }
}
