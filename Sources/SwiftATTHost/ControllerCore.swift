import SwiftATTPDU
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTTransport

/// A command's answer as it leaves the loop.
enum CommandAnswer: Sendable {
    case complete(CommandComplete)
    case status(CommandStatus)
}

/// The loop-confined state of one controller: command flow, ACL flow, L2CAP
/// recombination and the listeners for events. Only the `HostLoop` thread touches it.
///
/// The properties every packet, value or loop turn goes through are `@exclusivity(unchecked)`
/// (here, and `AttributeLink.bearer`, `GATTClientSession.listeners`,
/// `NotificationStaging.pending`): a class's stored property is otherwise checked at run
/// time on each access, a call into the runtime that records the access in a
/// thread-local set and looks for a conflicting one — about a tenth of a notification's
/// cost on one loop, measured with perf. What those checks guard against, a second
/// access to the same property from inside a `modify` of it, cannot happen on these
/// paths: the loop is single-threaded, and the code run inside each mutation (a bearer's,
/// a queue's, an array's own methods) cannot reach the object that holds it. What calls
/// out to other code as it changes (the event listeners, whose streams' termination
/// handlers run as they finish) and what changes only with connections keeps its checks.
final class ControllerCore {
    typealias CommandCallback = @Sendable (Result<CommandAnswer, HCIError>) -> Void

    let transport: any HCITransport
    private(set) var isRunning = true
    /// Why the loop is stopping, once it is.
    private(set) var stopReason: HCIError?

    @exclusivity(unchecked) var commands = HCICommandFlow<CommandCallback>()
    @exclusivity(unchecked) var acl: ACLFlow?
    /// The packets of one `flushACL`, kept between turns so that a batch allocates nothing.
    @exclusivity(unchecked) private var outgoingACL: [HCIPacket] = []
    /// The bearer's actions for one received ATT PDU, kept between frames likewise.
    @exclusivity(unchecked) private var receivedActions: [ATTBearer.Action] = []
    /// When the batch being read arrived: the clock is read once per batch, not per
    /// frame (the bearer times the requests it sends in answer from it).
    @exclusivity(unchecked) private var receivedAt = ContinuousClock.now
    @exclusivity(unchecked) var recombiner = L2CAPRecombiner()
    /// `Controller.events()`: every event but Command Complete and Command Status.
    var eventListeners = ListenerSet<HCIEvent>()
    /// Live connections by handle.
    var connections: [UInt16: ConnectionState] = [:]
    /// The ATT bearer of each connection, in the order they connected: walked every loop
    /// turn (deadlines, waiting commands, crowding), which an array does without hashing
    /// or retaining a dictionary's storage; looked up by handle through `linksByHandle`.
    @exclusivity(unchecked) private(set) var links: [AttributeLink] = []
    /// `links` by handle as an array index (handles are 12 bits): the lookup each
    /// notification makes on the way in and out, without hashing.
    @exclusivity(unchecked) private var linksByHandle: [AttributeLink?] = []
    /// The GATT server every connection's peer may query (GAP and GATT services at
    /// least; a peripheral installs its own database).
    var gattServer: GATTServer?
    /// `Peripheral.events()`.
    var peripheralListeners = ListenerSet<PeripheralEvent>()
    /// Sees every peripheral event as it happens, on the loop: how the advertiser learns
    /// of connections without a task woken for every event (`.readyToUpdate` included).
    var peripheralObserver: (@Sendable (PeripheralEvent) -> Void)?
    /// Frames were queued this turn and not yet offered to the controller.
    @exclusivity(unchecked) private var aclPending = false
    /// Admits `Peripheral.updateValue` calls on their callers' threads
    /// (`ControllerCore+Updates`); set with the GATT server a peripheral installs.
    var updateGate: UpdateGate?
    /// Values applied this turn that the gate has not been told of: it hears once per
    /// turn (`signalRoomIfWaiting`), not once per value (a lock each).
    @exclusivity(unchecked) var updatesApplied = 0
    /// The listeners holding values of the batch being read, flushed to their streams
    /// (and their waiting consumers woken) once it is done (`flushNotificationWakes`).
    @exclusivity(unchecked) var stagedNotifications: [NotificationStaging] = []
    /// The consumers to wake, kept between batches so that waking them allocates nothing.
    @exclusivity(unchecked) var notificationWakes: [NotificationChannel.Waiter] = []
    /// How long an ATT transaction may take on new links before it fails and the bearer
    /// closes (Core 5.4 Vol 3 Part F §3.3.3: 30 s; shorter in tests).
    var transactionTimeout: Duration = .seconds(30)
    /// ACL packets queued on one connection beyond which `updateValue` says "not now".
    let transmitQueueLimit = 8
    var nextToken = 0
    @exclusivity(unchecked) var indicationTokens: [Int: (handle: UInt16, valueHandle: UInt16)] = [:]
    /// Receives every inbound and outbound packet (btsnoop capture).
    var packetObserver: ((HCIPacket, _ outbound: Bool) -> Void)?
    /// Reasons inbound ACL was dropped, most recent last (bounded), for diagnostics.
    private(set) var droppedFrames: [L2CAPRecombiner.DropReason] = []
    /// Restarts the controller after a Hardware Error; installed by `Controller.start()`
    /// (a controller nobody started is left for its user to reset). Called on the loop
    /// once the host's HCI_Reset is answered, with its failure if it failed.
    var recovery: (@Sendable (_ code: UInt8, _ resetFailure: HCIError?) -> Void)?
    /// `Controller.recoveries()`.
    var recoveryListeners = ListenerSet<ControllerRecovery>()

    init(transport: any HCITransport) {
        self.transport = transport
    }

    /// When the loop must call `expire` next. Asked on every turn of the loop, so it
    /// allocates nothing.
    var nextDeadline: ContinuousClock.Instant? {
        var earliest = commands.inFlightCount > 0 ? commands.nextDeadline : nil
        for link in links {
            guard let deadline = link.withBearer({ $0.nextDeadline }) else { continue }
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    // MARK: Commands

    func sendCommand(_ packet: HCICommandPacket, timeout: Duration, callback: @escaping CommandCallback) {
        guard isRunning else { return callback(.failure(stopReason ?? .closed)) }
        write(commands.submit(packet, token: callback, timeout: timeout, now: .now))
    }

    func expire(now: ContinuousClock.Instant) {
        if let deadline = commands.inFlightCount > 0 ? commands.nextDeadline : nil, deadline <= now {
            let (outcomes, send) = commands.expire(now: now)
            deliver(outcomes)
            write(send)
        }
        for link in links where link.withBearer({ $0.nextDeadline }).map({ $0 <= now }) ?? false {
            perform(link.bearer.expire(now: now), on: link)
        }
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
        // Frames queued earlier in this turn go first, as they were asked for first.
        if aclPending { flushACL() }
        for packet in packets { send(HCIPacket(type: .command, bytes: packet.encoded()[...])) }
    }

    // MARK: ACL

    /// Starts ACL flow control once the controller's buffer sizes are known.
    func configureACL(bufferCount: Int, bufferLength: Int) {
        acl = ACLFlow(bufferCount: bufferCount, bufferLength: bufferLength)
    }

    /// Sends an L2CAP frame on a connection, fragmented to the controller's buffers.
    ///
    /// The frame is queued; the loop sends what the controller has buffers for at the
    /// end of its turn (`flushOutput`), so that the frames of a batch of jobs (a run of
    /// `updateValue` calls) reach the controller in one write.
    ///
    /// `payload` is encoded straight into the packets (a PDU needs no array of its own).
    func sendFrame(channel: UInt16, payload: some ByteEncodable, handle: UInt16) {
        guard let bufferLength = acl?.bufferLength else { return }
        L2CAPFragmenter.encodePackets(channel: channel, payload: payload, handle: handle, bufferLength: bufferLength) { packet in
            acl?.enqueue(encoded: packet, on: handle)
        }
        aclPending = true
    }

    func sendFrame(channel: UInt16, payload: [UInt8], handle: UInt16) {
        sendFrame(channel: channel, payload: EncodedBytes(payload), handle: handle)
    }

    /// Sends every queued ACL packet the controller has a free buffer for.
    private func flushACL() {
        aclPending = false
        guard acl?.dequeue(into: &outgoingACL) ?? 0 > 0 else { return }
        send(outgoingACL)
        outgoingACL.removeAll(keepingCapacity: true)
    }

    /// The end of the loop's turn: frames queued during it go out together, Write
    /// Commands that waited for that room follow, and a peripheral waiting for room
    /// hears whether it has some.
    func flushOutput() {
        // Values applied this turn give their slots back even when they went to nobody
        // (no subscriber, so nothing to send).
        guard isRunning, aclPending || updatesApplied > 0 else { return }
        if aclPending {
            flushACL()
            drainWaitingCommands()
            if aclPending { flushACL() }
        }
        signalRoomIfWaiting()
    }

    // MARK: Input

    func readTransport() {
        defer { flushNotificationWakes() }
        receivedAt = .now
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
            eventListeners.yield(event)
        }
    }

    /// Keeps ACL flow control and recombination current from the events that affect
    /// them: completed packets free buffers; a disconnection frees that link's buffers
    /// and forgets its partial frames (Core 5.4 Vol 4 Part E §7.7.5, §7.7.19).
    private func observe(_ event: HCIEvent) {
        switch event {
        case let .numberOfCompletedPackets(completed):
            guard acl != nil else { return }
            // In place: a copy of the flow would copy its tables on every event.
            for entry in completed.entries {
                acl?.completed(Int(entry.numCompletedPackets), on: entry.connectionHandle)
            }
            flushACL()
            drainWaitingCommands()
            signalRoomIfWaiting()
        case .leMeta:
            if let established = ConnectionState.established(by: event) {
                connections[established.handle] = ConnectionState(handle: established.handle, role: established.role, peerAddress: established.peer)
                attach(established.handle, peer: established.peer)
            }
        case let .hardwareError(failure):
            hardwareError(failure.hardwareCode)
        case let .disconnectionComplete(disconnection):
            connections[disconnection.connectionHandle] = nil
            recombiner.reset(handle: disconnection.connectionHandle)
            detach(disconnection.connectionHandle, reason: disconnection.reason)
            guard acl != nil else { return }
            acl?.disconnected(disconnection.connectionHandle)
            flushACL()
            // A full link that went away no longer holds back `updateValue`.
            signalRoomIfWaiting()
        default:
            break
        }
    }

    private func handleACL(_ packet: HCIPacket) {
        // The usual case, a frame in one packet, without the parse and the outcome.
        if let whole = recombiner.wholeFrame(in: packet.bytes) {
            return route(L2CAPFrame(connectionHandle: whole.handle, channel: whole.channel, payload: packet.bytes[whole.payload]))
        }
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
            guard let link = link(frame.connectionHandle) else { return }
            // The streaming case first: a notification goes straight to the client.
            if let handle = link.withBearer({ $0.notificationHandle(in: frame.payload) }) {
                // Copied from the packet's memory: a slice of it would retain the packet.
                let value = frame.payload.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[3...])) }
                return link.client.deliver(GATTNotification(handle: handle, value: value, isIndication: false),
                                           staged: &stagedNotifications)
            }
            // A buffer kept between frames (taken, so that a nested use gets its own).
            var actions = receivedActions
            receivedActions = []
            link.bearer.receive(frame.payload, now: receivedAt, into: &actions)
            perform(actions, on: link)
            actions.removeAll(keepingCapacity: true)
            receivedActions = actions
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

    private func send(_ packets: [HCIPacket]) {
        if let packetObserver { for packet in packets { packetObserver(packet, true) } }
        do throws(TransportError) {
            try transport.send(contentsOf: packets)
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

    // MARK: Shared scanning

    /// How many scans are running; the controller scans while this is above zero.
    private var scanUsers = 0

    /// The commands that started the running scans, to start them again after a
    /// controller reset.
    private var scanStart: [HCICommandPacket] = []

    /// A scan begins: the first one starts the controller scanning. Jobs reach the loop
    /// in order, so a stop for an ended scan can never overtake the start of the next.
    func beginScan(_ start: [HCICommandPacket], completion: @escaping @Sendable (HCIError?) -> Void) {
        scanUsers += 1
        guard scanUsers == 1 else { return completion(nil) }
        scanStart = start
        sendInOrder(start[...], completion: completion)
    }

    /// The controller was reset under running scans: they scan again.
    func resumeScanning() {
        if scanUsers > 0 { sendInOrder(scanStart[...]) { _ in } }
    }

    /// A scan ends: the last one stops the controller scanning.
    func endScan(_ stop: [HCICommandPacket]) {
        guard scanUsers > 0 else { return }
        scanUsers -= 1
        if scanUsers == 0 { sendInOrder(stop[...]) { _ in } }
    }

    /// Sends commands in order (the command flow keeps FIFO order) and reports the first
    /// failure, or nil, once all are answered.
    private func sendInOrder(_ packets: ArraySlice<HCICommandPacket>, completion: @escaping @Sendable (HCIError?) -> Void) {
        guard !packets.isEmpty else { return completion(nil) }
        let tally = CommandTally(count: packets.count, completion: completion)
        for packet in packets {
            sendCommand(packet, timeout: Controller.defaultCommandTimeout) { result in
                switch result {
                case let .failure(error): tally.answered(error)
                case let .success(.status(status)) where !status.status.isSuccess:
                    tally.answered(.commandFailed(packet.opcode, status.status))
                case let .success(.complete(complete)):
                    if let status = complete.status, !status.isSuccess {
                        tally.answered(.commandFailed(packet.opcode, status))
                    } else {
                        tally.answered(nil)
                    }
                case .success:
                    tally.answered(nil)
                }
            }
        }
    }

    // MARK: ATT and the GATT server

    /// A new connection gets its bearer and is announced to the server and listeners.
    private func attach(_ handle: UInt16, peer: BluetoothAddress) {
        let link = AttributeLink(handle: handle, receiveMTU: AttributeLink.receiveMTU, transactionTimeout: transactionTimeout)
        if let i = links.firstIndex(where: { $0.handle == handle }) { links[i] = link } else { links.append(link) }
        let index = Int(handle)
        if linksByHandle.count <= index { linksByHandle.append(contentsOf: repeatElement(nil, count: index + 1 - linksByHandle.count)) }
        linksByHandle[index] = link
        emit(.connected(handle, peer))
        for pdu in gattServer?.connect(link.connectionID) ?? [] { push(pdu, on: link) }
    }

    /// The connection is gone: everything pending on its bearer fails with the reason,
    /// the server forgets its state (keeping bonded peers'), listeners hear of it.
    func detach(_ handle: UInt16, reason: HCIStatus, cause: ATTBearerError.DisconnectReason? = nil) {
        guard let i = links.firstIndex(where: { $0.handle == handle }) else { return }
        let link = links.remove(at: i)
        linksByHandle[Int(handle)] = nil
        let cause = cause ?? ATTBearerError.DisconnectReason(code: reason.rawValue, name: reason.name)
        perform(link.bearer.close(reason: cause), on: link)
        link.client.close(with: .disconnected(cause))
        gattServer?.disconnect(link.connectionID)
        emit(.disconnected(handle, reason))
    }

    /// The link on connection `handle`, if it is up.
    func link(_ handle: UInt16) -> AttributeLink? {
        let index = Int(handle)
        return index < linksByHandle.count ? linksByHandle[index] : nil
    }

    /// Carries out what a bearer asked for, in order.
    func perform(_ actions: [ATTBearer.Action], on link: AttributeLink) {
        for action in actions {
            switch action {
            case let .send(pdu):
                sendFrame(channel: L2CAPChannelIdentifier.attribute, payload: pdu, handle: link.handle)
            case let .serve(pdu):
                serve(pdu, on: link)
            case let .mtuChanged(mtu):
                gattServer?.setMTU(mtu, for: link.connectionID)
                emit(.mtuChanged(link.handle, mtu))
            case let .indicationConfirmed(token):
                if let sent = indicationTokens.removeValue(forKey: token) {
                    gattServer?.indicationConfirmed(valueHandle: sent.valueHandle, by: link.connectionID)
                    emit(.indicationConfirmed(sent.handle, sent.valueHandle))
                    // A confirmation makes room in the indication queue.
                    signalRoomIfWaiting()
                }
            case let .indicationFailed(token, _):
                indicationTokens[token] = nil
                signalRoomIfWaiting()
            case .closed:
                // Core 5.4 Vol 3 Part F §3.3.3: after a transaction timeout no more ATT on
                // this link; swift-att ends the link.
                sendCommand(Disconnect(connectionHandle: link.handle).packet, timeout: .seconds(3)) { _ in }
            case .dropped:
                break
            case .response, .requestFailed, .notification, .indication:
                clientAction(action, on: link)
            }
        }
    }

    /// A request or command for our GATT server; requests get exactly one response.
    private func serve(_ pdu: ATTPDU, on link: AttributeLink) {
        let response: ATTPDU?
        if let server = gattServer {
            response = server.handle(pdu, from: link.connectionID, mtu: link.bearer.mtu)
        } else {
            response = .errorResponse(ErrorResponse(requestOpcode: pdu.opcode, handle: 0, errorCode: .requestNotSupported))
        }
        guard pdu.opcode.kind == .request, let response else { return }
        do throws(ATTBearerError) {
            perform(try link.bearer.respond(response), on: link)
        } catch {
            // The bearer refused (closed, or the response exceeds ATT_MTU): nothing to send.
        }
    }

    /// Sends a notification now, or queues an indication behind the one awaiting
    /// confirmation. False when the bearer refused it (closed, queue full, too long).
    @discardableResult
    func push(_ pdu: ATTPDU, on link: AttributeLink) -> Bool {
        do throws(ATTBearerError) {
            if case let .handleValueIndication(indication) = pdu {
                nextToken += 1
                let actions = try link.bearer.indicate(indication, token: nextToken, now: .now)
                // Only an accepted indication is owed a confirmation: a refused one
                // (queue full) must not leave its token behind.
                indicationTokens[nextToken] = (link.handle, indication.handle)
                perform(actions, on: link)
            } else {
                // What `bearer.send` checks, then the PDU goes straight into its packet.
                try link.withBearer { bearer throws(ATTBearerError) in try bearer.validateSend(pdu) }
                sendFrame(channel: L2CAPChannelIdentifier.attribute, payload: pdu, handle: link.handle)
            }
            return true
        } catch {
            return false
        }
    }

    /// Installs the database a peripheral serves (and the gate its `updateValue` calls
    /// pass); connections already up start over with it.
    func install(_ server: GATTServer, updates: UpdateGate? = nil) {
        if let updates { updateGate = updates }
        // Unowned, not weak: the core alone holds the server, so the server never calls
        // back into a core that is gone; and a weak reference would give the core a side
        // table, which makes every retain and release of it take the slow path (the loop
        // retains its core for each item it runs: 6 % of a notification's cost).
        server.onSubscriptionChange = { [unowned self] change in self.emit(.subscriptionChanged(change)) }
        gattServer = server
        for link in links {
            for pdu in server.connect(link.connectionID, mtu: link.bearer.mtu) { push(pdu, on: link) }
        }
    }

    func emit(_ event: PeripheralEvent) {
        peripheralObserver?(event)
        peripheralListeners.yield(event)
    }

    /// Ends the loop: fails every pending command, finishes every listener, closes the
    /// transport.
    func shutdown(_ reason: HCIError) {
        isRunning = false
        stopReason = stopReason ?? reason
        if updatesApplied > 0 { settleUpdates(applied: 0, congested: false) }
        for callback in commands.cancelAll() { callback(.failure(reason)) }
        // Links end with the controller: their procedures and listeners fail, naming why.
        let gone = ATTBearerError.DisconnectReason.controllerStopped(stopReason ?? reason)
        for link in links { link.client.close(with: .disconnected(gone)) }
        eventListeners.finishAll()
        peripheralListeners.finishAll()
        peripheralObserver = nil
        recoveryListeners.finishAll()
        recovery = nil
        transport.close()
    }
}
