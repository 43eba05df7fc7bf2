import SwiftATTCore
import SwiftATTHCI
import SwiftATTTransport

/// The host's side of the HCI conversation with one controller (Core 5.4 Vol 4 Part E
/// §4): commands sent under the controller's command credits and each answer matched to
/// its command, ACL data sent under its buffer credits, every other event handed to
/// `Controller.events()`, and the connection table those events keep.
///
/// The lowest floor of a host on its loop thread. The floors above send through it
/// (`send(_:timeout:callback:)`, `enqueueACL`); what arrives it hands back to the
/// `HostStack` driving the turn (`receive(_:)` returns what a packet means for them),
/// never calling up.
///
/// Loop-confined. The command and ACL state every packet goes through is
/// `@exclusivity(unchecked)`: a class's stored property is otherwise checked at run time
/// on each access, a call into the runtime per packet. What those checks guard against,
/// a second access to the same property from inside a mutation of it, cannot happen
/// here: only the loop thread touches a conversation, and the code run inside each
/// mutation (the flows' and arrays' own methods) cannot reach the conversation. The
/// command callbacks, which run caller code, are called only after the flow's mutation
/// has returned.
final class HCIConversation {
    typealias CommandCallback = @Sendable (Result<HCICommandAnswer, ControllerError>) -> Void

    /// What a received packet means for the floors above.
    enum Inbound {
        /// Nothing more to do: a command's answer, an event only listeners want, or bytes
        /// that are not an event.
        case handled
        /// ACL data, for L2CAP: the packet's bytes.
        case aclData
        /// An LE connection came up.
        case connected(ConnectionState)
        /// A connection went down; its ACL buffers were freed here.
        case disconnected(handle: UInt16, reason: HCIStatus)
        /// Number Of Completed Packets gave ACL buffers back: queued data went out, and
        /// whoever waits for room may go on.
        case buffersFreed
        /// The controller failed (Hardware Error event): the host must reset it.
        case hardwareError(UInt8)
        /// The peer, as central, started encryption: the Security Manager supplies the key.
        case longTermKeyRequest(LELongTermKeyRequest)
        /// Encryption on a link came on, went off or failed to start (Encryption Change),
        /// or its key was refreshed (Encryption Key Refresh Complete: `enabled` true).
        case encryptionChanged(handle: UInt16, status: HCIStatus, enabled: Bool)
    }

    let transport: any HCITransport
    private(set) var isRunning = true
    /// Why the conversation is stopping, once it is.
    private(set) var stopReason: ControllerError?

    @exclusivity(unchecked) private var commands = HCICommandFlow<CommandWaiter>()
    /// The command flow's output of one call, kept between calls so that a round trip
    /// allocates no arrays. Taken out while in use (`takeSend`): an answer's waiter
    /// may send a command from inside `deliver`.
    @exclusivity(unchecked) private var scratchOutcomes: [HCICommandFlow<CommandWaiter>.Outcome] = []
    @exclusivity(unchecked) private var scratchSend: [HCICommandPacket] = []
    /// Host-to-controller ACL flow control, once the start-up sequence has read the
    /// controller's buffer sizes (`configureACL`).
    @exclusivity(unchecked) private var acl: ACLFlow?
    /// The packets of one `flushACL`, kept between turns so that a batch allocates nothing.
    @exclusivity(unchecked) private var outgoingACL: [HCIPacket] = []
    /// ACL packets were queued, or controller buffers freed, since the last `flushACL`:
    /// the end of the turn offers the queue to the controller.
    @exclusivity(unchecked) private(set) var hasQueuedACL = false
    /// The time of the loop's turn (`HostStack.beginTurn`): what a command's deadline
    /// counts from, and what an answer settles at. The loop reads the clock once a turn,
    /// not once per command and per answer: a read of `ContinuousClock` goes through the
    /// runtime and once cost as much as a fifth of the rest of a command round trip's
    /// work. A turn lasts microseconds; a deadline seconds.
    @exclusivity(unchecked) var now = MonotonicInstant.readBootClock()

    /// `Controller.events()`: every event but Command Complete and Command Status.
    /// Unchecked, as the command state is: read for every event; `yield` hands each
    /// stream its element and cannot reach back into the conversation.
    @exclusivity(unchecked) var eventListeners = ListenerSet<HCIEvent>()
    /// Live connections by handle.
    private(set) var connections: [UInt16: ConnectionState] = [:]
    /// Receives every inbound and outbound packet (btsnoop capture).
    var packetObserver: ((HCIPacket, _ outbound: Bool) -> Void)?

    init(transport: any HCITransport) {
        self.transport = transport
    }

    // MARK: Commands

    /// When a command in flight times out next.
    var nextDeadline: MonotonicInstant? {
        commands.inFlightCount > 0 ? commands.nextDeadline : nil
    }

    /// Sends `packet` when the controller has a command credit for it; `callback` gets
    /// its answer, or why there was none.
    func send(_ packet: HCICommandPacket, timeout: Duration, callback: @escaping CommandCallback) {
        send(packet, timeout: timeout, waiter: .callback(callback))
    }

    /// Sends `packet` when the controller has a command credit for it; `waiter` gets its
    /// answer, or why there was none.
    /// The packet and the waiter are handed over, not copied, all the way from
    /// `Controller.send` to the command flow and the transport: each copy retained its
    /// payload and the caller's end released it again (callgrind, a round trip).
    @inline(__always)
    func send(_ packet: consuming HCICommandPacket, timeout: Duration, waiter: consuming CommandWaiter) {
        guard isRunning else { return waiter.settle(.failure(stopReason ?? .closed)) }
        if let packet = commands.admit(packet, token: waiter, timeout: timeout, now: now) { write(packet) }
    }

    /// Fails the commands whose deadline has passed (restoring their credits).
    func expire(now: MonotonicInstant) {
        guard let deadline = nextDeadline, deadline <= now else { return }
        var outcomes = takeOutcomes()
        var send = takeSend()
        commands.expire(now: now, settling: &outcomes, sending: &send)
        deliver(outcomes)
        write(send)
        putBack(outcomes: &outcomes)
        putBack(send: &send)
    }

    // The scratch arrays are taken out of their properties for the length of one call
    // (a nested call finds an empty one and allocates its own), then emptied and put
    // back with their capacity. Spelled out per array: a key path would cost a runtime
    // call per access.

    @inline(__always)
    private func takeSend() -> [HCICommandPacket] {
        var taken: [HCICommandPacket] = []
        swap(&taken, &scratchSend)
        return taken
    }

    @inline(__always)
    private func putBack(send: inout [HCICommandPacket]) {
        send.removeAll(keepingCapacity: true)
        swap(&send, &scratchSend)
    }

    @inline(__always)
    private func takeOutcomes() -> [HCICommandFlow<CommandWaiter>.Outcome] {
        var taken: [HCICommandFlow<CommandWaiter>.Outcome] = []
        swap(&taken, &scratchOutcomes)
        return taken
    }

    @inline(__always)
    private func putBack(outcomes: inout [HCICommandFlow<CommandWaiter>.Outcome]) {
        outcomes.removeAll(keepingCapacity: true)
        swap(&outcomes, &scratchOutcomes)
    }

    private func deliver(_ outcomes: [HCICommandFlow<CommandWaiter>.Outcome]) {
        for outcome in outcomes {
            switch outcome {
            case let .complete(waiter, complete): waiter.settle(.success(.complete(complete)))
            case let .status(waiter, status): waiter.settle(.success(.status(status)))
            // The flow knows the opcode, not the caller's timeout: the waiter puts that in.
            case let .timedOut(waiter, opcode): waiter.settle(.failure(.hci(.commandTimedOut(opcode, .zero))))
            }
        }
    }

    /// Sends the commands that waited for the credits an answer just granted.
    /// Its look for nothing to release is inlined into each answer's handling.
    @inline(__always)
    private func releaseWaitingCommands() {
        if commands.canRelease { releaseCommands() }
    }

    private func releaseCommands() {
        var send = takeSend()
        commands.release(now: now, into: &send)
        write(send)
        putBack(send: &send)
    }

    private func write(_ packets: [HCICommandPacket]) {
        for packet in packets { write(packet) }
    }

    @inline(__always)
    private func write(_ packet: HCICommandPacket) {
        // ACL queued earlier in this turn goes first, as it was asked for first.
        if hasQueuedACL { flushACL() }
        // The capture sees the command as the packet it is; the transport frames it
        // itself (a stream's or the kernel socket's, on the stack).
        if let packetObserver { packetObserver(HCIPacket(type: .command, bytes: packet.encoded()[...]), true) }
        do throws(TransportError) {
            try transport.send(command: packet)
        } catch {
            fail(.transport(error))
        }
    }

    // MARK: ACL

    /// Starts ACL flow control once the controller's buffer sizes are known.
    func configureACL(bufferCount: Int, bufferLength: Int) {
        acl = ACLFlow(bufferCount: bufferCount, bufferLength: bufferLength)
    }

    /// The controller's ACL data packet length; nil before `configureACL` (and after a
    /// hardware error, until the start-up sequence has run again).
    var aclBufferLength: Int? { acl?.bufferLength }

    /// Queues one encoded ACL data packet (header included) on its connection; it goes
    /// out with the next `flushACL` that finds a free buffer.
    @inline(__always)
    func enqueueACL(_ packet: ArraySlice<UInt8>, on handle: UInt16) {
        acl?.enqueue(encoded: packet, on: handle)
        hasQueuedACL = true
    }

    /// ACL packets queued on connection `handle` and not yet given to the controller.
    func queuedACLCount(on handle: UInt16) -> Int {
        acl?.queuedCount(on: handle) ?? 0
    }

    /// ACL packets on `handle` the controller has not reported sent: queued here, or in
    /// its buffers (Number Of Completed Packets not yet received).
    func unsentACLCount(on handle: UInt16) -> Int {
        guard let acl else { return 0 }
        return acl.queuedCount(on: handle) + acl.inFlight(on: handle)
    }

    /// Sends every queued ACL packet the controller has a free buffer for.
    func flushACL() {
        hasQueuedACL = false
        guard acl?.dequeue(into: &outgoingACL) ?? 0 > 0 else { return }
        send(outgoingACL)
        outgoingACL.removeAllKeepingCapacity()
    }

    // MARK: Input

    /// Takes one packet the transport read: answers go to their commands, events to
    /// `eventListeners`, and the flow control and connection table are brought up to
    /// date. Returns what the packet means for the floors above.
    @inline(__always)
    func receive(_ packet: HCIPacket) -> Inbound {
        packetObserver?(packet, false)
        switch packet.type {
        case .aclData: return .aclData
        case .event: return receiveEvent(packet)
        default: return .handled
        }
    }

    @inline(__always)
    private func receiveEvent(_ packet: HCIPacket) -> Inbound {
        // An event that leaves the loop — any but a command's answer, while
        // `Controller.events()` has listeners — is decoded from a compact copy, so that
        // nobody keeping it pins the transport's receive buffer. One that only the loop
        // reads, and forgets before the transport reads again (Number Of Completed Packets
        // with nobody listening, one per ACL packet sent), is decoded where it lies: no
        // allocation, no copy. So is a command's answer: its waiter decodes the return
        // parameters there, or takes a copy of them (`CommandWaiter.settle`). What
        // `observe` returns from an event holds values, not views of its bytes.
        let isAnswer = packet.bytes.first.map(Self.isCommandAnswer) ?? false
        if isAnswer { return receiveAnswer(packet) }
        let leavesTheLoop = !eventListeners.isEmpty
        if !leavesTheLoop, packet.bytes.first == NumberOfCompletedPackets.code { return receiveCompletedPackets(packet) }
        let event: HCIEvent
        do throws(HCIDecodingError) {
            event = try HCIEvent(parsing: leavesTheLoop ? Array(packet.bytes)[...] : packet.bytes)
        } catch {
            return .handled  // A malformed event is dropped; nothing can be matched to it.
        }
        let inbound = observe(event)
        eventListeners.yield(event)
        return inbound
    }

    /// Command Complete or Command Status, decoded as what it is rather than as an
    /// `HCIEvent` (an enum of every event, copied and destroyed through its value
    /// witnesses: some 300 instructions of a round trip), where it lies. One answer
    /// settles one command: no array unless its credits free commands that wait.
    @inline(__always)
    private func receiveAnswer(_ packet: HCIPacket) -> Inbound {
        do throws(HCIDecodingError) {
            let bytes = packet.bytes
            try HCIEventPacket.checkHeader(bytes)
            if bytes.byte(at: 0) == CommandComplete.code {
                let complete = try CommandComplete(parameters: bytes.bytes(from: 2))
                if let waiter = commands.receive(complete) { waiter.settle(.success(.complete(consume complete))) }
            } else {
                let status = try CommandStatus(parameters: bytes.bytes(from: 2))
                if let waiter = commands.receive(status) { waiter.settle(.success(.status(consume status))) }
            }
        } catch {
            return .handled  // A malformed answer is dropped; nothing can be matched to it.
        }
        releaseWaitingCommands()
        return .handled
    }

    /// Number Of Completed Packets that no listener wants, decoded as what it is rather
    /// than as an `HCIEvent`, where it lies: one per ACL packet sent (Bumble's
    /// controllers, BENCH.md quirk 9), the enum's construction, copies and destroy
    /// through value witnesses and the empty listener set's yield were some 350
    /// instructions of each notification a peripheral sends.
    private func receiveCompletedPackets(_ packet: HCIPacket) -> Inbound {
        do throws(HCIDecodingError) {
            let bytes = packet.bytes
            try HCIEventPacket.checkHeader(bytes)
            return completed(try NumberOfCompletedPackets(parameters: bytes.bytes(from: 2)))
        } catch {
            return .handled  // A malformed event is dropped, as `receiveEvent` drops one.
        }
    }

    /// Frees the ACL buffers the controller says it is done with.
    private func completed(_ completed: NumberOfCompletedPackets) -> Inbound {
        guard acl != nil else { return .handled }
        // In place: a copy of the flow would copy its tables on every event.
        for entry in completed.entries {
            acl?.completed(Int(entry.numCompletedPackets), on: entry.connectionHandle)
        }
        // What the freed buffers take goes out at the end of the turn, with what the
        // turn's other events freed: a burst of events, one per packet, costs one write
        // of several packets rather than a write each.
        hasQueuedACL = true
        return .buffersFreed
    }

    /// Command Complete or Command Status, by event code.
    static func isCommandAnswer(_ code: UInt8) -> Bool {
        code == CommandComplete.code || code == CommandStatus.code
    }

    /// Keeps ACL flow control and the connection table current from the events that
    /// affect them: completed packets free buffers; a disconnection frees that link's
    /// buffers (Core 5.4 Vol 4 Part E §7.7.5, §7.7.19).
    private func observe(_ event: HCIEvent) -> Inbound {
        switch event {
        case let .numberOfCompletedPackets(completed):
            return self.completed(completed)
        case let .leMeta(.longTermKeyRequest(request)):
            return .longTermKeyRequest(request)
        case let .encryptionChange(change):
            return .encryptionChanged(handle: change.connectionHandle, status: change.status,
                                      enabled: change.encryptionEnabled != 0)
        case let .encryptionKeyRefreshComplete(refresh):
            return .encryptionChanged(handle: refresh.connectionHandle, status: refresh.status, enabled: true)
        case .leMeta:
            guard let connection = ConnectionState.established(by: event) else { return .handled }
            connections[connection.handle] = connection
            return .connected(connection)
        case let .hardwareError(failure):
            return .hardwareError(failure.hardwareCode)
        case let .disconnectionComplete(disconnection):
            connections[disconnection.connectionHandle] = nil
            if acl != nil {
                _ = acl?.disconnected(disconnection.connectionHandle)
                flushACL()
            }
            return .disconnected(handle: disconnection.connectionHandle, reason: disconnection.reason)
        default:
            return .handled
        }
    }

    // MARK: Output

    private func send(_ packet: HCIPacket) {
        packetObserver?(packet, true)
        do throws(TransportError) {
            try transport.send(packet)
        } catch {
            fail(.transport(error))
        }
    }

    private func send(_ packets: [HCIPacket]) {
        if let packetObserver { for packet in packets { packetObserver(packet, true) } }
        do throws(TransportError) {
            try transport.send(contentsOf: packets)
        } catch {
            fail(.transport(error))
        }
    }

    // MARK: Failure and shutdown

    /// Stops the conversation with `reason`; pending work fails with it in `shutdown`.
    func fail(_ reason: ControllerError) {
        guard isRunning else { return }
        isRunning = false
        stopReason = reason
    }

    /// The controller failed and is about to be reset (Core 5.4 Vol 4 Part E §7.7.16):
    /// every pending command fails with `error`, the reset ends every connection
    /// (§7.3.2), and the controller's emptied buffers owe no credits, so ACL flow control
    /// waits for the start-up sequence to configure it again.
    func controllerFailed(_ error: ControllerError) {
        for waiter in commands.restart() { waiter.settle(.failure(error)) }
        connections.removeAll()
        acl = nil
        hasQueuedACL = false
    }

    /// Ends the conversation: fails every pending command, finishes every listener,
    /// closes the transport.
    func shutdown(_ reason: ControllerError) {
        isRunning = false
        stopReason = stopReason ?? reason
        for waiter in commands.cancelAll() { waiter.settle(.failure(reason)) }
        eventListeners.finishAll()
        transport.close()
    }
}
