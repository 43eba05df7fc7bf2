import SwiftATTHCI

/// A byte pipe to a controller that carries whole HCI packets both ways.
///
/// One event loop owns a transport: it polls `fileDescriptor` for readability, then calls
/// `receive` to take the packets that arrived; `send` writes one packet completely.
/// Implementations never sleep or busy-poll: waits block in `poll(2)` with a timeout.
public protocol HCITransport: AnyObject {
    /// The name the user gave (`hci0`, `tcp:127.0.0.1:9000`), for messages.
    var name: String { get }
    /// The descriptor an event loop polls for input.
    var fileDescriptor: Int32 { get }
    /// Reads what is available without blocking and hands each complete packet to
    /// `handler`; a packet's bytes are valid views for as long as the handler keeps them.
    /// Throws `.closed` when the controller side has gone.
    func receive(_ handler: (HCIPacket) -> Void) throws(TransportError)
    /// Writes one packet completely (waiting for writability up to the transport's
    /// write timeout).
    func send(_ packet: HCIPacket) throws(TransportError)
    /// Writes one command packet completely: `send(_:)` for a command, which a transport
    /// that frames H4 itself writes from the stack (`HCICommandPacket.withH4Bytes`)
    /// rather than from an encoded array.
    func send(command: HCICommandPacket) throws(TransportError)
    /// Writes several packets in order: one system call (or one hand-off) for the lot
    /// where the transport can, so a burst of ACL reaches the controller together.
    func send(contentsOf packets: [HCIPacket]) throws(TransportError)
    /// Releases the descriptor; further use throws `.closed`.
    func close()

    /// The event loop that owns the transport is about to block in `poll(2)`: true when
    /// packets are already waiting, so the loop must not block but call `receive`.
    ///
    /// For a transport whose packets are handed over in memory (the loopback link):
    /// between `finishedWaiting()` and this call the loop is running and will look
    /// again before it blocks, so packets handed over meanwhile need no write to the
    /// descriptor to wake it — two system calls saved per batch. A caller that never
    /// makes these calls keeps the descriptor's plain meaning (readable when packets
    /// wait). A transport whose input arrives only through its descriptor answers false.
    func prepareToWait() -> Bool
    /// True for a transport whose packets are handed over in memory, which answers
    /// `prepareToWait()`; false (the default) for one whose input arrives only through its
    /// descriptor: a loop then makes neither call, two calls through the witness table
    /// a turn, with the existential retained around each.
    var handsPacketsOverInMemory: Bool { get }
    /// The loop's `poll(2)` returned: it is running again, and will call
    /// `prepareToWait()` before it next blocks.
    func finishedWaiting()
}

extension HCITransport {
    /// Input arrives through the descriptor alone.
    public func prepareToWait() -> Bool { false }
    public var handsPacketsOverInMemory: Bool { false }
    public func finishedWaiting() {}

    /// The command encoded into an array and sent as any packet.
    public func send(command: HCICommandPacket) throws(TransportError) {
        try send(HCIPacket(type: .command, bytes: command.encoded()[...]))
    }

    /// Blocks up to `timeout` (or indefinitely with `nil`) for at least one packet, and
    /// returns what arrived: empty when the time passed with nothing complete.
    public func receive(timeout: Duration?) throws(TransportError) -> [HCIPacket] {
        var packets: [HCIPacket] = []
        let deadline = timeout.map { ContinuousClock.now + $0 }
        repeat {
            let remaining = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            // Packets already in memory need no wait (nor a readable descriptor).
            if !prepareToWait() {
                guard try FileDescriptor.waitReadable(fileDescriptor, timeout: remaining, context: name) else { return packets }
            }
            finishedWaiting()
            try receive { packets.append($0) }
        } while packets.isEmpty && (deadline.map { ContinuousClock.now < $0 } ?? true)
        return packets
    }

    /// One `send` per packet, for transports that cannot do better.
    public func send(contentsOf packets: [HCIPacket]) throws(TransportError) {
        for packet in packets { try send(packet) }
    }

    /// Sends a command packet.
    public func send(_ command: HCICommandPacket) throws(TransportError) {
        try send(HCIPacket(type: .command, bytes: command.encoded()[...]))
    }
}
