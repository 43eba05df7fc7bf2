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
    private var writeEnd: Int32
    private let link: LoopbackLink
    private let index: Int
    /// Swapped with the controller's inbox on each receive: no allocation per batch.
    private var batch: [Delivery] = []
    private var drain = [UInt8](repeating: 0, count: 64)

    init(link: LoopbackLink, index: Int) throws(TransportError) {
        name = "loopback:\(index)"
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall("pipe", .current, context: "loopback:\(index)") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
        self.link = link
        self.index = index
        do {
            try link.update { (s: inout LinkState) throws(TransportError) in try s.attach(index, wake: ends[1]) }
        } catch {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            fileDescriptor = -1
            writeEnd = -1
            throw error
        }
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
        Glibc.close(fileDescriptor)
        Glibc.close(writeEnd)
        fileDescriptor = -1
        writeEnd = -1
    }
}
