#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import SwiftATTTransport

/// A host's end of a `LoopbackLink` controller: packets are handed over in memory, and a
/// pipe makes the host's `poll` wake when some are waiting (one byte per batch, and none
/// while the host's loop is running: `prepareToWait`, `WakePipe`).
final class LoopbackTransport: HCITransport {
    let name: String
    private(set) var fileDescriptor: Int32
    /// Held by the link too while it is attached or waking this host (`WakePipe`).
    private var wakePipe: WakePipe?
    private let link: LoopbackLink
    private let index: Int
    /// Swapped with the controller's inbox on each receive: no allocation per batch.
    private var batch: [Delivery] = []
    /// Number Of Completed Packets buffers handled since the last receive, handed back
    /// to the link's pool under the next receive's lock.
    private var recycled: [[UInt8]] = []
    private var drain = [UInt8](repeating: 0, count: 64)
    /// Wake-up bytes read so far (`WakePipe.bytesDue` counts those written).
    private var bytesRead = 0
    /// The bytes of the command being sent, reused for the next one.
    private var commandBytes: [UInt8] = []

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
        guard fileDescriptor >= 0, let wakePipe else { throw .closed(name) }
        let index = self.index
        // One lock for both: the packets leave the controller for the host here, which
        // frees their senders' buffers (the hosts' loops contend for this lock).
        var batch = self.batch
        self.batch = []
        var recycled = self.recycled
        self.recycled = []
        let written = link.update { s in
            s.recycle(&recycled)
            s.take(index, into: &batch)
            s.credit(batch)
            return wakePipe.bytesDue.load(ordering: .relaxed)
        }
        // Only the bytes written for what was just taken (counted under the same lock):
        // one written later is for packets still waiting, and must stay to wake a loop
        // that polls the descriptor alone. A byte counted but not yet written (the link
        // writes after its lock) stays due: it makes the descriptor readable later, and
        // that receive reads it.
        let due = written - bytesRead
        if due > 0 {
            let n = drain.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress!, min(due, $0.count)) }
            if n > 0 { bytesRead += n }
        }
        for delivery in batch {
            handler(delivery.packet)
            // The whole array back, not a copy: the slice spans all of it.
            if delivery.recycles { recycled.append(Array(delivery.packet.bytes)) }
        }
        batch.removeAll(keepingCapacity: true)
        self.batch = batch
        self.recycled = recycled
    }

    var handsPacketsOverInMemory: Bool { true }

    func prepareToWait() -> Bool {
        guard let wakePipe else { return false }
        wakePipe.hostMayBeWaiting.store(true, ordering: .sequentiallyConsistent)
        return wakePipe.packetsWaiting.load(ordering: .sequentiallyConsistent)
    }

    func finishedWaiting() {
        wakePipe?.hostMayBeWaiting.store(false, ordering: .sequentiallyConsistent)
    }

    func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let index = self.index
        link.update { $0.receive(packet, from: index) }
    }

    /// Encoded into one array kept for the next command: the controller reads it before
    /// `send` returns. (The protocol's default encodes a new array per command.)
    func send(command: HCICommandPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        commandBytes.removeAll(keepingCapacity: true)
        command.encode(appendingTo: &commandBytes)
        let index = self.index
        let packet = HCIPacket(type: .command, bytes: commandBytes[...])
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
