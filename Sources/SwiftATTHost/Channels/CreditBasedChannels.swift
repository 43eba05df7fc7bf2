import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP

/// LE credit-based channels on one controller's connections (Core 5.4 Vol 3 Part A
/// §4.22–4.28, §10.1): the SPSMs listened on, each link's channels by CID, the
/// signaling requests this host is waiting on, and every channel's data path.
///
/// Part of the L2CAP floor (`L2CAPChannels` owns it and hands it the frames of dynamic
/// CIDs and the credit-based signaling commands). Each channel's flow control is the pure
/// `CreditBasedChannel`; this object turns its actions into signaling, pumps its K-frames
/// into the link's ACL queue while the queue has room (like Write Commands: no more than
/// `transmitQueueLimit` packets wait per link), and connects it to the API's callers.
///
/// Loop-confined.
final class CreditBasedChannels {
    /// How long a signaling request waits for its answer (the RTX timer, §6.2.1: 1–60 s).
    var responseTimeout: Duration = .seconds(20)
    /// How long an open the peer answered "pending" waits for its final answer, from
    /// that first pending answer (the ERTX timer, §6.2.2: 60–300 s).
    var extendedResponseTimeout: Duration = .seconds(60)
    /// How long `close()` lets queued SDUs drain before it disconnects anyway.
    static let closeDrainTimeout: Duration = .seconds(5)
    /// ACL packets queued on one link beyond which K-frames wait in their channel.
    let transmitQueueLimit = 8

    /// One link's channels and requests.
    struct Link {
        var channels: [UInt16: ChannelSlot] = [:]
        /// CIDs promised to a request this host sent and not yet answered.
        var reserved: Set<UInt16> = []
        var pending: [UInt8: PendingSignalingRequest] = [:]
        var nextIdentifier: UInt8 = 1
        var security = GATTSecurityLevel.none
        /// A key exists for the peer (a bond, or this link's pairing): an unencrypted
        /// link is then refused for want of encryption rather than authentication.
        var keyAvailable = false

        /// The next signaling identifier (1–255, never 0) not in use by a request.
        mutating func takeIdentifier() -> UInt8 {
            repeat {
                let identifier = nextIdentifier
                nextIdentifier = nextIdentifier == UInt8.max ? 1 : nextIdentifier + 1
                if pending[identifier] == nil { return identifier }
            } while true
        }

        /// The lowest free CID of the dynamic range, or nil when all 64 are taken.
        func freeCID(besides taken: Set<UInt16> = []) -> UInt16? {
            L2CAPChannelIdentifier.leDynamicRange.first { cid in
                channels[cid] == nil && !reserved.contains(cid) && !taken.contains(cid)
            }
        }

        func channel(peerCID: UInt16) -> ChannelSlot? {
            channels.values.first { $0.peerCID == peerCID }
        }
    }

    /// An SPSM this host accepts channels on.
    struct Listener {
        var id: Int
        var parameters: L2CAPChannelParameters
        var controller: Controller
        /// Takes each channel accepted: an application's listener yields it to its
        /// stream; the host's own (Enhanced ATT) makes it a bearer.
        var deliver: (L2CAPChannel) -> Void
        /// The listener is gone (the host stopped).
        var finish: () -> Void
    }

    let hci: HCIConversation
    /// The floor this belongs to, which fragments frames into ACL packets.
    unowned let l2cap: L2CAPChannels
    var links: [UInt16: Link] = [:]
    var listeners: [SPSM: Listener] = [:]
    /// Channels with SDUs staged during this read of the transport. Looked at after
    /// every read (unchecked: loop-confined, and nothing it calls reaches back here).
    @exclusivity(unchecked) var staged: [ChannelSlot] = []
    /// Requests waiting for an answer, and closes waiting to drain, on every link: when
    /// zero, `nextDeadline` need not look. Asked every turn (unchecked, as `staged`).
    @exclusivity(unchecked) var timedCount = 0

    init(hci: HCIConversation, l2cap: L2CAPChannels) {
        self.hci = hci
        self.l2cap = l2cap
    }

    func slot(_ key: ChannelKey) -> ChannelSlot? {
        guard let slot = links[key.handle]?.channels[key.cid], slot.serial == key.serial else { return nil }
        return slot
    }

    // MARK: Receiving

    /// A frame on a dynamic CID: a K-frame for one of the link's channels. Frames for a
    /// CID with no channel are dropped (§3.4.3: no channel, nothing to credit).
    func receive(_ payload: ArraySlice<UInt8>, channel cid: UInt16, on handle: UInt16) {
        guard let slot = links[handle]?.channels[cid] else { return }
        do throws(CreditBasedChannelError) {
            slot.statistics.receivedFrames += 1
            if let sdu = try slot.machine.receive(payload) {
                slot.statistics.receivedSDUs += 1
                slot.statistics.receivedOctets += sdu.count
                if let sink = slot.sink {
                    // The host reads its own channels at once: the credit goes back now.
                    sink.receive(sdu)
                    _ = slot.machine.consumed()
                } else {
                    // The payload is the transport's buffer: the reader gets its own copy.
                    slot.staged.append(Array(sdu))
                    if slot.staged.count == 1 { staged.append(slot) }
                }
            }
        } catch {
            if case let .violation(violation) = error {
                violated(slot, violation)
                return
            }
        }
        serviceActions(slot)
    }

    /// Hands each channel's SDUs of this read to its reader, one wake-up per channel.
    ///
    /// The look for nothing staged is inlined into the loop's turn, which asks after
    /// every read (`AttributeLinks.flushNotifications` says why).
    @inline(__always)
    func flushStaged() {
        if !staged.isEmpty { flushStagedSDUs() }
    }

    private func flushStagedSDUs() {
        for slot in staged {
            slot.inbox.append(contentsOf: &slot.staged)?.resume()
        }
        staged.removeAll(keepingCapacity: true)
    }

    /// The reader took `count` SDUs: their credits are released, and go back when a
    /// batch is ready.
    func consumed(_ count: Int, on key: ChannelKey) {
        guard let slot = slot(key) else { return }
        for _ in 0..<count where !slot.machine.consumed() { break }
        serviceActions(slot)
    }

    /// The peer broke a flow-control rule: the channel ends for the reader with the
    /// violation, and is disconnected.
    func violated(_ slot: ChannelSlot, _ violation: CreditBasedChannelViolation) {
        end(slot, .closed(.violation(violation)), writers: .closed(.violation(violation)))
        serviceActions(slot)
    }

    /// The channel ended: its reader gets what this read staged for it, then `error`
    /// (nil: a clean end); its writers get `failure`.
    func end(_ slot: ChannelSlot, _ error: L2CAPChannelError?, writers failure: L2CAPChannelError) {
        if !slot.staged.isEmpty {
            slot.inbox.append(contentsOf: &slot.staged)?.resume()
            staged.removeAll { $0 === slot }
        }
        slot.end(error, writers: failure)
    }

    /// Carries out what the machine asks for on the signaling channel.
    func serviceActions(_ slot: ChannelSlot) {
        while let action = slot.machine.nextAction() {
            switch action {
            case let .grantCredits(credits):
                slot.statistics.creditsGranted += Int(credits)
                signal(.flowControlCreditIndication(FlowControlCreditIndication(cid: slot.localCID, credits: credits)),
                       on: slot.handle)
            case .disconnect:
                requestDisconnection(slot)
            }
        }
    }

    // MARK: Sending

    /// Queues `sdu` on the channel, or parks the writer until there is room.
    func write(_ sdu: [UInt8], id: Int, on key: ChannelKey, completion: @escaping (L2CAPChannelError?) -> Void) {
        guard let slot = slot(key) else { return completion(.closed(.localClose)) }
        if let reason = slot.machine.closeReason { return completion(.closed(reason)) }
        if slot.closeRequested { return completion(.closed(.localClose)) }
        guard slot.writers.isEmpty, slot.machine.hasRoom(forSDUOf: sdu.count) else {
            slot.statistics.creditStalls += 1
            slot.writers.append(.init(id: id, sdu: sdu, completion: completion))
            return
        }
        do throws(CreditBasedChannelError) {
            try slot.machine.send(sdu[...])
            slot.statistics.sentSDUs += 1
            slot.statistics.sentOctets += sdu.count
            completion(nil)
        } catch {
            completion(Self.writeError(error))
        }
        pump(slot)
    }

    /// A waiting writer's task was cancelled: its SDU is not sent.
    func cancelWrite(_ id: Int, on key: ChannelKey) {
        guard let slot = slot(key), let index = slot.writers.firstIndex(where: { $0.id == id }) else { return }
        slot.writers.remove(at: index).completion(.cancelled)
    }

    static func writeError(_ error: CreditBasedChannelError) -> L2CAPChannelError {
        switch error {
        case let .closed(reason): return .closed(reason)
        case let .violation(violation): return .closed(.violation(violation))
        case let .sduLongerThanPeerMTU(length, peerMTU): return .sduTooLong(length: length, peerMTU: peerMTU)
        case let .sendQueueFull(sdus, octets):
            return .invalidParameters("the send queue is full (\(sdus) SDUs, \(octets) octets)")
        }
    }

    /// Moves K-frames into the link's ACL queue while it has room and the peer has
    /// credits, and takes waiting writers' SDUs in as the queue drains.
    func pump(_ slot: ChannelSlot) {
        var progressed = true
        while progressed {
            progressed = false
            while hci.queuedACLCount(on: slot.handle) < transmitQueueLimit, let frame = slot.machine.nextFrame() {
                l2cap.send(channel: frame.channel, payload: frame, handle: slot.handle)
                slot.statistics.sentFrames += 1
                progressed = true
            }
            while let writer = slot.writers.first, slot.machine.hasRoom(forSDUOf: writer.sdu.count) {
                slot.writers.removeFirst()
                do throws(CreditBasedChannelError) {
                    try slot.machine.send(writer.sdu[...])
                    slot.statistics.sentSDUs += 1
                    slot.statistics.sentOctets += writer.sdu.count
                    writer.completion(nil)
                } catch {
                    writer.completion(Self.writeError(error))
                }
                progressed = true
            }
        }
        if slot.closeRequested, !slot.disconnecting, slot.sendQueueEmpty, slot.machine.isOpen {
            beginDisconnection(slot)
        }
        answerFlushes(slot)
    }

    /// Every channel with something to send: the controller freed buffers.
    func drain() {
        for link in links.values {
            for slot in link.channels.values where slot.machine.isOpen
                && (slot.machine.queuedSDUs > 0 || !slot.writers.isEmpty || !slot.flushWaiters.isEmpty) {
                pump(slot)
            }
        }
    }

    /// `flush()`: answered once the channel's queue is empty and the controller has
    /// reported every ACL packet of the link sent.
    func whenFlushed(_ key: ChannelKey, _ done: @escaping () -> Void) {
        guard let slot = slot(key), slot.machine.isOpen else { return done() }
        slot.flushWaiters.append(done)
        answerFlushes(slot)
    }

    private func answerFlushes(_ slot: ChannelSlot) {
        guard !slot.flushWaiters.isEmpty, slot.sendQueueEmpty, hci.unsentACLCount(on: slot.handle) == 0 else { return }
        let waiters = slot.flushWaiters
        slot.flushWaiters = []
        for waiter in waiters { waiter() }
    }

    /// What the channel carried; nil once it is gone.
    func statistics(of key: ChannelKey) -> L2CAPChannelStatistics? {
        slot(key)?.statistics
    }

    // MARK: Closing

    /// `close()`: what is queued drains first (for at most `closeDrainTimeout`), then
    /// the channel is disconnected; `completion` runs once the CID is free.
    func close(_ key: ChannelKey, completion: (() -> Void)?) {
        guard let slot = slot(key) else {
            completion?()
            return
        }
        if let completion { slot.closeWaiters.append(completion) }
        guard slot.machine.isOpen, !slot.closeRequested else { return }
        slot.closeRequested = true
        if slot.sendQueueEmpty {
            beginDisconnection(slot)
        } else {
            slot.closeDeadline = MonotonicInstant.readBootClock() + Self.closeDrainTimeout
            timedCount += 1
            pump(slot)
        }
    }

    /// Ends the channel here and asks the peer to disconnect it.
    private func beginDisconnection(_ slot: ChannelSlot) {
        clearCloseDeadline(slot)
        slot.machine.close()
        end(slot, nil, writers: .closed(.localClose))
        serviceActions(slot)
    }

    private func clearCloseDeadline(_ slot: ChannelSlot) {
        if slot.closeDeadline != nil {
            slot.closeDeadline = nil
            timedCount -= 1
        }
    }

    /// Sends the Disconnection Request the machine asked for; the CID stays taken until
    /// the answer.
    private func requestDisconnection(_ slot: ChannelSlot) {
        guard !slot.disconnecting, var link = links[slot.handle] else { return }
        slot.disconnecting = true
        let identifier = link.takeIdentifier()
        link.pending[identifier] = .disconnect(localCID: slot.localCID, serial: slot.serial,
                                               deadline: MonotonicInstant.readBootClock() + responseTimeout)
        links[slot.handle] = link
        timedCount += 1
        signal(.disconnectionRequest(DisconnectionRequest(destinationCID: slot.peerCID, sourceCID: slot.localCID)),
               identifier: identifier, on: slot.handle)
    }

    /// The channel's CID is free: the slot goes.
    func remove(_ slot: ChannelSlot) {
        clearCloseDeadline(slot)
        links[slot.handle]?.channels[slot.localCID] = nil
        staged.removeAll { $0 === slot }
        slot.released()
    }


    // MARK: Links

    /// The link's security changed (encryption, a new key): listeners judge requests by it.
    func setSecurity(_ level: GATTSecurityLevel, on handle: UInt16) {
        links[handle, default: Link()].security = level
        if level.isEncrypted { links[handle, default: Link()].keyAvailable = true }
    }

    /// The peer on the link is bonded (or just bonded).
    func setKeyAvailable(on handle: UInt16) {
        links[handle, default: Link()].keyAvailable = true
    }

    /// The link went down: every channel on it ends, every request fails.
    func disconnected(_ handle: UInt16, reason: HCIStatus?) {
        guard let link = links.removeValue(forKey: handle) else { return }
        for slot in link.channels.values {
            slot.machine.linkLost()
            end(slot, .disconnected(reason), writers: .disconnected(reason))
            staged.removeAll { $0 === slot }
            slot.released()
        }
        for request in link.pending.values {
            timedCount -= 1
            request.fail(.disconnected(reason))
        }
        timedCount -= link.channels.values.filter { $0.closeDeadline != nil }.count
    }

    /// The host is stopping: as if every link went down.
    func shutdown(_ reason: ControllerError) {
        for handle in Array(links.keys) { disconnected(handle, reason: nil) }
        for listener in listeners.values { listener.finish() }
        listeners = [:]
        _ = reason
    }

    // MARK: Deadlines

    var nextDeadline: MonotonicInstant? {
        guard timedCount > 0 else { return nil }
        var earliest: MonotonicInstant?
        for link in links.values {
            for request in link.pending.values { earliest = min(earliest ?? request.deadline, request.deadline) }
            for slot in link.channels.values {
                if let deadline = slot.closeDeadline { earliest = min(earliest ?? deadline, deadline) }
            }
        }
        return earliest
    }

    /// Requests unanswered in time fail; closes that could not drain disconnect anyway.
    func expire(now: MonotonicInstant) {
        guard timedCount > 0 else { return }
        for (handle, link) in links {
            for (identifier, request) in link.pending where request.deadline <= now {
                links[handle]?.pending[identifier] = nil
                timedCount -= 1
                expired(request, on: handle)
            }
            for slot in link.channels.values {
                if let deadline = slot.closeDeadline, deadline <= now { beginDisconnection(slot) }
            }
        }
    }

    /// A request's answer never came: an open fails (its CIDs are free again), a
    /// disconnection is taken as done.
    private func expired(_ request: PendingSignalingRequest, on handle: UInt16) {
        switch request {
        case let .open(open):
            for cid in open.localCIDs { links[handle]?.reserved.remove(cid) }
            open.completion(.failure(.timedOut(open.timeout)))
        case let .disconnect(cid, serial, _):
            if let slot = links[handle]?.channels[cid], slot.serial == serial { remove(slot) }
        case let .reconfigure(channels, mtu, mps, _, completion):
            reconfigured(channels, mtu: mtu, mps: mps, failure: .timedOut(responseTimeout))
            completion(.timedOut(responseTimeout))
        }
    }

    // MARK: Signaling out

    /// Sends a command on the link's LE signaling channel with a fresh identifier.
    func signal(_ command: LESignalingCommand, on handle: UInt16) {
        guard links[handle] != nil || hci.connections[handle] != nil else { return }
        let identifier = links[handle, default: Link()].takeIdentifier()
        signal(command, identifier: identifier, on: handle)
    }

    /// Sends a command with `identifier` (an answer carries its request's).
    func signal(_ command: LESignalingCommand, identifier: UInt8, on handle: UInt16) {
        l2cap.send(channel: L2CAPChannelIdentifier.leSignaling, payload: command.packet(identifier: identifier), handle: handle)
    }
}
