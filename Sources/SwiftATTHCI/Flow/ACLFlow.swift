import SwiftATTCore

/// Host-to-controller ACL flow control: send only while the controller has a free data
/// buffer, count buffers per connection, and give them back on Number Of Completed
/// Packets. Core 5.4 Vol 4 Part E §4.1.1.
///
/// Connections take turns (round robin), so one busy link cannot starve another. On
/// disconnection the controller frees that connection's buffers (§7.7.5), and its queue
/// is dropped. Pure state: the caller sends what `dequeue` returns.
///
/// Packets wait already encoded (header and data, as the transport sends them), and the
/// connections are a short array searched in order rather than dictionaries, so that
/// enqueueing, dequeueing and crediting a packet — on the send path of every
/// notification — allocates nothing; updating a queue held as a dictionary's value does
/// not stay allocation-free (Documentation/Benchmarks.md).
public struct ACLFlow: Sendable {
    /// The controller's LE ACL buffer count (LE Read Buffer Size, or Read Buffer Size).
    public let bufferCount: Int
    /// The largest ACL data payload the controller accepts per packet.
    public let bufferLength: Int
    /// Buffers not occupied by packets the controller has not yet reported done.
    public private(set) var available: Int
    /// Connections with packets queued or in flight; one entry each, dropped when idle.
    var links: [Link] = []
    /// The entry of `links` whose packet goes next.
    var turn = 0

    struct Link: Sendable {
        let handle: UInt16
        var queue = FIFOQueue<ArraySlice<UInt8>>()
        var inFlight = 0

        init(handle: UInt16) { self.handle = handle }

        var isIdle: Bool { inFlight == 0 && queue.isEmpty }
    }

    /// Flow for a controller with `bufferCount` ACL buffers of `bufferLength` octets (each at least
    /// 1).
    public init(bufferCount: Int, bufferLength: Int) {
        self.bufferCount = max(1, bufferCount)
        self.bufferLength = max(1, bufferLength)
        available = self.bufferCount
    }

    /// Packets waiting for a buffer, over all connections.
    public var queuedCount: Int { links.reduce(0) { $0 + $1.queue.count } }

    /// Packets of `handle` waiting for a buffer.
    public func queuedCount(on handle: UInt16) -> Int {
        guard let i = index(of: handle) else { return 0 }
        return links[i].queue.count
    }

    /// Packets sent on `handle` and not yet completed.
    public func inFlight(on handle: UInt16) -> Int {
        guard let i = index(of: handle) else { return 0 }
        return links[i].inFlight
    }

    /// Queues packets (already fragmented to `bufferLength`) for a connection.
    public mutating func enqueue(_ packets: [ACLDataPacket], on handle: UInt16) {
        for packet in packets { enqueue(encoded: packet.encoded()[...], on: handle) }
    }

    /// Queues one packet already encoded as the transport sends it (the 4-octet ACL
    /// header, whose handle is `handle`, and at most `bufferLength` octets of data), as
    /// `L2CAPFragmenter.encodePackets` writes them.
    public mutating func enqueue(encoded packet: ArraySlice<UInt8>, on handle: UInt16) {
        let i = index(of: handle) ?? {
            links.append(Link(handle: handle))
            return links.count - 1
        }()
        links[i].queue.append(packet)
    }

    /// The packets that may be sent now, taking connections in turn.
    public mutating func dequeue() -> [HCIPacket] {
        var out: [HCIPacket] = []
        dequeue(into: &out)
        return out
    }

    /// Appends the packets that may be sent now to `out` (which the caller reuses, so
    /// that a batch costs no allocation), taking connections in turn. Returns how many.
    @discardableResult
    public mutating func dequeue(into out: inout [HCIPacket]) -> Int {
        var sent = 0
        // Stops once a whole round found every queue empty.
        var emptyInARow = 0
        while available > 0, emptyInARow < links.count {
            if turn >= links.count { turn = 0 }
            if let packet = links[turn].queue.popFirst() {
                out.append(HCIPacket(type: .aclData, bytes: packet))
                links[turn].inFlight += 1
                available -= 1
                sent += 1
                emptyInARow = 0
            } else {
                emptyInARow += 1
            }
            turn += 1
        }
        return sent
    }

    /// Number Of Completed Packets for one connection. Counts beyond what was in flight
    /// (a confused controller) are ignored rather than inflating the buffer count.
    public mutating func completed(_ count: Int, on handle: UInt16) {
        guard let i = index(of: handle) else { return }
        let n = min(count, links[i].inFlight)
        guard n > 0 else { return }
        links[i].inFlight -= n
        available = min(bufferCount, available + n)
        if links[i].isIdle { remove(at: i) }
    }

    /// The connection is gone: its buffers are free and its queue is dropped.
    /// Returns how many queued packets were discarded.
    @discardableResult
    public mutating func disconnected(_ handle: UInt16) -> Int {
        guard let i = index(of: handle) else { return 0 }
        available = min(bufferCount, available + links[i].inFlight)
        let dropped = links[i].queue.count
        remove(at: i)
        return dropped
    }

    func index(of handle: UInt16) -> Int? {
        links.firstIndex { $0.handle == handle }
    }

    /// Drops an entry, keeping the turn on the connection that was due.
    private mutating func remove(at i: Int) {
        links.remove(at: i)
        if turn > i { turn -= 1 }
    }
}
