import BluetoothCore

/// Host-to-controller ACL flow control: send only while the controller has a free data
/// buffer, count buffers per connection, and give them back on Number Of Completed
/// Packets. Core 5.4 Vol 4 Part E §4.1.1.
///
/// Connections take turns (round robin), so one busy link cannot starve another. On
/// disconnection the controller frees that connection's buffers (§7.7.5), and its queue
/// is dropped. Pure state: the caller sends what `dequeue` returns.
public struct ACLFlow: Sendable {
    /// The controller's LE ACL buffer count (LE Read Buffer Size, or Read Buffer Size).
    public let bufferCount: Int
    /// The largest ACL data payload the controller accepts per packet.
    public let bufferLength: Int
    /// Buffers not occupied by packets the controller has not yet reported done.
    public private(set) var available: Int
    var inFlight: [UInt16: Int] = [:]
    var queues: [UInt16: FIFOQueue<ACLDataPacket>] = [:]
    var order: [UInt16] = []
    var turn = 0

    public init(bufferCount: Int, bufferLength: Int) {
        self.bufferCount = max(1, bufferCount)
        self.bufferLength = max(1, bufferLength)
        available = self.bufferCount
    }

    /// Packets waiting for a buffer, over all connections.
    public var queuedCount: Int { queues.values.reduce(0) { $0 + $1.count } }

    /// Packets of `handle` waiting for a buffer.
    public func queuedCount(on handle: UInt16) -> Int { queues[handle]?.count ?? 0 }

    /// Packets sent on `handle` and not yet completed.
    public func inFlight(on handle: UInt16) -> Int { inFlight[handle] ?? 0 }

    /// Queues packets (already fragmented to `bufferLength`) for a connection.
    public mutating func enqueue(_ packets: [ACLDataPacket], on handle: UInt16) {
        guard !packets.isEmpty else { return }
        if queues[handle] == nil { order.append(handle) }
        queues[handle, default: FIFOQueue<ACLDataPacket>()].append(contentsOf: packets)
    }

    /// The packets that may be sent now, taking connections in turn.
    public mutating func dequeue() -> [ACLDataPacket] {
        var out: [ACLDataPacket] = []
        while available > 0, !order.isEmpty {
            turn %= order.count
            let handle = order[turn]
            // Taken in place (the dictionary's storage is not copied per packet).
            guard let packet = queues[handle]?.popFirst() else {
                queues[handle] = nil
                order.remove(at: turn)
                continue
            }
            out.append(packet)
            available -= 1
            inFlight[handle, default: 0] += 1
            if queues[handle]?.isEmpty ?? true {
                queues[handle] = nil
                order.remove(at: turn)
            } else {
                turn += 1
            }
        }
        return out
    }

    /// Number Of Completed Packets for one connection. Counts beyond what was in flight
    /// (a confused controller) are ignored rather than inflating the buffer count.
    public mutating func completed(_ count: Int, on handle: UInt16) {
        let n = min(count, inFlight[handle] ?? 0)
        guard n > 0 else { return }
        inFlight[handle] = (inFlight[handle] ?? 0) - n
        if inFlight[handle] == 0 { inFlight[handle] = nil }
        available = min(bufferCount, available + n)
    }

    /// The connection is gone: its buffers are free and its queue is dropped.
    /// Returns how many queued packets were discarded.
    @discardableResult
    public mutating func disconnected(_ handle: UInt16) -> Int {
        available = min(bufferCount, available + (inFlight.removeValue(forKey: handle) ?? 0))
        let dropped = queues.removeValue(forKey: handle)?.count ?? 0
        if let i = order.firstIndex(of: handle) {
            order.remove(at: i)
            if turn > i { turn -= 1 }
        }
        return dropped
    }
}
