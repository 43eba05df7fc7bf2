#if canImport(Glibc)
import Glibc
#endif
import HCI
import Transport

/// A host's end of a `LoopbackLink` controller: packets are handed over in memory, and a
/// pipe makes the host's `poll` wake when some are waiting (one byte per batch).
final class LoopbackTransport: HCITransport {
    let name: String
    private(set) var fileDescriptor: Int32
    /// Held by the link too while it is attached or waking this host (`WakePipe`).
    private var wakePipe: WakePipe?
    private let link: LoopbackLink
    private let index: Int
    /// Swapped with the controller's inbox on each receive: no allocation per batch.
    private var batch: [Delivery] = []
    private var drain = [UInt8](repeating: 0, count: 64)

    init(link: LoopbackLink, index: Int) throws(TransportError) {
        name = "loopback:\(index)"
        let wakePipe = try WakePipe(name: name)
        try link.update { (s: inout LinkState) throws(TransportError) in try s.attach(index, wake: wakePipe) }
        self.wakePipe = wakePipe
        fileDescriptor = wakePipe.readEnd
        self.link = link
        self.index = index
    }

    deinit { close() }

    func receive(_ handler: (HCIPacket) -> Void) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        // Empty the pipe first: a packet queued after this read writes a new byte.
        while drain.withUnsafeMutableBytes({ read(fileDescriptor, $0.baseAddress!, $0.count) }) == drain.count {}
        let index = self.index
        // One lock for both: the packets leave the controller for the host here, which
        // frees their senders' buffers (the hosts' loops contend for this lock).
        var batch = self.batch
        self.batch = []
        link.update { s in
            s.take(index, into: &batch)
            s.credit(batch)
        }
        for delivery in batch { handler(delivery.packet) }
        batch.removeAll(keepingCapacity: true)
        self.batch = batch
    }

    func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let index = self.index
        link.update { $0.receive(packet, from: index) }
    }

    /// Every packet under one lock, and one wake-up for the receiving host: a burst
    /// arrives as a batch instead of waking the other loop once per packet.
    func send(contentsOf packets: [HCIPacket]) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let index = self.index
        link.update { s in
            for packet in packets { s.receive(packet, from: index) }
        }
    }

    func close() {
        guard fileDescriptor >= 0 else { return }
        let index = self.index
        link.update { $0.detach(index) }
        wakePipe = nil
        fileDescriptor = -1
    }
}
