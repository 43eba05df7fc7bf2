#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTHCI
import SwiftATTTransport

/// Everything on the radio, guarded by the link's one lock: the controllers, the
/// connections between them, and the packets waiting for each host.
struct LinkState: Sendable {
    let bufferLength: Int
    let bufferCount: Int
    var controllers: [EmulatedController] = []
    var connections: [Int: LoopbackConnection] = [:]
    var nextConnectionID = 1
    var nextHandle: UInt16 = 0x0001
    var statistics = LoopbackStatistics()
    /// Wake-up pipes to write once the lock is released (`LoopbackLink.update`): a
    /// system call under the lock would hold up every other host's loop.
    var wakes = WakeList()
    /// Byte buffers for Number Of Completed Packets events, handed back by the hosts
    /// that took them (`recycle`): a hardware controller builds these in itself, and the
    /// emulation should not add an allocation per batch to the host's count.
    var completedPacketsBuffers: [[UInt8]] = []
    /// What `credit` owes, kept between batches for its capacity.
    private var owedScratch: [(controller: Int, handle: UInt16, count: UInt16)] = []
    /// Buffers kept at most: one per controller crediting in a batch is the steady state.
    static let pooledBuffers = 16

    init(bufferLength: Int, bufferCount: Int) {
        self.bufferLength = bufferLength
        self.bufferCount = bufferCount
    }

    // MARK: Hosts attaching

    /// A host opened controller `index`; `wake` is the pipe to write when packets
    /// wait for it.
    mutating func attach(_ index: Int, wake: WakePipe) throws(TransportError) {
        guard controllers[index].wakePipe == nil else {
            throw .invalidSpecification("loopback:\(index)", reason: "another host has this loopback controller open")
        }
        controllers[index].wakePipe = wake
    }

    /// The host closed its transport: the controller goes quiet, its links end (the
    /// peers see a supervision timeout, Core 5.4 Vol 6 Part B §4.5.2) and its
    /// undelivered packets are discarded.
    mutating func detach(_ index: Int) {
        dropLinks(of: index, peerReason: .connectionTimeout)
        controllers[index].reset()
        controllers[index].inbox.removeAll()
        controllers[index].wakePipe = nil
    }

    // MARK: Toward the hosts

    /// Queues a packet for controller `index`'s host, waking its loop when the queue
    /// was empty (one wake-up per batch, not per packet) and the loop may be blocked
    /// (`WakePipe`: a running loop looks before it blocks).
    mutating func deliver(_ packet: HCIPacket, to index: Int, credit: Delivery.Credit? = nil, recycles: Bool = false) {
        guard let wake = controllers[index].wakePipe else { return }
        let wasEmpty = controllers[index].inbox.isEmpty
        controllers[index].inbox.append(Delivery(packet: packet, credit: credit, recycles: recycles))
        guard wasEmpty else { return }
        wake.packetsWaiting.store(true, ordering: .sequentiallyConsistent)
        if wake.hostMayBeWaiting.load(ordering: .sequentiallyConsistent) {
            wake.bytesDue.add(1, ordering: .relaxed)
            wakes.append(wake)
        }
    }

    mutating func send(_ event: some HCIEventParameters, to index: Int) {
        deliver(HCIPacket(type: .event, bytes: event.packet.encoded()[...]), to: index)
    }

    mutating func send(_ event: some LEMetaSubevent, to index: Int) {
        deliver(HCIPacket(type: .event, bytes: event.packet.encoded()[...]), to: index)
    }

    /// Hands the host everything waiting for it, swapping buffers so that neither
    /// side allocates in the steady state.
    mutating func take(_ index: Int, into batch: inout [Delivery]) {
        swap(&controllers[index].inbox, &batch)
        controllers[index].wakePipe?.packetsWaiting.store(false, ordering: .sequentiallyConsistent)
    }

    /// The host is taking these packets: the ACL among them frees its senders'
    /// buffers, and each sender hears so in one Number Of Completed Packets per
    /// connection and batch.
    mutating func credit(_ batch: [Delivery]) {
        guard batch.contains(where: { $0.credit != nil }) else { return }
        var owed = owedScratch
        owedScratch = []
        defer {
            owed.removeAll(keepingCapacity: true)
            owedScratch = owed
        }
        for delivery in batch {
            guard let credit = delivery.credit, let slot = connections.index(forKey: credit.connection) else { continue }
            // Changed where it is stored: one lookup (the optional-returning subscript
            // allocates when updated in place; reading and storing back hashes twice).
            connections.values[slot].addInFlight(-1, from: credit.controller)
            controllers[credit.controller].buffersInUse -= 1
            if let i = owed.firstIndex(where: { $0.controller == credit.controller && $0.handle == credit.handle }) {
                owed[i].count += 1
            } else {
                owed.append((credit.controller, credit.handle, 1))
            }
        }
        // One event per controller, its handles in the order first credited (a lazy walk:
        // this runs for every batch a host takes, and owed has an entry or two).
        for (index, entry) in owed.enumerated() where !owed[..<index].contains(where: { $0.controller == entry.controller }) {
            let event = completedPacketsEvent(owed[index...].lazy.filter { $0.controller == entry.controller }.map { ($0.handle, $0.count) })
            deliver(HCIPacket(type: .event, bytes: event[...]), to: entry.controller, recycles: true)
            statistics.completedPacketsEvents += 1
        }
    }

    /// HCI_Number_Of_Completed_Packets (Core 5.4 Vol 4 Part E §7.7.19) for `entries`,
    /// built in a buffer from the pool: event code, length, Num_Handles, then each
    /// handle and count (at most 63 fit; a batch credits one or two connections).
    mutating func completedPacketsEvent(_ entries: some Sequence<(handle: UInt16, count: UInt16)>) -> [UInt8] {
        var bytes = completedPacketsBuffers.popLast() ?? []
        bytes.removeAll(keepingCapacity: true)
        bytes.append(NumberOfCompletedPackets.code)
        bytes.append(0)  // the length, once the entries are counted
        bytes.append(0)
        var count = 0
        for entry in entries where count < 63 {
            bytes.append(littleEndian: entry.handle)
            bytes.append(littleEndian: entry.count)
            count += 1
        }
        bytes[1] = UInt8(1 + 4 * count)
        bytes[2] = UInt8(count)
        return bytes
    }

    /// Takes back the buffers of Number Of Completed Packets events a host has handled,
    /// up to `pooledBuffers`. One a host still holds is not written again: it is
    /// copied on write, and the copy is what the pool keeps.
    mutating func recycle(_ buffers: inout [[UInt8]]) {
        while let buffer = buffers.popLast(), completedPacketsBuffers.count < Self.pooledBuffers {
            completedPacketsBuffers.append(buffer)
        }
        buffers.removeAll(keepingCapacity: true)
    }

    // MARK: From the hosts

    /// A packet host `index` sent to its controller.
    mutating func receive(_ packet: HCIPacket, from index: Int) {
        switch packet.type {
        case .command:
            guard let command = try? HCICommandPacket(parsing: packet.bytes) else { return }
            execute(command, from: index)
        case .aclData:
            forward(packet, from: index)
        default:
            break
        }
    }

    /// ACL data from host `index`, to the other end of its connection.
    private mutating func forward(_ packet: HCIPacket, from index: Int) {
        // The header read in place (a parsed `ACLDataPacket` would slice out its data,
        // a retain and a release per packet); a packet whose length field disagrees
        // with its size is dropped as `ACLDataPacket(parsing:)` would refuse it.
        let bytes = packet.bytes
        guard bytes.count >= 4, Int(bytes.littleEndianUInt16(at: 2)) == bytes.count - 4 else {
            statistics.aclUnknownHandle += 1
            return
        }
        let handle = bytes.littleEndianUInt16(at: 0) & 0x0FFF
        guard let id = controllers[index].handles[handle], let slot = connections.index(forKey: id) else {
            statistics.aclUnknownHandle += 1
            return
        }
        guard bytes.count - 4 <= bufferLength, controllers[index].buffersInUse < bufferCount else {
            // Data Buffer Overflow, Link_Type ACL (Core 5.4 Vol 4 Part E §7.7.26).
            statistics.bufferOverflows += 1
            deliver(HCIPacket(type: .event, bytes: [0x1A, 0x01, 0x01]), to: index)
            return
        }
        controllers[index].buffersInUse += 1
        statistics.peakBuffersInUse = max(statistics.peakBuffersInUse, controllers[index].buffersInUse)
        connections.values[slot].addInFlight(1, from: index)
        statistics.aclForwarded += 1
        deliver(packet, to: connections.values[slot].other(than: index), credit: .init(controller: index, connection: id, handle: handle))
    }
}
