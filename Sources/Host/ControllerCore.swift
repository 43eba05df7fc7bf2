import HCI
import L2CAP
import Transport

/// A command's answer as it leaves the loop.
enum CommandAnswer: Sendable {
    case complete(CommandComplete)
    case status(CommandStatus)
}

/// The loop-confined state of one controller: command flow, ACL flow, L2CAP
/// recombination and the listeners for events. Only the `HostLoop` thread touches it.
final class ControllerCore {
    typealias CommandCallback = @Sendable (Result<CommandAnswer, HCIError>) -> Void

    let transport: any HCITransport
    private(set) var isRunning = true
    /// Why the loop is stopping, once it is.
    private(set) var stopReason: HCIError?

    var commands = HCICommandFlow<CommandCallback>()
    var acl: ACLFlow?
    var recombiner = L2CAPRecombiner()
    private var eventListeners: [Int: AsyncStream<HCIEvent>.Continuation] = [:]
    private var nextListener = 0
    /// Live connections by handle.
    private(set) var connections: [UInt16: ConnectionState] = [:]
    /// Receives inbound ATT frames (channel 0x0004), once the layers above attach.
    var attributeFrameHandler: ((L2CAPFrame) -> Void)?
    /// Receives every inbound and outbound packet (btsnoop capture).
    var packetObserver: ((HCIPacket, _ outbound: Bool) -> Void)?
    /// Reasons inbound ACL was dropped, most recent last (bounded), for diagnostics.
    private(set) var droppedFrames: [L2CAPRecombiner.DropReason] = []

    init(transport: any HCITransport) {
        self.transport = transport
    }

    var nextDeadline: ContinuousClock.Instant? { commands.nextDeadline }

    // MARK: Commands

    func sendCommand(_ packet: HCICommandPacket, timeout: Duration, callback: @escaping CommandCallback) {
        guard isRunning else { return callback(.failure(stopReason ?? .closed)) }
        write(commands.submit(packet, token: callback, timeout: timeout, now: .now))
    }

    func expire(now: ContinuousClock.Instant) {
        let (outcomes, send) = commands.expire(now: now)
        deliver(outcomes)
        write(send)
    }

    private func deliver(_ outcomes: [HCICommandFlow<CommandCallback>.Outcome]) {
        for outcome in outcomes {
            switch outcome {
            case let .complete(callback, complete): callback(.success(.complete(complete)))
            case let .status(callback, status): callback(.success(.status(status)))
            case let .timedOut(callback, opcode): callback(.failure(.commandTimedOut(opcode, .zero)))
            }
        }
    }

    private func write(_ packets: [HCICommandPacket]) {
        for packet in packets { send(HCIPacket(type: .command, bytes: packet.encoded()[...])) }
    }

    // MARK: Events

    func addEventListener(_ continuation: AsyncStream<HCIEvent>.Continuation) -> Int {
        let id = nextListener
        nextListener += 1
        eventListeners[id] = continuation
        return id
    }

    func removeEventListener(_ id: Int) {
        eventListeners[id] = nil
    }

    // MARK: ACL

    /// Starts ACL flow control once the controller's buffer sizes are known.
    func configureACL(bufferCount: Int, bufferLength: Int) {
        acl = ACLFlow(bufferCount: bufferCount, bufferLength: bufferLength)
    }

    /// Sends an L2CAP frame on a connection, fragmented to the controller's buffers.
    func sendFrame(channel: UInt16, payload: some Collection<UInt8>, handle: UInt16) {
        guard var flow = acl else { return }
        flow.enqueue(L2CAPFragmenter.fragments(channel: channel, payload: payload, handle: handle, bufferLength: flow.bufferLength), on: handle)
        for packet in flow.dequeue() { send(HCIPacket(type: .aclData, bytes: packet.encoded()[...])) }
        acl = flow
    }

    // MARK: Input

    func readTransport() {
        do throws(TransportError) {
            try transport.receive { packet in handle(packet) }
        } catch {
            fail(.transport(error))
        }
    }

    func handle(_ packet: HCIPacket) {
        packetObserver?(packet, false)
        switch packet.type {
        case .event: handleEvent(packet)
        case .aclData: handleACL(packet)
        default: break
        }
    }

    private func handleEvent(_ packet: HCIPacket) {
        // Events leave the loop: decode from a compact copy so no listener pins the
        // transport's receive buffer.
        let event: HCIEvent
        do throws(HCIDecodingError) {
            event = try HCIEvent(parsing: Array(packet.bytes)[...])
        } catch {
            return  // A malformed event is dropped; nothing can be matched to it.
        }
        switch event {
        case .commandComplete, .commandStatus:
            let (outcomes, send) = commands.receive(event, now: .now)
            deliver(outcomes)
            write(send)
        default:
            observe(event)
            for listener in eventListeners.values { listener.yield(event) }
        }
    }

    /// Keeps ACL flow control and recombination current from the events that affect
    /// them: completed packets free buffers; a disconnection frees that link's buffers
    /// and forgets its partial frames (Core 5.4 Vol 4 Part E §7.7.5, §7.7.19).
    private func observe(_ event: HCIEvent) {
        switch event {
        case let .numberOfCompletedPackets(completed):
            guard var flow = acl else { return }
            for entry in completed.entries {
                flow.completed(Int(entry.numCompletedPackets), on: entry.connectionHandle)
            }
            let ready = flow.dequeue()
            acl = flow
            for packet in ready { send(HCIPacket(type: .aclData, bytes: packet.encoded()[...])) }
        case .leMeta:
            if let established = ConnectionState.established(by: event) {
                connections[established.handle] = ConnectionState(handle: established.handle, role: established.role, peerAddress: established.peer)
            }
        case let .disconnectionComplete(disconnection):
            connections[disconnection.connectionHandle] = nil
            recombiner.reset(handle: disconnection.connectionHandle)
            guard var flow = acl else { return }
            flow.disconnected(disconnection.connectionHandle)
            let ready = flow.dequeue()
            acl = flow
            for packet in ready { send(HCIPacket(type: .aclData, bytes: packet.encoded()[...])) }
        default:
            break
        }
    }

    private func handleACL(_ packet: HCIPacket) {
        guard let acl = try? ACLDataPacket(parsing: packet.bytes) else { return }
        let outcome = recombiner.push(acl)
        if let dropped = outcome.dropped {
            droppedFrames.append(dropped)
            if droppedFrames.count > 64 { droppedFrames.removeFirst() }
        }
        if let frame = outcome.frame { route(frame) }
    }

    /// Fixed channels (Core 5.4 Vol 3 Part A §2.1): ATT to the layers above; LE
    /// signaling and SMP answered here; anything else on a fixed channel is ignored.
    private func route(_ frame: L2CAPFrame) {
        switch frame.channel {
        case L2CAPChannelIdentifier.attribute:
            attributeFrameHandler?(frame)
        case L2CAPChannelIdentifier.leSignaling:
            let isCentral = connections[frame.connectionHandle]?.role == .central
            let outcome = LESignalingResponder.handle(frame.payload, isCentral: isCentral)
            if let reply = outcome.reply {
                sendFrame(channel: L2CAPChannelIdentifier.leSignaling, payload: reply, handle: frame.connectionHandle)
            }
            if let parameters = outcome.acceptedParameters {
                let update = LEConnectionUpdate(
                    connectionHandle: frame.connectionHandle,
                    connectionParameters: LEConnectionParameters(
                        intervalMin: parameters.intervalMin, intervalMax: parameters.intervalMax,
                        maxLatency: parameters.peripheralLatency, supervisionTimeout: parameters.timeoutMultiplier))
                sendCommand(update.packet, timeout: .seconds(3)) { _ in }
            }
        case L2CAPChannelIdentifier.securityManager:
            if let reply = SecurityManagerResponder.handle(frame.payload) {
                sendFrame(channel: L2CAPChannelIdentifier.securityManager, payload: reply, handle: frame.connectionHandle)
            }
        default:
            break
        }
    }

    // MARK: Output and shutdown

    private func send(_ packet: HCIPacket) {
        packetObserver?(packet, true)
        do throws(TransportError) {
            try transport.send(packet)
        } catch {
            fail(.transport(error))
        }
    }

    /// Stops the loop with `reason`; pending work fails with it in `shutdown`.
    func fail(_ reason: HCIError) {
        guard isRunning else { return }
        isRunning = false
        stopReason = reason
    }

    /// Ends the loop: fails every pending command, finishes every listener, closes the
    /// transport.
    func shutdown(_ reason: HCIError) {
        isRunning = false
        stopReason = stopReason ?? reason
        for callback in commands.cancelAll() { callback(.failure(reason)) }
        for listener in eventListeners.values { listener.finish() }
        eventListeners.removeAll()
        transport.close()
    }
}
